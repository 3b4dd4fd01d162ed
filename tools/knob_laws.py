"""Write docs/knob-laws.md from the knob laws, tests/data/knob_laws.toml.

The laws say, for every knob of every scenario, which way it must move its
key figures (or why it has no law). ``tests/test_knob_laws.py`` checks them
over each knob's grid and fails when docs/knob-laws.md is out of date;
``python tools/knob_laws.py`` rewrites it.
"""

from __future__ import annotations

import sys
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
LAWS = ROOT / "tests" / "data" / "knob_laws.toml"
DOC = ROOT / "docs" / "knob-laws.md"

DIRECTIONS = {"not_up": "does not rise", "not_down": "does not fall", "same": "stays the same"}


@dataclass(frozen=True)
class Law:
    """One figure one knob must move one way (or leave alone) over its grid."""

    scenario: str
    knob: str
    grid: tuple[Any, ...]
    report: str
    column: str
    direction: str
    says: str
    key: str | None = None
    entity: str | None = None
    where: tuple[tuple[str, str], ...] = ()
    agg: str = "one"
    abs: float = 0.0
    rel: float = 0.0
    empty: float | None = None
    base: tuple[tuple[str, Any], ...] = ()  # other knobs held at these values (else defaults)

    @property
    def name(self) -> str:
        """A short id: scenario-knob-REPORT-entity-column (and @knob=value for a base)."""
        entity = f"-{self.entity}" if self.entity else ""
        held = "".join(f"@{k}={_value(v)}" for k, v in self.base)
        return f"{self.scenario}-{self.knob}-{self.report}{entity}-{self.column}{held}"

    def knobs(self, value: Any) -> dict[str, Any]:
        """The knob settings of the run for grid *value*: the base, and the knob."""
        return {**dict(self.base), self.knob: value}

    def figure(self) -> str:
        """The figure in words: report, row and column."""
        row = self.entity or ("the >>Mean>> row" if self.agg == "one" else "all rows")
        if self.agg != "one":
            row = f"{self.agg} over {row}"
        extra = "".join(f", {k} {v}" for k, v in self.where)
        blank = f" (blank: {self.empty:g})" if self.empty is not None else ""
        return f"{self.report} {row}{extra}: `{self.column}`{blank}"

    def margin(self) -> str:
        """The noise margin in words."""
        parts = [f"{self.abs:g}"] if self.abs or not self.rel else []
        if self.rel:
            parts.append(f"{self.rel:.0%}")
        return " + ".join(parts)


@dataclass(frozen=True)
class Knob:
    """One knob of one scenario: its grid and its laws, or why it has none."""

    scenario: str
    knob: str
    grid: tuple[Any, ...]
    laws: tuple[Law, ...] = ()
    no_law: str = ""


@dataclass
class Book:
    """Everything in the laws file."""

    knobs: list[Knob]
    durations: dict[str, float] = field(default_factory=dict)

    @property
    def laws(self) -> list[Law]:
        """Every law of every knob, in file order."""
        return [law for knob in self.knobs for law in knob.laws]


def load(path: Path = LAWS) -> Book:
    """Read the laws file."""
    raw = tomllib.loads(path.read_text())
    knobs = []
    for entry in raw["knob"]:
        grid = tuple(entry["grid"])
        laws = tuple(
            Law(
                scenario=entry["scenario"],
                knob=entry["knob"],
                grid=tuple(law.get("grid", grid)),
                report=law["report"],
                column=law["column"],
                direction=law["direction"],
                says=law["says"],
                key=law.get("key"),
                entity=law.get("entity"),
                where=tuple(sorted(law.get("where", {}).items())),
                agg=law.get("agg", "one"),
                abs=float(law.get("abs", 0.0)),
                rel=float(law.get("rel", 0.0)),
                empty=law.get("empty"),
                base=tuple(sorted(law.get("base", {}).items())),
            )
            for law in entry.get("law", ())
        )
        knobs.append(Knob(entry["scenario"], entry["knob"], grid, laws, entry.get("no_law", "")))
    durations = {name: float(run["duration"]) for name, run in raw.get("run", {}).items()}
    return Book(knobs, durations)


def _value(value: Any) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


def page(book: Book) -> str:
    """docs/knob-laws.md."""
    lines = [
        "# Knob laws",
        "",
        "Which way each knob of each scenario must move its key figures, as a z/VM",
        "performance analyst would say it. `tests/test_knob_laws.py` checks every law",
        "over the knob's grid, one knob at a time from the scenario's defaults (or, for",
        "a law whose grid says *with*, from those other knobs' settings), for",
        "three seeds: every pair of grid values, earlier against later, may differ the",
        "wrong way by no more than the noise margin (an absolute amount plus a share",
        "of the earlier figure). A law the simulation breaks today is a strict xfail",
        "in the test, with the figures measured.",
        "",
        "Generated from `tests/data/knob_laws.toml` by `python tools/knob_laws.py`;",
        "edit the laws there.",
        "",
    ]
    scenario = None
    for knob in book.knobs:
        if knob.scenario != scenario:
            scenario = knob.scenario
            seconds = book.durations.get(scenario)
            lines += [f"## {scenario}", ""]
            if seconds:
                lines += [f"Law runs simulate {seconds:g} s.", ""]
        grid = ", ".join(_value(v) for v in knob.grid)
        lines.append(f"### `{knob.knob}` ({grid})")
        lines.append("")
        if not knob.laws:
            lines += [f"No law: {knob.no_law}", ""]
            continue
        lines += ["| law | figure | direction | margin | grid |", "|---|---|---|---|---|"]
        for law in knob.laws:
            part = ", ".join(_value(v) for v in law.grid)
            if law.base:
                part += " (with " + ", ".join(f"{k}={_value(v)}" for k, v in law.base) + ")"
            row = [law.says, law.figure(), DIRECTIONS[law.direction], law.margin(), part]
            lines.append("| " + " | ".join(c.replace("|", "\\|") for c in row) + " |")
        lines.append("")
    return "\n".join(lines)


def main() -> int:
    DOC.write_text(page(load()))
    print(f"wrote {DOC.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
