"""The reports zvmsim can produce, found by FCX number or Perfkit name."""

from __future__ import annotations

from ..errors import ZvmsimError
from .agellog import FCX296, FCX297
from .availlists import FCX294, FCX295
from .cache import FCX111, FCX177
from .ceclog import CECLOG
from .channel import FCX161, FCX215
from .demand import FCX254, FCX259
from .devconf import FCX131
from .devdetail import FCX110
from .device import FCX108
from .devlog import FCX168
from .dspacesh import FCX134
from .hipsock import FCX231
from .locklog import FCX265
from .lpar import FCX126
from .mdcache import FCX138
from .nss import FCX133
from .paging import FCX109, FCX143
from .processor import FCX100, FCX180
from .proclog import FCX144
from .reordmon import REORDLOG, REORDMON
from .report import ReportSpec
from .sched import FCX145, FCX154
from .settings import FCX149, FCX226
from .storage import FCX103, FCX146
from .sxs import FCX264
from .system import FCX225
from .txn import TXN
from .upage import FCX113, FCX163
from .upgact import FCX290, FCX291
from .upgutl import FCX292, FCX293
from .user import FCX112, FCX114, FCX164
from .userlog import FCX162
from .vdisk import FCX147
from .vmcflog import VMCFLOG
from .vswitch import FCX240

__all__ = ["REPORTS", "find_report"]

REPORTS: dict[str, ReportSpec] = {
    spec.fcx: spec
    for spec in sorted(
        (
            FCX100,
            FCX103,
            FCX108,
            FCX109,
            FCX110,
            FCX111,
            FCX112,
            FCX113,
            FCX114,
            FCX126,
            FCX131,
            FCX143,
            FCX144,
            FCX146,
            FCX145,
            FCX147,
            FCX149,
            FCX154,
            FCX161,
            FCX162,
            FCX163,
            FCX164,
            FCX168,
            FCX177,
            FCX180,
            FCX215,
            FCX225,
            FCX226,
            FCX240,
            FCX254,
            FCX259,
            FCX264,
            TXN,
            FCX231,
            CECLOG,
            FCX290,
            FCX291,
            FCX292,
            FCX293,
            FCX294,
            FCX295,
            FCX296,
            FCX297,
            VMCFLOG,
            FCX265,
            REORDMON,
            REORDLOG,
            FCX138,
            FCX134,
            FCX133,
        ),
        key=lambda spec: spec.fcx,
    )
}


def find_report(code: str) -> ReportSpec:
    """The report called *code*: ``FCX108``, ``DEVICE``, ``fcx112``, ``user``..."""
    key = " ".join(code.upper().split())
    if key in REPORTS:
        return REPORTS[key]
    for spec in REPORTS.values():
        if key == spec.name or key in spec.aliases:
            return spec
    known = ", ".join(f"{s.fcx} {s.name}" for s in REPORTS.values())
    raise ZvmsimError(f"unknown report '{code}' (reports: {known})")
