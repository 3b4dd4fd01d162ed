"""Packaging monitor data to send (VMARC's job): pack, list, unpack, and catch damage."""

from __future__ import annotations

import zipfile

import pytest

import zvmsim
from zvmsim.cli import main
from zvmsim.errors import ZvmsimError
from zvmsim.monitor.archive import list_archive, pack, unpack
from zvmsim.monitor.monwrite import BLOCK


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    folder = tmp_path_factory.mktemp("data")
    zvmsim.monwrite("monwrite", folder / "mon1.mon", duration=120)
    zvmsim.monwrite("monwrite", folder / "mon10.mon", {"sample_interval": 10}, duration=120)
    (folder / "qmonitor.txt").write_text("MONITOR SAMPLE ACTIVE\n")
    return [folder / "mon1.mon", folder / "mon10.mon", folder / "qmonitor.txt"]


@pytest.mark.parametrize("suffix", [".zip", ".tar.gz"])
def test_pack_list_unpack_round_trip(files, tmp_path, suffix) -> None:
    path = tmp_path / f"pmr{suffix}"
    members = pack(path, files, "PMR 12345: month-end peak, 10:00 to 10:02")
    names = [m.name for m in members]
    assert names == ["mon1.mon", "mon10.mon", "qmonitor.txt", "NOTES.TXT", "MANIFEST.TXT"]
    what = {m.name: m.what for m in list_archive(path)}
    assert what["mon1.mon"].startswith("MONWRITE VMPROD1 2008/06/30 10:00:00-10:02:00")
    assert what["qmonitor.txt"] == "other file"
    total = sum(m.size for m in members)
    assert total / path.stat().st_size > 5  # monitor data compresses well
    out = unpack(path, tmp_path / "out")
    assert [p.name for p in out] == names
    for original in files:
        assert (tmp_path / "out" / original.name).read_bytes() == original.read_bytes()
    assert "month-end" in (tmp_path / "out" / "NOTES.TXT").read_text()
    back = zvmsim.MonitorData.from_bytes((tmp_path / "out" / "mon1.mon").read_bytes())
    direct = zvmsim.simulate("monwrite", duration=120)
    assert zvmsim.report(back, "FCX225").text == zvmsim.report(direct, "FCX225").text


def test_archives_are_reproducible(files, tmp_path) -> None:
    pack(tmp_path / "a.zip", files, "notes")
    pack(tmp_path / "b.zip", files, "notes")
    assert (tmp_path / "a.zip").read_bytes() == (tmp_path / "b.zip").read_bytes()


def test_damage_is_caught(files, tmp_path) -> None:
    path = tmp_path / "pmr.zip"
    pack(path, files[:1])
    raw = bytearray(path.read_bytes())
    with zipfile.ZipFile(path) as zf:
        info = zf.getinfo("mon1.mon")
    raw[info.header_offset + 30 + len("mon1.mon") + 50] ^= 0xFF  # inside the packed data
    bad = tmp_path / "bad.zip"
    bad.write_bytes(bytes(raw))
    with pytest.raises(ZvmsimError, match="bad.zip"):
        unpack(bad, tmp_path / "out")
    with pytest.raises(ZvmsimError, match="not a readable archive"):
        list_archive(files[2])


def test_a_damaged_monitor_file_is_not_packed(files, tmp_path) -> None:
    raw = bytearray(files[0].read_bytes())
    raw[5 * BLOCK + 200] ^= 1
    broken = tmp_path / "broken.mon"
    broken.write_bytes(bytes(raw))
    with pytest.raises(ZvmsimError, match="broken.mon: block 5"):
        pack(tmp_path / "x.zip", [broken])


def test_members_that_name_folders_are_refused(tmp_path) -> None:
    path = tmp_path / "evil.zip"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("../escape.txt", "x")
    with pytest.raises(ZvmsimError, match="names a folder"):
        unpack(path, tmp_path / "out")
    assert not (tmp_path / "escape.txt").exists()


@pytest.mark.parametrize(
    ("name", "twice", "fragment"),
    [("pmr.rar", False, "ends in .zip"), ("pmr.zip", True, "two files named")],
)
def test_bad_pack_requests(files, tmp_path, name, twice, fragment) -> None:
    with pytest.raises(ZvmsimError, match=fragment):
        pack(tmp_path / name, files + files[:1] if twice else files)


def test_cli_archive(files, tmp_path, capsys) -> None:
    path = tmp_path / "pmr.zip"
    notes = tmp_path / "notes.txt"
    notes.write_text("Collected during month-end.\n")
    argv = ["archive", "pack", str(path), *map(str, files), "--notes-file", str(notes)]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "mon10.mon" in out and "MONWRITE VMPROD1" in out and "to 1)" in out
    assert main(["archive", "list", str(path)]) == 0
    assert "NOTES.TXT" in capsys.readouterr().out
    assert main(["archive", "unpack", str(path), "-d", str(tmp_path / "x")]) == 0
    assert (tmp_path / "x" / "NOTES.TXT").read_text() == "Collected during month-end.\n"
    capsys.readouterr()
    code = main(["archive", "list", str(tmp_path / "missing.zip")])
    _, err = capsys.readouterr()
    assert code == 2 and err.startswith("zvmsim: error: cannot read") and err.count("\n") == 1
