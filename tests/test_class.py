"""The class server: JupyterHub serves two students their own notebooks (docs/class.md).

Starts the hub on 127.0.0.1 (scratch data folder, free ports), logs two students
in through the login form, starts their servers, runs a dashboard cell in a
kernel of each, checks that each works in their own copy of the notebooks, and
stops everything. Skips, saying why, where the proxy cannot be had.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from conftest import Execd, load_bootstrap

from zvmsim import classroom


def _settings(tmp_path: Path, body: str) -> classroom.Settings:
    path = tmp_path / "class.toml"
    path.write_text(f'[hub]\ndata_dir = "{tmp_path / "data"}"\n' + body)
    return classroom.load_settings(path)


def test_the_shipped_class_toml_is_valid() -> None:
    settings = classroom.load_settings(classroom.DEFAULT_CONFIG)
    assert settings.ip == "127.0.0.1" and settings.instructors and not settings.password


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ('[students]\npassword = "short"\n', "8 characters"),
        ('[students]\nnames = ["Ada Lovelace"]\n', "not a valid name"),
        ("[hub]\nport = 0\n", "port number"),
        ("[servers]\nidle_timeout = 5\n", "idle_timeout"),
        ("[hub\n", "not valid TOML"),
    ],
)
def test_a_bad_class_toml_is_one_line(tmp_path: Path, body: str, message: str) -> None:
    path = tmp_path / "class.toml"
    path.write_text(body)
    with pytest.raises(classroom.ClassError, match=message):
        classroom.load_settings(path)


def test_passwords_are_made_once_and_kept(tmp_path: Path) -> None:
    settings = _settings(tmp_path, "")
    first = classroom.passwords(settings)
    assert classroom.passwords(settings) == first
    assert len(first[0]) >= 8 and len(first[1]) >= 32 and first[0] != first[1]
    assert (settings.data_dir / "admin-password.txt").stat().st_mode & 0o077 == 0


def test_reset_keeps_the_old_copy_and_gives_a_fresh_one(tmp_path: Path) -> None:
    settings = _settings(tmp_path, "")
    assert classroom.copy_notebooks(settings, "ada")
    assert not classroom.copy_notebooks(settings, "ada"), "the first copy is kept"
    mine = settings.home("ada") / "notebooks" / "06-pav-mdc.ipynb"
    mine.write_text("my edits")
    kept = classroom.reset(settings, "ada")
    assert kept is not None and (kept / "06-pav-mdc.ipynb").read_text() == "my edits"
    assert mine.read_text() == (classroom.NOTEBOOKS / "06-pav-mdc.ipynb").read_text()
    with pytest.raises(classroom.ClassError, match="valid student name"):
        classroom.reset(settings, "../etc")


STUDENTS = ["ada", "grace"]
CELL = """
import os
from zvmsim.lab import pav_mdc_dashboard
board = pav_mdc_dashboard()
board.controls["mdc"].value = True
print(os.getcwd())
print("FCX108" in board.text, repr(board.error))
"""
EDIT = """
from pathlib import Path
Path("notebooks/06-pav-mdc.ipynb").write_text('{"edited by": "%s"}')
"""


def test_bootstrap_class_runs_the_classroom_command(
    monkeypatch: pytest.MonkeyPatch, bootstrap_exec
) -> None:
    bs, started = bootstrap_exec
    monkeypatch.setattr(bs, "proxy", lambda: None)
    for argv, expected in ((["class"], ["start"]), (["class", "reset", "ada"], ["reset", "ada"])):
        with pytest.raises(Execd):
            bs.main(argv)
        assert started[-1][1:] == ["-m", "zvmsim.classroom", *expected]


def test_no_npm_is_one_line(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys) -> None:
    bs = load_bootstrap()
    monkeypatch.setattr(bs, "PROXY", tmp_path / "none")
    monkeypatch.setattr(bs, "setup", lambda: None)
    monkeypatch.setattr(bs, "is_root", lambda: False)
    monkeypatch.setattr(bs.shutil, "which", lambda name: None)
    assert bs.main(["class"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "apt-get install npm" in err


@pytest.fixture()
def server(tmp_path: Path, one_browser_at_a_time):
    pytest.importorskip(
        "jupyterhub", reason="JupyterHub is not installed (pip install -e .[class])"
    )
    if classroom.proxy_command() is None:
        pytest.skip(
            "no configurable-http-proxy (JupyterHub's proxy, from npm): "
            "python3 bootstrap.py test installs it where npm is available"
        )
    from zvmsim.hubclient import ClassServer

    hub = ClassServer(tmp_path, STUDENTS, password="pav-and-mdc")
    hub.start()
    yield hub
    hub.stop()


async def _class(hub) -> dict[str, tuple[str, str]]:
    from zvmsim.hubclient import HubAPI, Kernel, login

    assert await login(hub.url, "ada", "pav-and-mdc")
    assert await login(hub.url, "grace", "pav-and-mdc")
    assert not await login(hub.url, "ada", "wrong-password")
    assert not await login(hub.url, "mallory", "pav-and-mdc"), "not on the student list"
    api = HubAPI(hub.url, hub.token)
    tokens = {name: await api.user_token(name) for name in STUDENTS}
    urls = await asyncio.gather(*(api.start_server(name, timeout=90) for name in STUDENTS))
    results = {}
    for name, url in zip(STUDENTS, urls, strict=True):
        kernel = Kernel(url, tokens[name])
        await kernel.open()
        results[name] = await kernel.execute(CELL, timeout=60)
        if name == "ada":
            assert (await kernel.execute(EDIT % name))[1] == ""
        await kernel.close()
    for name in STUDENTS:
        await api.stop_server(name)
    return results


def test_two_students_each_run_a_dashboard_in_their_own_copy(server) -> None:
    results = asyncio.run(_class(server))
    for name, (out, error) in results.items():
        assert error == "", f"{name}'s dashboard cell: {error}"
        cwd, shown = out.splitlines()[-2:]
        assert Path(cwd) == server.data / "students" / name
        assert shown == "True ''", f"{name}'s dashboard showed no FCX108: {shown}"
    ada, grace = (server.data / "students" / n / "notebooks" for n in STUDENTS)
    assert json.loads((ada / "06-pav-mdc.ipynb").read_text()) == {"edited by": "ada"}
    original = (classroom.NOTEBOOKS / "06-pav-mdc.ipynb").read_text()
    assert (grace / "06-pav-mdc.ipynb").read_text() == original, "ada's edit reached grace"
    assert sorted(p.name for p in grace.glob("*.ipynb")) == sorted(
        p.name for p in classroom.NOTEBOOKS.glob("*.ipynb")
    )
    assert server.stop() == 0, f"the hub did not stop cleanly: {server.tail()}"
