"""The seed's figures, reproduced by the simulation within the stated tolerances.

Rows come from tests/data/targets_*.csv (copied from the project's fidelity
targets). Each row is checked for three seeds, so a pass is not luck.
"""

from __future__ import annotations

import csv
from fnmatch import fnmatchcase
from pathlib import Path

import pytest

import zvmsim

ROWS = [
    row
    for path in sorted((Path(__file__).parent / "data").glob("targets_*.csv"))
    for row in csv.DictReader(open(path))
]
SEEDS = (1, 2, 3)

# Seed figures the mechanisms do not reproduce, and why (a strict xfail: if one
# starts passing, the test says so and the entry must go).
KNOWN_MISSES: dict[tuple[str, str, str], str] = {  # (case, knobs, column) -> why
    ("undersized_lpar", "ifls=3;central_gb=52;paging_volumes=40", "pct_busy"): (
        "the seed's 'after' figures come from another day with lighter guests "
        "(about 0.40 against 0.75 IFL of virtual time); the simulation runs the "
        "'before' workload on the new configuration, about 29% busy"
    ),
    ("memory63", "workload=sweet-spot;release=6.3", "pct_sys"): (
        "no mechanism the talk documents reaches 4.7%: its FCX143 example from its "
        "384 GB 6.3 system (2013/10/15 09:28, aging list 7787M = 2% of DPA) shows "
        "981 DASD page reads and 603 writes a second, 198 at "
        "our 1/8 scale, and 4.7% of four processors over 198 pages/s would be about "
        "950 us of CP time per page moved (z/VM's paging path is tens of us). The "
        "scaled Sweet Spot fits in 48 GB and pages nothing (system time about 0); "
        "made bigger until 6.3 pages over 2,000 pages/s (11 times the talk's rate) it "
        "shows 0.2%, and 6.3's demand scan at central_gb=46 invalidates 2,700 pages/s "
        "for 0.1%. The rest of the talk's 4.7% is CP system work it does not describe "
        "(dispatcher, scheduler and other locks on the full-size machine); putting it "
        "in would mean copying the figure into a constant"
    ),
}


def _knobs(text: str) -> dict[str, str]:
    return dict(pair.split("=") for pair in text.split(";") if pair)


def _entities(entity: str, frame, key: str) -> list:
    """Rows of *frame* named by a target's entity: E700, E7FC..E7FE, SQPERF1..4."""
    if ".." in entity:
        first, last = entity.split("..")
        prefix = first.rstrip("0123456789")
        if prefix and last.isdigit():
            names = [f"{prefix}{i}" for i in range(int(first[len(prefix) :]), int(last) + 1)]
        else:
            lo, hi = int(first, 16), int(last, 16)
            names = [f"{n:04X}" for n in range(lo, hi + 1)]
        return [frame[frame[key] == n].iloc[0] for n in names]
    return [frame[frame[key] == entity].iloc[0]]


def _paging_volumes(row: dict, run) -> list[float]:
    """A figure over all CP-owned paging volumes: a sum, or an I/O-weighted mean.

    FCX109 figures (queue length) are the mean over the volumes.
    """
    cpowned = zvmsim.report(run, "FCX109").frame
    if row["report"] == "FCX109":
        return [float(cpowned[row["column"]].mean())]
    pages = set(cpowned["addr"])
    frame = zvmsim.report(run, "FCX108").frame
    vols = frame[frame["addr"].isin(pages)]
    column = row["column"].split()[0]
    if "(sum" in row["column"]:
        return [float(vols[column].sum())]
    return [float((vols[column] * vols["io_rate"]).sum() / vols["io_rate"].sum())]


def _throughput(row: dict, run) -> float:
    """ETR of the users a row names (``system``: all; ``VSG1U*``: a pattern), or
    for an ITR row ETR per processor busy (FCX225 %Busy as a fraction)."""
    frame = zvmsim.report(run, "TXN").frame
    users = frame[frame["userid"] != ">>All<<"]
    if row["entity"] != "system":
        users = users[[fnmatchcase(u, row["entity"]) for u in users["userid"]]]
    etr = float(users["etr"].sum())
    if row["column"].startswith("itr"):
        busy = zvmsim.report(run, "FCX225").frame.iloc[0]["pct_busy"] / 100.0
        return etr / busy
    return etr


def _release_ratio(row: dict, seed: int, run_data) -> list[float]:
    """A figure of z/VM 6.3 over the same figure of 6.2, other knobs as the row says."""
    knobs = _knobs(row["knobs"])
    new = run_data(row["scenario"], seed, **knobs, release="6.3")
    old = run_data(row["scenario"], seed, **knobs, release="6.2")
    return [_throughput(row, new) / _throughput(row, old)]


def _observed(row: dict, run) -> list[float]:
    if row["entity"] == "paging volumes":
        return _paging_volumes(row, run)
    if row["report"] == "FCX109":  # the paging volumes whose volsers match: each one
        frame = zvmsim.report(run, "FCX109").frame
        vols = frame[[fnmatchcase(v, row["entity"]) for v in frame["volser"]]]
        return [float(v) for v in vols[row["column"]]]
    if row["report"] == "FCX149":  # the monitor profile: one row
        return [float(zvmsim.report(run, "FCX149").frame.iloc[0][row["column"]])]
    if row["report"] in ("FCX225", "VMCFLOG"):  # a by-time report: the interval named
        frame = zvmsim.report(run, row["report"]).frame
        return [float(frame[frame["interval_end"] == row["entity"]].iloc[0][row["column"]])]
    if row["report"] == "FCX126" and row["entity"].endswith(" pool"):
        # a physical PU pool: busy or PR/SM overhead summed over its PUs (% of one PU)
        pools = {p[0]: p for p in zvmsim.report(run, "FCX126").frame.attrs["pools"]}
        _, count, busy, ovhd = pools[row["entity"].split()[0]]
        return [(ovhd if row["column"].startswith("pct_ovhd") else busy) * count]
    if row["report"] == "FCX126":  # a partition: the mean over its logical PUs
        frame = zvmsim.report(run, "FCX126").frame
        return [float(frame[frame["partition"] == row["entity"]][row["column"]].mean())]
    if row["report"] == "FCX161":  # "67 and 69": the mean over the CHPIDs named
        frame = zvmsim.report(run, "FCX161").frame
        chpids = row["entity"].split(" and ")
        return [float(frame[frame["chpid"].isin(chpids)][row["column"]].mean())]
    if row["report"] == "FCX143":  # a by-time report: the interval (or >>Mean>>) named
        frame = zvmsim.report(run, "FCX143").frame
        return [float(frame[frame["interval_end"] == row["entity"]].iloc[0][row["column"]])]
    if row["report"] == "FCX100":  # the processors' mean (per processor)
        frame = zvmsim.report(run, "FCX100").frame
        return [float(frame[frame["cpu"] != ">>Total<<"][row["column"]].mean())]
    if row["report"] == "FCX240":
        frame = zvmsim.report(run, "FCX240").frame
        return [float(frame[frame["addr"] == row["entity"]].iloc[0][row["column"]])]
    if row["report"] == "FCX231":
        frame = zvmsim.report(run, "FCX231").frame
        return [float(frame[frame["chpid"] == row["entity"]].iloc[0][row["column"]])]
    if row["report"] == "TXN":
        frame = zvmsim.report(run, "TXN").frame
        return [float(frame[frame["userid"] == row["entity"]].iloc[0][row["column"]])]
    if row["report"] == "FCX114" and row["entity"].startswith("users of "):
        # the users FCX110 lists as doing I/O to the device: their mean
        addr = row["entity"].removeprefix("users of ")
        details = zvmsim.report(run, "FCX110").frame
        users = details[details["addr"] == addr].iloc[0]["users"].split()
        frame = zvmsim.report(run, "FCX114").frame
        return [float(frame[frame["userid"].isin(users)][row["column"]].mean())]
    if row["report"] == "REORDMON":  # each guest the entity's pattern names
        frame = zvmsim.report(run, "REORDMON").frame
        rows = frame[[fnmatchcase(u, row["entity"]) for u in frame["userid"]]]
        return [float(v) for v in rows[row["column"]]]
    if row["report"] in ("FCX163", "FCX164"):
        frame = zvmsim.report(run, row["report"], user=row["entity"]).frame
        return [float(frame[frame["interval_end"] == ">>Mean>>"].iloc[0][row["column"]])]
    if row["report"] == "FCX112":
        frame = zvmsim.report(run, "FCX112").frame
        return [r[row["column"]] for r in _entities(row["entity"], frame, "userid")]
    frame = zvmsim.report(run, "FCX108").frame
    if row["entity"].endswith("volume"):
        volser = row["entity"].split()[0]
        vol = frame[frame["volser"] == volser]
        if row["column"].startswith("io_rate+avoid_rate"):
            return [float(vol["io_rate"].sum() + vol["avoid_rate"].sum())]
        return [float(vol["io_rate"].sum())]
    return [r[row["column"]] for r in _entities(row["entity"], frame, "addr")]


def _within(value: float, target: float, tolerance: str) -> bool:
    if tolerance == "above":  # the seed gives a bound ("above 100%")
        return value > target
    if tolerance.startswith("abs"):
        return abs(value - target) <= float(tolerance.split()[1])
    return abs(value - target) <= float(tolerance) * abs(target)


def _param(row: dict):
    reason = KNOWN_MISSES.get((row["case"], row["knobs"], row["column"]))
    marks = [pytest.mark.xfail(reason=reason, strict=True)] if reason else []
    return pytest.param(
        row, marks=marks, id=f"{row['knobs']}:{row['report']}:{row['entity']}:{row['column']}"
    )


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("row", [_param(r) for r in ROWS])
def test_seed_figure(row: dict, seed: int, run_data) -> None:
    target = float(row["seed_value"])
    if row["column"].endswith("ratio 6.3/6.2"):
        values = _release_ratio(row, seed, run_data)
    else:
        values = _observed(row, run_data(row["scenario"], seed, **_knobs(row["knobs"])))
    for value in values:
        assert _within(value, target, row["tolerance"]), (
            f"{row['entity']} {row['column']} = {value:.2f}, seed {target} ± {row['tolerance']}"
        )
