#!/usr/bin/env python3
"""Set up zvmsim in a local virtual environment, then open the lab or run the tests.

    python3 bootstrap.py lab    [jupyter lab options]   # set up, open JupyterLab on notebooks/
    python3 bootstrap.py app    [NOTEBOOK]              # set up, open the notebooks as apps (Voila)
    python3 bootstrap.py test   [pytest options]        # set up, run the whole test suite
    python3 bootstrap.py class  [reset NAME|passwords]  # set up, serve a class (JupyterHub)
    python3 bootstrap.py setup                          # set up only

Needs only Python 3.11+ (with its ``venv`` and ``ensurepip`` modules: Debian
and Ubuntu ship them as ``python3-venv``) and access to PyPI. Everything goes
into ``.venv`` in this folder; the install is redone only when
``pyproject.toml`` changes. Where a C compiler and Python's headers are,
set-up also compiles the simulator's hot modules with mypyc into
``build/native`` (again whenever one of them changes: ``zvmsim/native.py``);
elsewhere zvmsim runs as pure Python, as one line says. Run as root (a container), ``lab`` passes
``--allow-root`` to JupyterLab. The browser tests need Chromium at
/usr/bin/chromium; ``test`` installs Debian's package when it is missing and it
can (as root, with apt-get). ``class`` serves the notebooks to a class
through JupyterHub on 127.0.0.1:8000, as ``class/class.toml`` says
(docs/class.md); it and ``test`` install JupyterHub's configurable-http-proxy
with npm into ``.venv/chp`` (and Debian's nodejs and npm when they are missing
and it can). A set-up that cannot work stops with one line saying why.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PYTHON = BIN / ("python.exe" if os.name == "nt" else "python")
STAMP = VENV / ".zvmsim-installed"
CHROMIUM = Path("/usr/bin/chromium")
PROXY_PREFIX = VENV / "chp"  # npm's prefix for configurable-http-proxy
PROXY = PROXY_PREFIX / "node_modules" / ".bin" / "configurable-http-proxy"


def say(text: str) -> None:
    print(f"[bootstrap] {text}", flush=True)


class SetupError(Exception):
    """A set-up step that cannot work here; its message is the one line shown."""


def run(*args: str | Path) -> None:
    """Run a set-up command; a failure becomes a SetupError naming it."""
    try:
        subprocess.run([str(a) for a in args], check=True, cwd=ROOT)
    except (OSError, subprocess.CalledProcessError) as exc:
        what = " ".join(Path(str(a)).name if i == 0 else str(a) for i, a in enumerate(args))
        code = getattr(exc, "returncode", None)
        why = f" (exit status {code})" if code is not None else f": {exc}"
        raise SetupError(f"'{what}' failed{why}") from exc


def venv_missing() -> str | None:
    """Why this Python cannot make a virtual environment with pip, or None when it can."""
    missing = [m for m in ("venv", "ensurepip") if importlib.util.find_spec(m) is None]
    if not missing:
        return None
    return (
        f"this Python has no {' or '.join(missing)} module, so it cannot create .venv with pip "
        "(on Debian or Ubuntu: apt-get install python3-venv)"
    )


def create_venv() -> None:
    """Create .venv with pip in it, or stop with one line saying why it cannot be done."""
    reason = venv_missing()
    if reason:
        raise SetupError(reason)
    import venv

    say(f"creating virtual environment in {VENV}")
    try:
        venv.EnvBuilder(with_pip=True).create(VENV)
    except (OSError, subprocess.CalledProcessError) as exc:
        shutil.rmtree(VENV, ignore_errors=True)  # a half-made .venv would be reused next time
        raise SetupError(
            f"could not create the virtual environment in {VENV} ({exc.__class__.__name__}); "
            "on Debian or Ubuntu: apt-get install python3-venv"
        ) from exc
    run(PYTHON, "-m", "pip", "install", "--quiet", "--upgrade", "pip")


def setup() -> None:
    """Create .venv and install the project with its dev extras, if needed."""
    if sys.version_info < (3, 11):  # noqa: UP036 - the check is for users of older Pythons
        raise SetupError("zvmsim needs Python 3.11 or newer")
    if not PYTHON.exists():
        create_venv()
    wanted = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    if not STAMP.exists() or STAMP.read_text().strip() != wanted:
        say("installing zvmsim and its dependencies (first time takes a few minutes)")
        run(PYTHON, "-m", "pip", "install", "--quiet", "--editable", ".[dev,class]")
        STAMP.write_text(wanted + "\n")
        say("environment ready")
    compile_hot_modules()


def compile_hot_modules() -> None:
    """Compile the simulator's hot modules with mypyc when they changed (zvmsim/native.py;
    about a minute); where that cannot be done, say so in one line: zvmsim runs as pure Python."""
    native = ROOT / "zvmsim" / "native.py"
    if not native.exists():
        return
    try:
        done = subprocess.run(
            [str(PYTHON), str(native), "build"], cwd=ROOT, capture_output=True, text=True
        )
        lines = (done.stdout + done.stderr).strip().splitlines()
    except OSError as exc:
        lines = [f"zvmsim runs as pure Python: {exc}"]
    say(lines[-1] if lines else "zvmsim runs as pure Python")


def chromium() -> None:
    """Install Debian's Chromium for the browser tests, when missing and possible."""
    if CHROMIUM.exists() or os.name == "nt":
        return
    if shutil.which("apt-get") and is_root():
        say("installing Chromium for the browser tests (apt-get install chromium)")
        subprocess.run(["apt-get", "update", "-qq"], check=False)
        if subprocess.run(["apt-get", "install", "-y", "-qq", "chromium"]).returncode != 0:
            say("apt-get install chromium failed: the browser tests will fail without it")
    else:
        say("no Chromium at /usr/bin/chromium: the browser tests will fail until it is installed")


def npm_missing() -> str | None:
    """Install Debian's nodejs and npm when missing and possible; why not, or None."""
    if shutil.which("npm") and shutil.which("node"):
        return None
    if shutil.which("apt-get") and is_root():
        say("installing Node.js and npm for the class server's proxy (apt-get install npm)")
        subprocess.run(["apt-get", "update", "-qq"], check=False)
        subprocess.run(["apt-get", "install", "-y", "-qq", "nodejs", "npm"], check=False)
    if shutil.which("npm") and shutil.which("node"):
        return None
    return "no npm here, so no configurable-http-proxy (on Debian or Ubuntu: apt-get install npm)"


def proxy() -> None:
    """Install configurable-http-proxy (JupyterHub's proxy) from npm into .venv/chp."""
    if PROXY.exists():
        return
    reason = npm_missing()
    if reason:
        raise SetupError(reason)
    node = subprocess.run(["node", "--version"], capture_output=True, text=True).stdout
    major = int(node.strip().lstrip("v").split(".")[0] or 0)
    version = "5" if major >= 20 else "4"  # 5 needs Node.js 20; 4.6 runs on older ones
    say(f"installing configurable-http-proxy@{version} with npm into {PROXY_PREFIX}")
    run(shutil.which("npm") or "npm", "install", "--prefix", PROXY_PREFIX, "--no-audit",
        "--no-fund", "--loglevel=error", f"configurable-http-proxy@{version}")  # fmt: skip


def is_root() -> bool:
    return hasattr(os, "geteuid") and os.geteuid() == 0


def lab_args(rest: list[str]) -> list[str]:
    """The jupyter lab command line: on notebooks/, with --allow-root when run as root."""
    args = [str(BIN / "jupyter"), "lab", "notebooks/", *rest]
    if is_root() and "--allow-root" not in rest:
        args.append("--allow-root")  # JupyterLab refuses to start as root without it
    return args


# Voila runs the notebook ahead in a spare ("preheated") kernel, so a page finds
# its dashboards computed and shows in a few seconds; the spare kernel reads the
# notebook's runs from the run cache that warm_up fills. Only for one notebook:
# a spare kernel for each of the 19 in tree mode would hold too much memory.
# benchmarks/app_start.py measures it (an earlier stall with a preheated page,
# seen while its kernel was still simulating, did not recur with the cache).
PREHEAT = ("--preheat_kernel=True", "--pool_size=1")
# A closed page's kernel goes after 10 idle minutes. Voilà's own unload request
# needs an _xsrf cookie that a single-notebook app never sets, so without this
# every page load would leave its kernel until the server stops. Open pages
# keep theirs (a kernel with a connection is never culled).
CULL = ("--MappingKernelManager.cull_idle_timeout=600", "--MappingKernelManager.cull_interval=60")


# Runs made once are kept on disk for every kernel (zvmsim/runcache.py): a class's
# students open the same dashboards, and a notebook re-run reads its runs back.
RUN_CACHE = ROOT / ".cache" / "runs"


def run_cache_env() -> dict[str, str]:
    """This environment, with the run cache on (unless the caller chose a folder)."""
    env = dict(os.environ)
    env.setdefault("ZVMSIM_RUN_CACHE", str(RUN_CACHE))
    return env


def warm_up(notebooks: list[str], env: dict[str, str]) -> subprocess.Popen:
    """Run *notebooks* (all if empty) once in the background to fill the run cache."""
    cache = Path(env["ZVMSIM_RUN_CACHE"])
    cache.mkdir(parents=True, exist_ok=True)
    log = open(cache / "warmup.log", "w")  # noqa: SIM115 (the child keeps it)
    return subprocess.Popen(
        [str(PYTHON), "-m", "zvmsim.warmup", *notebooks], cwd=ROOT, env=env, stdout=log, stderr=log
    )


def voila_args(notebook: str | None, rest: list[str]) -> list[str]:
    """The voila command line for NOTEBOOK (``06-pav-mdc``), or for all of notebooks/."""
    if notebook is None:
        return [str(BIN / "voila"), "notebooks/", *CULL, *rest]
    target = f"notebooks/{notebook}"
    if not target.endswith(".ipynb"):
        target += ".ipynb"
    return [str(BIN / "voila"), target, *PREHEAT, *CULL, *rest]


# The suite runs in two worker processes (pytest-xdist), each test file whole on
# one of them (--dist loadfile): a notebook's cells stay in order in one kernel,
# as nbval needs, and a file's session caches serve the whole file. Files go out
# in the order collected (--no-loadscope-reorder), which tests/conftest.py sets:
# the longest first.
PARALLEL = ("-n", "2", "--dist", "loadfile", "--no-loadscope-reorder")


def pytest_args(rest: list[str]) -> list[str]:
    """The pytest command line: the suite in parallel, unless *rest* says how itself."""
    own = any(
        a.startswith(("-n", "--numprocesses", "--dist")) or a in ("no:xdist", "-pno:xdist")
        for a in rest
    )
    return [str(PYTHON), "-m", "pytest", *(() if own else PARALLEL), *rest]


def main(argv: list[str]) -> int:
    command, rest = (argv[0], argv[1:]) if argv else ("help", [])
    if command not in {"lab", "app", "test", "setup", "class"}:
        print(__doc__)
        return 0 if command in {"help", "-h", "--help"} else 2
    try:
        setup()
    except SetupError as exc:
        print(f"bootstrap: error: {exc}", file=sys.stderr)
        return 1
    if command == "lab":
        say("opening JupyterLab on notebooks/ (stop it with Ctrl+C)")
        args = lab_args(rest)
        env = run_cache_env()
        if os.name == "nt":
            return subprocess.call(args, cwd=ROOT, env=env)
        os.chdir(ROOT)
        os.execve(args[0], args, env)
    if command == "app":
        args = voila_args(rest[0] if rest else None, rest[1:])
        say(f"opening {args[1]} as an app with Voila (stop it with Ctrl+C)")
        env = run_cache_env()
        warm_up(rest[:1], env)  # the notebook's runs are on disk before a student asks
        if os.name == "nt":
            return subprocess.call(args, cwd=ROOT, env=env)
        os.chdir(ROOT)
        os.execve(args[0], args, env)
    if command == "class":
        try:
            proxy()
        except SetupError as exc:
            print(f"bootstrap: error: {exc}", file=sys.stderr)
            return 1
        args = [str(PYTHON), "-m", "zvmsim.classroom", *(rest or ["start"])]
        if os.name == "nt":
            return subprocess.call(args, cwd=ROOT)
        os.chdir(ROOT)
        os.execv(args[0], args)
    if command == "test":
        chromium()
        try:
            proxy()
        except SetupError as exc:  # the class server's test skips, saying why
            say(f"{exc}: tests/test_class.py will skip")
        # OPENBLAS_NUM_THREADS: no BLAS thread spinning beside each of the suite's
        # hundred Python processes on two cores (nothing here multiplies matrices)
        env = dict(os.environ, MPLBACKEND="Agg", PYTHONHASHSEED="0", OPENBLAS_NUM_THREADS="1")
        env.pop("ZVMSIM_RUN_CACHE", None)  # the suite simulates every run it checks
        code = subprocess.call(pytest_args(rest), cwd=ROOT, env=env)
        if code == 5:
            say("pytest collected no tests: that is a failure")
            return 1
        return code
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
