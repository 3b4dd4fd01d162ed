"""Configuration reports: FCX149 MONSET and FCX226 UCONF.

MONSET shows the monitor profile from the configuration records: the sample
interval and high-frequency sampling rate (D1 R9) and the domains enabled
for sample (D1 R9) and event (D1 R1) data. UCONF shows each logged-on
user's directory settings from its D1 R15 record: virtual CPUs, SHARE,
QUICKDSP, NOMDCFS, defined storage and SET RESERVED pages. A user whose
storage the model does not size (a CMS user without an address space) shows
dots for its storage.
"""

from __future__ import annotations

import pandas as pd

from ..monitor.records import DOMAINS, domains_in
from .reduce import Interval, RunData
from .render import Column, Item, labelled
from .report import ReportSpec
from .storage import PAGES_PER_MB
from .user import user_matches

__all__ = ["FCX149", "FCX226"]


def _names(mask: int) -> str:
    return " ".join(DOMAINS.get(d, f"D{d}") for d in domains_in(mask))


def build_monset(run: RunData, intervals: list[Interval], user: str | None) -> pd.DataFrame:
    """FCX149: one row with the monitor profile in force."""
    profile = run.profile
    # zero: unknown (a real system's D1 R9, whose interval and rate zvmsim reads
    # only from its own APPLDATA; see docs/monwrite-format.md): dots
    row = {
        "sample_interval_s": profile.interval_ms / 1000.0 or float("nan"),
        "hfs_interval_s": profile.hf_rate_cs / 100.0 or float("nan"),
        "sample_domains": _names(profile.sample_domains),
        "event_domains": _names(run.events.event_domains) if run.events else "",
    }
    return pd.DataFrame([row])


def _monset_text(frame: pd.DataFrame) -> list[str]:
    row = frame.iloc[0].to_dict()
    lines = labelled(
        row,
        [
            (
                "Monitor sample settings:",
                [
                    Item("sample_interval_s", "Sample interval", "i", "sec"),
                    Item("hfs_interval_s", "High-frequency sampling rate", "2", "sec"),
                ],
            )
        ],
    )
    sample, event = set(row["sample_domains"].split()), set(row["event_domains"].split())
    lines += ["", "Monitor domain settings:", f"  {'Domain':<12}{'Sample':<10}Event"]
    for name in DOMAINS.values():
        flags = ["Enabled" if name in on else "Disabled" for on in (sample, event)]
        lines.append(f"  {name:<12}{flags[0]:<10}{flags[1]}")
    return lines


def build_uconf(run: RunData, intervals: list[Interval], user: str | None) -> pd.DataFrame:
    """FCX226 rows: one per logged-on user, in userid order."""
    rows = []
    for uid in sorted(run.user_config):
        if not user_matches(uid, user):
            continue
        c = run.user_config[uid]
        absolute = c.share_absolute_tenths / 10.0 if c.share_absolute_tenths else float("nan")
        rows.append(
            {
                "userid": uid,
                "virtual_cpus": c.virtual_cpus,
                "share_relative": c.share_relative or float("nan"),
                "share_absolute": absolute,
                "limit_max": c.limit_max_tenths / 10.0 if c.limit_max_tenths else float("nan"),
                "limit": "Hard" if c.limit_max_tenths else "...",
                "quickdsp": bool(c.quickdsp),
                "nomdcfs": bool(c.nomdcfs),
                "storage_mb": c.storage_pages / PAGES_PER_MB if c.storage_pages else float("nan"),
                "reserved": c.reserved,
            }
        )
    return pd.DataFrame(rows, columns=[c.key for c in FCX226.columns])


FCX149 = ReportSpec(
    fcx="FCX149",
    name="MONSET",
    title="Monitor Settings",
    build=build_monset,
    aliases=("MONSET",),
    columns=[],
    body=_monset_text,
)

FCX226 = ReportSpec(
    fcx="FCX226",
    name="UCONF",
    title="User Configuration",
    build=build_uconf,
    aliases=("UCONF",),
    groups="          Virt <------------ Share ------------>       No MDC      Stor Reserved",
    per_user=True,
    columns=[
        Column("userid", ("", "Userid"), 8, "s", left=True),
        Column("virtual_cpus", ("", "CPUs"), 5, "i"),
        Column("share_relative", ("", "Relative"), 8, "i"),
        Column("share_absolute", ("", "Absolute"), 8, "1"),
        Column("limit_max", ("Max", "Value/%"), 7, "1"),
        Column("limit", ("", "Limit"), 5, "s"),
        Column("quickdsp", ("QUICK", "DSP"), 5, "y"),
        Column("nomdcfs", ("", "Fair"), 6, "y"),
        Column("storage_mb", ("Size", "(MB)"), 9, "i"),
        Column("reserved", ("", "Pages"), 8, "i"),
    ],
)
