"""Check or fit the calibration constants on the calibration rows of the targets.

    python tools/calibrate.py [--check] [NAME ...]   # the files' values: rows, residuals
    python tools/calibrate.py --fit [NAME ...]       # search, print the path, write back
    python tools/calibrate.py --list                 # the registry and who uses what

The registry is data/calibration/fits.toml (zvmsim.calibrate): each fitted
constant, its file, table and key, the target rows (tests/data, role
"calibration") it is fitted on, and the range to search. --check runs each
constant's rows for seeds 1-3 with the file's value and prints the seed's
figure, ours and the relative residual per row; then it says whether the
file's value is what a fit would give: the sum of squared residuals must be
no larger there than at the value moved by the constant's tolerance either
way (10% unless the registry says), so the fit's minimum lies within that
tolerance; a whole number must be no worse than the numbers either side.
--fit searches each constant's range (one row: where its residual crosses
zero, by regula falsi; several: the least sum of squared relative residuals,
by golden section; whole numbers one by one; joint constants by coordinate
descent), prints the path and writes the fitted value (3 significant
digits) into its file, changing nothing else. Constants are fitted in
registry order, each with the ones fitted before it at their new values.
NAME picks constants (or joint names). Exit status 1 when --check finds a
file's value off its fit. --list prints, for each fit, the scenarios that
use it (zvmsim.usedby: brief runs of every scenario variant, the constant
moved and the records compared; about a minute).
"""

from __future__ import annotations

import argparse
import sys

from zvmsim.calibrate import (
    SEEDS,
    Constant,
    Registry,
    Trial,
    fit_constants,
    fitted_rows,
    load_registry,
    objective,
    residual,
    shown_value,
    target_of,
    write_value,
)
from zvmsim.errors import ZvmsimError
from zvmsim.fidelity import missed_seeds
from zvmsim.usedby import used_by


def _print_rows(group: list[Constant], trial: Trial, values: dict[str, float]) -> None:
    rows = list(dict.fromkeys(r for c in group for r in c.rows))
    for rid in rows:
        row = trial.rows[rid]
        target = target_of(group[0], row)
        figs = trial.figures(values, rid)
        ours = " ".join("/".join(f"{v:.4g}" for v in figs[s]) for s in sorted(figs))
        missed = missed_seeds(row, SEEDS)
        note = "  (known miss: not fitted on)" if missed == SEEDS else ""
        if missed and missed != SEEDS:
            note = f"  (known miss on seed {'/'.join(map(str, missed))}: fitted on)"
        aimed = f" aim {target:g}" if target != float(row["seed_value"]) else ""
        print(f"    {rid}")
        print(
            f"      seed {row['seed_value']}{aimed}  ours (seeds 1-3) {ours}  "
            f"residual {residual(figs, target):+.1%}{note}"
        )


def _neighbours(c: Constant, value: float) -> list[float]:
    lo, hi = c.bounds
    if c.integer:
        out = [value - 1, value + 1]
    else:
        out = [value * (1 - c.tolerance), value * (1 + c.tolerance)]
        if value == 0:
            out = [lo + (hi - lo) * c.tolerance / 10]
    return [float(shown_value(v, c.integer)) for v in out if lo <= v <= hi]


def check(group: list[Constant], trial: Trial) -> bool:
    """Print the group's rows at the files' values; whether the files hold the fit."""
    for c in group:
        print(f"{c.name} = {trial.values[c.name]:g}  ({c.file} [{c.table}] {c.key})")
    _print_rows(group, trial, trial.values)
    rows = fitted_rows(group[0], trial)
    here = objective(group, {}, trial, rows)
    ok = True
    for c in group:
        for v in _neighbours(c, trial.values[c.name]):
            there = objective(group, {c.name: v}, trial, rows)
            if there < here:
                ok = False
                print(f"    {c.name} = {v:g} fits better: {there:.3e} against {here:.3e}")
    span = "exactly" if group[0].integer else f"within {group[0].tolerance:.0%}"
    print(f"  fitted {span}: {'yes' if ok else 'NO'} (sum of squares {here:.3e})\n")
    return ok


def fit(group: list[Constant], trial: Trial, write: bool) -> dict[str, float]:
    """Fit the group, print the path and the result; write it into the file(s)."""
    names = ", ".join(c.name for c in group)
    print(f"fitting {names} on {len(fitted_rows(group[0], trial))} row(s)")
    values = fit_constants(group, trial, say=lambda s: print(s, flush=True))
    for c in group:
        old = trial.values[c.name]
        moved = (values[c.name] - old) / (abs(old) or 1.0)
        print(f"  {c.name}: file {old:g}, fit {values[c.name]:g} ({moved:+.0%})")
    _print_rows(group, trial, values)
    trial.values.update(values)
    if write:
        for c in group:
            path = trial.source / c.file
            text = path.read_text()
            for table, key in c.places:
                text = write_value(text, table, key, values[c.name], c.integer)
            path.write_text(text)
            print(f"  wrote {c.name} = {shown_value(values[c.name], c.integer)} into {path}")
    print()
    return values


def list_registry(reg: Registry, used: dict[str, frozenset[str]]) -> None:
    for c in reg.fits:
        joint = f" (joint: {c.joint})" if c.joint else ""
        kind = " (workload parameter)" if c.kind == "workload" else ""
        print(f"fit {c.name}{joint}{kind}: {c.file} [{c.table}] {c.key}, bounds {list(c.bounds)}")
        prior = f"{c.prior_value():g}" + (f" ({c.prior_note})" if c.prior_note else " (middle)")
        print(f"    prior {prior}")
        print(f"    used by: {', '.join(sorted(used[c.name])) or 'no scenario'}")
        for r in c.rows:
            print(f"    {r}")
    for c in reg.choices:
        print(f"choice {c['name']} ({c['file']}): checked, not fitted")
        for r in c["rows"]:
            print(f"    {r}")
    for c in reg.outside:
        print(f"outside {c['name']} ({c['file']}): {' '.join(c['what'].split())}")
    print("every other constant in data/calibration: an estimate, not fitted")


def _pick(reg: Registry, names: list[str]) -> list[list[Constant]]:
    groups = reg.groups()
    if not names:
        return groups
    known = {n for g in groups for c in g for n in (c.name, c.joint) if n}
    unknown = [n for n in names if n not in known]
    if unknown:
        raise ZvmsimError(f"not in the registry: {', '.join(unknown)} (see --list)")
    return [g for g in groups if any(n in (c.name, c.joint) for c in g for n in names)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--check", action="store_true", help="check the files' values (default)")
    mode.add_argument("--fit", action="store_true", help="fit and write back")
    mode.add_argument("--list", action="store_true", help="print the registry")
    parser.add_argument("--dry-run", action="store_true", help="with --fit: do not write")
    parser.add_argument("names", nargs="*", help="constants (or joint names) to take")
    args = parser.parse_args(argv)
    try:
        reg = load_registry()
        if args.list:
            list_registry(reg, used_by())
            return 0
        groups = _pick(reg, args.names)
        trial = Trial(reg)
        try:
            if args.fit:
                for g in groups:
                    fit(g, trial, write=not args.dry_run)
                ok = True
            else:
                ok = all([check(g, trial) for g in groups])
                for c in reg.choices if not args.names else []:
                    print(f"choice {c['name']} ({c['file']}): checked, not fitted")
                    _print_rows([_as_constant(c)], trial, trial.values)
                    print()
        finally:
            trial.close()
        print(f"{trial.runs} simulations")
    except ZvmsimError as exc:
        print(f"calibrate: error: {exc}", file=sys.stderr)
        return 2
    return 0 if ok else 1


def _as_constant(choice: dict) -> Constant:
    """A scenario choice as a row holder, for printing its rows."""
    return Constant(choice["name"], choice["file"], "", "", (0.0, 0.0), tuple(choice["rows"]))


if __name__ == "__main__":
    sys.exit(main())
