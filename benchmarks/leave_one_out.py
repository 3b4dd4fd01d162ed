"""Leave one case out: do a case's predictions survive a calibration made without it?

For each case with prediction rows (tests/data/targets_*.csv), every constant
of the calibration registry (data/calibration/fits.toml) fitted on that
case's calibration rows is refitted on its other rows; a constant fitted only
on that case falls back to its prior (the registry's estimate or family
value, or the middle of its range where it gives none). Then the case's
prediction rows run for seeds 1-3, and a row passes when every seed's figure
is within the row's tolerance. The same rows with the files' values are the
baseline. Scenario choices made on a case's rows ([[choice]] in the registry)
stay as they are: no program can refit them; the output names them.

Usage: ``python benchmarks/leave_one_out.py [CASE ...]`` (with the project's
venv). A benchmark, not part of the test suite: it takes minutes.
"""

from __future__ import annotations

import argparse
import time

from zvmsim import runcache
from zvmsim.calibrate import Constant, Trial, fit_constants, fitted_rows, load_registry
from zvmsim.fidelity import known_miss, within

runcache.ENABLED = False  # every figure is of a run simulated here, never read back


def _passes(trial: Trial, values: dict[str, float], rid: str) -> bool:
    row = trial.rows[rid]
    figs = trial.figures(values, rid)
    target = float(row["seed_value"])
    return all(within(v, target, row["tolerance"]) for vals in figs.values() for v in vals)


def _without(case: str, trial: Trial, groups: list[list[Constant]]) -> tuple[dict, list[str]]:
    """Constants refitted without *case*'s rows, or at their priors; what was done."""
    values: dict[str, float] = {}
    notes = []
    for group in groups:
        mine = [r for r in group[0].rows if trial.rows[r]["case"] == case]
        if not mine:
            continue
        rest = [r for r in fitted_rows(group[0], trial) if trial.rows[r]["case"] != case]
        if rest:
            values.update(fit_constants(group, trial, rest, say=lambda s: None))
            how = "refitted on other cases"
        else:
            values.update({c.name: c.prior_value() for c in group})
            how = "prior"
        for c in group:
            notes.append(f"{c.name} {trial.values[c.name]:.3g} -> {values[c.name]:.3g} ({how})")
    return values, notes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("cases", nargs="*", help="cases to take (default: every one)")
    args = parser.parse_args()
    start = time.perf_counter()
    registry = load_registry()
    trial = Trial(registry)
    groups = registry.groups()
    cases = sorted({r["case"] for r in trial.rows.values() if r["role"] == "prediction"})
    totals = [0, 0, 0]  # passing without the case, passing with the files, rows
    try:
        for case in args.cases or cases:
            values, notes = _without(case, trial, groups)
            rows = [
                rid
                for rid, r in trial.rows.items()
                if r["case"] == case and r["role"] == "prediction" and not known_miss(r)
            ]
            lost = [rid for rid in rows if not _passes(trial, values, rid)]
            held = len(rows) - len(lost)
            base = sum(_passes(trial, {}, rid) for rid in rows)
            print(f"{case}: {held} of {len(rows)} predictions pass without it ({base} with)")
            for note in notes or ["no constant is fitted on it"]:
                print(f"    {note}")
            for rid in lost:
                figs = trial.figures(values, rid)[1]
                ours = " / ".join(f"{v:.4g}" for v in figs)
                print(f"    misses: {rid}: seed {trial.rows[rid]['seed_value']}, ours {ours}")
            for choice in registry.choices:
                if any(trial.rows[r]["case"] == case for r in choice["rows"]):
                    print(f"    kept: {choice['name']} (a scenario choice, not refittable)")
            for i, n in enumerate((held, base, len(rows))):
                totals[i] += n
    finally:
        trial.close()
    held, base, count = totals
    print(
        f"total: {held} of {count} predictions pass with their case left out "
        f"({base} with the calibration as it is); {trial.runs} simulations, "
        f"{time.perf_counter() - start:.0f} s"
    )


if __name__ == "__main__":
    main()
