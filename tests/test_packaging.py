"""The project's set-up files agree with each other."""

from __future__ import annotations

import ast
import importlib.util
import json
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from conftest import LONGEST_FIRST, Execd, load_bootstrap

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


def test_ci_runs_the_readme_test_command() -> None:
    readme = (ROOT / "README.md").read_text()
    assert "python3 bootstrap.py test" in readme and "python3 bootstrap.py lab" in readme
    ci = (ROOT / ".ci" / "run").read_text()
    assert "python3 bootstrap.py test" in ci


def test_python_dash_m_help() -> None:
    proc = subprocess.run([sys.executable, "-m", "zvmsim", "--help"], capture_output=True)
    assert proc.returncode == 0 and b"report" in proc.stdout


# ---- environment.yml: a valid conda-forge environment with everything the code imports ----

# pip names whose conda-forge package is called differently
CONDA_NAMES = {"playwright": "playwright-python"}
# import name -> the package (pyproject name) that provides it
PROVIDERS = {
    "IPython": "ipython",
    "hypothesis": "hypothesis",
    "mypy_extensions": "mypy",  # mypy's own dependency; zvmsim/cp/storage.py, for mypyc only
    "ipywidgets": "ipywidgets",
    "matplotlib": "matplotlib",
    "nbclient": "nbclient",
    "nbformat": "nbformat",
    "numpy": "numpy",
    "pandas": "pandas",
    "playwright": "playwright",
    "psutil": "psutil",
    "pytest": "pytest",
    "simpy": "simpy",
    "tornado": "tornado",
}
# modules started as programs ("python -m voila") or loaded as plug-ins, never imported
RUN_NOT_IMPORTED = {
    "voila": "voila",
    "nbval": "nbval",
    "ipykernel": "ipykernel",
    "jupyterhub": "jupyterhub",  # the class server (class/jupyterhub_config.py)
    "jupyterhub_idle_culler": "jupyterhub-idle-culler",
    "xdist": "pytest-xdist",
    "mypyc": "mypy",  # compiles the hot modules (zvmsim/native.py, in a subprocess)
}
LOCAL = {"zvmsim"} | {p.stem for p in (ROOT / "tests").glob("*.py")}  # tests' own helpers


def _pyproject_packages() -> dict[str, str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    wanted = dict(_requirement(s) for s in project["dependencies"])
    for extra in ("dev", "class"):  # bootstrap.py installs both
        wanted |= dict(_requirement(s) for s in project["optional-dependencies"][extra])
    return wanted


def _imports_in(source: str) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def _third_party_imports() -> dict[str, str]:
    """Every top-level module imported by the package, tests, tools and notebooks: where."""
    found: dict[str, str] = {}
    sources = [
        (p, p.read_text())
        for folder in ("zvmsim", "tests", "tools", "benchmarks")
        for p in sorted((ROOT / folder).rglob("*.py"))
    ]
    for nb in sorted((ROOT / "notebooks").glob("*.ipynb")):
        cells = json.loads(nb.read_text())["cells"]
        code = ["".join(c["source"]) for c in cells if c["cell_type"] == "code"]
        lines = [
            ln for c in code for ln in c.splitlines() if not ln.lstrip().startswith(("%", "!"))
        ]
        sources.append((nb, "\n".join(lines)))
    for path, source in sources:
        for name in _imports_in(source) - set(sys.stdlib_module_names) - LOCAL:
            found.setdefault(name, str(path.relative_to(ROOT)))
    return found


def test_environment_yml_matches_pyproject() -> None:
    wanted = {CONDA_NAMES.get(name, name): v for name, v in _pyproject_packages().items()}
    assert _environment_yml() == wanted


def test_environment_yml_is_binder_ready() -> None:
    text = (ROOT / "environment.yml").read_text()
    assert re.search(r"^channels:\n  - conda-forge$", text, re.MULTILINE)
    # repo2docker picks its Python from an exact pin, not from a range
    assert re.search(r"^  - python=3\.\d+$", text, re.MULTILINE)
    assert "  - playwright>" not in text, "conda-forge calls it playwright-python"
    assert re.search(r"^      - -e \.$", text, re.MULTILINE), "the package itself, editable"


def test_every_imported_module_is_a_declared_dependency() -> None:
    imported = _third_party_imports()
    unknown = {name: where for name, where in imported.items() if name not in PROVIDERS}
    assert not unknown, f"imported but not in PROVIDERS (add it to pyproject too): {unknown}"
    declared = _pyproject_packages()
    conda = _environment_yml()
    for name in sorted(imported):
        package = PROVIDERS[name]
        assert package in declared, f"{name} ({imported[name]}) needs {package} in pyproject.toml"
        conda_name = CONDA_NAMES.get(package, package)
        assert conda_name in conda, (
            f"{name} ({imported[name]}) needs {conda_name} in environment.yml"
        )
    for module, package in RUN_NOT_IMPORTED.items():
        assert package in declared and package in conda, f"{module} is run, so it must be declared"


def test_nbformat_imports_without_building_iri_parsers() -> None:
    """jsonschema stays below 4.25 (pyproject.toml): from 4.25 on, importing nbformat
    imports rfc3987-syntax, whose Earley parsers cost every Jupyter server 2.4 s."""
    code = "import sys, nbformat; print('rfc3987_syntax' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "False"


# ---- bootstrap.py: root, and a Python without venv/pip ----


def _bootstrap_venv_in(monkeypatch: pytest.MonkeyPatch, tmp_path: Path):
    """bootstrap.py with its .venv under *tmp_path* (none there yet)."""
    bs = load_bootstrap()
    monkeypatch.setattr(bs, "VENV", tmp_path / ".venv")
    monkeypatch.setattr(bs, "PYTHON", tmp_path / ".venv" / "bin" / "python")
    return bs


def test_lab_as_root_passes_allow_root(monkeypatch: pytest.MonkeyPatch) -> None:
    bs = load_bootstrap()
    monkeypatch.setattr(bs, "is_root", lambda: True)
    assert bs.lab_args([])[-1] == "--allow-root"
    assert bs.lab_args(["--allow-root"]).count("--allow-root") == 1
    monkeypatch.setattr(bs, "is_root", lambda: False)
    assert "--allow-root" not in bs.lab_args(["--port=9999"])


def test_lab_command_starts_jupyter_lab_on_the_notebooks(
    monkeypatch: pytest.MonkeyPatch, bootstrap_exec
) -> None:
    bs, started = bootstrap_exec
    monkeypatch.setattr(bs, "is_root", lambda: True)
    with pytest.raises(Execd):
        bs.main(["lab", "--no-browser"])
    assert started[0][1:] == ["lab", "notebooks/", "--no-browser", "--allow-root"]


def test_app_command_culls_closed_pages(bootstrap_exec) -> None:
    bs, started = bootstrap_exec
    for argv in (["app", "06-pav-mdc", "--port=9999"], ["app"]):
        with pytest.raises(Execd):
            bs.main(argv)
    one, every = (args[1:] for args in started)
    assert one == ["notebooks/06-pav-mdc.ipynb", *bs.PREHEAT, *bs.CULL, "--port=9999"]
    assert every == ["notebooks/", *bs.CULL]  # a kernel kept hot for each of 19: too much memory


def test_app_and_lab_keep_runs_in_the_run_cache_warmed_ahead(
    bootstrap_exec, monkeypatch: pytest.MonkeyPatch
) -> None:
    bs, started = bootstrap_exec
    monkeypatch.delenv("ZVMSIM_RUN_CACHE")  # the suite's session cache, for its kernels
    for argv in (["app", "06-pav-mdc"], ["lab"]):
        with pytest.raises(Execd):
            bs.main(argv)
    assert all(env["ZVMSIM_RUN_CACHE"] == str(bs.RUN_CACHE) for env in bs.envs)
    assert bs.warmed == [["06-pav-mdc"]]  # the app's notebook runs ahead; lab warms nothing


def test_test_command_runs_the_suite_in_two_workers_with_notebooks_whole() -> None:
    bs = load_bootstrap()
    assert bs.pytest_args([])[1:] == [
        "-m",
        "pytest",
        "-n",
        "2",
        "--dist",
        "loadfile",
        "--no-loadscope-reorder",
    ]
    assert bs.pytest_args(["-x", "tests/test_cli.py"])[-2:] == ["-x", "tests/test_cli.py"]
    for own in (["-n", "0"], ["-n0"], ["--numprocesses=4"], ["-p", "no:xdist"]):
        assert bs.pytest_args(own)[3:] == own


def test_the_longest_files_first_are_files_of_the_suite() -> None:
    """conftest's order names real files, each once (a renamed file would drop to the end)."""
    root = Path(__file__).resolve().parents[1]
    assert len(set(LONGEST_FIRST)) == len(LONGEST_FIRST)
    assert [p for p in LONGEST_FIRST if not (root / p).is_file()] == []


def test_python_without_venv_gives_one_line(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    bs = _bootstrap_venv_in(monkeypatch, tmp_path)
    real = importlib.util.find_spec
    monkeypatch.setattr(
        bs.importlib.util, "find_spec", lambda name: None if name == "ensurepip" else real(name)
    )
    assert bs.main(["lab"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("bootstrap: error: ")
    assert "ensurepip" in err and "python3-venv" in err
    assert not (tmp_path / ".venv").exists()


def test_failed_venv_is_removed_and_told_in_one_line(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    import venv

    bs = _bootstrap_venv_in(monkeypatch, tmp_path)

    def create(self, env_dir: Path) -> None:  # what Debian's venv does without ensurepip
        Path(env_dir, "bin").mkdir(parents=True)
        raise subprocess.CalledProcessError(1, ["python", "-m", "ensurepip"])

    monkeypatch.setattr(venv.EnvBuilder, "create", create)
    assert bs.main(["setup"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "python3-venv" in err
    assert not (tmp_path / ".venv").exists(), "a half-made .venv would be reused next time"


def test_a_failing_setup_command_is_one_line(capsys: pytest.CaptureFixture) -> None:
    bs = load_bootstrap()
    with pytest.raises(bs.SetupError, match=r"failed \(exit status 3\)"):
        bs.run(sys.executable, "-c", "raise SystemExit(3)")
    with pytest.raises(bs.SetupError, match="failed: "):
        bs.run("/nonexistent/pip", "install")


def test_bootstrap_unknown_command_prints_usage() -> None:
    proc = subprocess.run(
        [sys.executable, str(ROOT / "bootstrap.py"), "frobnicate"], capture_output=True, text=True
    )
    assert proc.returncode == 2 and "bootstrap.py lab" in proc.stdout and not proc.stderr


# ---- the README and the instructor's guide list every notebook ----


def _notebooks() -> list[str]:
    return sorted(p.stem for p in (ROOT / "notebooks").glob("[0-9][0-9]-*.ipynb"))


def test_readme_lists_every_notebook() -> None:
    readme = (ROOT / "README.md").read_text()
    rows = set(re.findall(r"^\| `(\d\d-[\w-]+)` \|", readme, re.MULTILINE))
    missing = [nb for nb in _notebooks() if nb not in rows]
    assert not missing, f"README's notebook table has no row for {missing}"
    assert rows <= set(_notebooks()), f"README lists notebooks that do not exist: {rows}"


def test_instructor_guide_gives_every_notebook_a_class_time() -> None:
    guide = (ROOT / "docs" / "instructor.md").read_text()
    times = dict(re.findall(r"^\| (\d\d) [^|]+\| ([^|]+) \|", guide, re.MULTILINE))
    for nb in _notebooks():
        number = nb[:2]
        assert number in times, f"docs/instructor.md has no row for {nb}"
        assert re.fullmatch(r"\d+(–\d+)? min", times[number].strip()), (nb, times[number])
    assert "appear in the list once" not in guide


def test_the_walkthrough_is_linked_and_its_commands_exist() -> None:
    readme = (ROOT / "README.md").read_text()
    walk = (ROOT / "docs" / "walkthrough.md").read_text()
    assert "docs/walkthrough.md" in readme
    for command in re.findall(r"python3 bootstrap\.py (\w+)", walk):
        assert command in {"lab", "app", "test", "setup"}, command
    for image in re.findall(r"\]\((img/[^)]+)\)", walk):
        assert (ROOT / "docs" / image).exists(), image
