"""The run cache: a run read back from disk gives byte-identical reports."""

from __future__ import annotations

import pickle
import threading
import time
from pathlib import Path

import pytest

import zvmsim
from zvmsim import runcache
from zvmsim.warmup import main as warmup_main

KNOBS = {"aliases": 1, "mdc": "on"}


def _fcx108(data) -> str:
    return zvmsim.report(data, "FCX108").text


@pytest.fixture()
def cache(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    monkeypatch.setattr(runcache, "ENABLED", True)  # off in the suite's own process
    monkeypatch.setenv(runcache.ENV, str(tmp_path))
    return tmp_path


def test_off_unless_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(runcache, "ENABLED", True)
    monkeypatch.delenv(runcache.ENV, raising=False)
    assert runcache.folder() is None


def test_the_suite_itself_always_simulates() -> None:
    assert not runcache.ENABLED and runcache.folder() is None


def test_a_cached_run_reports_byte_for_byte_what_a_fresh_one_does(cache: Path) -> None:
    told: list[float] = []
    first = zvmsim.simulate("pav-mdc", KNOBS, duration=60)
    assert len(list(cache.glob("*.pickle"))) == 1
    again = zvmsim.simulate("pav-mdc", KNOBS, duration=60, progress=told.append)
    assert again is not first and told == [1.0]  # read from disk; the progress bar completes
    assert _fcx108(again) == _fcx108(first)
    other_seed = zvmsim.simulate("pav-mdc", KNOBS, seed=2, duration=60)
    assert len(list(cache.glob("*.pickle"))) == 2 and _fcx108(other_seed) != _fcx108(first)


def test_a_reduced_run_is_kept_whole_and_reports_as_a_fresh_one(cache: Path) -> None:
    """The lab's runs keep what Perfkit reduced, records inside: read back, not reduced again."""
    told: list[float] = []
    fresh = zvmsim.reduced_run("pav-mdc", KNOBS, duration=60)
    again = zvmsim.reduced_run("pav-mdc", KNOBS, duration=60, progress=told.append)
    assert again is not fresh and told == [1.0] and len(list(cache.glob("*.pickle"))) == 1
    records = zvmsim.simulate("pav-mdc", KNOBS, duration=60)
    assert _fcx108(again) == _fcx108(fresh) == _fcx108(records)


def test_one_run_in_other_words_is_one_entry(cache: Path) -> None:
    """A knob at its default, or the scenario's own duration spelled out, keys the same run."""
    first = zvmsim.reduced_run("pav-mdc", {"mdc": "on"}, duration=60)
    spelled = zvmsim.reduced_run("pav-mdc", {"mdc": True, "vm64199": "off"}, duration=60.0)
    assert len(list(cache.glob("*.pickle"))) == 1 and _fcx108(spelled) == _fcx108(first)
    own = zvmsim.load_scenario("pav-mdc").config({}).duration
    zvmsim.simulate("pav-mdc", seed=3)
    zvmsim.simulate("pav-mdc", {"mdc": "off"}, seed=3, duration=own)
    assert len(list(cache.glob("*.pickle"))) == 2


def test_a_run_with_records_stored_is_reduced_from_them(
    cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    records = zvmsim.simulate("pav-mdc", KNOBS, duration=60)
    monkeypatch.setattr(zvmsim.Machine, "run", lambda *a, **k: pytest.fail("simulated again"))
    assert _fcx108(zvmsim.reduced_run("pav-mdc", KNOBS, duration=60)) == _fcx108(records)


def test_a_run_being_made_is_waited_for_not_made_twice(cache: Path) -> None:
    """Two asking for one run at once (two students, two test workers): one makes it."""
    started, release = threading.Event(), threading.Event()
    made: list[str] = []

    def slow() -> str:
        made.append("slow")
        started.set()
        release.wait(10)
        return "the run"

    first: list[str] = []
    maker = threading.Thread(target=lambda: first.append(runcache.cached_run(("x",), slow)))
    maker.start()
    started.wait(10)
    waiter = threading.Thread(
        target=lambda: first.append(runcache.cached_run(("x",), lambda: made.append("twice")))
    )
    waiter.start()
    time.sleep(0.3)  # the waiter reaches the lock while the run is being made
    release.set()
    maker.join(10)
    waiter.join(10)
    assert made == ["slow"] and first == ["the run", "the run"]


def test_records_pickle_as_their_fields() -> None:
    """A record pickles as its class and field values (Record.__reduce__) and reads
    back equal, whatever its class: every record a run makes, once each."""
    records = zvmsim.simulate("pav-mdc", KNOBS, duration=60).records
    one_of_each = list({type(r): r for r in records}.values())
    assert len(one_of_each) > 10
    for record in one_of_each:
        assert pickle.loads(pickle.dumps(record, pickle.HIGHEST_PROTOCOL)) == record


def test_a_change_to_the_code_misses_the_cache(
    cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    zvmsim.simulate("pav-mdc", KNOBS, duration=60)
    monkeypatch.setattr(runcache, "fingerprint", lambda: "another version of zvmsim")
    zvmsim.simulate("pav-mdc", KNOBS, duration=60)
    assert len(list(cache.glob("*.pickle"))) == 2


def test_a_damaged_entry_is_simulated_again(cache: Path) -> None:
    fresh = _fcx108(zvmsim.simulate("pav-mdc", KNOBS, duration=60))
    (entry,) = cache.glob("*.pickle")
    entry.write_bytes(b"not a pickle")
    assert _fcx108(zvmsim.simulate("pav-mdc", KNOBS, duration=60)) == fresh
    assert entry.read_bytes() != b"not a pickle"  # rewritten


def test_a_bad_knob_is_still_refused_and_nothing_is_stored(cache: Path) -> None:
    with pytest.raises(zvmsim.ZvmsimError, match="no-such-knob"):
        zvmsim.simulate("pav-mdc", {"no-such-knob": 1})
    assert not list(cache.glob("*.pickle"))


def test_the_folder_keeps_its_newest_entries(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(runcache, "MAX_ENTRIES", 2)
    for seed in (1, 2, 3):
        zvmsim.simulate("pav-mdc", KNOBS, seed=seed, duration=30)
    assert len(list(cache.glob("*.pickle"))) == 2


def test_warmup_without_a_cache_says_so_in_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    monkeypatch.delenv(runcache.ENV, raising=False)
    assert warmup_main([]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and runcache.ENV in err
