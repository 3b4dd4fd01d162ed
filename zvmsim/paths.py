"""Where the project's data files live (scenarios and calibration)."""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["data_dir"]


def data_dir() -> Path:
    """The ``data/`` folder: ``$ZVMSIM_DATA`` if set, else the one beside the package."""
    env = os.environ.get("ZVMSIM_DATA")
    return Path(env) if env else Path(__file__).resolve().parent.parent / "data"
