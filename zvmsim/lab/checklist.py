"""Is this duress? The emergency-scan case's checklist, read off the reports.

Seeing emergency scan (or any single number) is no verdict on a system. The
case study lists what else to look at; each question here is answered from
one report of the run, the way a student would read it, and gets a verdict:

* ``ok`` — nothing to worry about on this count;
* ``look closer`` — the report shows what the question warns about;
* ``not modelled`` — zvmsim does not simulate what the question needs
  (spin locks): the row says so rather than guess.

The limits are teaching rules of thumb, not IBM thresholds; they are named
constants below so an instructor can discuss (and change) them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pandas as pd

from ..errors import ZvmsimError
from ..perfkit import find_report
from ..perfkit.reduce import RunData
from ..perfkit.user import all_sample_share

__all__ = ["CHECKS", "Check", "answer_checks", "checklist_text", "duress_checklist"]

MEAN = ">>Mean>>"
TV_HIGH = 1.5  # T/V above this: CP works hard for its guests
PGW_USER = 10.0  # a user sampled in page wait this often is waiting on paging
QUEUE_LONG = 0.5  # requests queued on a paging volume, on average
MLOAD_SLOW_MS = 10.0  # paging response time (MLOAD) a page fault would notice
BLOCK_SMALL = 2  # pages per paging I/O below this: block paging is not helping
SPACE_FULL = 50  # % of page slots in use above which CP struggles to find blocks
APP_SLOW_MS = 100.0  # an interactive transaction slower than this is noticed
SXS_USED_HIGH = 75.0  # % of the system execution space in use: CP's room is running out


# while answer_checks works: its run and the report frames built for it so far
_answering: tuple[RunData, dict[str, pd.DataFrame]] | None = None


def report_frame(run: RunData, code: str) -> pd.DataFrame:
    """Report *code*'s frame for *run* (as ``report(run, code).frame``, without its
    text); built once per run while :func:`answer_checks` asks its questions."""
    memo = _answering[1] if _answering is not None and _answering[0] is run else None
    if memo is not None and code in memo:
        return memo[code]
    frame = find_report(code).frame(run)
    if memo is not None:
        memo[code] = frame
    return frame


@dataclass(frozen=True)
class Check:
    """One question of the checklist and how to answer it from a run."""

    question: str
    report: str
    answer: Callable[[RunData], tuple[str, str]]  # (what the report shows, verdict)


def _mean_row(run: RunData, code: str) -> pd.Series | None:
    frame = report_frame(run, code)
    rows = frame[frame["interval_end"] == MEAN] if "interval_end" in frame else frame
    return rows.iloc[0] if len(rows) else None


def _frames_empty(run: RunData) -> tuple[str, str]:
    frame = report_frame(run, "FCX254")
    times = frame[frame["interval_end"] != MEAN]
    empty = int((times["times_empty"] > 0).sum())
    low = int(times["frames_available"].min()) if len(times) else 0
    seen = f"empty in {empty} of {len(times)} intervals; fewest available {low:,}"
    return seen, "look closer" if empty else "ok"


def _tv(run: RunData) -> tuple[str, str]:
    row = _mean_row(run, "FCX225")
    tv = float(row["tv_ratio"]) if row is not None else 0.0
    return f"T/V {tv:.2f}", "look closer" if tv > TV_HIGH else "ok"


def _page_wait(run: RunData) -> tuple[str, str]:
    frame = report_frame(run, "FCX114")
    users = frame[~frame["userid"].str.startswith(">")]
    waiting = users[all_sample_share(users, "pct_pgw") >= PGW_USER]  # of all its samples
    if waiting.empty:
        return f"no user in page wait in {PGW_USER:g}% of samples or more", "ok"
    names = ", ".join(f"{r.userid} {r.pct_pgw:.0f}%" for r in waiting.head(3).itertuples())
    more = f" and {len(waiting) - 3} more" if len(waiting) > 3 else ""
    return f"{names}{more}", "look closer"


def _eligible(run: RunData) -> tuple[str, str]:
    row = _mean_row(run, "FCX225")
    elist = float(row["users_elist"]) if row is not None else 0.0
    return f"{elist:.1f} users on the eligible list", "look closer" if elist > 0 else "ok"


def _mdc(run: RunData) -> tuple[str, str]:
    frame = report_frame(run, "FCX108")
    dasd = frame[~frame["addr"].str.startswith(">")]
    avoided, real = float(dasd["avoid_rate"].sum()), float(dasd["io_rate"].sum())
    if avoided == 0:
        return "no I/O avoided: minidisk cache is not in use here", "ok"
    share = 100.0 * avoided / (avoided + real)
    return f"{share:.0f}% of DASD reads and writes avoided", "ok"


def _sxs(run: RunData) -> tuple[str, str]:
    row = _mean_row(run, "FCX264")
    if row is None:
        return "no system execution space records in this data", "not modelled"
    used, total = float(row["used_pages"]), float(row["total_pages"])
    pct = 100.0 * used / total
    seen = f"{used:,.0f} of {total:,.0f} pages used ({pct:.1f}%)"
    return seen, "look closer" if pct > SXS_USED_HIGH else "ok"


def _dasd_vs_xstore(run: RunData) -> tuple[str, str]:
    row = _mean_row(run, "FCX143")
    if row is None:
        return "no paging", "ok"
    dasd, xst = float(row["dasd_total"]), float(row["xstore_in"] + row["xstore_out"])
    verdict = "look closer" if dasd > xst else "ok"
    return f"DASD {dasd:,.0f} pages/s, XSTORE {xst:,.0f} pages/s", verdict


def _paging_volumes(run: RunData) -> pd.DataFrame:
    return report_frame(run, "FCX109")


def _paging_queue(run: RunData) -> tuple[str, str]:
    vols = _paging_volumes(run)
    if vols.empty:
        return "no paging volumes", "ok"
    worst = float(vols["queue_len"].max())
    return f"longest queue {worst:.1f}", "look closer" if worst > QUEUE_LONG else "ok"


def _paging_io(run: RunData) -> pd.DataFrame:
    """FCX109 rows of the paging volumes that did I/O."""
    vols = _paging_volumes(run)
    return vols[vols["ssch_rate"] > 0]


def _mload(run: RunData) -> tuple[str, str]:
    busy = _paging_io(run)
    if busy.empty:
        return "no paging I/O", "ok"
    resp = float((busy["resp_ms"] * busy["ssch_rate"]).sum() / busy["ssch_rate"].sum())
    return f"paging response {resp:.1f} ms", "look closer" if resp > MLOAD_SLOW_MS else "ok"


def _blocking(run: RunData) -> tuple[str, str]:
    busy = _paging_io(run)
    size = float(busy["block_size"].mean()) if len(busy) else 0.0
    if busy.empty:
        return "no paging I/O", "ok"
    return f"{size:.1f} pages per paging I/O", "look closer" if size < BLOCK_SMALL else "ok"


def _space_full(run: RunData) -> tuple[str, str]:
    vols = _paging_volumes(run)
    if vols.empty:
        return "no paging volumes", "ok"
    used = float(vols["pct_used"].max())
    return f"fullest volume {used:.0f}% used", "look closer" if used > SPACE_FULL else "ok"


def _applications(run: RunData) -> tuple[str, str]:
    frame = report_frame(run, "TXN")
    apps = frame[frame["userid"] == ">>All<<"]
    if apps.empty:
        return "the workload reports no transactions", "ask the users"
    seen = "; ".join(
        f"{r.workload} {r.etr:,.0f}/s at {r.resp_ms:.1f} ms" for r in apps.itertuples()
    )
    slow = bool((apps["resp_ms"] > APP_SLOW_MS).any())
    return seen, "look closer" if slow else "ok"


def _not_modelled(what: str) -> Callable[[RunData], tuple[str, str]]:
    return lambda run: (f"zvmsim does not simulate {what}", "not modelled")


CHECKS: list[Check] = [
    Check("Are the free frame lists routinely empty?", "FCX254 AVAILLOG", _frames_empty),
    Check("Is the system T/V ratio high?", "FCX225 SYSSUMLG", _tv),
    Check("Is CP spinning on locks?", "FCX265 LOCKLOG", _not_modelled("spin locks")),
    Check("Does USTAT show users in page wait?", "FCX114 USTAT", _page_wait),
    Check("Is an eligible list forming?", "FCX225 SYSSUMLG", _eligible),
    Check("Are MDC hits satisfactory?", "FCX108 DEVICE", _mdc),
    Check("Is there plenty of system execution space?", "FCX264 SXSUTIL", _sxs),
    Check("Is the DASD page rate above the XSTORE page rate?", "FCX143 PAGELOG", _dasd_vs_xstore),
    Check("Are there queues at the paging DASD?", "FCX109 DEVICE CPOWNED", _paging_queue),
    Check("Is paging response time (MLOAD) fine?", "FCX109 DEVICE CPOWNED", _mload),
    Check("Is the paging blocking factor fine?", "FCX109 DEVICE CPOWNED", _blocking),
    Check("Is paging space too full?", "FCX109 DEVICE CPOWNED", _space_full),
    Check("Does application performance seem fine?", "TXN (the workload's own)", _applications),
]


def answer_checks(run: RunData, checks: list[tuple[str, Check]]) -> pd.DataFrame:
    """Answer (topic, check) pairs for *run*: topic, question, report, observed, verdict.

    Each report the questions read is built once (several read FCX109 or FCX225).
    """
    global _answering
    rows = []
    _answering = (run, {})
    try:
        for topic, check in checks:
            try:
                observed, verdict = check.answer(run)
            except ZvmsimError as exc:  # its report needs a domain that was not collected
                observed, verdict = str(exc), "no data"
            rows.append(
                {
                    "topic": topic,
                    "question": check.question,
                    "report": check.report,
                    "observed": observed,
                    "verdict": verdict,
                }
            )
    finally:
        _answering = None
    return pd.DataFrame(rows)


def duress_checklist(run: RunData) -> pd.DataFrame:
    """The checklist answered for *run*: question, report, observed, verdict."""
    return answer_checks(run, [("", c) for c in CHECKS]).drop(columns="topic")


def checklist_text(run: RunData) -> str:
    """The checklist as fixed-width text, for a dashboard or a terminal."""
    frame = duress_checklist(run)
    lines = ["Is this duress?  (the emergency-scan case's checklist, read off this run's reports)"]
    for r in frame.itertuples():
        lines.append(f"  [{r.verdict:^12}] {r.question:<52} {r.report}")
        lines.append(f"  {'':14} {r.observed}")
    return "\n".join(lines)
