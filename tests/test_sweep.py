"""The sweep helper: one call per value, in order, with progress told as it goes."""

from __future__ import annotations

import zvmsim
from zvmsim.lab import sweep
from zvmsim.lab.runs import SweepBar


def test_sweep_calls_once_per_value_in_order() -> None:
    calls: list[int] = []

    def square(n: int) -> int:
        calls.append(n)
        return n * n

    told: list[tuple[int, int]] = []
    result = sweep(square, [3, 1, 2], progress=lambda done, total: told.append((done, total)))
    assert list(result.items()) == [(3, 9), (1, 1), (2, 4)]
    assert calls == [3, 1, 2]
    assert told == [(1, 3), (2, 3), (3, 3)]


def test_sweep_outside_a_notebook_shows_nothing(capsys) -> None:
    assert sweep(str, [1, 2]) == {1: "1", 2: "2"}
    assert sweep(str, [1], progress=False) == {1: "1"}
    assert capsys.readouterr().out == ""


def test_the_bar_names_the_run_going_now_and_fills_at_the_end() -> None:
    bar = SweepBar(4, "ESCON CHPIDs")
    bar.start(2, 6)
    assert bar.bar.value == 2 and bar.bar.max == 4
    assert "ESCON CHPIDs 6 (3 of 4)" in bar.label.value
    bar.finish()
    assert bar.bar.value == 4 and bar.bar.bar_style == "success"
    assert "4 of 4 runs" in bar.label.value


def test_a_sweep_of_runs_gives_the_same_reports_as_single_runs() -> None:
    def pend(n: int) -> str:
        data = zvmsim.simulate("pav-mdc", {"aliases": n}, seed=2, duration=10)
        return zvmsim.report(data, "FCX108").text

    swept = sweep(pend, [0, 3], progress=False)
    assert swept[3] == pend(3) and swept[0] != swept[3]


def test_a_mapping_sweeps_its_arguments_keyed_by_label() -> None:
    settings = {"none": {}, "two": {"a": 1, "b": 2}}
    assert sweep(len, settings) == {"none": 0, "two": 2}


def test_run_data_is_the_reduced_simulation() -> None:
    from zvmsim.lab import run_data
    from zvmsim.perfkit import reduce

    ours = run_data("pav-mdc", {"mdc": True}, seed=2, duration=10)
    theirs = reduce(zvmsim.simulate("pav-mdc", {"mdc": True}, seed=2, duration=10))
    assert zvmsim.report(ours, "FCX108").text == zvmsim.report(theirs, "FCX108").text


def test_in_a_notebook_the_sweep_bar_moves_within_each_run(monkeypatch) -> None:
    from zvmsim.lab import run_data
    from zvmsim.lab import runs as sweep_module

    monkeypatch.setattr(sweep_module, "_in_kernel", lambda: True)
    bars: list[SweepBar] = []
    monkeypatch.setattr(sweep_module, "_shown", lambda bar: bars.append(bar) or bar)
    seen: list[float] = []

    def one(n: int):
        bars[0].bar.observe(lambda change: seen.append(change["new"]), names="value")
        return run_data("pav-mdc", {"aliases": n}, duration=10)

    sweep(one, [2], what="aliases")
    assert len(bars) == 1  # the run fed the sweep's bar instead of showing its own
    assert any(0 < v < 1 for v in seen)  # moved during the run
    assert bars[0].bar.value == 1.0 and "1 run" in bars[0].label.value
    run_data("pav-mdc", duration=10)
    assert len(bars) == 2 and bars[1].bar.bar_style == "success"  # a run alone has its own


def test_a_labelled_run_hides_its_setting(monkeypatch) -> None:
    """The mystery system's bar must not name the scenario it runs."""
    from zvmsim.lab import mystery
    from zvmsim.lab import runs as sweep_module
    from zvmsim.lab.mystery import PROBLEMS

    monkeypatch.setattr(sweep_module, "_in_kernel", lambda: True)
    bars: list[SweepBar] = []
    texts: list[str] = []

    def shown(bar: SweepBar) -> SweepBar:
        bar.label.observe(lambda change: texts.append(change["new"]), names="value")
        bars.append(bar)
        return bar

    monkeypatch.setattr(sweep_module, "_shown", shown)
    m = mystery(9)
    assert len(bars) == 1 and texts[0] == "mystery system"
    assert m.run.system.title == "Mystery system"
    scenario = PROBLEMS[m._answer].scenario
    assert texts and not any(scenario in t for t in texts)
