"""Fill the run cache ahead of a class: run notebooks once, quietly, at low priority.

``python -m zvmsim.warmup [NOTEBOOK ...]`` executes each notebook (all of
``notebooks/`` by default) in a kernel of its own, discards the outputs, and
leaves every simulated run in ``$ZVMSIM_RUN_CACHE`` (:mod:`zvmsim.runcache`).
A student who then opens the notebook, or its Voilà app, finds its runs made:
the first dashboard shows in the time it takes to start a kernel and import
the toolkit. ``bootstrap.py app`` and ``class`` start it in the background.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

from .runcache import ENV, folder

__all__ = ["notebooks", "run_notebook", "warm"]

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"


def notebooks(names: list[str]) -> list[Path]:
    """The notebooks named (``06-pav-mdc`` or a path), or all of them."""
    if not names:
        return sorted(NOTEBOOKS.glob("*.ipynb"))
    paths = []
    for name in names:
        path = Path(name) if name.endswith(".ipynb") else NOTEBOOKS / f"{name}.ipynb"
        paths.append(path if path.exists() else NOTEBOOKS / path.name)
    return paths


def run_notebook(path: Path, timeout: float = 900) -> Any:
    """Execute *path* top to bottom in a kernel of its own, in its own folder; the
    notebook with its outputs (no timestamps). ``tools/execute_notebooks.py`` too."""
    import nbformat
    from nbclient import NotebookClient

    nb = nbformat.read(path, as_version=4)
    NotebookClient(
        nb,
        timeout=timeout,
        kernel_name="python3",
        record_timing=False,  # no timestamps: diffs and merges show only real changes
        resources={"metadata": {"path": str(path.parent)}},
    ).execute()
    return nb


def warm(path: Path) -> str:
    """Execute *path* for its runs' sake; one line saying how it went."""
    try:
        run_notebook(path)
    except Exception as exc:  # a warm-up is a courtesy: say so, never stop the server
        return f"warm-up: {path.name}: not finished ({type(exc).__name__})"
    return f"warm-up: {path.name}: its runs are cached"


def main(argv: list[str]) -> int:
    if folder() is None:
        print(f"warm-up: ${ENV} is not set, so there is no cache to fill", file=sys.stderr)
        return 2
    if hasattr(os, "nice"):
        os.nice(10)  # the students' own kernels come first
    for path in notebooks(argv):
        if not path.exists():
            print(f"warm-up: no notebook {path.name}", file=sys.stderr)
            continue
        print(warm(path), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
