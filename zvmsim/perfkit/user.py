"""Per-user reports: FCX112 USER, FCX114 USTAT and its log FCX164 USTATLOG.

USER takes CPU times and virtual I/O counts from the user activity records.
Where Perfkit ends a USER row with the user's status (``XC, CL3,DIS``),
zvmsim shows the user's working set and resident pages instead.
USTAT shares are of *observations*, not of time, as on z/VM. %ACT
is the share of a user's high-frequency samples that found it *active*:
working, or having used the processor since the sample before (our reading:
CP's records count the sampled states per monitor interval, so Perfkit can
tell activity per interval only; zvmsim/fidelity.py, pct_act@LMRLN1P), so a server
idling in the dispatch list between rare bits of work is in queue (%TIW) but
seldom active. Every other column is a share of the *active* samples (a
user never active shows dots): a CMS server found dormant just after a bit
of work is active and dormant at once (PERFSVM's %ACT 13 with %DM 60 in
seed 000). The ``>System<`` row is the average per user, not a total, of
%ACT over all users and of the other shares with %ACT as the weight: seed
000's ``>System<`` row (22 users, %ACT 22, %RUN 21, %CPU 4, %TIW 71, %DM 2,
%IOA 1) is its users' rows so averaged. USTATLOG gives the same shares per
monitor interval, with a ``>>Mean>>`` row first, for each user (or the one
chosen).
"""

from __future__ import annotations

from fnmatch import fnmatchcase

import pandas as pd

from ..monitor.records import MRUSEACT
from .reduce import Interval, RunData, merge
from .render import Column
from .report import MEAN, ReportSpec, interval_label

__all__ = [
    "FCX112",
    "FCX114",
    "FCX164",
    "SYSTEM_ROW",
    "all_sample_share",
    "by_time_per_user",
    "user_matches",
    "users_in",
    "with_system_row",
]

SYSTEM_ROW = ">System<"

# The sampled wait states, in USTAT's column order, as the user record carries them.
STATES = tuple(
    name[3:]
    for name in MRUSEACT.counters()
    if name.startswith("hf_") and name not in ("hf_samples", "hf_act")
)


def user_matches(userid: str, user: str | None) -> bool:
    """Whether *userid* is *user* (None: everyone; ``LIN1*``: a prefix pattern)."""
    return user is None or fnmatchcase(userid, user)


def users_in(run: RunData, iv: Interval, user: str | None) -> list[str]:
    return [u for u in sorted(iv.users) if user_matches(u, user)]


def with_system_row(rows: list[dict], key: str, user: str | None = None) -> pd.DataFrame:
    """*rows* (every user's) under a ``>System<`` row, their average; with *user*,
    only that user's rows follow — the ``>System<`` row stays the whole system's,
    as Perfkit's does when a report is limited to some users."""
    if rows:
        avg = {key: SYSTEM_ROW}
        for col in rows[0]:
            if col != key:  # the average over users that have a value (not dots)
                values = [r[col] for r in rows if r[col] == r[col]]
                avg[col] = sum(values) / len(values) if values else float("nan")
        rows = [avg, *(r for r in rows if user_matches(r[key], user))]
    return pd.DataFrame(rows)


def user_load(c: dict, seconds: float) -> dict:
    """A user's CPU load and virtual I/O rates over *seconds*, from its D4 R3 deltas.

    %CPU is TCPU as a percentage of one processor; T/V is TCPU / VCPU.
    DIAGNOSE X'98' and unit-record I/O are not simulated: always 0.
    """
    tcpu, vcpu = c["tcpu_us"] / 1e6, c["vcpu_us"] / 1e6
    return {
        "pct_cpu": 100.0 * tcpu / seconds,
        "tcpu_s": tcpu,
        "vcpu_s": vcpu,
        "tv_ratio": tcpu / vcpu if vcpu else 0.0,
        "vio_rate": c["vio"] / seconds,
        "vio_dasd": c["vio_dasd"] / seconds,
        "vio_avoid": c["vio_avoid"] / seconds,
        "diag98": 0.0,
        "ur": 0.0,
    }


def build_user(run: RunData, intervals: list[Interval], user: str | None) -> pd.DataFrame:
    """FCX112 rows: CPU load, virtual I/O and paging rates, storage per user.

    Pg/s counts the user's page faults resolved per second: pages read back
    from paging DASD plus pages brought back from XSTORE. WSS and resident
    pages are the values at the end of the period.
    """
    iv = intervals[0]
    rows = []
    for uid in users_in(run, iv, None):
        c = iv.users[uid]
        rows.append(
            {
                "userid": uid,
                **user_load(c, iv.seconds),
                "pg_s": (c.get("page_reads", 0) + c.get("x_to_ms", 0)) / iv.seconds,
                "wss": float(c.get("wss", 0)),
                "resident": float(c.get("resident", 0)),
            }
        )
    frame = with_system_row(rows, "userid", user)
    if not frame.empty:
        sysrow = frame.index[0]
        t, v = frame.at[sysrow, "tcpu_s"], frame.at[sysrow, "vcpu_s"]
        frame.at[sysrow, "tv_ratio"] = t / v if v else 0.0
    return frame


def ustat_shares(c: dict) -> dict:
    """%ACT, and the share of the active samples in each state (dots if none).

    %ACT is not the complement of %DM: a sample finds the user *active* when it
    used processor time since the sample before or is in a working state
    (running, CPU, page, I/O or simulation wait). A server idling in the
    dispatch list between rare bits of work is in queue (%TIW) but seldom
    active, as the seed's TCPIP (in test idle in 99% of the samples, active in
    4%) shows. The states are shares of the samples whose state was filed:
    the active ones (files written before zvmsim filed the active samples only
    filed every sample, and keep their shares of all samples). Records without
    the active count (older files still) give %ACT as 100 - %DM.
    """
    n = c["hf_samples"]
    filed = sum(c[f"hf_{s}"] for s in STATES)
    pct = {f"pct_{s}": (100.0 * c[f"hf_{s}"] / filed if filed else float("nan")) for s in STATES}
    if "hf_act" in c:
        act = 100.0 * c["hf_act"] / n if n else float("nan")
    else:
        act = 100.0 - pct["pct_dm"]
    return {"pct_act": act, **pct}


def ustat_system_row(frame: pd.DataFrame) -> pd.DataFrame:
    """USTAT's ``>System<`` row: %ACT averaged over all users, the states with
    %ACT as the weight (the share of all users' active samples in each state)."""
    if frame.empty:
        return frame
    users = frame.iloc[1:]
    act = pd.to_numeric(users["pct_act"], errors="coerce").fillna(0.0)
    weight = act.sum()
    row = frame.index[0]
    for s in STATES:
        col = f"pct_{s}"
        shares = pd.to_numeric(users[col], errors="coerce").fillna(0.0)
        frame.at[row, col] = float((shares * act).sum() / weight) if weight else float("nan")
    return frame


def all_sample_share(frame: pd.DataFrame, column: str) -> pd.Series:
    """A USTAT state column as a share of *all* each user's samples: its share of
    the active ones times %ACT (a user never active: 0). A user seen active in two
    samples, one of them waiting for a CPU, shows %CPU 50 but waited in 1% of them."""
    share = pd.to_numeric(frame[column], errors="coerce").fillna(0.0)
    return share * pd.to_numeric(frame["pct_act"], errors="coerce").fillna(0.0) / 100.0


def queue_shares(c: dict) -> dict:
    """Of the samples that found the user in queue: % in Q0-Q3 and in the eligible list."""
    queued = [c.get(f"cls_{k}", 0) for k in ("q0", "q1", "q2", "q3", "e1", "e2", "e3")]
    n = sum(queued)
    if not n:
        return {k: float("nan") for k in ("pct_q0", "pct_q1", "pct_q2", "pct_q3", "pct_e")}
    out = {f"pct_q{i}": 100.0 * queued[i] / n for i in range(4)}
    out["pct_e"] = 100.0 * sum(queued[4:]) / n
    return out


def build_ustat(run: RunData, intervals: list[Interval], user: str | None) -> pd.DataFrame:
    """FCX114 rows: share of high-frequency samples found in each state and class."""
    iv = intervals[0]
    rows = []
    for uid in users_in(run, iv, None):
        c = iv.users[uid]
        rows.append(
            {"userid": uid, "samples": c["hf_samples"], **ustat_shares(c), **queue_shares(c)}
        )
    frame = ustat_system_row(with_system_row(rows, "userid"))
    keep = [i == 0 or user_matches(u, user) for i, u in enumerate(frame["userid"])]
    return frame[keep].reset_index(drop=True)


def by_time_per_user(
    run: RunData, intervals: list[Interval], user: str | None, row: object
) -> pd.DataFrame:
    """For each user: a ``>>Mean>>`` row over *intervals*, then one row per interval."""
    whole = merge(intervals)
    rows = []
    for uid in users_in(run, whole, user):
        rows.append({"userid": uid, "interval_end": MEAN, **row(whole.users[uid], whole)})
        for iv in intervals:
            if uid in iv.users:
                end = interval_label(iv)
                rows.append({"userid": uid, "interval_end": end, **row(iv.users[uid], iv)})
    return pd.DataFrame(rows)


def build_ustatlog(run: RunData, intervals: list[Interval], user: str | None) -> pd.DataFrame:
    """FCX164 rows: USTAT shares per interval for each user."""
    return by_time_per_user(
        run, intervals, user, lambda c, iv: {"samples": c["hf_samples"], **ustat_shares(c)}
    )


def _pct(key: str, head: str) -> Column:
    return Column(key, ("", head), 4, "i")


# A user's CPU load and virtual I/O rates, as USER and USERLOG show them.
LOAD_COLUMNS = [
    Column("pct_cpu", ("", "%CPU"), 5, "2"),
    Column("tcpu_s", ("<-Seconds->", "TCPU"), 6, "3"),
    Column("vcpu_s", ("", "VCPU"), 5, "3"),
    Column("tv_ratio", ("T/V", "Ratio"), 5, "1"),
    Column("vio_rate", ("", "Total"), 5, "r"),
    Column("vio_dasd", ("", "DASD"), 5, "r"),
    Column("vio_avoid", ("", "Avoid"), 5, "1"),
]

FCX112 = ReportSpec(
    fcx="FCX112",
    name="USER",
    title="General User Resource Utilization",
    build=build_user,
    aliases=("USER",),
    groups="         <------- CPU Load -------> <----- Virtual IO/s ------>",
    per_user=True,
    columns=[
        Column("userid", ("", "Userid"), 8, "s", left=True),
        *LOAD_COLUMNS,
        Column("diag98", ("", "Diag98"), 6, "1"),
        Column("ur", ("", "UR"), 4, "1"),
        Column("pg_s", ("", "Pg/s"), 5, "1"),
        Column("wss", ("<-Nr of", "WSS"), 7, "i", origin="ours: FCX113's working set, here too"),
        Column("resident", ("Pages->", "Resid"), 7, "i", origin="ours: FCX113's resident pages"),
    ],
)

FCX114 = ReportSpec(
    fcx="FCX114",
    name="USTAT",
    title="Wait State Analysis by User",
    build=build_ustat,
    aliases=("USTAT",),
    groups=f"{'':44}<-SVM and->{'':32}<--%Time spent in-->",
    per_user=True,
    columns=[
        Column("userid", ("", "Userid"), 8, "s", left=True),
        _pct("pct_act", "%ACT"),
        *[_pct(f"pct_{s}", f"%{s.upper()}") for s in STATES[:8]],
        *[_pct(f"pct_{s}", f"%{s.upper()}") for s in STATES[8:]],
        *[_pct(f"pct_q{i}", f"Q{i}") for i in range(4)],
        Column("pct_e", ("", "E0-3"), 4, "i"),
    ],
)

FCX164 = ReportSpec(
    fcx="FCX164",
    name="USTATLOG",
    title="User Wait States Log",
    build=build_ustatlog,
    by_time=True,
    per_user=True,
    aliases=("USTATLOG",),
    columns=[
        Column("userid", ("", "Userid"), 8, "s", left=True),
        Column("interval_end", ("Interval", "End Time"), 8, "s", left=True),
        _pct("pct_act", "%ACT"),
        *[_pct(f"pct_{s}", f"%{s.upper()}") for s in STATES],
    ],
)
