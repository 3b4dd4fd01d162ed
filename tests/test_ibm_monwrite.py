"""Reading a MONWRITE file as a real z/VM system writes it (issue 19, part 3).

The files here come from ``tests/ibm_monwrite.py``, a hand-written encoder
of IBM's documented container, with zvmsim's record bytes inside and
records zvmsim has no class for mixed in. The reader must reduce the
records it knows, count and skip the others, and still refuse a damaged or
truncated file (or, salvaging, drop just the damaged message).
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ibm_monwrite import EVENT, PAGE, SAMPLE, monwrite_file, record
from test_monwrite import RECORDS, TOD0, as_file, synthetic

import zvmsim
from zvmsim.cli import main
from zvmsim.errors import ZvmsimError
from zvmsim.monitor.monread import MonwriteError, MonwriteReader, is_monwrite
from zvmsim.monitor.records import MRUSEACT, RECORD_TYPES

# (domain, record) pairs CP writes that zvmsim has no class for (whichever are still unknown)
UNKNOWN = [p for p in [(0, 2), (5, 10), (2, 9), (0, 12), (3, 2), (8, 1)] if p not in RECORD_TYPES]
EVENT_DOMAINS = {2, 7}


def messages(records: list, extra: int = 0) -> list:
    """CP's messages for *records*: configuration, then sample and event data as they come.

    *extra* unknown records go into every message (half of one type, half of another).
    """
    out: list = []
    kind, group = SAMPLE, []

    def close() -> None:
        if group:
            tod = int.from_bytes(group[0][8:16], "big")
            unknown = [record(*UNKNOWN[i % 2], tod, bytes(16 + 8 * (i % 3))) for i in range(extra)]
            out.append((kind, [unknown[: extra // 2] + group + unknown[extra // 2 :]]))
            group.clear()

    configured = False
    for rec in records:
        if not configured and rec.DOMAIN == 0:
            close()
            configured = True
        now = EVENT if configured and rec.DOMAIN in EVENT_DOMAINS else SAMPLE
        if now != kind:
            close()
        kind = now
        group.append(rec.to_bytes())
        if (rec.DOMAIN, rec.NUMBER) == (1, 11):
            close()
    close()
    return out


def test_a_real_systems_file_is_read_and_unknown_records_counted() -> None:
    msgs = messages(RECORDS, extra=4)
    raw = monwrite_file(msgs)
    assert is_monwrite(raw)
    reader = MonwriteReader(raw)
    sets = list(reader.sets())
    assert reader.ibm and not reader.complete
    assert [r for s in sets for r in s.records] == RECORDS  # the known ones, in order
    assert [s.kind for s in sets] == [
        "configuration", "sample", "event", "sample", "event", "sample"
    ]  # fmt: skip
    assert reader.sysid == "TESTVM"
    assert reader.skipped == {UNKNOWN[0]: 2 * len(msgs), UNKNOWN[1]: 2 * len(msgs)}
    (d0, r0), (d1, r1) = sorted(UNKNOWN[:2])  # equal counts: named in (domain, record) order
    assert reader.skipped_line() == (
        f"skipped {4 * len(msgs)} records zvmsim does not reduce: "
        f"D{d0} R{r0} (x{2 * len(msgs)}), D{d1} R{r1} (x{2 * len(msgs)})"
    )


def test_records_may_start_inside_a_page_span_pages_and_share_a_control_record() -> None:
    users = synthetic(sets=2, users=80, events=0)  # sample sets of several pages
    msgs = messages(users, extra=2)
    spanning = monwrite_file(msgs, offset=40, span=True)
    assert list(MonwriteReader(spanning)) == users
    # two control entries in one control record: a message whose data lies in two places
    kind, (group,) = msgs[1]
    half = len(group) // 2
    two = monwrite_file([msgs[0], (kind, [group[:half], group[half:]]), *msgs[2:]])
    assert list(MonwriteReader(two)) == users


def test_a_record_of_another_length_is_counted_not_decoded() -> None:
    rec = next(r for r in RECORDS if type(r) is MRUSEACT)
    raw = rec.to_bytes()
    short = (len(raw) - 8).to_bytes(2, "big") + raw[2:-8]
    msgs = messages(RECORDS)
    kind, (group,) = msgs[1]
    msgs[1] = (kind, [[short if r == raw else r for r in group]])
    reader = MonwriteReader(monwrite_file(msgs))
    assert list(reader) == [r for r in RECORDS if r is not rec]
    assert reader.misfits == {(4, 3): 1} and "length" in reader.skipped_line()


def test_damage_in_a_real_systems_file_is_still_named_and_salvaged() -> None:
    msgs = messages(RECORDS, extra=2)
    raw = monwrite_file(msgs)
    with pytest.raises(MonwriteError, match="cut short"):
        list(MonwriteReader(raw[: 3 * PAGE + 100]))
    with pytest.raises(MonwriteError, match="inside a record set"):
        list(MonwriteReader(raw[:-PAGE]))
    sets = list(MonwriteReader(raw).sets())
    page = sets[3].first_block + 1  # the first page of the fourth message
    bad = bytearray(raw)
    bad[page * PAGE + 2] = 0x55  # MRHDRZER of its first record: not a monitor record
    with pytest.raises(MonwriteError) as info:
        list(MonwriteReader(bytes(bad)))
    assert info.value.block == page and "no valid monitor record" in str(info.value)
    reader = MonwriteReader(bytes(bad), salvage=True)
    assert [s.records for s in reader.sets()] == [s.records for s in sets if s.number != 4]
    assert [d.block for d in reader.damage] == [page]


def test_report_from_a_real_systems_file_is_the_live_one_and_says_what_it_skipped(
    capsys, tmp_path
) -> None:
    data = zvmsim.simulate("pav-mdc", {"mdc": "on"}, duration=20)
    ours, ibm = tmp_path / "ours.mon", tmp_path / "ibm.mon"
    ours.write_bytes(as_file(data.records))
    ibm.write_bytes(monwrite_file(messages(data.records, extra=6)))
    assert main(["report", "--from", str(ours), "FCX108", "FCX225"]) == 0
    want = capsys.readouterr()
    assert want.err == ""
    assert main(["report", "--from", str(ibm), "FCX108", "FCX225"]) == 0
    got = capsys.readouterr()
    assert got.out == want.out
    assert got.err.count("\n") == 1
    assert got.err.startswith(f"zvmsim: note: {ibm}: skipped ") and "does not reduce: D" in got.err


IBM_FILE = monwrite_file(messages(RECORDS, extra=2))
IBM_SETS = [s.records for s in MonwriteReader(IBM_FILE).sets()]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(
        st.tuples(
            st.sampled_from(["flip", "cut", "drop"]),
            st.integers(0, len(IBM_FILE) - 1),
            st.integers(0, 7),
        ),
        min_size=1,
        max_size=3,
    )
)
def test_a_mutated_real_systems_file_is_read_or_refused_in_one_line(changes) -> None:
    raw = IBM_FILE
    for how, at, arg in changes:
        at %= max(1, len(raw))
        if how == "flip" and raw:
            raw = raw[:at] + bytes([raw[at] ^ (1 << arg)]) + raw[at + 1 :]
        elif how == "cut":
            raw = raw[:at]
        else:
            raw = raw[:at] + raw[at + PAGE :]
    try:
        list(MonwriteReader(raw))
    except ZvmsimError as exc:
        assert "\n" not in str(exc)
    reader = MonwriteReader(raw, salvage=True)
    try:
        got = [s.records for s in reader.sets()]
    except ZvmsimError:
        return
    if raw[: len(IBM_FILE)] == IBM_FILE:  # only added: every original set comes back
        assert got[: len(IBM_SETS)] == IBM_SETS


def test_random_pages_behind_an_ibm_control_record_never_crash() -> None:
    rnd = random.Random(19)
    head = monwrite_file([(SAMPLE, [[record(1, 4, TOD0, bytes(8))]])])[:PAGE]
    for _ in range(40):
        raw = head + rnd.randbytes(rnd.randrange(1, 3 * PAGE))
        for salvage in (False, True):
            try:
                list(MonwriteReader(raw, salvage=salvage))
            except ZvmsimError as exc:
                assert "\n" not in str(exc)
