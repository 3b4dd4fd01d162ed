"""The hot modules compiled with mypyc (zvmsim/native.py): used only when built from
the sources as they are, and a run compiled is byte-identical to one in pure Python."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import zvmsim
from zvmsim import native

ROOT = Path(__file__).resolve().parent.parent


def _built_in(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """native's build folder moved to *tmp_path*, with a manifest of today's sources
    and an empty file for each compiled module."""
    folder = tmp_path / "native"
    monkeypatch.setattr(native, "FOLDER", folder)
    monkeypatch.setattr(native, "MANIFEST", folder / "manifest.json")
    for module in (*native.MODULES, native.GROUP + "__mypyc"):
        native._binary(module).parent.mkdir(parents=True, exist_ok=True)
        native._binary(module).touch()
    (folder / "manifest.json").write_text(json.dumps({"digests": native.digests()}))
    return folder


def test_a_build_of_todays_sources_is_used(tmp_path, monkeypatch) -> None:
    _built_in(tmp_path, monkeypatch)
    assert native.stale() is None


def test_no_build_means_pure_python(tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(native, "MANIFEST", tmp_path / "none.json")
    assert native.stale() == "no build"


def test_an_edited_module_makes_the_build_stale(tmp_path, monkeypatch) -> None:
    folder = _built_in(tmp_path, monkeypatch)
    manifest = json.loads((folder / "manifest.json").read_text())
    manifest["digests"]["zvmsim.cp.io"] = hashlib.sha256(b"yesterday's io.py").hexdigest()
    (folder / "manifest.json").write_text(json.dumps(manifest))
    assert native.stale() == "zvmsim/cp/io.py changed since it was built"


def test_a_build_of_more_modules_than_listed_is_stale(tmp_path, monkeypatch) -> None:
    """A build made with a longer list (another checkout's): its modules expect the
    others compiled too (a compiled AgeList, say), so none of it is loaded."""
    folder = _built_in(tmp_path, monkeypatch)
    manifest = json.loads((folder / "manifest.json").read_text())
    manifest["digests"]["zvmsim.cp.flashcopy"] = hashlib.sha256(b"flashcopy.py").hexdigest()
    (folder / "manifest.json").write_text(json.dumps(manifest))
    assert native.stale() == "built with zvmsim/cp/flashcopy.py compiled as well"


def test_another_python_or_a_missing_module_makes_it_stale(tmp_path, monkeypatch) -> None:
    folder = _built_in(tmp_path, monkeypatch)
    native._binary("zvmsim.clock").unlink()
    assert native.stale().endswith(" is missing")
    manifest = json.loads((folder / "manifest.json").read_text())
    manifest["digests"]["python"] = "cpython-310 3.10.0"
    (folder / "manifest.json").write_text(json.dumps(manifest))
    assert native.stale().startswith("built for Python cpython-310 3.10.0")


def test_without_a_compiler_the_build_is_one_line_and_nothing(tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(native, "FOLDER", tmp_path / "native")
    monkeypatch.setattr(native, "MANIFEST", tmp_path / "native" / "manifest.json")
    monkeypatch.setattr(native.shutil, "which", lambda name: None)
    said = native.build()
    assert said.startswith("zvmsim runs as pure Python: ") and "\n" not in said
    assert not (tmp_path / "native").exists()


def _python(*args: str, pure: bool) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT), PYTHONHASHSEED="0")
    env.pop(native.PURE_ENV, None)
    if pure:
        env[native.PURE_ENV] = "1"
    return subprocess.run(
        [sys.executable, *args], env=env, cwd=ROOT, capture_output=True, text=True, check=True
    )


def test_version_says_pure_when_asked() -> None:
    done = _python("-m", "zvmsim", "--version", pure=True)
    assert "pure Python (ZVMSIM_PURE is set)" in done.stdout
    assert done.stderr == ""


@pytest.mark.skipif(
    not native.STATUS.startswith("compiled"), reason=f"zvmsim runs as {native.STATUS} here"
)
@pytest.mark.parametrize(
    ("scenario", "knobs", "seconds"),
    [
        ("pav-mdc", ["mdc=on", "vm64199=on"], 60),
        ("undersized-lpar", [], 60),
        ("memory63", [], 60),
        ("memory63", ["workload=apache-paging", "release=6.2"], 10),  # frame lock, reorder
        ("prsm-overhead", [], 10),  # the spin lock, compute-bound guests
        ("vmcf-master", [], 1),  # VMCF
    ],
)
def test_compiled_and_pure_write_the_same_records(scenario, knobs, seconds, tmp_path) -> None:
    sets = [a for k in knobs for a in ("--set", k)]
    files = {}
    for pure in (False, True):
        out = tmp_path / f"{scenario}-{pure}.mon"
        when = ["--duration", str(seconds)]
        args = ["-m", "zvmsim", "monwrite", scenario, *sets, *when, "-o", str(out)]
        _python(*args, pure=pure)
        files[pure] = hashlib.sha256(out.read_bytes()).hexdigest()
    assert files[False] == files[True]
    assert zvmsim.native.STATUS.startswith("compiled")
