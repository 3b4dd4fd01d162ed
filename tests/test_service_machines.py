"""CMS service machines (dormant between wakes), USTAT's %ACT, and TCP's ACKs."""

from __future__ import annotations

import math
from functools import cache

import pytest

import zvmsim
from zvmsim.api import report
from zvmsim.calibration import load_calibration
from zvmsim.cp.vmdbk import Vmdbk
from zvmsim.cp.vswitch import VSwitch
from zvmsim.errors import ZvmsimError
from zvmsim.hardware.channels import Chpid
from zvmsim.perfkit import reduce


@cache
def _fine():
    return reduce(zvmsim.simulate("fine", {}, seed=1))


def _switch() -> VSwitch:
    cal = load_calibration()
    return VSwitch("VSW", "0600", "DTCVSW1", Chpid("11", "OSD", cal.channels["OSD"]), cal.vswitch)


def _ustat(userid: str):
    frame = report(_fine(), "FCX114").frame
    return frame[frame["userid"] == userid].iloc[0]


def test_a_service_machine_sleeps_between_its_wakes() -> None:
    perfsvm = _ustat("PERFSVM")
    assert 0 < perfsvm["pct_act"] < 20  # active only around its once-a-minute wake
    # of the samples that find it active (work since the sample before), many find
    # it already dropped after CP's test-idle time: the seed's %DM 60
    assert perfsvm["pct_dm"] > 30


def test_act_is_not_the_complement_of_dm() -> None:
    tcpip = _ustat("TCPIP")  # in queue throughout (stay), working only when woken
    assert tcpip["pct_dm"] == 0 and tcpip["pct_tiw"] > 90
    assert 0 < tcpip["pct_act"] < 20  # as the seed's: %TIW 99, %ACT 4
    svm = _ustat("SVM1")  # a request every 150 s on average: seldom active
    assert svm["pct_act"] < 5


def test_a_user_never_active_shows_dots() -> None:
    from zvmsim.perfkit.user import STATES, ustat_shares

    shares = ustat_shares({"hf_samples": 90, "hf_act": 0, **{f"hf_{s}": 0 for s in STATES}})
    assert shares["pct_act"] == 0 and math.isnan(shares["pct_dm"])


def test_the_system_row_weights_the_states_by_act() -> None:
    frame = report(_fine(), "FCX114").frame
    users, system = frame.iloc[1:], frame.iloc[0]
    act = users["pct_act"].fillna(0.0)
    assert system["pct_act"] == pytest.approx(act.mean())
    tiw = (users["pct_tiw"].fillna(0.0) * act).sum() / act.sum()
    assert system["pct_tiw"] == pytest.approx(tiw)  # seed 000: %TIW 71 from its users'


def test_a_service_machine_needs_a_reason_to_wake() -> None:
    from zvmsim.guests.service import CmsService

    machine = zvmsim.Machine(zvmsim.load_scenario("fine").config(), seed=1)
    vm = next(iter(machine.users.values()))
    with pytest.raises(ZvmsimError, match="timer_s or work_s"):
        CmsService(machine, vm, {"cpu_ms": 1.0}, machine.streams.stream("x"))


@pytest.mark.parametrize(
    ("nbytes", "acks"),
    [(100, (0, 1)), (1500, (0, 1)), (3000, (1, 0)), (4000, (1, 1)), (8192, (2, 1))],
)
def test_tcp_acks_every_second_full_segment(nbytes: int, acks: tuple[int, int]) -> None:
    assert _switch().acks(nbytes) == acks


def test_a_response_brings_its_acks_back() -> None:
    switch = _switch()
    user = Vmdbk("LINUX1")
    switch.exchange(user, 8192, 300, 52)
    # 6 segments out, 1 in; the far end ACKs 3 times, the guest's ACK rides the response
    assert (switch.out_packets, switch.in_packets) == (6, 1 + 3)
    assert switch.in_bytes == 300 + 3 * 52


def test_linux_waits_for_its_disk_io_as_io_active() -> None:
    """Linux starts its block I/O and idles in an enabled wait: CP samples I/O
    active (%IOA), never its synchronous I/O wait (%IOW), as the seed's guests show."""
    db2 = _ustat("LMRDB2P")
    assert db2["pct_iow"] == 0 and db2["pct_ioa"] > 0


def test_a_share_of_all_samples_weighs_in_act() -> None:
    import pandas as pd

    from zvmsim.perfkit.user import all_sample_share

    frame = pd.DataFrame({"pct_act": [2.0, 100.0, 0.0], "pct_cpu": [50.0, 3.0, float("nan")]})
    assert list(all_sample_share(frame, "pct_cpu")) == pytest.approx([1.0, 3.0, 0.0])


# ---- USTAT's "<-SVM and->" columns: %TI, %EL, %DM wait for a service machine ----


def test_the_sampler_files_svm_waits_apart_from_plain_ones() -> None:
    """CP keeps HFTSVM, HFESVM and HFDSVM apart from HFTIDL and HFDORM (MRUSEINT);
    an eligible user waiting for no service machine is what CP tests next."""
    from zvmsim.cp.vmdbk import DM, DORM, EL, LDG, OTH, TI, TIW

    machine = zvmsim.Machine(zvmsim.load_scenario("fine").config(), seed=1)
    sampled = machine.processors.sampled_state
    vm = Vmdbk("TESTER")
    for state, svm, loading, want in [
        (TIW, False, False, TIW),
        (TIW, True, False, TI),
        (DM, False, False, DORM),
        (DM, True, False, DM),
        (EL, True, False, EL),
        (EL, False, False, OTH),
        (EL, False, True, LDG),
    ]:
        vm.state, vm.svm_wait, vm.loading = state, svm, loading
        assert sampled(vm, 0.0) == want, (state, svm, loading)


def test_plain_dormant_samples_show_in_oth_and_the_shares_sum_to_100() -> None:
    from zvmsim.perfkit.user import STATES, ustat_shares

    counts = {f"hf_{s}": 0 for s in STATES}
    counts.update(hf_samples=10, hf_act=4, hf_tiw=1, hf_dm=1, hf_dorm=2)
    shares = ustat_shares(counts)
    assert shares["pct_dm"] == 25 and shares["pct_oth"] == 50  # 2 of the 4 filed
    assert sum(shares[f"pct_{s}"] for s in STATES) == pytest.approx(100)
    old = {k: v for k, v in counts.items() if k != "hf_dorm"}  # a file from before
    assert ustat_shares(old)["pct_oth"] == 0


def test_perfsvm_waits_for_monitor_and_other_servers_for_nobody() -> None:
    """PERFSVM idles waiting for *MONITOR's data (SVM wait): *SVM and* test idle or
    dormant, never plain test idle; a server woken by requests waits for nobody."""
    perfsvm = _ustat("PERFSVM")
    assert perfsvm["pct_tiw"] == 0 and perfsvm["pct_ti"] + perfsvm["pct_dm"] > 50
    frame = report(_fine(), "FCX114").frame
    servers = frame[frame["userid"].str.startswith("SVM") & (frame["pct_act"] > 0)]
    assert len(servers) > 0
    assert (servers["pct_dm"] == 0).all() and (servers["pct_ti"] == 0).all()
    assert (servers["pct_oth"] > 0).any()  # found dropped after a bit of work
