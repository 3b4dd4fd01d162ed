"""Fitting the calibration constants on the calibration rows of the targets.

``data/calibration/fits.toml`` is the registry: each fitted constant, the
file, table and key it lives in, the target rows it is fitted on, the range a
fit searches and the prior it falls back to. A :class:`Trial` runs rows with
trial values: it keeps a private copy of ``data/`` and points
``ZVMSIM_DATA`` at it, so the simulator reads the trial values as it reads
the real ones. ``tools/calibrate.py`` checks and fits; the leave-one-out
benchmark refits without a case.
"""

from __future__ import annotations

import math
import os
import re
import shutil
import tempfile
import tomllib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

import zvmsim

from . import calibration, scenario
from .errors import ZvmsimError
from .fidelity import load_targets, missed_seeds, observed, row_key
from .paths import data_dir
from .perfkit import RunData, reduce

__all__ = [
    "Constant",
    "Registry",
    "Trial",
    "fit_constants",
    "load_registry",
    "objective",
    "read_value",
    "row_id",
    "write_value",
]

SEEDS = (1, 2, 3)
DEFAULT_TOLERANCE = 0.1
PRECISION = 0.03  # a search stops when its bracket is this narrow (relative)
CLOSE = 0.0005  # ... or, for one row, when its residual is this small
GOLDEN = (math.sqrt(5) - 1) / 2
NUMBER = r"[-+]?[0-9][0-9_]*(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?"


def row_id(row: dict[str, str]) -> str:
    """A target row's name in the registry: ``case|knobs|report|entity|column``."""
    return "|".join(row_key(row))


@dataclass(frozen=True)
class Constant:
    """One fitted constant of the registry."""

    name: str
    file: str
    table: str
    key: str
    bounds: tuple[float, float]
    rows: tuple[str, ...]
    integer: bool = False
    joint: str = ""
    ties: tuple[str, ...] = ()
    aim: dict[str, float] = field(default_factory=dict)
    tolerance: float = DEFAULT_TOLERANCE
    prior: float | None = None
    prior_note: str = ""
    # "workload": a workload parameter of a scenario file, per scenario by
    # issue 18's rule (exempt from "used by at least two scenarios")
    kind: str = "constant"

    @property
    def places(self) -> list[tuple[str, str]]:
        """(table, key) of the constant and of every constant tied to it."""
        return [(self.table, self.key), *(tuple(t.split("|")) for t in self.ties)]

    def prior_value(self) -> float:
        """The prior, or the middle of the range (geometric when it is positive)."""
        if self.prior is not None:
            return self.prior
        lo, hi = self.bounds
        mid = math.sqrt(lo * hi) if lo > 0 else (lo + hi) / 2
        return float(round(mid)) if self.integer else mid


@dataclass(frozen=True)
class Registry:
    """The registry: fitted constants, scenario choices and constants fitted elsewhere."""

    fits: list[Constant]
    choices: list[dict]
    outside: list[dict]

    def one_case(self) -> list[Constant]:
        """The fits whose rows all come from one case."""
        return [c for c in self.fits if len({r.split("|")[0] for r in c.rows}) == 1]

    def claimed(self) -> set[str]:
        """Every row some fit or choice names."""
        rows = {r for c in self.fits for r in c.rows}
        return rows | {r for c in self.choices for r in c["rows"]}

    def groups(self) -> list[list[Constant]]:
        """The fits in registry order, constants of one ``joint`` name together."""
        out: list[list[Constant]] = []
        seen: dict[str, list[Constant]] = {}
        for c in self.fits:
            if c.joint and c.joint in seen:
                seen[c.joint].append(c)
                continue
            out.append([c])
            if c.joint:
                seen[c.joint] = out[-1]
        return out


def load_registry(path: Path | None = None) -> Registry:
    """Read ``data/calibration/fits.toml``."""
    path = path or data_dir() / "calibration" / "fits.toml"
    try:
        raw = tomllib.loads(path.read_text())
        fits = [
            Constant(
                name=f["name"],
                file=f["file"],
                table=f["table"],
                key=f["key"],
                bounds=(f["bounds"][0], f["bounds"][1]),
                rows=tuple(f["rows"]),
                integer=f.get("integer", False),
                joint=f.get("joint", ""),
                ties=tuple(f.get("ties", ())),
                aim=dict(f.get("aim", {})),
                tolerance=f.get("tolerance", DEFAULT_TOLERANCE),
                prior=f.get("prior"),
                prior_note=f.get("prior_note", ""),
                kind=f.get("kind", "constant"),
            )
            for f in raw.get("fit", [])
        ]
    except (OSError, tomllib.TOMLDecodeError, KeyError, IndexError) as exc:
        raise ZvmsimError(f"calibration registry {path.name}: {exc}") from None
    return Registry(fits, raw.get("choice", []), raw.get("outside", []))


# --- reading and writing one value in a TOML file, leaving the rest alone


def _table_span(lines: list[str], table: str) -> tuple[int, int]:
    """First and last+1 line of *table*'s body (its header as written in the file)."""
    header = f"[{table}]"
    for i, line in enumerate(lines):
        if line.strip() == header:
            end = next(
                (j for j in range(i + 1, len(lines)) if re.match(r"\s*\[", lines[j])),
                len(lines),
            )
            return i + 1, end
    raise ZvmsimError(f"no table {header}")


def _locate(text: str, table: str, key: str) -> tuple[int, int]:
    """Character offsets of *key*'s number in *table* (a dotted key: an inline table)."""
    lines = text.splitlines(keepends=True)
    first, end = _table_span(lines, table)
    outer, _, inner = key.partition(".")
    offset = sum(len(line) for line in lines[:first])
    for line in lines[first:end]:
        if inner:
            m = re.match(rf"\s*{re.escape(outer)}\s*=\s*\{{.*?\b{re.escape(inner)}\s*=\s*", line)
        else:
            m = re.match(rf"\s*{re.escape(outer)}\s*=\s*", line)
        if m:
            num = re.compile(NUMBER).match(line, m.end())
            if num:
                return offset + num.start(), offset + num.end()
        offset += len(line)
    raise ZvmsimError(f"no number {key} in [{table}]")


def read_value(text: str, table: str, key: str) -> float:
    """The number *key* holds in *table* of a TOML file's *text*."""
    start, end = _locate(text, table, key)
    return float(text[start:end])


def shown_value(value: float, integer: bool) -> str:
    """How a fitted value is written: whole numbers as such, else 3 significant digits."""
    if integer:
        return str(int(round(value)))
    text = f"{value:.3g}"
    if "e" in text:  # 1e+03: written out (1000.0), small ones to 6 decimals
        text = f"{value:.6f}".rstrip("0").rstrip(".")
    return text if "." in text else text + ".0"


def write_value(text: str, table: str, key: str, value: float, integer: bool = False) -> str:
    """*text* with *key* of *table* set to *value*; every other byte unchanged."""
    start, end = _locate(text, table, key)
    if float(text[start:end]) == value:  # keep the file's own spelling (0.30)
        return text
    return text[:start] + shown_value(value, integer) + text[end:]


# --- running rows with trial values


class Trial:
    """Runs target rows with trial values of constants, in a private copy of ``data/``."""

    def __init__(self, registry: Registry, data: Path | None = None) -> None:
        self.source = data or data_dir()
        self.registry = registry
        self.rows = {row_id(r): r for r in load_targets()}
        self.texts = {
            str(p.relative_to(self.source)): p.read_text() for p in self.source.rglob("*.toml")
        }
        self.dir = Path(tempfile.mkdtemp(prefix="zvmsim-calibrate-"))
        shutil.copytree(self.source, self.dir / "data")
        self.values = {c.name: self.file_value(c) for c in registry.fits}
        self.runs = 0
        self._cache: dict[tuple, RunData] = {}
        self._applied: tuple = ()
        self._env = os.environ.get("ZVMSIM_DATA")

    def close(self) -> None:
        """Remove the copy; the simulator reads the real ``data/`` again."""
        if self._env is None:
            os.environ.pop("ZVMSIM_DATA", None)
        else:
            os.environ["ZVMSIM_DATA"] = self._env
        calibration.load_calibration.cache_clear()
        scenario._load_raw.cache_clear()
        shutil.rmtree(self.dir, ignore_errors=True)

    def file_value(self, c: Constant) -> float:
        """The value *c* has in its file (the real one, not the trial copy)."""
        return read_value(self.texts[c.file], c.table, c.key)

    def apply(self, values: dict[str, float]) -> None:
        """From now on the simulator reads *values* (the others as in the files)."""
        self._apply({**self.values, **values})

    def _apply(self, values: dict[str, float]) -> None:
        key = tuple(sorted(values.items()))
        if key == self._applied:
            return
        texts = dict(self.texts)
        for c in self.registry.fits:
            for table, name in c.places:
                texts[c.file] = write_value(texts[c.file], table, name, values[c.name], c.integer)
        for rel, text in texts.items():
            path = self.dir / "data" / rel
            if path.read_text() != text:
                path.write_text(text)
        os.environ["ZVMSIM_DATA"] = str(self.dir / "data")
        calibration.load_calibration.cache_clear()
        scenario._load_raw.cache_clear()
        self._applied = key

    def figures(self, values: dict[str, float], rid: str, seeds: Iterable[int] = SEEDS):
        """{seed: the row's figures} with the constants at *values* (others as in the files)."""
        merged = {**self.values, **values}
        self._apply(merged)
        state = tuple(sorted(merged.items()))

        def run_data(name: str, seed: int = 1, **knobs: object) -> RunData:
            key = (state, name, seed, tuple(sorted(knobs.items())))
            if key not in self._cache:
                self.runs += 1
                self._cache[key] = reduce(zvmsim.simulate(name, dict(knobs), seed=seed))
            return self._cache[key]

        return {seed: observed(self.rows[rid], seed, run_data) for seed in seeds}


def residual(figures: dict[int, list[float]], target: float) -> float:
    """Mean relative residual of a row's figures over seeds (and entities)."""
    values = [v for vals in figures.values() for v in vals]
    return (sum(values) / len(values) - target) / (abs(target) or 1.0)


def target_of(c: Constant, row: dict[str, str]) -> float:
    """What a fit aims at for *row*: the seed figure, or the registry's aim for a bound."""
    return c.aim.get(row_id(row), float(row["seed_value"]))


def fitted_rows(c: Constant, trial: Trial) -> list[str]:
    """The rows a fit of *c* uses: its rows less the documented misses (a row
    that misses on some seeds only is kept: its mean is still what the fit aims at)."""
    rows = [trial.rows[r] for r in c.rows]
    return [row_id(r) for r in rows if missed_seeds(r, SEEDS) != SEEDS]


def residuals(
    group: list[Constant], values: dict[str, float], trial: Trial, rows: Iterable[str]
) -> list[float]:
    """Each row's mean relative residual (seeds 1-3) with the constants at *values*."""
    aims = {k: v for c in group for k, v in c.aim.items()}
    out = []
    for rid in rows:
        target = aims.get(rid, float(trial.rows[rid]["seed_value"]))
        out.append(residual(trial.figures(values, rid), target))
    return out


def objective(
    group: list[Constant], values: dict[str, float], trial: Trial, rows: Iterable[str]
) -> float:
    """Sum over *rows* of the squared mean relative residual (seeds 1-3)."""
    return sum(r * r for r in residuals(group, values, trial, rows))


Say = Callable[[str], None]


def _golden(f: Callable[[float], float], lo: float, hi: float, say: Say) -> float:
    """Minimum of *f* on [lo, hi] by golden-section search (in log space when lo > 0)."""
    log = lo > 0
    to_x = (lambda u: math.exp(u)) if log else (lambda u: u)
    a, b = (math.log(lo), math.log(hi)) if log else (lo, hi)
    c, d = b - GOLDEN * (b - a), a + GOLDEN * (b - a)
    fc, fd = f(to_x(c)), f(to_x(d))
    while to_x(b) - to_x(a) > PRECISION * to_x((a + b) / 2) + 1e-9:
        if fc <= fd:
            b, d, fd = d, c, fc
            c = b - GOLDEN * (b - a)
            fc = f(to_x(c))
        else:
            a, c, fc = c, d, fd
            d = a + GOLDEN * (b - a)
            fd = f(to_x(d))
        say(f"    bracket [{to_x(a):.4g}, {to_x(b):.4g}]")
    return to_x(c) if fc <= fd else to_x(d)


def _root(r: Callable[[float], float], lo: float, hi: float, say: Say) -> float:
    """Where *r* crosses zero on [lo, hi]: Illinois regula falsi (log space when lo > 0).

    Without a sign change, the bound where *r* is smaller.
    """
    log = lo > 0
    to_x = (lambda u: math.exp(u)) if log else (lambda u: u)
    a, b = (math.log(lo), math.log(hi)) if log else (lo, hi)
    ra, rb = r(to_x(a)), r(to_x(b))
    if ra * rb > 0:
        return to_x(a) if abs(ra) <= abs(rb) else to_x(b)
    for _ in range(20):
        if abs(to_x(b) - to_x(a)) <= PRECISION * to_x((a + b) / 2) or abs(rb) < CLOSE:
            break
        m = b - rb * (b - a) / (rb - ra)
        rm = r(to_x(m))
        if rm * rb < 0:
            a, ra = b, rb
        else:
            ra /= 2
        b, rb = m, rm
        say(f"    bracket [{to_x(min(a, b)):.4g}, {to_x(max(a, b)):.4g}]")
    return to_x(b) if abs(rb) <= abs(ra) else to_x(a)


def _search(rs: Callable[[float], list[float]], c: Constant, one_row: bool, say: Say) -> float:
    """The value of *c* that fits: a root for one row, else the least sum of squares."""
    lo, hi = c.bounds
    if c.integer:
        scores = {v: sum(x * x for x in rs(float(v))) for v in range(int(lo), int(hi) + 1)}
        return float(min(scores, key=lambda v: (scores[v], v)))
    if one_row:
        return _root(lambda x: rs(x)[0], lo, hi, say)
    return _golden(lambda x: sum(r * r for r in rs(x)), lo, hi, say)


def fit_constants(
    group: list[Constant],
    trial: Trial,
    rows: list[str] | None = None,
    say: Say = print,
    sweeps: int = 2,
) -> dict[str, float]:
    """Fit the constants of *group* on *rows* (default: their registry rows, less misses).

    One constant: a 1-D search over its bounds (for one row, where its residual
    crosses zero; for several, the least sum of squared residuals). Several (a ``joint`` name):
    coordinate descent, *sweeps* passes of 1-D searches in registry order.
    Returns the fitted values, rounded as they would be written.
    """
    rows = rows if rows is not None else fitted_rows(group[0], trial)
    values = {c.name: trial.values[c.name] for c in group}
    for sweep in range(sweeps if len(group) > 1 else 1):
        for c in group:

            def rs(x: float, c: Constant = c) -> list[float]:
                x = float(shown_value(x, c.integer))
                out = residuals(group, {**values, c.name: x}, trial, rows)
                shown = " ".join(f"{r:+.2%}" for r in out)
                say(f"    {c.name} = {x:g}: residuals {shown}")
                return out

            one_row = len(rows) == 1 and len(group) == 1
            values[c.name] = float(shown_value(_search(rs, c, one_row, say), c.integer))
            say(f"  sweep {sweep + 1}: {c.name} -> {values[c.name]:g}")
    return values
