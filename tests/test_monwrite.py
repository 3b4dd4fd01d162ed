"""MONWRITE files: the F 4096 layout, streaming, and a reader that is never fooled.

The property tests feed the reader random files and mutated good files: it
must either give back exactly the records written or say what is wrong in a
ZvmsimError — never crash, never decode damage into other numbers. Salvaging,
it may only drop whole record sets.
"""

from __future__ import annotations

import io
import struct

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import zvmsim
from zvmsim.api import monwrite
from zvmsim.cli import main
from zvmsim.errors import ZvmsimError
from zvmsim.monitor.monread import MonwriteError, MonwriteReader
from zvmsim.monitor.monwrite import BLOCK, MAX_FRAMES, TRAILER_AT, MonwriteWriter
from zvmsim.monitor.records import (
    MRMTREND,
    MRMTREPR,
    MRMTRSPR,
    MRMTRSYS,
    MRSCLADL,
    MRSYTSYG,
    MRUSEACT,
    domain_mask,
)

TOD0 = 0xC05290D920800000


def synthetic(sets: int = 3, users: int = 12, events: int = 30) -> list:
    """A small monitor stream: configuration, then sample sets with events between."""
    out = [
        MRMTRSYS(
            tod=TOD0,
            sysid="TESTVM",
            cpu_model="2094-S18",
            serial="1",
            zvm_level="5.2.0",
            title="test",
            processors=2,
        ),
        MRMTRSPR(tod=TOD0, interval_ms=10_000, hf_rate_cs=100, sample_domains=domain_mask(0, 1, 4)),
        MRMTREPR(tod=TOD0, event_domains=domain_mask(2)),
    ]
    for k in range(sets):
        tod = TOD0 + k * 10_000_000 * 4096
        if k:
            out += [
                MRSCLADL(tod=tod - (events - i) * 4096 * 1000, userid=f"U{i % users}")
                for i in range(events)
            ]
        out.append(MRSYTSYG(tod=tod, logged=users, hf_samples=10 * k, hf_dispatch=7 * k))
        out += [
            MRUSEACT(tod=tod, userid=f"U{u}", tcpu_us=1000 * k * u, hf_samples=10 * k)
            for u in range(users)
        ]
        out.append(MRMTREND(tod=tod, interval=k))
    return out


def as_file(records: list) -> bytes:
    out = io.BytesIO()
    with MonwriteWriter(out) as writer:
        writer.extend(records)
    return out.getvalue()


RECORDS = synthetic()
GOOD = as_file(RECORDS)
GOOD_SETS = [(s.number, s.records) for s in MonwriteReader(GOOD).sets()]


# ---- layout ---------------------------------------------------------------------


def test_layout_is_ibm_control_records_and_pages_with_our_trailer() -> None:
    assert len(GOOD) % BLOCK == 0
    sets = list(MonwriteReader(GOOD).sets())
    assert [s.kind for s in sets] == [
        "configuration", "sample", "event", "sample", "event", "sample"
    ]  # fmt: skip
    for s in sets:  # every set: one control record (MWTBK) then its pages
        control = GOOD[s.first_block * BLOCK : (s.first_block + 1) * BLOCK]
        assert control[0x28] == (0xC5 if s.kind == "event" else 0xE2)  # MWTCAFLG
        assert control[TRAILER_AT : TRAILER_AT + 8] == "ZVMSIM  ".encode("cp500")
        start, end = struct.unpack_from(">II", control, 0x2C)  # MWTCASTR, MWTCAEND
        assert s.blocks == 1 + (end >> 12) - (start >> 12) + 1
    assert sets[0].first_block == 0 and {type(r) for r in sets[0].records} == {
        MRMTRSYS, MRMTRSPR, MRMTREPR
    }  # fmt: skip
    assert all(type(s.records[-1]) is MRMTREND for s in sets if s.kind == "sample")
    assert all(type(r) is MRSCLADL for s in sets if s.kind == "event" for r in s.records)
    reader = MonwriteReader(GOOD)
    assert list(reader) == RECORDS and reader.complete and reader.sysid == "TESTVM"
    assert not reader.ibm and reader.skipped_line() == ""


def test_a_set_larger_than_one_control_block_continues() -> None:
    users = 12 * MAX_FRAMES  # about 11 user records fit in a frame
    big = synthetic(sets=2, users=users, events=0)
    back = list(MonwriteReader(as_file(big)).sets())
    assert [len(s.records) for s in back] == [3, users + 2, users + 2]
    assert back[1].blocks > MAX_FRAMES + 1  # two control blocks for one set
    assert [r for s in back for r in s.records] == big


def test_simulated_run_round_trips_and_streams_the_same_bytes(tmp_path) -> None:
    data = zvmsim.simulate("pav-mdc", {"mdc": "on"}, duration=20)
    raw = data.to_bytes()
    assert zvmsim.MonitorData.from_bytes(raw).records == data.records
    path = tmp_path / "pav.mon"
    done = monwrite("pav-mdc", path, {"mdc": "on"}, duration=20)
    assert path.read_bytes() == raw
    assert done.records == len(data) and done.bytes == len(raw) == done.blocks * BLOCK


def test_writer_refuses_records_after_close() -> None:
    writer = MonwriteWriter(io.BytesIO())
    writer.close()
    with pytest.raises(ZvmsimError, match="closed"):
        writer.write(RECORDS[0])


# ---- damage, named by block and offset ------------------------------------------


def _flip(raw: bytes, at: int) -> bytes:
    return raw[:at] + bytes([raw[at] ^ 0x10]) + raw[at + 1 :]


@pytest.mark.parametrize(
    ("mutate", "block", "fragment"),
    [
        (lambda r: r[: 3 * BLOCK + 100], 3, "cut short"),
        (lambda r: r[: 3 * BLOCK], 3, "cut short"),
        (lambda r: r[:-BLOCK], len(GOOD) // BLOCK - 1, "inside a record set: it was cut short"),
        (lambda r: r[: 5 * BLOCK], 5, "last control record (MONWSTOP): it was cut short"),
        (lambda r: _flip(r, 2 * BLOCK + 40), 2, "checksum"),
        (lambda r: _flip(r, BLOCK + 20), 1, "checksum"),
        (lambda r: r[: 2 * BLOCK] + r[3 * BLOCK :], 2, "not a control record"),
        (lambda r: r[BLOCK:], 0, "not a MONWRITE file"),
        (lambda r: r + r[-BLOCK:], len(GOOD) // BLOCK, "after MONWRITE's last record set"),
        (lambda r: b"PK\x03\x04" + bytes(BLOCK - 4), 0, "not a MONWRITE file"),
        (lambda r: b"", 0, "empty"),
    ],
)
def test_damage_is_one_error_naming_block_and_offset(mutate, block, fragment) -> None:
    with pytest.raises(MonwriteError) as info:
        list(MonwriteReader(mutate(GOOD)))
    assert info.value.block == block and fragment in str(info.value)
    assert f"block {block} (offset {info.value.offset})" in str(info.value)
    assert "\n" not in str(info.value)


def test_salvage_drops_whole_sets_and_says_where() -> None:
    third_set = next(s for s in MonwriteReader(GOOD).sets() if s.number == 4)
    damaged = _flip(GOOD, (third_set.first_block + 1) * BLOCK + 300)
    reader = MonwriteReader(damaged, salvage=True)
    got = [(s.number, s.records) for s in reader.sets()]
    assert got == [pair for pair in GOOD_SETS if pair[0] != 4]
    assert [d.block for d in reader.damage] == [third_set.first_block + 1]
    run = zvmsim.perfkit.reduce(iter([r for _, recs in got for r in recs]))
    assert [iv.seconds for iv in run.intervals] == [20.0]  # one longer interval, true deltas


# ---- properties -----------------------------------------------------------------

PROPERTY = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _strict_outcome(raw: bytes) -> list | None:
    """The records read, or None for a clear error; anything else fails the test."""
    try:
        return list(MonwriteReader(raw))
    except ZvmsimError as exc:
        assert "\n" not in str(exc)
        return None


def _salvage_is_honest(raw: bytes) -> None:
    reader = MonwriteReader(raw, salvage=True)
    try:
        got = [(s.number, s.records) for s in reader.sets()]
    except ZvmsimError:
        return
    assert all(pair in GOOD_SETS for pair in got)  # whole original sets, never altered
    numbers = [n for n, _ in got]
    assert numbers == sorted(set(numbers))


@PROPERTY
@given(st.binary(max_size=3 * BLOCK))
def test_random_bytes_never_crash_the_reader(raw: bytes) -> None:
    assert _strict_outcome(raw) in (None, [])
    _salvage_is_honest(raw)


@PROPERTY
@given(st.binary(min_size=BLOCK - 16, max_size=BLOCK - 16))
def test_a_random_page_behind_a_good_control_record_is_refused(tail: bytes) -> None:
    raw = GOOD[:BLOCK] + GOOD[BLOCK : BLOCK + 16] + tail + GOOD[2 * BLOCK :]
    assert _strict_outcome(raw) in (None, RECORDS)


mutations = st.one_of(
    st.tuples(st.just("flip"), st.integers(0, len(GOOD) - 1), st.integers(0, 7)),
    st.tuples(st.just("set"), st.integers(0, len(GOOD) - 1), st.integers(0, 255)),
    st.tuples(st.just("cut"), st.integers(0, len(GOOD) - 1), st.just(0)),
    st.tuples(st.just("drop"), st.integers(0, len(GOOD) - 1), st.integers(1, 2 * BLOCK)),
    st.tuples(st.just("insert"), st.integers(0, len(GOOD)), st.integers(1, BLOCK)),
    st.tuples(st.just("swap"), st.integers(0, len(GOOD) // BLOCK - 1), st.integers(1, 4)),
    st.tuples(st.just("repeat"), st.integers(0, len(GOOD) // BLOCK - 1), st.just(0)),
)


def _mutate(raw: bytes, how: str, at: int, arg: int) -> bytes:
    if how == "flip":
        return raw[:at] + bytes([raw[at] ^ (1 << arg)]) + raw[at + 1 :]
    if how == "set":
        return raw[:at] + bytes([arg]) + raw[at + 1 :]
    if how == "cut":
        return raw[:at]
    if how == "drop":
        return raw[:at] + raw[at + arg :]
    if how == "insert":
        return raw[:at] + bytes([at % 251]) * arg + raw[at:]
    blocks = [raw[i : i + BLOCK] for i in range(0, len(raw), BLOCK)]
    at %= len(blocks)
    if how == "swap":
        other = min(len(blocks) - 1, at + arg)
        blocks[at], blocks[other] = blocks[other], blocks[at]
    else:  # repeat
        blocks.insert(at, blocks[at])
    return b"".join(blocks)


@PROPERTY
@given(st.lists(mutations, min_size=1, max_size=3))
def test_a_mutated_file_is_read_exactly_or_refused(changes) -> None:
    raw = GOOD
    for how, at, arg in changes:
        if raw:
            raw = _mutate(raw, how, at if how in ("swap", "repeat") else at % len(raw), arg)
    got = _strict_outcome(raw)
    if raw == GOOD:
        assert got == RECORDS
    else:
        assert got is None, "a changed file was read without complaint"
    _salvage_is_honest(raw)


# ---- the command line -----------------------------------------------------------


def _cli(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    path = tmp_path_factory.mktemp("mon") / "pav.mon"
    assert main(["monwrite", "pav-mdc", "-o", str(path), "--duration", "40"]) == 0
    return path


def test_cli_damaged_file_exit_2_then_salvage(capsys, saved, tmp_path) -> None:
    sets = list(MonwriteReader(saved).sets())
    victim = next(s for s in sets if s.kind == "sample" and s.number > 2)
    bad = tmp_path / "bad.mon"
    bad.write_bytes(_flip(saved.read_bytes(), (victim.first_block + 1) * BLOCK + 64))
    code, out, err = _cli(capsys, "report", "--from", str(bad), "FCX108")
    where = f"block {victim.first_block + 1} (offset {(victim.first_block + 1) * BLOCK})"
    assert code == 2 and out == "" and err.count("\n") == 1
    assert err.startswith(f"zvmsim: error: {bad}: {where}") and "--salvage" in err
    code, out, err = _cli(capsys, "report", "--from", str(bad), "FCX108", "--salvage")
    assert code == 0 and "E700" in out
    assert err.startswith(f"zvmsim: warning: {bad}: damaged data skipped at {where}")
    assert err.count("\n") == 1
    # cumulative counters: losing a middle set leaves the whole run's figures as they were,
    whole = _cli(capsys, "report", "--from", str(saved), "FCX108", "FCX168")[1].split("FCX168")
    part = _cli(capsys, "report", "--from", str(bad), "FCX108", "FCX168", "--salvage")[1]
    assert part.split("FCX168")[0] == whole[0]
    assert part.split("FCX168")[1] != whole[1]  # but the by-time report has one row fewer


def test_cli_salvage_needs_a_file(capsys) -> None:
    code, _, err = _cli(capsys, "report", "pav-mdc", "FCX108", "--salvage")
    assert code == 2 and "--from" in err


def test_cli_monwrite_says_what_it_wrote(capsys, tmp_path) -> None:
    path = tmp_path / "p.mon"
    code, out, _ = _cli(capsys, "monwrite", "pav-mdc", "-o", str(path), "--duration", "10")
    assert code == 0 and "blocks of 4096 bytes" in out and path.stat().st_size % BLOCK == 0
    code, _, err = _cli(capsys, "monwrite", "pav-mdc", "-o", str(tmp_path / "no" / "x.mon"))
    assert code == 2 and "cannot write" in err
