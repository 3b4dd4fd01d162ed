"""The one exception type a student ever sees: a clear, one-line message."""

from __future__ import annotations

__all__ = ["ZvmsimError"]


class ZvmsimError(Exception):
    """Bad input or an impossible configuration, explained in one line.

    The command line prints it as ``zvmsim: error: <message>`` and exits 2;
    notebooks and dashboards show the message instead of a traceback.
    """

    def __init__(self, message: str) -> None:
        super().__init__(" ".join(str(message).split()))
