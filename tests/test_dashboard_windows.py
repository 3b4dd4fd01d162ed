"""A dashboard's shorter window tells the scenario's story as its own window does.

Where a scenario's own window is too long to answer a knob within a second,
its dashboard simulates a shorter one (``zvmsim.lab.dashboard.WINDOWS``).
Every target row of such a scenario that passes over the scenario's window
must pass over the dashboard's too (seed 1), or be listed here with the
reason it does not; the notebook beside the dashboard says the same.
"""

from __future__ import annotations

import pytest

from zvmsim.fidelity import known_miss, load_targets, observed, within
from zvmsim.lab.dashboard import WINDOWS
from zvmsim.scenario import load_scenario

# the sequel's first minute runs hotter than its four minutes
_SEQUEL = (
    "the sequel's first minute runs hotter than its four: the users' VDISK pages start "
    "spread by the storage history, and the paging volumes' traffic settles over minutes "
    "(about 29 page reads a second a 3390-3 over 60 s, 21 over 240 s); the contrast the "
    "notebook draws (small blocks and lower %Used for Alloc on the 3390-3s, more reads "
    "and a better time per page on the 3390-9s) holds over both"
)
# (scenario, knobs, column@entity) -> why the row does not hold over the dashboard's window
WINDOW_MISSES: dict[tuple[str, str, str], str] = {
    ("paging-difficulties", "phase=full-volumes", "page_reads@XXPG*"): _SEQUEL,
    ("paging-difficulties", "phase=full-volumes", "pct_alloc@XXPG*"): _SEQUEL,
    ("paging-difficulties", "phase=full-volumes", "page_writes@CFD0*"): _SEQUEL,
    ("paging-difficulties", "phase=full-volumes", "ssch_rate@CFD0*"): _SEQUEL,
    ("paging-difficulties", "phase=vdisk-format;escon_chpids=2", "dist_0_10@67 and 69"): (
        "FCX161's busy distribution over two 30 s intervals: 93% of seed 1's samples "
        "under 10% busy (seeds 2 and 3: 82, 80; the seed 83 +-10)"
    ),
}
ROWS = [r for r in load_targets() if r["scenario"] in WINDOWS and not known_miss(r)]


def _window_miss(row: dict[str, str]) -> str | None:
    return WINDOW_MISSES.get((row["scenario"], row["knobs"], f"{row['column']}@{row['entity']}"))


def test_every_window_is_shorter_than_its_scenario_and_holds_an_interval() -> None:
    for name, window in WINDOWS.items():
        config = load_scenario(name).config({})
        assert config.monitor.sample_interval <= window < config.duration, name


def _param(row: dict[str, str]):
    reason = _window_miss(row)
    marks = [pytest.mark.xfail(reason=reason, strict=True)] if reason else []
    return pytest.param(
        row, marks=marks, id=f"{row['scenario']}:{row['knobs']}:{row['column']}@{row['entity']}"
    )


@pytest.mark.parametrize("row", [_param(r) for r in ROWS])
def test_target_row_holds_over_the_dashboard_window(row: dict[str, str], run_data) -> None:
    def windowed(scenario: str, seed: int, **knobs: object):
        return run_data(scenario, seed, WINDOWS[scenario], **knobs)

    values = observed(row, 1, windowed)
    target = float(row["seed_value"])
    assert values and all(within(v, target, row["tolerance"]) for v in values), (
        f"{row['report']} {row['column']}@{row['entity']}: {values} against {target} "
        f"({row['tolerance']}) over the dashboard's {WINDOWS[row['scenario']]:g} s"
    )
