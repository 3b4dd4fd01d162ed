"""Undersized LPAR: which change cures what (seed 000, "Case Study: Undersized LPAR").

The customer got a third IFL, 52 GB of central storage and 40 paging
volumes at once. Taken one at a time in the simulator: the IFL alone spreads
the same paging over more processors; the storage alone stops the paging and
with it CP's unchargeable time; a sibling IFL partition that gets busy holds
one of the two shared IFLs, and VMLNX1's logical IFLs wait for it. The
seed's "after" figures come from another day with lighter guests
(workload_day=after).
"""

from __future__ import annotations

import zvmsim

AFTER = {"ifls": 3, "central_gb": 52, "paging_volumes": 40}  # the customer's upgrade


def _summary(run) -> dict:
    return zvmsim.report(run, "FCX225").frame.iloc[0].to_dict()


def _paging_queue(run) -> float:
    return float(zvmsim.report(run, "FCX109").frame["queue_len"].mean())


def _lpar(run, partition: str, column: str) -> float:
    frame = zvmsim.report(run, "FCX126").frame
    return float(frame[frame["partition"] == partition][column].mean())


def test_before_the_storage_is_tight_and_cp_pays_for_it(run_data) -> None:
    run = run_data("undersized-lpar")
    s = _summary(run)
    assert s["capture_ratio"] < 0.95  # CP's scanning and paging: no user is charged
    assert s["users_elist"] == 0  # STORBUF raised: no eligible list
    assert s["pgin_pgout"] > s["page_rate"] > 500  # XSTORE first, then DASD
    assert _paging_queue(run) > 1.0


def test_a_third_ifl_alone_does_not_cure_the_paging(run_data) -> None:
    before = _summary(run_data("undersized-lpar"))
    run = run_data("undersized-lpar", ifls=3)
    s = _summary(run)
    assert s["pct_busy"] < before["pct_busy"] * 0.8  # the same work over three IFLs
    assert s["tv_ratio"] > 1.1  # ... and the same overhead
    assert s["page_rate"] > 0.8 * before["page_rate"]
    assert _paging_queue(run) > 1.0


def test_storage_alone_mostly_cures_it(run_data) -> None:
    run = run_data("undersized-lpar", central_gb=52)
    s = _summary(run)
    assert s["tv_ratio"] < 1.06
    assert s["capture_ratio"] > 0.97
    assert s["page_rate"] < 10
    assert _paging_queue(run) < 0.2


def test_the_full_upgrade_has_no_paging_queues(run_data) -> None:
    run = run_data("undersized-lpar", **AFTER)
    assert _paging_queue(run) < 0.2
    assert _summary(run)["online"] == 3


def test_the_seeds_after_day_had_lighter_guests(run_data) -> None:
    """The seed's "after" reports are another day's, whose guests used about half
    the virtual CPU: with that day's demand (workload_day=after) the upgrade is
    about half as busy as with the before day's, and T/V is a little higher, as
    the guests' timer interrupts cost CP the same over less virtual time."""
    same = _summary(run_data("undersized-lpar", **AFTER))
    run = run_data("undersized-lpar", **AFTER, workload_day="after")
    day = _summary(run)
    assert day["pct_busy"] < 0.6 * same["pct_busy"]
    assert day["tv_ratio"] > same["tv_ratio"]
    assert day["page_rate"] < 10 and _paging_queue(run) < 0.2  # the storage cures both days
    # VMLNX3 was busier that day too (the seed's FCX126: 2.9% on each logical IFL)
    assert 2.5 < _lpar(run, "VMLNX3", "pct_busy") < 3.3


def test_a_busy_sibling_partition_makes_the_cpu_constraint_ibm_warned_of(run_data) -> None:
    quiet = run_data("undersized-lpar")
    busy = run_data("undersized-lpar", sibling_busy=1.0)
    assert _lpar(quiet, "VMLNX3", "pct_busy") < 5
    # the seed's CEC has 2 IFLs for 4 logical ones: a hungry VMLNX3 holds its
    # weight's share (500 of 1000: one IFL, half of each logical IFL's time)
    assert 40 < _lpar(busy, "VMLNX3", "pct_busy") < 60
    # ... and whenever it holds a physical IFL that VMLNX1 wants, a logical IFL of
    # VMLNX1 waits (the seed: "If VMLNX3 ever gets hungry, there is going to be a
    # CPU constraint"): far more suspended, less work done
    assert _lpar(busy, "VMLNX1", "pct_susp") > 10 * _lpar(quiet, "VMLNX1", "pct_susp")
    assert _lpar(busy, "VMLNX1", "pct_busy") < _lpar(quiet, "VMLNX1", "pct_busy") - 3
    lpar = zvmsim.report(busy, "FCX126").frame
    ifl = lpar[lpar["pu_type"] == "IFL"]
    assert ifl["pct_busy"].sum() <= 200 * 1.01  # the pool's two physical IFLs


def test_the_guests_do_their_own_dasd_io_beside_the_paging(run_data) -> None:
    """About 100 I/Os a second on the guests' own volumes, in the seed's before and
    after SYSSUMLG alike; the paging is what the storage changes."""
    for knobs in ({}, {**AFTER, "workload_day": "after"}):
        run = run_data("undersized-lpar", **knobs)
        frame = zvmsim.report(run, "FCX108").frame
        own = frame[frame["volser"].str.startswith("LXD")]
        assert len(own) == 4 and 80 < own["io_rate"].sum() < 120
    after = _summary(run)
    assert after["page_rate"] < 10 and 80 < after["ssch_rate"] < 130


def test_linux_guests_are_seen_io_active_not_in_io_wait(run_data) -> None:
    frame = zvmsim.report(run_data("undersized-lpar"), "FCX114").frame
    guests = frame[frame["userid"].str.startswith("LNX")]
    assert (guests["pct_iow"] == 0).all() and guests["pct_ioa"].mean() > 0


def test_settled_servers_write_to_dasd_what_they_read_back(run_data) -> None:
    """The guests' 2 GB in use have settled (their footprint): they touch none of
    their other pages, so CP writes to DASD about as many pages as it reads back
    (the seed's 18.3 and 23.6 a volume), and their storage in use stays 2 GB."""
    run = run_data("undersized-lpar")
    volumes = zvmsim.report(run, "FCX109").frame
    reads, writes = volumes["page_reads"].sum(), volumes["page_writes"].sum()
    assert 0.8 < writes / reads < 1.25
    upage = zvmsim.report(run, "FCX113").frame
    guests = upage[upage["userid"].str.startswith("LNX")]
    in_use = (guests["resident"] + guests["xstor"] + guests["dasd"]) / 256  # MB
    assert (in_use < 2048 + 1).all() and (in_use > 2040).all()


def test_linux_draws_are_randoms_own() -> None:
    """The Linux servers' own-I/O draws (linux.below, linux.exponential) are
    randrange's and expovariate's values from the same stream."""
    import random

    import pytest

    from zvmsim.guests.linux import below, exponential

    ours, theirs = random.Random(7), random.Random(7)
    for n in (1, 2, 3, 5, 8, 1000, 2**20 + 1, 3339 * 15):
        for _ in range(200):
            assert below(ours, n) == theirs.randrange(n)
            assert exponential(ours, 0.5 + n) == theirs.expovariate(0.5 + n)
    with pytest.raises(ValueError):
        below(ours, 0)
