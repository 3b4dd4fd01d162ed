"""The class server's settings, passwords and each student's copy of the notebooks.

``class/class.toml`` is what the instructor edits; ``class/jupyterhub_config.py``
reads it through :func:`load_settings` and hands JupyterHub the rest. This module
uses the standard library only: the hub's config loads it by path, without
importing the simulator.

    python -m zvmsim.classroom start          # what `python3 bootstrap.py class` runs
    python -m zvmsim.classroom reset NAME     # a fresh copy of the notebooks for NAME
    python -m zvmsim.classroom passwords      # print the class and admin passwords
"""

from __future__ import annotations

import os
import re
import secrets
import shutil
import subprocess
import sys
import time
import tomllib
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CONFIG_ENV = "ZVMSIM_CLASS_CONFIG"  # another class.toml (tests, benchmarks)
DEFAULT_CONFIG = ROOT / "class" / "class.toml"
HUB_CONFIG = ROOT / "class" / "jupyterhub_config.py"
NOTEBOOKS = ROOT / "notebooks"
PROXY = ROOT / ".venv" / "chp" / "node_modules" / ".bin" / "configurable-http-proxy"
NAME = re.compile(r"^[a-z0-9][a-z0-9._-]{0,31}$")  # also keeps names safe as folder names
USER_PASSWORD_MIN = 8  # SharedPasswordAuthenticator's own minimum lengths
ADMIN_PASSWORD_MIN = 32


class ClassError(Exception):
    """A bad class.toml or request; its message is the one line shown."""


@dataclass(frozen=True)
class Settings:
    """The class server as class.toml describes it."""

    ip: str
    port: int
    hub_port: int
    proxy_api_port: int
    data_dir: Path
    students: tuple[str, ...]
    password: str
    instructors: tuple[str, ...]
    default_url: str
    idle_timeout: int
    cull_every: int

    @property
    def url(self) -> str:
        return f"http://{self.ip}:{self.port}/"

    @property
    def run_cache(self) -> Path:
        """The run cache every student's kernels share (zvmsim/runcache.py)."""
        return self.data_dir / "runs"

    def home(self, name: str) -> Path:
        """The folder a student's server runs in (their notebooks are under it)."""
        return self.data_dir / "students" / name


def config_path() -> Path:
    return Path(os.environ.get(CONFIG_ENV) or DEFAULT_CONFIG)


def _names(value: object, where: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ClassError(f"{where} must be a list of names")
    bad = [v for v in value if not NAME.match(v)]
    if bad:
        raise ClassError(
            f"{where}: '{bad[0]}' is not a valid name (lower case letters, digits, '.', '_', '-')"
        )
    return tuple(value)


def _port(table: dict, key: str, default: int) -> int:
    value = table.get(key, default)
    if not isinstance(value, int) or not 1 <= value <= 65535:
        raise ClassError(f"[hub] {key} must be a port number (1-65535), not {value!r}")
    return value


def load_settings(path: Path | None = None) -> Settings:
    """Read and check class.toml (*path*, else $ZVMSIM_CLASS_CONFIG, else class/class.toml)."""
    path = path or config_path()
    try:
        raw = tomllib.loads(path.read_text())
    except OSError as exc:
        raise ClassError(f"cannot read {path}: {exc.strerror}") from exc
    except tomllib.TOMLDecodeError as exc:
        raise ClassError(f"{path} is not valid TOML: {exc}") from exc
    hub, students = raw.get("hub", {}), raw.get("students", {})
    servers, instructors = raw.get("servers", {}), raw.get("instructors", {})
    password = students.get("password", "")
    if not isinstance(password, str) or 0 < len(password) < USER_PASSWORD_MIN:
        raise ClassError(f"[students] password must be {USER_PASSWORD_MIN} characters or more")
    data_dir = Path(hub.get("data_dir", ".class"))
    timeout, every = servers.get("idle_timeout", 3600), servers.get("cull_every", 300)
    if not isinstance(timeout, int) or not isinstance(every, int) or timeout < 60 or every < 10:
        raise ClassError("[servers] idle_timeout (>= 60) and cull_every (>= 10) are seconds")
    return Settings(
        ip=str(hub.get("ip", "127.0.0.1")),
        port=_port(hub, "port", 8000),
        hub_port=_port(hub, "hub_port", 8081),
        proxy_api_port=_port(hub, "proxy_api_port", 8001),
        data_dir=data_dir if data_dir.is_absolute() else ROOT / data_dir,
        students=_names(students.get("names", []), "[students] names"),
        password=password,
        instructors=_names(instructors.get("names", []), "[instructors] names"),
        default_url=str(servers.get("default_url", "/lab")),
        idle_timeout=timeout,
        cull_every=every,
    )


def _secret(path: Path, length: int) -> str:
    """The password kept in *path*, made up (and kept, readable by the owner only) if none."""
    if path.exists():
        return path.read_text().strip()
    path.parent.mkdir(parents=True, exist_ok=True)
    value = secrets.token_urlsafe(length)[:length]
    path.write_text(value + "\n")
    path.chmod(0o600)
    return value


def passwords(settings: Settings) -> tuple[str, str]:
    """(class password, admin password): class.toml's, or made up once and kept in data_dir."""
    user = settings.password or _secret(settings.data_dir / "class-password.txt", 12)
    admin = _secret(settings.data_dir / "admin-password.txt", 40)
    if len(admin) < ADMIN_PASSWORD_MIN or admin == user:
        raise ClassError(f"{settings.data_dir / 'admin-password.txt'}: too short; delete it")
    return user, admin


def copy_notebooks(settings: Settings, name: str) -> bool:
    """Give *name* their own copy of notebooks/ the first time; True if one was made."""
    target = settings.home(name) / "notebooks"
    if target.exists():
        return False
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(".notebooks-copying")
    shutil.rmtree(partial, ignore_errors=True)
    shutil.copytree(NOTEBOOKS, partial, ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    partial.rename(target)  # whole or not at all
    return True


def reset(settings: Settings, name: str) -> Path | None:
    """Put *name*'s notebooks aside (never deleted) and give them a fresh copy.

    Returns where the old copy went (None if they had none yet).
    """
    if not NAME.match(name):
        raise ClassError(f"'{name}' is not a valid student name")
    current = settings.home(name) / "notebooks"
    kept = None
    if current.exists():
        kept = current.with_name(f"notebooks-{time.strftime('%Y%m%d-%H%M%S')}")
        current.rename(kept)
    copy_notebooks(settings, name)
    return kept


def proxy_command() -> list[str] | None:
    """configurable-http-proxy: the one bootstrap installed with npm, else one on PATH."""
    if PROXY.exists():
        return [str(PROXY)]
    found = shutil.which("configurable-http-proxy")
    return [found] if found else None


def warm_up(settings: Settings) -> None:
    """Run every notebook once in the background, at low priority, to fill the run cache."""
    settings.run_cache.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ, ZVMSIM_RUN_CACHE=str(settings.run_cache))
    with open(settings.data_dir / "warmup.log", "w") as log:  # the child has its own handle
        subprocess.Popen([sys.executable, "-m", "zvmsim.warmup"], env=env, stdout=log, stderr=log)
    print(f"warming the run cache with every notebook (log: {settings.data_dir / 'warmup.log'})")


def start(settings: Settings) -> None:
    """Replace this process with JupyterHub on class/jupyterhub_config.py."""
    user, admin = passwords(settings)
    if proxy_command() is None:
        raise ClassError("no configurable-http-proxy: python3 bootstrap.py class installs it")
    print(f"class server: {settings.url}  (stop it with Ctrl+C)")
    who = ", ".join(settings.students) if settings.students else "any name"
    print(f"students ({who}) log in with the class password: {user}")
    print(f"instructors ({', '.join(settings.instructors) or 'none'}) use the admin password in")
    print(f"  {settings.data_dir / 'admin-password.txt'}; admin panel: {settings.url}hub/admin")
    sys.stdout.flush()
    settings.data_dir.mkdir(parents=True, exist_ok=True)
    warm_up(settings)
    os.chdir(settings.data_dir)
    hub = Path(sys.executable).with_name("jupyterhub")
    args = [str(hub), "-f", str(HUB_CONFIG)]
    os.execv(args[0], args)


def main(argv: list[str]) -> int:
    command, rest = (argv[0], argv[1:]) if argv else ("start", [])
    try:
        settings = load_settings()
        if command == "start" and not rest:
            start(settings)
        elif command == "reset" and len(rest) == 1:
            kept = reset(settings, rest[0])
            where = f"; the old one is in {kept}" if kept else ""
            print(f"{rest[0]} has a fresh copy in {settings.home(rest[0]) / 'notebooks'}{where}")
        elif command == "passwords" and not rest:
            user, admin = passwords(settings)
            print(f"class password: {user}\nadmin password: {admin}")
        else:
            print(__doc__)
            return 2
    except ClassError as exc:
        print(f"class: error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
