"""The project's set-up files agree with each other."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _requirement(spec: str) -> tuple[str, str]:
    match = re.match(r"([A-Za-z0-9_.-]+)\s*(?:>=|==)?\s*([0-9.]*)", spec.strip())
    assert match, spec
    return match.group(1).lower(), match.group(2)


def _environment_yml() -> dict[str, str]:
    deps: dict[str, str] = {}
    in_deps = False
    for line in (ROOT / "environment.yml").read_text().splitlines():
        if line.startswith("dependencies:"):
            in_deps = True
            continue
        item = re.match(r"^  - (\S+)$", line)
        if in_deps and item:
            name, version = _requirement(item.group(1))
            if name not in {"python", "pip"}:
                deps[name] = version
    return deps


def test_environment_yml_matches_pyproject() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    wanted = dict(_requirement(s) for s in project["dependencies"])
    wanted |= dict(_requirement(s) for s in project["optional-dependencies"]["dev"])
    assert _environment_yml() == wanted


def test_ci_runs_the_readme_test_command() -> None:
    readme = (ROOT / "README.md").read_text()
    assert "python3 bootstrap.py test" in readme and "python3 bootstrap.py lab" in readme
    ci = (ROOT / ".ci" / "run").read_text()
    assert "python3 bootstrap.py test" in ci


def test_python_dash_m_help() -> None:
    proc = subprocess.run([sys.executable, "-m", "zvmsim", "--help"], capture_output=True)
    assert proc.returncode == 0 and b"report" in proc.stdout
