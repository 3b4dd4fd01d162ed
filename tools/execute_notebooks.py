"""Re-run notebooks in place so their stored outputs match the current code.

The notebooks are documentation tested by ``pytest --nbval``: every stored
output must be what the code produces now. After changing the simulator or a
report, run ``python tools/execute_notebooks.py [NOTEBOOK ...]`` (all
notebooks by default) with the project's environment, then review the diff.
"""

from __future__ import annotations

import sys
from pathlib import Path

import nbformat

from zvmsim.warmup import NOTEBOOKS, run_notebook


def execute(path: Path) -> None:
    """Execute *path* top to bottom in its own folder and save it with outputs."""
    nb = run_notebook(path, timeout=600)
    for cell in nb.cells:
        cell.metadata.pop("execution", None)
    nbformat.write(nb, path)
    print(f"executed {path.name}")


def main(argv: list[str]) -> None:
    paths = [Path(a) for a in argv] or sorted(NOTEBOOKS.glob("*.ipynb"))
    for path in paths:
        execute(path)


if __name__ == "__main__":
    main(sys.argv[1:])
