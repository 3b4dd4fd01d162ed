"""MONITOR settings: sample interval, HF rate and enabled domains shape what is collected.

The ``monwrite`` scenario carries the seed's advice as its defaults (one-minute
samples, five-second HF rate, all sample domains, events but for seek and
scheduler). A disabled domain leaves no records behind, and a report that
needs it says so instead of printing zeros.
"""

from __future__ import annotations

from collections import Counter

import pytest

import zvmsim
from zvmsim.calibration import load_calibration
from zvmsim.cli import main
from zvmsim.config import build_config
from zvmsim.errors import ZvmsimError
from zvmsim.monitor.records import DOMAINS
from zvmsim.perfkit import reduce
from zvmsim.scenario import load_scenario


@pytest.fixture(scope="module")
def default_data():
    return zvmsim.simulate("monwrite")


def _domains(data) -> Counter:
    return Counter(DOMAINS[r.DOMAIN] for r in data)


def test_contract_knobs_and_the_seed_advice(default_data, capsys) -> None:
    knobs = load_scenario("monwrite").knobs
    assert knobs["sample_interval"].default == 60 and knobs["hfs_interval"].default == 5
    row = zvmsim.report(default_data, "FCX149").frame.iloc[0]
    assert (row["sample_interval_s"], row["hfs_interval_s"]) == (60, 5)
    sample = row["sample_domains"].split()
    assert {"SYSTEM", "MONITOR", "STORAGE", "USER", "PROCESSOR", "I/O", "APPLDATA"} <= set(sample)
    events = row["event_domains"].split()
    assert "SCHEDULER" not in events and "SEEK" not in events and "I/O" in events
    assert "SCHEDULER" not in _domains(default_data)  # no dispatch-list events written
    assert main(["knobs", "monwrite"]) == 0
    out = capsys.readouterr().out
    assert "\nsample_interval " in out and "\nhfs_interval " in out


@pytest.mark.parametrize(
    ("knob", "domain", "reports"),
    [
        ("user_domain", "USER", ["FCX112", "FCX114", "FCX164", "FCX225"]),
        ("io_domain", "I/O", ["FCX108", "FCX168", "FCX225"]),
        ("storage_domain", "STORAGE", ["FCX109", "FCX147"]),
        ("processor_domain", "PROCESSOR", ["FCX100", "FCX144", "FCX126"]),
    ],
)
def test_a_disabled_domain_writes_nothing_and_its_reports_say_so(knob, domain, reports) -> None:
    data = zvmsim.simulate("monwrite", {knob: "off"}, duration=120)
    assert domain not in _domains(data)
    run = reduce(data)
    assert domain not in zvmsim.report(run, "FCX149").frame.iloc[0]["sample_domains"].split()
    for code in reports:
        with pytest.raises(ZvmsimError, match=f"{code} needs the .*{domain}.*not enabled"):
            zvmsim.report(run, code)
    for code in ("FCX149", "FCX131", "FCX161", "FCX226"):  # configuration and System domain
        assert zvmsim.report(run, code).text


def test_cli_refusal_is_one_line(capsys) -> None:
    argv = ["report", "monwrite", "FCX108", "--set", "io_domain=off", "--duration", "60"]
    code = main(argv)
    _, err = capsys.readouterr()
    assert code == 2 and err.count("\n") == 1
    assert err.startswith("zvmsim: error: FCX108 needs the I/O domain, which was not enabled")


def test_scheduler_events_fill_the_file(tmp_path) -> None:
    quiet, busy = tmp_path / "quiet.mon", tmp_path / "busy.mon"
    a = zvmsim.monwrite("monwrite", quiet, duration=120)
    b = zvmsim.monwrite("monwrite", busy, {"scheduler_events": "on"}, duration=120)
    assert b.records > 2 * a.records and b.blocks > a.blocks
    back = zvmsim.MonitorData.from_bytes(busy.read_bytes())
    assert _domains(back)["SCHEDULER"] == b.records - a.records
    # the events change nothing the sample records say
    plain = zvmsim.MonitorData.from_bytes(quiet.read_bytes())
    assert zvmsim.report(back, "FCX225").text == zvmsim.report(plain, "FCX225").text


def test_fewer_domains_smaller_file(tmp_path) -> None:
    full = zvmsim.monwrite("monwrite", tmp_path / "a.mon", duration=120)
    lean = zvmsim.monwrite(
        "monwrite", tmp_path / "b.mon", {"user_domain": "off", "io_domain": "off"}, duration=120
    )
    assert lean.records < full.records and lean.bytes < full.bytes


def test_sample_interval_sets_the_resolution_of_by_time_reports() -> None:
    peaks, means = {}, {}
    for interval in (10, 60, 300):
        data = zvmsim.simulate("monwrite", {"sample_interval": interval})
        frame = zvmsim.report(data, "FCX225").frame
        assert len(frame) == 1 + 600 // interval  # >>Mean>> and one row per interval
        peaks[interval] = frame["ssch_rate"].iloc[1:].max()
        means[interval] = frame["ssch_rate"].iloc[0]
    # the batch job's two-minute burst: seen whole at 10 s, diluted at 300 s
    assert peaks[10] > 200 and peaks[300] < 0.7 * peaks[10]
    assert peaks[10] >= peaks[60] > peaks[300]
    # the whole run's figures do not depend on how it was cut up
    assert means[10] == pytest.approx(means[300], rel=0.02)


def test_hf_rate_sets_the_resolution_of_sampled_states() -> None:
    for hfs, samples in ((5, 12), (30, 2)):
        run = reduce(zvmsim.simulate("monwrite", {"hfs_interval": hfs}, duration=120))
        assert {u["hf_samples"] for u in run.intervals[-1].users.values()} == {samples}
        frame = zvmsim.report(run, "FCX114").frame.set_index("userid")
        steps = 100.0 / (2 * samples)  # two intervals: each state share is k / (2 x samples)
        for value in frame.loc["LINUX01", ["pct_run", "pct_tiw", "pct_dm"]]:
            assert value / steps == pytest.approx(round(value / steps), abs=1e-9)


def test_laws_hold_in_the_monwrite_scenario(default_data) -> None:
    frame = zvmsim.report(default_data, "FCX108").frame
    for row in frame.iloc[1:].to_dict("records"):
        assert row["pct_busy"] == pytest.approx(row["io_rate"] * row["serv_ms"] / 10.0)
        expected = row["io_rate"] * (row["resp_ms"] - row["serv_ms"]) / 1000.0
        assert row["req_qued"] == pytest.approx(expected, rel=0.3, abs=0.05), row["addr"]


def test_same_seed_same_file(tmp_path) -> None:
    a, b = tmp_path / "a.mon", tmp_path / "b.mon"
    zvmsim.monwrite("monwrite", a, duration=120, seed=4)
    zvmsim.monwrite("monwrite", b, duration=120, seed=4)
    assert a.read_bytes() == b.read_bytes()


@pytest.mark.parametrize(
    ("table", "fragment"),
    [
        ({"sample": {"system": False}}, "always sampled"),
        ({"sample": {"scheduler": True}}, "has no sample data"),
        ({"event": {"system": True}}, "has no event data"),
        ({"sample": {"disk": True}}, "unknown domain 'disk'"),
        ({"sample": {"user": "yes"}}, "true or false"),
        ({"sample": ["user"]}, "sample must be"),
    ],
)
def test_bad_domain_settings_are_one_line_errors(table, fragment) -> None:
    sc = load_scenario("pav-mdc")
    raw = {k: v for k, v in sc._raw.items() if k != "knobs"}
    raw = {**raw, "monitor": {**raw["monitor"], **table}}
    with pytest.raises(ZvmsimError, match=fragment):
        build_config(raw, load_calibration())


def test_health_check_says_no_data_for_what_was_not_collected() -> None:
    from zvmsim.lab.health import health_check

    run = reduce(zvmsim.simulate("monwrite", {"user_domain": "off"}, duration=120))
    frame = health_check(run)
    blind = frame[frame["verdict"] == "no data"]
    assert len(blind) >= 2 and blind["observed"].str.contains("USER domain").all()
    assert (frame[frame["report"].str.startswith("FCX126")]["verdict"] == "ok").all()
