#!/usr/bin/env python3
"""Set up zvmsim in a local virtual environment, then open the lab or run the tests.

    python3 bootstrap.py lab    [jupyter lab options]   # set up, open JupyterLab on notebooks/
    python3 bootstrap.py app    [NOTEBOOK]              # set up, open the notebooks as apps (Voila)
    python3 bootstrap.py test   [pytest options]        # set up, run the whole test suite
    python3 bootstrap.py setup                          # set up only

Needs only Python 3.11+ and access to PyPI. Everything goes into ``.venv`` in
this folder; the install is redone only when ``pyproject.toml`` changes. The
browser tests need Chromium at /usr/bin/chromium; ``test`` installs Debian's
package when it is missing and it can (as root, with apt-get).
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PYTHON = BIN / ("python.exe" if os.name == "nt" else "python")
STAMP = VENV / ".zvmsim-installed"
CHROMIUM = Path("/usr/bin/chromium")


def say(text: str) -> None:
    print(f"[bootstrap] {text}", flush=True)


def run(*args: str | Path) -> None:
    subprocess.run([str(a) for a in args], check=True, cwd=ROOT)


def setup() -> None:
    """Create .venv and install the project with its dev extras, if needed."""
    if sys.version_info < (3, 11):  # noqa: UP036 - the check is for users of older Pythons
        sys.exit("zvmsim needs Python 3.11 or newer")
    if not PYTHON.exists():
        say(f"creating virtual environment in {VENV}")
        venv.EnvBuilder(with_pip=True).create(VENV)
        run(PYTHON, "-m", "pip", "install", "--quiet", "--upgrade", "pip")
    wanted = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    if STAMP.exists() and STAMP.read_text().strip() == wanted:
        return
    say("installing zvmsim and its dependencies (first time takes a few minutes)")
    run(PYTHON, "-m", "pip", "install", "--quiet", "--editable", ".[dev]")
    STAMP.write_text(wanted + "\n")
    say("environment ready")


def chromium() -> None:
    """Install Debian's Chromium for the browser tests, when missing and possible."""
    if CHROMIUM.exists() or os.name == "nt":
        return
    if shutil.which("apt-get") and hasattr(os, "geteuid") and os.geteuid() == 0:
        say("installing Chromium for the browser tests (apt-get install chromium)")
        subprocess.run(["apt-get", "update", "-qq"], check=False)
        subprocess.run(["apt-get", "install", "-y", "-qq", "chromium"], check=True)
    else:
        say("no Chromium at /usr/bin/chromium: the browser tests will fail until it is installed")


def main(argv: list[str]) -> int:
    command, rest = (argv[0], argv[1:]) if argv else ("help", [])
    if command not in {"lab", "app", "test", "setup"}:
        print(__doc__)
        return 0 if command in {"help", "-h", "--help"} else 2
    setup()
    if command == "lab":
        say("opening JupyterLab on notebooks/ (stop it with Ctrl+C)")
        args = [str(BIN / "jupyter"), "lab", "notebooks/", *rest]
        if os.name == "nt":
            return subprocess.call(args, cwd=ROOT)
        os.chdir(ROOT)
        os.execv(args[0], args)
    if command == "app":
        target = f"notebooks/{rest[0]}" if rest else "notebooks/"
        if rest and not target.endswith(".ipynb"):
            target += ".ipynb"
        say(f"opening {target} as an app with Voila (stop it with Ctrl+C)")
        args = [str(BIN / "voila"), target, *rest[1:]]
        if os.name == "nt":
            return subprocess.call(args, cwd=ROOT)
        os.chdir(ROOT)
        os.execv(args[0], args)
    if command == "test":
        chromium()
        env = dict(os.environ, MPLBACKEND="Agg", PYTHONHASHSEED="0")
        code = subprocess.call([str(PYTHON), "-m", "pytest", *rest], cwd=ROOT, env=env)
        if code == 5:
            say("pytest collected no tests: that is a failure")
            return 1
        return code
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
