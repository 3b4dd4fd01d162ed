"""The Grinch case: pinned data turns a 3990's caching off for one volume.

Counterfactuals (pinned data on another volume, more users), the laws on the
pinned device, the drive and cache mechanisms, FCX110, CP's QUERY views and
the run-history helpers.
"""

from __future__ import annotations

import copy
import random

import pytest

import zvmsim
from zvmsim.calibration import load_calibration
from zvmsim.cli import main
from zvmsim.errors import ZvmsimError
from zvmsim.hardware.cucache import ControlUnitCache
from zvmsim.hardware.drive import Drive
from zvmsim.lab import compare_runs, grinch_dashboard, load_run, save_run
from zvmsim.machine import Machine
from zvmsim.perfkit import reduce
from zvmsim.perfkit.devdetail import details_text
from zvmsim.perfkit.qdasd import query_dasd_details, query_pinned
from zvmsim.scenario import Scenario, load_scenario


def _row(run, report: str, addr: str = "1742") -> dict:
    frame = zvmsim.report(run, report).frame
    return frame[frame["addr"] == addr].iloc[0].to_dict()


def _raw_run(change, seed: int = 1, **knobs):
    """Run grinch with its raw tables edited by *change* (a counterfactual no knob offers)."""
    raw = copy.deepcopy(load_scenario("grinch")._raw)
    change(raw)
    cfg = Scenario("grinch", raw).config(knobs, duration=120)
    return reduce(Machine(cfg, seed).run())


# ---- the case itself --------------------------------------------------------


def test_a_pinned_device_has_no_cachext_row(run_data) -> None:
    healthy, pinned = run_data("grinch", pinned_data="off"), run_data("grinch", pinned_data="on")
    rows = zvmsim.report(healthy, "FCX177").frame
    assert "1742" in set(rows["addr"])
    assert rows.set_index("addr").loc["1742", "pct_read_hits"] >= 97
    gone = zvmsim.report(pinned, "FCX177").frame
    assert "1742" not in set(gone["addr"])
    assert {"1740", "1743", "1744"} <= set(gone["addr"])  # the others are still cached
    assert "1742" not in set(zvmsim.report(pinned, "FCX111").frame["addr"])


def test_pinned_reads_go_to_the_drive(run_data) -> None:
    healthy = _row(run_data("grinch", pinned_data="off"), "FCX108")
    pinned = _row(run_data("grinch", pinned_data="on"), "FCX108")
    assert healthy["disc_ms"] < 1.0 < 10.0 < pinned["disc_ms"]  # seek and rotation
    assert pinned["conn_ms"] > 2 * healthy["conn_ms"]  # data at the drive's 4.2 MB/s
    assert pinned["req_qued"] > 0.2 > healthy["req_qued"]
    assert pinned["io_rate"] < 0.85 * healthy["io_rate"]  # the users wait, so ask less


def test_pinned_device_obeys_the_queueing_laws(run_data) -> None:
    run = run_data("grinch", pinned_data="on")
    row = _row(run, "FCX108")
    assert row["pct_busy"] == pytest.approx(row["io_rate"] * row["serv_ms"] / 10.0)
    dev = run.whole.devices["1742"]
    sampled = 100.0 * dev["hf_busy"] / dev["hf_samples"]
    assert sampled == pytest.approx(row["pct_busy"], abs=4.0)  # CP's samples agree
    queued = row["io_rate"] * (row["resp_ms"] - row["serv_ms"]) / 1000.0  # Little's law
    assert row["req_qued"] == pytest.approx(queued, rel=0.15, abs=0.05)


def test_date_changes_only_the_headers(run_data) -> None:
    jan = zvmsim.report(run_data("grinch", pinned_data="off"), "FCX108")
    dec = zvmsim.report(run_data("grinch", pinned_data="off", date="dec8"), "FCX108")
    assert "2003/01/05" in jan.text and "2002/12/08" in dec.text
    assert jan.frame.equals(dec.frame)


# ---- counterfactuals --------------------------------------------------------


def _pin(volser: str):
    def change(raw: dict) -> None:
        raw["volumes"]["USE001"]["pinned"] = False
        raw["volumes"][volser]["pinned"] = True

    return change


def test_pinned_data_on_another_volume_hurts_only_its_users() -> None:
    base = _raw_run(lambda raw: None, pinned_data="off")
    other = _raw_run(_pin("USE002"), pinned_data="off")
    assert _row(other, "FCX108", "1743")["resp_ms"] > 3 * _row(base, "FCX108", "1743")["resp_ms"]
    assert _row(other, "FCX108", "1742")["resp_ms"] == pytest.approx(
        _row(base, "FCX108", "1742")["resp_ms"], rel=0.15
    )
    ustat = zvmsim.report(other, "FCX114").frame.set_index("userid")
    before = zvmsim.report(base, "FCX114").frame.set_index("userid")
    cmsa = [u for u in ustat.index if u.startswith("CMSA")]
    assert ustat.loc[cmsa, "pct_iow"].mean() > before.loc[cmsa, "pct_iow"].mean() + 0.5
    assert ustat.loc["DBQRY1", "pct_iow"] == pytest.approx(before.loc["DBQRY1", "pct_iow"], abs=1.5)
    assert "1743" not in set(zvmsim.report(other, "FCX177").frame["addr"])
    assert "USE002" in query_pinned(other) and "USE001" not in query_pinned(other)


def test_more_query_users_queue_more_and_each_gets_less(run_data) -> None:
    few = run_data("grinch", pinned_data="on", query_users=2)
    many = run_data("grinch", pinned_data="on", query_users=6)
    a, b = _row(few, "FCX108"), _row(many, "FCX108")
    assert b["io_rate"] > a["io_rate"]
    assert b["req_qued"] > a["req_qued"] + 0.3
    assert b["resp_ms"] > a["resp_ms"] * 1.3
    per_user = [
        zvmsim.report(r, "FCX112").frame.set_index("userid").loc["DBQRY1", "vio_rate"]
        for r in (few, many)
    ]
    assert per_user[1] < per_user[0]


def test_the_cache_hides_the_drive_until_it_is_off(run_data) -> None:
    """With caching on, more query users barely change the response time."""
    few = _row(run_data("grinch", pinned_data="off", query_users=2), "FCX108")
    many = _row(run_data("grinch", pinned_data="off", query_users=6), "FCX108")
    assert many["resp_ms"] < few["resp_ms"] * 1.3


# ---- mechanisms -------------------------------------------------------------


def test_drive_seek_curve_matches_the_3390_figures() -> None:
    model = load_calibration().control_units["3990-6"].drive
    assert model is not None and model.rpm == 4260
    drive = Drive(model, 15, random.Random(1))
    assert drive.seek_s(0) == 0.0
    assert drive.seek_s(1) * 1000 == pytest.approx(1.5, abs=0.01)
    rnd = random.Random(2)
    seeks = [drive.seek_s(abs(rnd.randrange(2226) - rnd.randrange(2226))) for _ in range(20000)]
    assert sum(seeks) / len(seeks) * 1000 == pytest.approx(9.5, rel=0.03)
    disc, data = drive.access(100 * 15, 16384)
    assert drive.cylinder == 100 and 0 < disc < drive.seek_s(100) + 60 / 4260
    assert data == pytest.approx(16384 / 4.2e6)


def test_each_run_of_blocks_waits_for_its_own_rotation() -> None:
    """An I/O whose blocks lie in three places on the cylinder waits three half-turns on average."""
    model = load_calibration().control_units["3990-6"].drive
    drive = Drive(model, 15, random.Random(3))  # type: ignore[arg-type]
    half_turn = 60 / 4260 / 2
    for runs in (1, 3):
        waits = [drive.access(0, 4096, runs)[0] for _ in range(20000)]  # same cylinder: no seek
        assert sum(waits) / len(waits) == pytest.approx(runs * half_turn, rel=0.03)


def _scatter(value: float):
    def change(raw: dict) -> None:
        for guest in raw["guests"].values():
            if guest["workload"] == "cms_query":
                guest["params"]["scatter"] = value

    return change


def test_scattered_files_cost_the_drive_not_the_cache() -> None:
    """Blocks spread over the cylinder lengthen Disc only when the drive serves the I/O."""
    tidy_pinned = _row(_raw_run(_scatter(0.0), pinned_data="on"), "FCX108")
    aged_pinned = _row(_raw_run(_scatter(0.2), pinned_data="on"), "FCX108")
    # 3 block boundaries x 0.2 = 0.6 extra runs, each half a 14.1 ms turn: about 4 ms
    assert 2.5 < aged_pinned["disc_ms"] - tidy_pinned["disc_ms"] < 6.0
    assert aged_pinned["req_qued"] > tidy_pinned["req_qued"]
    tidy = _row(_raw_run(_scatter(0.0), pinned_data="off"), "FCX108")
    aged = _row(_raw_run(_scatter(0.2), pinned_data="off"), "FCX108")
    assert aged["resp_ms"] == pytest.approx(tidy["resp_ms"], abs=0.3)


def _volume(pinned: bool):
    cal = load_calibration().control_units["3990-6"]
    cu = ControlUnitCache("CU", cal.cache, 56664, 0.0)  # type: ignore[arg-type]
    vol = cu.volume("VOL", random.Random(1))
    vol.drive = Drive(cal.drive, 15, random.Random(2))  # type: ignore[arg-type]
    if pinned:
        vol.pin()
    return vol


def test_cached_volume_reads_the_drive_only_on_a_miss() -> None:
    vol = _volume(False)
    miss = vol.times(3000, True, 0.0, (0.0001, 0.002), 0.001, 16384)
    hit = vol.times(3000, True, 0.0, (0.0001, 0.002), 0.001, 16384)
    assert miss[0] > 0.005 and miss[1] == pytest.approx(0.002 - 0.001 + 16384 / 4.2e6)
    assert hit == (0.0001, 0.002)
    write = vol.times(3001, False, 0.0, (0.0001, 0.002), 0.001, 16384)
    assert write == (0.0001, 0.002)  # a DASD fast write
    assert (vol.reads, vol.read_hits, vol.staged, vol.dfw_hits, vol.uncached) == (2, 1, 1, 1, 0)


def test_pinned_volume_sends_every_io_to_the_drive() -> None:
    vol = _volume(True)
    for _ in range(2):
        disc, conn = vol.times(3000, True, 0.0, (0.0001, 0.002), 0.001, 16384)
        assert conn > 0.002  # the drive's transfer, never the cache's
    disc, conn = vol.times(3001, False, 0.0, (0.0001, 0.002), 0.001, 16384)
    assert disc > 0.0001  # no DASD fast write
    assert vol.uncached == 3 and vol.reads == vol.writes == vol.read_hits == 0
    assert vol.cu.cached_tracks == 0 and vol.cu.nvs_tracks == 0


def test_pinned_data_needs_a_cached_control_unit() -> None:
    def change(raw: dict) -> None:
        raw["volumes"]["USE001"]["control_unit"] = "2105"
        raw["volumes"]["USE001"]["pinned"] = True

    with pytest.raises(ZvmsimError, match="pinned data needs a cached control unit"):
        _raw_run(change)


# ---- reports and views ------------------------------------------------------


def test_fcx110_lists_the_device_its_users_and_their_rates(run_data) -> None:
    run = run_data("grinch", pinned_data="on")
    rep = zvmsim.report(run, "FCX110")
    dev = rep.frame.set_index("addr").loc["1742"]
    assert dev["caching"] == "N" and dev["pinned"] == "Y"
    assert dev["links"] == (7 + 2) * 4 + 4  # query users x database minidisks + SFS's own
    fcx108 = _row(run, "FCX108")
    for col in ("io_rate", "disc_ms", "resp_ms", "req_qued", "pct_busy"):
        assert dev[col] == pytest.approx(fcx108[col])
    queries = {f"DBQRY{i}" for i in range(1, 8)}
    assert set(dev["users"].split()) == queries | {"EDLSFS", "K00761", "K00762"}
    mdisks = rep.frame.attrs["mdisks"]
    on_1742 = mdisks[mdisks["addr"] == "1742"]
    assert on_1742["mdio_rate"].sum() == pytest.approx(dev["io_rate"], rel=0.02)
    assert set(on_1742[on_1742["userid"] == "EDLSFS"]["status"]) == {"owner"}
    text = details_text(run, "1742")
    assert "Detailed Analysis for Device 1742" in text and "'NORMAL' I/O only" in text
    assert " 1726 - 2225 " in text
    healthy = details_text(run_data("grinch", pinned_data="off"), "1742")
    assert "NORMAL" not in healthy and "   99 " in healthy


def test_query_views_come_from_the_records(run_data) -> None:
    pinned, healthy = run_data("grinch", pinned_data="on"), run_data("grinch", pinned_data="off")
    text = query_dasd_details(pinned, "1742")
    assert "CUTYPE = 3990-6, DEVTYPE = 3390-2, VOLSER = USE001" in text
    assert "-DEVICE       N" in text and "CCA = 02" in text
    assert query_pinned(healthy) == "No pinned data"
    assert "-DEVICE       Y      -    -    Y    N" in query_dasd_details(healthy, "1742")
    assert "does not exist" in query_dasd_details(healthy, "9999")


def test_cli_fcx110_and_knobs(capsys) -> None:
    assert main(["report", "grinch", "DEVDETL", "--set", "pinned_data=on", "--format", "csv"]) == 0
    out = capsys.readouterr().out.splitlines()
    head = out[0].split(",")
    assert head[:4] == ["addr", "volser", "type", "links"]
    rows = {line.split(",")[0]: dict(zip(head, line.split(","), strict=False)) for line in out[1:]}
    assert rows["1742"]["caching"] == "N" and rows["1742"]["pinned"] == "Y"
    assert main(["knobs", "grinch"]) == 0
    knobs = capsys.readouterr().out
    assert "pinned_data" in knobs and "jan5/dec8" in knobs
    assert main(["report", "grinch", "FCX110", "--set", "date=xmas"]) == 2
    assert "knob 'date'" in capsys.readouterr().err


def test_save_and_compare_two_days(run_data, tmp_path) -> None:
    dec = save_run(run_data("grinch", pinned_data="off", date="dec8"), tmp_path, "dec8")
    jan = save_run(run_data("grinch", pinned_data="on"), tmp_path, "jan5")
    assert set(load_run(dec)) == {"FCX108", "FCX177", "FCX114"}
    diff = compare_runs(dec, jan).set_index("addr")
    assert diff.loc["1742", "disc_ms_change"] > 10
    assert diff.loc["1742", "io_rate_change"] < 0
    cache = compare_runs(dec, jan, "FCX177", ("pct_read_hits",)).set_index("addr")
    assert cache.loc["1742", "pct_read_hits_before"] > 95
    assert cache.loc["1742", "pct_read_hits_after"] != cache.loc["1742", "pct_read_hits_after"]
    with pytest.raises(ZvmsimError, match="no saved run"):
        load_run(tmp_path / "nowhere")


def test_grinch_dashboard_follows_the_knob() -> None:
    board = grinch_dashboard()
    assert "has pinned data" in board.text and board.error == ""
    board.controls["pinned_data"].value = False
    assert "No pinned data" in board.text
    assert "1742  USE001" in board.text  # back in CACHEXT
    board.controls["date"].value = "dec8"
    assert "2002/12/08" in board.text
    board.controls["query_users"].value = 10
    assert board.error == ""


def test_same_seed_same_bytes_other_seed_differs() -> None:
    first = zvmsim.report(zvmsim.simulate("grinch", duration=120, seed=4), "FCX110").text
    again = zvmsim.report(zvmsim.simulate("grinch", duration=120, seed=4), "FCX110").text
    other = zvmsim.report(zvmsim.simulate("grinch", duration=120, seed=5), "FCX110").text
    assert first == again != other


def test_queries_measure_their_own_response_time(run_data) -> None:
    """TXN (the workload's APPLDATA): a query's time is its four I/Os and its CPU."""
    for pinned in ("off", "on"):
        run = run_data("grinch", pinned_data=pinned)
        txn = zvmsim.report(run, "TXN").frame.set_index("userid").loc["DBQRY1"]
        resp = _row(run, "FCX108")["resp_ms"]
        assert 3.6 * resp < txn["resp_ms"] < 4.4 * resp + 10


def test_fcx110_and_query_views_from_a_saved_monitor_file(capsys, tmp_path) -> None:
    path = tmp_path / "grinch.mon"
    args = ["--set", "pinned_data=on", "--duration", "120"]
    assert main(["monwrite", "grinch", "-o", str(path), *args]) == 0
    capsys.readouterr()
    assert main(["report", "grinch", "FCX110", "FCX177", *args]) == 0
    direct = capsys.readouterr().out
    assert main(["report", "--from", str(path), "FCX110", "FCX177"]) == 0
    assert capsys.readouterr().out == direct
    saved = reduce(zvmsim.MonitorData.from_bytes(path.read_bytes()))
    assert "1742 USE001 has pinned data" in query_pinned(saved)


# ---- requests to the SFS server (CP's SVM wait) -----------------------------


def _no_server(raw: dict) -> None:
    for guest in raw["guests"].values():
        guest.get("params", {}).pop("server", None)


def _ustat(run, userid: str) -> dict:
    frame = zvmsim.report(run, "FCX114").frame
    return frame[frame["userid"] == userid].iloc[0].to_dict()


def test_query_users_waiting_for_the_sfs_server_are_svm_and_test_idle(run_data) -> None:
    """A user waiting for EDLSFS's reply is in the dispatch list, waiting for a service
    machine: USTAT files it %TI; with no requests to the server nobody is."""
    asked = run_data("grinch", pinned_data="on")
    assert all(_ustat(asked, f"DBQRY{i}")["pct_ti"] > 0 for i in range(1, 8))
    assert _ustat(asked, "EDLSFS")["pct_ti"] == 0  # the server waits for nobody
    alone = _raw_run(_no_server, pinned_data="on")
    assert all(_ustat(alone, f"DBQRY{i}")["pct_ti"] == 0 for i in range(1, 8))


def test_users_dropped_while_the_sfs_server_works_are_svm_and_dormant(run_data) -> None:
    """A request that outlasts CP's test-idle time: the user is dropped while it waits
    for a service machine, USTAT's *SVM and dormant* (%DM); ours end in time."""

    def slow(raw: dict) -> None:
        raw["guests"]["EDLSFS"]["params"]["request_ios"] = 12  # ~0.8 s on the pinned volume

    quick = run_data("grinch", pinned_data="on")
    assert all(_ustat(quick, f"DBQRY{i}")["pct_dm"] == 0 for i in range(1, 8))
    slowed = _raw_run(slow, pinned_data="on")
    assert all(_ustat(slowed, f"DBQRY{i}")["pct_dm"] > 0 for i in range(1, 8))
    assert _ustat(slowed, "EDLSFS")["pct_dm"] == 0  # the server waits for nobody


def test_the_sfs_server_does_the_requests_block_io_itself(run_data) -> None:
    """The requests' I/O is the server's (its minidisks, I/O active), on top of its own."""
    asked = zvmsim.report(run_data("grinch", pinned_data="off"), "FCX110").frame.attrs["mdisks"]
    alone = zvmsim.report(_raw_run(_no_server, pinned_data="off"), "FCX110").frame.attrs["mdisks"]

    def sfs(mdisks) -> float:
        return float(mdisks[mdisks["owner"] == "EDLSFS"]["mdio_rate"].sum())

    # seven users ask at about 0.4 queries a second each, one block I/O a request
    assert 1.5 < sfs(asked) - sfs(alone) < 4.5


def test_a_server_that_is_not_there_is_a_one_line_error() -> None:
    def change(raw: dict) -> None:
        raw["guests"]["DBQ"]["params"]["server"] = "NOSUCH"

    with pytest.raises(ZvmsimError, match="server 'NOSUCH'"):
        _raw_run(change)

    def share(raw: dict) -> None:
        raw["guests"]["DBQ"]["params"]["server_share"] = 1.5

    with pytest.raises(ZvmsimError, match="server_share must be between 0 and 1"):
        _raw_run(share)


def test_users_at_their_terminals_are_dropped_at_once(run_data) -> None:
    """Between queries the users wait at their terminals: CP drops them at once (no
    test idle); the SFS server, idle in an enabled wait, sits out the test-idle time.
    Dormant at the terminal, a user waits for no service machine: not USTAT's %DM
    (SVM and dormant) but plain dormant, which zvmsim shows in %OTH."""
    run = run_data("grinch", pinned_data="on")
    assert all(_ustat(run, f"DBQRY{i}")["pct_tiw"] == 0 for i in range(1, 8))
    assert all(_ustat(run, f"DBQRY{i}")["pct_oth"] > 40 for i in range(1, 8))
    assert _ustat(run, "EDLSFS")["pct_tiw"] > 20

    def programs(raw: dict) -> None:  # the queries run by programs that wait instead
        for name in ("DBQ", "DBUSER"):
            raw["guests"][name]["params"]["terminal"] = False

    waiting = _raw_run(programs, pinned_data="on")
    assert all(_ustat(waiting, f"DBQRY{i}")["pct_tiw"] > 10 for i in range(1, 8))
