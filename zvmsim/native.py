"""The simulator's hot modules compiled with mypyc, or pure Python.

``python3 bootstrap.py setup`` compiles :data:`MODULES` (the event loop, the
dispatcher and scheduler, real I/O, the minidisk cache, storage (and z/VM
6.3's, its age list and frame lock), address spaces, the demand scan and
paging, the spin lock, VMCF, the monitor's collector, the workload base, the
CMS, interactive CMS, Linux, compute-bound, VMCF, VDISK-formatting and
virtual-storage guests)
with mypyc into ``build/native/`` beside the ``zvmsim`` folder, when a C
compiler and Python's headers are there (``python -m zvmsim.native build``).
Nothing is compiled in place: the ``.py`` files stay the reference, and a
run's reports and monitor records are byte-identical either way.

:func:`install` (run when ``zvmsim`` is imported) loads the compiled modules
only if the build's manifest holds the SHA-256 of every module's source as it
is now: after an edit, or with no build, zvmsim runs as pure Python (with one
line on stderr when a build is there but out of date). ``ZVMSIM_PURE=1`` in
the environment asks for pure Python. :data:`STATUS` says which is in use
(``python -m zvmsim --version``, ``benchmarks/speed.py``).
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path
from types import ModuleType
from typing import Any

__all__ = ["MODULES", "STATUS", "build", "install", "stale"]

# the modules compiled (each imports only pure modules or ones listed here)
MODULES = (
    "zvmsim.clock",
    "zvmsim.cp.agelist",
    "zvmsim.cp.demandscan",
    "zvmsim.cp.dispatch",
    "zvmsim.cp.framelock",
    "zvmsim.cp.io",
    "zvmsim.cp.mdc",
    "zvmsim.cp.minidisk",
    "zvmsim.cp.paging",
    "zvmsim.cp.scheduler",
    "zvmsim.cp.spaces",
    "zvmsim.cp.spinlock",
    "zvmsim.cp.storage",
    "zvmsim.cp.storage63",
    "zvmsim.cp.timer",
    "zvmsim.cp.vmcf",
    "zvmsim.cp.vmdbk",
    "zvmsim.cp.vswitch",
    "zvmsim.guests.base",
    "zvmsim.guests.cms",
    "zvmsim.guests.cmsint",
    "zvmsim.guests.compute",
    "zvmsim.guests.linux",
    "zvmsim.guests.linux_app",
    "zvmsim.guests.network",
    "zvmsim.guests.vdisk_format",
    "zvmsim.guests.virstor",
    "zvmsim.guests.vmcf",
    "zvmsim.hardware.channels",
    "zvmsim.hardware.cucache",
    "zvmsim.hardware.dasd",
    "zvmsim.hardware.nvs",
    "zvmsim.hardware.occupancy",
    "zvmsim.hardware.pools",
    "zvmsim.hardware.prsm",
    "zvmsim.monitor.collector",
)
GROUP = "zvmsim_native"  # mypyc's shared library: zvmsim_native__mypyc
MYPY = "mypy==2.4.1"  # the mypyc that builds them (pyproject.toml's dev extra pins it too)
PURE_ENV = "ZVMSIM_PURE"

SOURCE = Path(__file__).resolve().parent  # the zvmsim package folder
FOLDER = SOURCE.parent / "build" / "native"  # the compiled modules and their manifest
MANIFEST = FOLDER / "manifest.json"

STATUS = "pure Python"  # what install() chose


def _source(module: str) -> Path:
    return SOURCE.parent.joinpath(*module.split(".")).with_suffix(".py")


def _binary(module: str) -> Path:
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    return FOLDER.joinpath(*module.split(".")).with_name(module.split(".")[-1] + suffix)


def digests() -> dict[str, str]:
    """SHA-256 of each compiled module's source, and of the Python that builds them."""
    found = {m: hashlib.sha256(_source(m).read_bytes()).hexdigest() for m in MODULES}
    found["python"] = f"{sys.implementation.cache_tag} {sys.version.split()[0]}"
    return found


def stale() -> str | None:
    """Why the build cannot be used (a short phrase), or None when it matches the sources."""
    try:
        built = json.loads(MANIFEST.read_text())["digests"]
    except (OSError, ValueError, KeyError, TypeError):
        return "no build"
    now = digests()
    if built.get("python") != now["python"]:
        return f"built for Python {built.get('python')}, this is {now['python']}"
    other = sorted(set(built) - set(now))
    if other:  # compiled against these as compiled too: loading the rest alone breaks
        return f"built with {_source(other[0]).relative_to(SOURCE.parent)} compiled as well"
    changed = [m for m in MODULES if built.get(m) != now[m]]
    if changed:
        return f"{_source(changed[0]).relative_to(SOURCE.parent)} changed since it was built"
    missing = [m for m in (*MODULES, GROUP + "__mypyc") if not _binary(m).exists()]
    if missing:
        return f"{_binary(missing[0]).name} is missing"
    return None


class _Finder:
    """Imports the compiled modules from :data:`FOLDER` (a meta path finder)."""

    def __init__(self) -> None:
        self.files = {m: _binary(m) for m in (*MODULES, GROUP + "__mypyc")}

    def find_spec(self, fullname: str, path: Any, target: ModuleType | None = None) -> Any:
        file = self.files.get(fullname)
        if file is None:
            return None
        loader = importlib.machinery.ExtensionFileLoader(fullname, str(file))
        return importlib.util.spec_from_file_location(fullname, file, loader=loader)


def install() -> str:
    """Use the compiled modules when the build matches the sources; set :data:`STATUS`."""
    global STATUS
    if any(m in sys.modules for m in MODULES):  # imported already (a reload): keep them
        return STATUS
    if os.environ.get(PURE_ENV, "").strip() not in ("", "0"):
        STATUS = f"pure Python ({PURE_ENV} is set)"
        return STATUS
    why = stale()
    if why is None:
        sys.meta_path.insert(0, _Finder())  # type: ignore[arg-type]
        STATUS = f"compiled (mypyc, {len(MODULES)} modules)"
    elif why == "no build":
        STATUS = "pure Python"
    else:
        STATUS = f"pure Python (compiled modules out of date: {why})"
        print(
            f"zvmsim: running pure Python: the compiled modules are out of date ({why}); "
            "python3 bootstrap.py setup rebuilds them",
            file=sys.stderr,
        )
    return STATUS


_SETUP = """
import sys
from setuptools import setup
from mypyc.build import mypycify
setup(name="zvmsim-native", script_args=sys.argv[1:],
      ext_modules=mypycify({paths!r}, group_name={group!r}, target_dir={target!r}))
"""


def cannot_build() -> str | None:
    """Why this machine cannot compile the modules (one phrase), or None when it can."""
    if importlib.util.find_spec("mypyc") is None:
        return f"mypyc is not installed (pip install {MYPY})"
    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(compiler) is None:
        return f"no C compiler ({compiler})"
    if not Path(sysconfig.get_paths()["include"], "Python.h").exists():
        return "no Python headers (Python.h; on Debian or Ubuntu: apt-get install python3-dev)"
    return None


def build(force: bool = False) -> str:
    """Compile :data:`MODULES` into :data:`FOLDER` unless the build is current; one line
    saying what was done (or why zvmsim stays pure Python)."""
    if not force and stale() is None:
        return f"compiled modules up to date ({len(MODULES)} modules)"
    why = cannot_build()
    if why:
        return f"zvmsim runs as pure Python: {why}"
    now = digests()
    shutil.rmtree(FOLDER, ignore_errors=True)
    with tempfile.TemporaryDirectory(prefix="zvmsim-mypyc-") as work:
        paths = ["--follow-imports=silent", *(str(_source(m)) for m in MODULES)]
        script = _SETUP.format(paths=paths, group=GROUP, target=str(Path(work, "c")))
        args = ["build_ext", "--build-lib", str(FOLDER), "--build-temp", str(Path(work, "o"))]
        done = subprocess.run(
            [sys.executable, "-c", script, *args], cwd=work, capture_output=True, text=True
        )
    if done.returncode != 0:
        shutil.rmtree(FOLDER, ignore_errors=True)
        lines = (done.stdout + done.stderr).strip().splitlines() or ["no output"]
        first = next((line for line in lines if " error: " in line), lines[-1])
        return f"zvmsim runs as pure Python: mypyc failed ({first.strip()})"
    MANIFEST.write_text(json.dumps({"mypy": MYPY, "digests": now}, indent=1) + "\n")
    return f"compiled {len(MODULES)} modules with mypyc into {FOLDER}"


def main(argv: list[str]) -> int:
    """``python -m zvmsim.native [build [--force] | status]``."""
    if argv[:1] == ["build"]:
        print(build(force="--force" in argv[1:]))
        return 0
    if argv in ([], ["status"]):
        print(sys.modules["zvmsim.native"].STATUS if "zvmsim.native" in sys.modules else STATUS)
        return 0
    print("usage: python -m zvmsim.native [build [--force] | status]", file=sys.stderr)
    return 2


if __name__ == "zvmsim.native":  # imported first by zvmsim/__init__.py
    install()
elif __name__ == "__main__":  # python zvmsim/native.py build: without importing zvmsim
    sys.exit(main(sys.argv[1:]))
