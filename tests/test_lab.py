"""Headless dashboard tests: every control moved across its range changes the reports."""

from __future__ import annotations

import pytest

from zvmsim.lab import dashboard, pav_mdc_dashboard


@pytest.fixture()
def board():
    return pav_mdc_dashboard()


# Where a figure sits in a report row split on blanks: FCX108's Req. Qued (before
# %Busy, READ, SEEK Cyls, Recov SSCH and the throttle's two), FCX109's Queue Lngth.
QUED = -7
LNGTH = 13


def _row(text: str, key: str) -> list[str]:
    for line in text.splitlines():
        if line.startswith(key):
            return line.split()
    raise AssertionError(f"no row {key}")


def test_one_control_per_knob_with_help(board) -> None:
    assert list(board.controls) == ["mdc", "vm64199", "aliases", "users"]
    assert all(c.tooltip for c in board.controls.values())
    assert board.controls["aliases"].min == 0 and board.controls["aliases"].max == 15
    assert "FCX108" in board.text and "FCX112" in board.text


def test_mdc_without_the_fix_queues_at_the_base(board) -> None:
    before = board.text
    board.controls["mdc"].value = True
    assert board.text != before
    base = _row(board.text, "E700")
    assert float(base[QUED]) > 2  # Req. Qued at the base RDEV
    for alias in ("E7FC", "E7FD", "E7FE"):
        assert float(_row(board.text, alias)[5]) < 25  # aliases nearly idle
    board.controls["vm64199"].value = True
    for alias in ("E7FC", "E7FD", "E7FE"):
        assert float(_row(board.text, alias)[5]) > 300  # the fix fans I/O out again
    assert float(_row(board.text, "E700")[QUED]) < 0.3


@pytest.mark.parametrize("aliases", [0, 3, 15])
def test_alias_slider_sets_the_exposures(board, aliases) -> None:
    board.controls["aliases"].value = aliases
    rows = [line for line in board.text.splitlines() if "->E700" in line]
    assert len(rows) == aliases


@pytest.mark.parametrize("users", [1, 4, 8])
def test_user_slider_sets_the_guests(board, users) -> None:
    board.controls["users"].value = users
    sq = {line.split()[0] for line in board.text.splitlines() if line.startswith("SQPERF")}
    assert sq == {f"SQPERF{i}" for i in range(1, users + 1)}


def test_vm64199_alone_changes_nothing_with_mdc_off(board) -> None:
    before = board.text
    board.controls["vm64199"].value = True
    assert board.text == before  # the fix only touches MDC's own I/O
    assert "vm64199=on" in board.status.value


def test_a_refused_setting_shows_one_line_not_a_traceback() -> None:
    # each knob inside its range, together more logical IFLs than physical: PR/SM refuses
    board = dashboard("prsm-overhead", ["FCX126"], knobs={"physical_pus": 32, "logical_pus": 40})
    assert "PR/SM allows no more" in board.error and "\n" not in board.error
    assert "Traceback" not in board.output.value and "PR/SM" in board.status.value
    board.controls["logical_pus"].value = 48
    assert "48 logical IFLs" in board.error and "Traceback" not in board.output.value


def test_same_settings_give_the_same_text(board) -> None:
    first = board.text
    board.controls["users"].value = 2
    board.controls["users"].value = 4
    assert board.text == first


def test_thrasher_dashboard_follows_the_thrashers() -> None:
    from zvmsim.lab import thrasher_dashboard

    board = thrasher_dashboard()
    assert list(board.controls) == ["thrashers", "paging_volumes", "hfs_interval"]
    assert "FCX109" in board.text and "Is this duress?" in board.text
    assert "LIN103" not in board.text
    board.controls["thrashers"].value = 3
    assert "LIN103" in board.text and "LIN104" in board.text and not board.error
    board.controls["paging_volumes"].value = 2
    assert sum(line.startswith("9F0") for line in board.text.splitlines()) == 2


def test_emergency_scan_dashboard_swaps_and_experiments() -> None:
    from zvmsim.lab import emergency_scan_dashboard

    board = emergency_scan_dashboard()
    assert list(board.controls) == ["linux_swap", "experiment_vdisk_gb"]
    assert "DEMNDLOG" in board.text and "VDISKS" in board.text and "TXN" in board.text
    board.controls["linux_swap"].value = "minidisk"
    assert "LINAPP1 " not in "\n".join(line for line in board.text.splitlines() if "0201" in line)
    board.controls["experiment_vdisk_gb"].value = 4
    assert "VDEXP" in board.text and not board.error


def test_undersized_dashboard_cures_the_paging_with_storage() -> None:
    from zvmsim.lab import undersized_dashboard

    board = undersized_dashboard()
    assert list(board.controls) == [
        "ifls", "central_gb", "xstore_gb", "paging_volumes", "paging_dasd", "sibling_busy",
        "workload_day",
    ]  # fmt: skip
    for name in ("SYSSUMLG", "DEVICE CPOWNED", "LPAR", "Health check"):
        assert name in board.text
    assert sum(line.startswith("79") and "PAGE" in line for line in board.text.splitlines()) == 25
    assert "Are paging volumes queueing?" in board.text
    queued = _row(board.text, "7900")
    assert float(queued[LNGTH]) > 1.0  # Queue Lngth
    board.controls["central_gb"].value = 52.0
    assert not board.error and float(_row(board.text, "7900")[LNGTH]) < 0.2
    board.controls["ifls"].value = 3
    board.controls["paging_volumes"].value = 40
    assert sum(line.startswith("79") and "PAGE" in line for line in board.text.splitlines()) == 40
    assert "On-" in board.text and float(_row(board.text, ">>Mean>>")[4]) == 3.0  # Online
    busy = float(_row(board.text, ">>Mean>>")[1])  # Pct Busy, the before day's guests
    board.controls["workload_day"].value = "after"  # the seed's after day: lighter guests
    assert board.controls["sibling_busy"].value == 0.029  # ... and a busier VMLNX3
    assert board.controls["paging_dasd"].value == "3390-9"  # ... on the reconfigured DASD
    assert not board.error and float(_row(board.text, ">>Mean>>")[1]) < 0.6 * busy


def test_paging_difficulties_dashboard_follows_the_channels() -> None:
    from zvmsim.lab import paging_difficulties_dashboard

    board = paging_difficulties_dashboard()
    assert list(board.controls) == ["phase", "escon_chpids", "chpid_type"]
    for name in ("DEVICE", "DEVICE CPOWNED", "LCHANNEL", "SYSSUMLG"):
        assert name in board.text

    def pend() -> float:
        return float(_row(board.text, ">>All DASD<<")[6])

    two = pend()
    assert two > 30.0 and float(_row(board.text, ">>Mean>>")[2]) > 50  # T/V
    board.controls["escon_chpids"].value = 6
    assert pend() < two / 2.5 and "6F" in board.text
    board.controls["chpid_type"].value = "ficon"
    assert pend() < 1.0 and "FICON" in board.text and not board.error
    board.controls["phase"].value = "full-volumes"
    pages = [line for line in board.text.splitlines() if " PAGE " in line]
    assert sum("XXPG" in line for line in pages) == 40
    assert sum("CFD0" in line for line in pages) == 4


def test_a_dashboard_shows_progress_while_a_new_setting_runs() -> None:
    from zvmsim.lab import pav_mdc_dashboard

    board = pav_mdc_dashboard()
    seen: list[float] = []
    board.progress.observe(lambda change: seen.append(change["new"]), names="value")
    board.controls["users"].value = 5  # a setting not run before
    assert seen and seen[-1] == 1.0 and seen == sorted(seen)
    assert board.progress.layout.display == "none"  # hidden again once the reports are up


def test_simulate_reports_progress_and_gives_the_same_records() -> None:
    import zvmsim

    done: list[float] = []
    with_bar = zvmsim.simulate("pav-mdc", seed=3, progress=done.append)
    plain = zvmsim.simulate("pav-mdc", seed=3)
    assert done[-1] == 1.0 and done == sorted(done)
    assert with_bar.to_bytes() == plain.to_bytes()


def test_by_time_plot_draws_each_column_and_refuses_what_it_cannot_draw() -> None:
    import matplotlib

    matplotlib.use("Agg")
    import zvmsim
    from zvmsim.lab import by_time_plot

    run = zvmsim.perfkit.reduce(zvmsim.simulate("fine", duration=120, interval=30))
    ax = by_time_plot(run, "FCX225", ["pct_busy", "tv_ratio"])
    assert len(ax.lines) == 4  # a line per column, and its >>Mean>> as a dashed line
    assert len(ax.lines[0].get_xdata()) == 4  # one point per interval
    with pytest.raises(zvmsim.ZvmsimError, match="not a by-time report"):
        by_time_plot(run, "FCX108", ["io_rate"])
    with pytest.raises(zvmsim.ZvmsimError, match="no column 'nonsense'"):
        by_time_plot(run, "FCX225", ["nonsense"])
    assert ax.get_ylim()[0] == 0  # the y axis starts at zero


def test_by_time_plot_picks_one_device_or_processor() -> None:
    import matplotlib

    matplotlib.use("Agg")
    import zvmsim
    from zvmsim.lab import by_time_plot

    run = zvmsim.perfkit.reduce(zvmsim.simulate("fine", duration=120, interval=30))
    ax = by_time_plot(run, "FCX168", ["resp_ms", "pend_ms"], device="0d10")
    assert len(ax.lines) == 4 and len(ax.lines[0].get_xdata()) == 4
    assert "0D10" in ax.get_title() and ax.get_ylim()[0] == 0
    ax = by_time_plot(run, "FCX144", ["pct_cpu"], cpu="01")
    assert len(ax.lines[0].get_xdata()) == 4
    with pytest.raises(zvmsim.ZvmsimError, match="several rows per interval"):
        by_time_plot(run, "FCX168", ["resp_ms"])
    with pytest.raises(zvmsim.ZvmsimError, match="no addr 'FFFF'"):
        by_time_plot(run, "FCX168", ["resp_ms"], device="FFFF")
    with pytest.raises(zvmsim.ZvmsimError, match="no 'addr' column"):
        by_time_plot(run, "FCX225", ["pct_busy"], device="0D10")
