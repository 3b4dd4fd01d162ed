"""The 6.3 talk's planning calculators."""

from __future__ import annotations

import pytest

import zvmsim
from zvmsim.lab import loading_capacity, paging_space, paging_space_for, reorder_delay


def test_ldubuf_q3_of_47_exposures_is_39_95_users() -> None:
    cap = loading_capacity(47, (100, 95, 85))
    assert cap.users[2] == pytest.approx(39.95)
    assert cap.first_held[2] == 40  # the 40th loading user in Q3 waits


def test_the_calculator_agrees_with_the_scheduler_report(run_data) -> None:
    run = run_data("memory63", workload="sweet-spot", release="6.3")
    row = zvmsim.report(run, "FCX154").frame.iloc[0]
    cap = loading_capacity(int(row["loading_capacity"]), (100, 95, 85))
    assert cap.users[2] == pytest.approx(row["loading_users3"])


def test_reorder_takes_about_a_second_for_8_gb() -> None:
    low, typical, high = reorder_delay(8.0)
    assert typical == pytest.approx(1.05, rel=0.02)  # ~130 ms per GB on a z10
    assert low == pytest.approx(0.6 * typical) and high == pytest.approx(1.4 * typical)


def test_paging_space_follows_the_talks_formula() -> None:
    plan = paging_space([4.0] * 10, central_gb=64.0, vdisks_gb=2.0, directory_pages=2621)
    assert plan.virtual_gb == pytest.approx(42.0)
    assert plan.with_pgmbks_gb == pytest.approx(42.42)
    assert plan.system_gb == pytest.approx(4.0)  # min(6.4, 4)
    assert plan.total_gb == pytest.approx((42.42 + 2621 / 262144 + 4.0) * 1.25)
    assert plan.volumes() == 9  # 3390-9s of 1,803,060 slots: 58 GB is 15.2 M pages
    assert paging_space([1.0], central_gb=8.0).system_gb == pytest.approx(0.8)
    assert len(plan.lines()) == 6


def test_paging_space_for_a_run(run_data) -> None:
    run = run_data("memory63", workload="sweet-spot", release="6.3")
    plan = paging_space_for(run)
    assert plan.virtual_gb == pytest.approx(2 * 10 + 4 * 4 + 6 * 0.5 + 6 * 1498 / 1024)
    assert plan.system_gb == pytest.approx(4.0)  # 10% of 48 GB is more than 4


@pytest.mark.parametrize("call", [lambda: loading_capacity(-1), lambda: reorder_delay(-1)])
def test_calculators_refuse_nonsense(call) -> None:
    with pytest.raises(ValueError):
        call()
