"""Which z/VM release wrote the monitor data, and reports one release does not have.

z/VM 6.3 rewrote storage management, and Performance Toolkit followed: the
new screens FCX290-FCX297 describe 6.3's aging list, trial invalidation and
available lists, and two old ones, FCX254 AVAILLOG and FCX259 DEMNDLOG, are
no longer produced for 6.3 data. A report asked of data from the wrong
release gives an empty frame carrying a one-line note, which the report
prints instead of its table (see :meth:`ReportSpec.make`).
"""

from __future__ import annotations

import pandas as pd

from .reduce import RunData

__all__ = ["is_zvm63", "note_frame", "release_note"]


def _release(run: RunData) -> tuple[int, int]:
    try:
        version, release = run.system.zvm_level.split(".")[:2]
        return int(version), int(release)
    except ValueError:
        return (0, 0)


def is_zvm63(run: RunData) -> bool:
    """Whether the monitor data comes from z/VM 6.3 or later."""
    return _release(run) >= (6, 3)


def release_note(run: RunData, fcx: str, name: str, wanted_63: bool) -> str | None:
    """Why *fcx* is not produced for this data (None when it is)."""
    if is_zvm63(run) == wanted_63:
        return None
    level = run.system.zvm_level
    if wanted_63:
        return f"{fcx} {name} is produced for z/VM 6.3 data only; this data is from z/VM {level}."
    return f"{fcx} {name} is not produced on z/VM 6.3 (this data is from z/VM {level})."


def note_frame(keys: list[str], note: str) -> pd.DataFrame:
    """An empty report frame with its columns, carrying *note* in its attrs."""
    frame = pd.DataFrame(columns=keys)
    frame.attrs["note"] = note
    return frame
