"""A health check: the "basic things to check" of a z/VM system, read off a run.

IBM's analysts start every look at a system with the same questions — is
there enough CPU, enough storage, is CP's overhead low, is paging, I/O and
networking healthy — each answered by a particular Performance Toolkit
report. :func:`health_check` answers them for any run, so a student can
point it at every scenario. Verdicts and limits work as in
:mod:`zvmsim.lab.checklist` (rules of thumb, named constants).
"""

from __future__ import annotations

import pandas as pd

from ..errors import ZvmsimError
from ..perfkit.reduce import RunData
from ..perfkit.user import all_sample_share
from .checklist import (
    Check,
    _blocking,
    _dasd_vs_xstore,
    _mdc,
    _mload,
    _page_wait,
    _paging_queue,
    _space_full,
    _sxs,
    _tv,
    answer_checks,
    report_frame,
)

__all__ = ["HEALTH", "health_check", "health_text"]

CPU_BUSY = 90.0  # % of the partition's logical PUs: little room left for peaks
SUSP_HIGH = 5.0  # % of time a logical PU was ready but PR/SM did not dispatch it
CPU_WAIT = 20.0  # % of samples a user waited for a processor
DASD_SLOW_MS = 10.0  # average DASD response time worth a closer look
READ_HITS_LOW = 30.0  # % control-unit cache read hits
READS_MATTER = 1.0  # reads per second below which a volume's hit ratio says little
CHANNEL_BUSY = 50.0  # % busy of a channel path

MEAN = ">>Mean>>"


def _frame(run: RunData, code: str) -> pd.DataFrame | None:
    """Report *code*'s frame, or None if zvmsim has no such report yet."""
    try:
        return report_frame(run, code)
    except ZvmsimError:
        return None


def _busy(run: RunData) -> tuple[str, str]:
    frame = report_frame(run, "FCX225")
    busy = float(frame[frame["interval_end"] == MEAN].iloc[0]["pct_busy"])
    peak = float(frame[frame["interval_end"] != MEAN]["pct_busy"].max())
    seen = f"{busy:.1f}% busy on average, {peak:.1f}% in the busiest interval"
    return seen, "look closer" if peak > CPU_BUSY else "ok"


def _partition(run: RunData) -> tuple[str, str]:
    frame = report_frame(run, "FCX126")
    own = frame[frame["pct_susp"].notna()]
    if own.empty:
        return "no LPAR data", "ok"
    susp = float(own["pct_susp"].max())
    seen = f"{own.iloc[0]['partition']}: %Busy {own['pct_busy'].sum():.0f} over "
    seen += f"{len(own)} logical PUs, %Susp up to {susp:.1f}"
    return seen, "look closer" if susp > SUSP_HIGH else "ok"


def _cpu_wait(run: RunData) -> tuple[str, str]:
    frame = report_frame(run, "FCX114")
    users = frame[~frame["userid"].str.startswith(">")]
    waiting = users[all_sample_share(users, "pct_cpu") >= CPU_WAIT]  # of all its samples
    if waiting.empty:
        return f"no user waits for a CPU in {CPU_WAIT:g}% of samples or more", "ok"
    names = ", ".join(f"{r.userid} {r.pct_cpu:.0f}%" for r in waiting.head(3).itertuples())
    return names, "look closer"


def _dasd(run: RunData) -> tuple[str, str]:
    frame = report_frame(run, "FCX225")
    mean = frame[frame["interval_end"] == MEAN].iloc[0]
    seen = f"{mean['ssch_rate']:.0f} I/O per second at {mean['dasd_resp_ms']:.1f} ms"
    return seen, "look closer" if mean["dasd_resp_ms"] > DASD_SLOW_MS else "ok"


def _cache(run: RunData) -> tuple[str, str]:
    frame = _frame(run, "FCX111")
    if frame is None:
        return "zvmsim has no control-unit cache report here", "not modelled"
    if frame.empty:
        return "no volume behind a cached control unit", "ok"
    frame = frame[frame["io_rate"] * frame["pct_read"] / 100 >= READS_MATTER]
    if frame.empty:
        return f"no cached volume reads {READS_MATTER:g}/s or more", "ok"
    worst = frame.sort_values("pct_read_hits").iloc[0]
    seen = f"lowest read-hit ratio {worst['pct_read_hits']:.0f}% ({worst['volser']})"
    return seen, "look closer" if worst["pct_read_hits"] < READ_HITS_LOW else "ok"


def _channels(run: RunData) -> tuple[str, str]:
    frame = _frame(run, "FCX161")
    if frame is None:
        return "zvmsim has no channel report here", "not modelled"
    osd = frame[frame["chpid_type"] == "OSD"]
    if osd.empty:
        return "no OSA (OSD) channel paths", "ok"
    busy = float(osd["pct_busy"].max())
    return f"busiest OSD CHPID {busy:.0f}% busy", "look closer" if busy > CHANNEL_BUSY else "ok"


def _vswitch(run: RunData) -> tuple[str, str]:
    frame = _frame(run, "FCX240")
    if frame is None:
        return "zvmsim has no VSWITCH report here", "not modelled"
    rows = frame[frame["addr"].str.startswith(">")]
    if rows.empty:
        return "no VSWITCH", "ok"
    r = rows.iloc[0]
    return (
        f"out {r['out_bytes_rate'] / 1024:,.0f} KB/s, in {r['in_bytes_rate'] / 1024:,.0f} KB/s",
        "ok",
    )


def _topic(topic: str, checks: list[Check]) -> list[tuple[str, Check]]:
    return [(topic, c) for c in checks]


HEALTH: list[tuple[str, Check]] = [
    *_topic("CPU", [
        Check("How busy are the processors?", "FCX225 SYSSUMLG", _busy),
        Check("Does PR/SM give the partition its processors?", "FCX126 LPAR", _partition),
        Check("Do users wait for a processor?", "FCX114 USTAT", _cpu_wait),
    ]),
    *_topic("Storage", [
        Check("Do users wait for pages?", "FCX114 USTAT", _page_wait),
        Check("Is XSTORE busier than paging DASD?", "FCX143 PAGELOG", _dasd_vs_xstore),
        Check("Is there enough system execution space?", "FCX264 SXSUTIL", _sxs),
    ]),
    *_topic("CP", [Check("Is time in CP low (T/V)?", "FCX225 SYSSUMLG", _tv)]),
    *_topic("Paging", [
        Check("Are paging volumes queueing?", "FCX109 DEVICE CPOWNED", _paging_queue),
        Check("Is paging response (MLOAD) fine?", "FCX109 DEVICE CPOWNED", _mload),
        Check("Is the paging blocking factor fine?", "FCX109 DEVICE CPOWNED", _blocking),
        Check("Is paging space too full?", "FCX109 DEVICE CPOWNED", _space_full),
    ]),
    *_topic("I/O", [
        Check("Is DASD response time fine?", "FCX225 SYSSUMLG", _dasd),
        Check("Are MDC hits satisfactory?", "FCX108 DEVICE", _mdc),
        Check("Does the control-unit cache hit?", "FCX111 CACHDBSE", _cache),
    ]),
    *_topic("Network", [
        Check("Are the OSA channel paths busy?", "FCX161 LCHANNEL", _channels),
        Check("What flows through the VSWITCH?", "FCX240 VSWITCH", _vswitch),
    ]),
]  # fmt: skip


def health_check(run: RunData, checks: list[tuple[str, Check]] | None = None) -> pd.DataFrame:
    """The basic things to check, answered for *run*: topic, question, report, observed, verdict."""
    return answer_checks(run, checks or HEALTH)


def health_text(run: RunData) -> str:
    """The health check as fixed-width text, for a dashboard or a terminal."""
    frame = health_check(run)
    lines = ["Health check  (the basic things to check, read off this run's reports)"]
    topic = ""
    for r in frame.itertuples():
        if r.topic != topic:
            topic = r.topic
            lines.append(f" {topic}")
        lines.append(f"  [{r.verdict:^12}] {r.question:<48} {r.report}")
        lines.append(f"  {'':14} {r.observed}")
    return "\n".join(lines)
