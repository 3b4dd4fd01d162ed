"""PTRM spaces: guests' DAT tables in CP-owned spaces, 16 (8 TB) on 6.2, 128 (64 TB) on 6.3."""

from __future__ import annotations

import random

import pytest

from zvmsim.calibration import load_calibration
from zvmsim.cp.ptrm import PtrmSpaces
from zvmsim.cp.spaces import Space
from zvmsim.errors import ZvmsimError
from zvmsim.machine import Machine
from zvmsim.perfkit import reduce
from zvmsim.perfkit.catalog import find_report
from zvmsim.scenario import load_scenario

GB = 2**18  # pages


def _guest(name: str, gb: float, backed_gb: float = 0.0) -> Space:
    space = Space(name, name, "guest", int(gb * GB), random.Random(1))
    space.resident = int(backed_gb * GB)
    return space


def test_one_space_maps_8_tb_over_16() -> None:
    model = load_calibration().ptrm
    assert model.space_pages == 512 * GB
    assert (model.spaces_62, model.spaces_63) == (16, 128)


def test_62_creates_spaces_as_guests_log_on_and_63_all_at_ipl() -> None:
    model = load_calibration().ptrm
    p62, p63 = PtrmSpaces(model, (6, 2)), PtrmSpaces(model, (6, 3))
    assert len(p62.spaces) == 0 and len(p63.spaces) == 128
    assert p63.spaces[-1].name == "PTRM007F"
    for p in (p62, p63):
        p.logon(_guest("BIG", 700, backed_gb=600))  # runs on into a second space
        p.logon(_guest("SMALL", 10))
    assert len(p62.spaces) == 2 and len(p63.spaces) == 128
    first, second = p62.spaces[0], p62.spaces[1]
    assert (first.users, second.users) == (1, 2)
    assert first.mapped == 512 * GB and second.mapped == 198 * GB
    # PGMBK pages (8 KB per 1 MB segment) of backed segments only
    assert first.resident == 512 * 1024 * 2 and second.resident == 88 * 1024 * 2
    assert first.pages == 512 * 1024 * 2


def test_logged_on_virtual_beyond_the_release_limit_is_refused() -> None:
    model = load_calibration().ptrm
    p62 = PtrmSpaces(model, (6, 2))
    for i in range(8):
        p62.logon(_guest(f"G{i}", 1024))  # 8 TB: exactly what 6.2 addresses
    assert len(p62.spaces) == 16
    with pytest.raises(ZvmsimError, match=r"exceeds the 8 TB z/VM 6.2 .* 16 PTRM spaces"):
        p62.logon(_guest("ONEMORE", 1))
    p63 = PtrmSpaces(model, (6, 3))
    for i in range(9):
        p63.logon(_guest(f"G{i}", 1024))  # 9 TB fits on 6.3
    with pytest.raises(ZvmsimError, match=r"64 TB z/VM 6.3 .* 128 PTRM spaces"):
        p63.logon(_guest("HUGE", 56 * 1024))


@pytest.mark.parametrize("release", ["6.3", "6.2"])
def test_fcx134_shows_the_ptrm_spaces(release: str) -> None:
    config = load_scenario("memory63").config({"release": release}, duration=10, interval=10)
    m = Machine(config, seed=1)
    data = m.run()
    frame = find_report("FCX134").make(reduce(data)).frame
    names = list(frame["name"])
    assert set(frame["owner"]) == {"SYSTEM"}
    mapped = sum(s.pages for s in m.storage.spaces if s.kind == "guest") / 256 / 1024
    if release == "6.3":
        assert len(names) == 128 and names[0] == "PTRM0000" and names[-1] == "PTRM007F"
    else:  # created as needed: the guests' storage fits in one 512 GB space
        assert names == ["PTRM0000"]
    assert frame["mapped_gb"].sum() == pytest.approx(mapped, abs=0.01)
    assert frame["users"].iloc[0] == len(m.users)
    assert 0 < frame["resident"].iloc[0] <= frame["pages"].iloc[0]
