"""Which monitor domains each report reads, and a clear refusal when one was off.

CP writes sample records only for the domains MONITOR SAMPLE ENABLE turned
on; the sample profile (D1 R9) says which. A report built from a domain
that was not collected would show zeros that look like an idle system, so
instead it says in one line which domain it needs. System (D0) and Monitor
(D1) data are always collected and not listed here.
"""

from __future__ import annotations

from ..errors import ZvmsimError
from ..monitor.records import DOMAINS, domains_in
from .reduce import RunData

__all__ = ["NEEDS", "DomainNotCollected", "check_domains"]

STORAGE, USER, PROCESSOR, IO, APPLDATA = 3, 4, 5, 6, 10

# Sample domains each report reads (beyond System and Monitor), by FCX number.
NEEDS: dict[str, tuple[int, ...]] = {
    "FCX100": (PROCESSOR,),
    "FCX103": (STORAGE, USER),
    "FCX108": (IO,),
    "FCX109": (STORAGE, IO),
    "FCX110": (IO,),
    "FCX111": (IO,),
    "FCX112": (USER,),
    "FCX113": (USER,),
    "FCX114": (USER,),
    "FCX126": (PROCESSOR,),
    "FCX143": (STORAGE,),
    "FCX144": (PROCESSOR,),
    "FCX146": (STORAGE,),
    "FCX147": (STORAGE,),
    "FCX162": (USER,),
    "FCX163": (USER,),
    "FCX164": (USER,),
    "FCX168": (IO,),
    "FCX177": (IO,),
    "FCX231": (IO,),
    "FCX290": (USER,),
    "FCX291": (USER,),
    "FCX292": (USER,),
    "FCX293": (USER,),
    "FCX294": (STORAGE,),
    "FCX295": (STORAGE,),
    "FCX296": (STORAGE,),
    "FCX297": (STORAGE,),
    "FCX180": (PROCESSOR,),
    "FCX225": (PROCESSOR, USER, IO, STORAGE),
    "FCX240": (IO,),
    "TXN": (APPLDATA,),
    "VMCFLOG": (PROCESSOR,),
    "FCX265": (),  # spin locks: System domain only
    "REORDMON": (USER,),
    "REORDLOG": (USER,),
    "FCX134": (STORAGE,),
    "FCX133": (STORAGE,),
}


class DomainNotCollected(ZvmsimError):
    """A report was asked of data whose monitor domain was not enabled."""


def _name(domain: int) -> str:
    return DOMAINS.get(domain, f"D{domain}")


def check_domains(fcx: str, run: RunData) -> None:
    """Raise a one-line ZvmsimError if report *fcx* needs a domain the run did not sample."""
    enabled = set(domains_in(run.profile.sample_domains))
    missing = [d for d in NEEDS.get(fcx, ()) if d not in enabled]
    if not missing:
        return
    names = [_name(d) for d in missing]
    if len(names) == 1:
        what = f"the {names[0]} domain, which was not enabled"
    else:
        what = f"the {', '.join(names[:-1])} and {names[-1]} domains, which were not enabled"
    command = " ".join(names)
    raise DomainNotCollected(
        f"{fcx} needs {what} for sample data (MONITOR SAMPLE ENABLE {command} collects it)"
    )
