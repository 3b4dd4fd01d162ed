"""The seeds' figures as targets: which run each names, how it is read from the reports.

A *target* is one figure a seed's report excerpt shows (a device's I/O rate,
a partition's %Busy, a ratio of two releases' throughput), with the scenario
and knobs that stand for the seed's system, a tolerance, and a *role*:

* ``workload``: a demand the scenario was set from (a guest's busy, an I/O or
  touch rate, a monitor setting) -- an echo of an input, not evidence;
* ``calibration``: a hardware or CP constant (or a scenario choice) was fitted
  on this very figure -- a calibration point, not evidence;
* ``prediction``: nothing was fitted on it; the mechanisms produce it.

The rows live in ``tests/data/targets_*.csv`` (copied from the project's
fidelity targets); the test suite checks them for three seeds and
``tools/fidelity_doc.py`` writes ``docs/fidelity.md`` from them. Every figure
is read from the reports, as an analyst reads them.
"""

from __future__ import annotations

import csv
from collections.abc import Callable
from fnmatch import fnmatchcase
from pathlib import Path

from .api import report
from .perfkit import RunData

__all__ = [
    "DOC_COLUMNS",
    "KNOWN_MISSES",
    "missed_seeds",
    "ROLES",
    "doc_line",
    "knobs_of",
    "known_miss",
    "load_targets",
    "observed",
    "parse_doc",
    "row_key",
    "shown",
    "within",
]

ROLES = ("workload", "calibration", "prediction")
TARGETS_DIR = Path(__file__).resolve().parent.parent / "tests" / "data"
RunGetter = Callable[..., RunData]  # run_data(scenario, seed, **knobs)


def load_targets(folder: Path = TARGETS_DIR) -> list[dict[str, str]]:
    """Every target row of ``targets_*.csv`` in *folder*, file by file."""
    rows = []
    for path in sorted(folder.glob("targets_*.csv")):
        with open(path, newline="") as f:
            rows.extend(csv.DictReader(f))
    return rows


# (case, knobs, column) -> why; a column written "column@entity" names one entity's row
KNOWN_MISSES: dict[tuple[str, str, str], str] = {
    ("memory63", "workload=apache-paging", "itr ratio 6.3/6.2"): (
        "ours 1.1391 on seed 1 against 1.017 (tolerance to 1.1390; seeds 2 and 3 pass at "
        "1.1321 and 1.1366, SEED_MISSES): a narrow miss since the AWM clients came in "
        "(1.43 without them). On 2026-11-27 each guest's first reorder came to lie at a "
        "random point of its cycle (till then every guest was reordered at the first "
        "demand scan and like guests stayed in step: 1.1396/1.1381/1.1376 before, "
        "1.143/1.141/1.143 after), and the Sweet Spot's storage history came to leave "
        "each guest's hot set resident (before, the first guests set up had theirs "
        "stolen by the last, and every guest paged it back in as the run began): "
        "1.1391/1.1321/1.1366. IBM's Apache workload "
        "runs its clients as Linux guests on the same z/VM, joined to the servers by a "
        "guest LAN (www.vm.ibm.com/perf/reports/zvm/html/apache.html); each file a server "
        "sends costs both ends the Linux stack's and CP's per-packet time, the same "
        "on either release, which dilutes 6.2's extra CP time (FCX225 %Busy 29.4 against "
        "25.6, seed 1). The run's zEC12 (2827) runs every CP path length and borrowed "
        "per-packet cost 1.73 times as fast as the z10 they were estimated or measured "
        "for (cp.toml [cpu_speed], fid-zec12: IBM's z/VM LSPR z10-to-z196 ratio 1.38 of "
        "seed 001 times the zEC12's announced 25% per core over the z196); before it "
        "(1.143 on every seed, %Busy 44.4 against 38.3) they ran at z9/z10 speed. Both "
        "releases' busy fell alike, so the speed alone moved the ratio only to "
        "1.108-1.111 (reorder_cpu_s as it was, 0.822 s on the zEC12 too), and refitting "
        "reorder_cpu_s on the Sweet Spot's 6.2 system time and T/V (tools/calibrate.py: "
        "0.763 s of z10 engine time, a guest's work, 0.441 s on the zEC12, as each reorder "
        "walk is 1.73 times shorter) reorders the servers more often (204 walks in 90 s "
        "against 160, 5.8% of one processor against 7.5), which takes it back to "
        "1.140/1.138/1.138. The reorders grew with the clients too: a server is "
        "reordered every reorder_cpu_s of its own processor time (our "
        "assumption, fitted on the Sweet Spot), and sending its files about triples that "
        "time. With SET REORDER "
        "OFF on 6.2 the ratio is 1.083 (seed 1; 1.095 at z10 speed), so the rest of the "
        "miss is how often 6.2 "
        "reorders a server, which no seed figure fixes for these servers. What triggers a "
        "reorder is not documented where we could read it: seed 001 says periodically, per "
        "virtual machine; IBM's Linux on Z documentation ('Reorder processing') says z/VM "
        "reorders every guest from time to time; IBM's reorder tip "
        "(www.vm.ibm.com/perf/tips/reorder.html) says "
        "reorder keeps a guest's user-frame-owned list valid as the demand scan's input, "
        "that the scan mostly starts when the available list runs short, and that every "
        "guest is reordered sooner or later; the stored copy of the tip stops at its 'How "
        "often' heading, and no REORDMON or HCPRDR text was found (fid-reordtrig). Two other "
        "clocks were tried at z10 speed, each refitted on the Sweet Spot with "
        "tools/calibrate.py, and "
        "not kept: time since the guest's last reorder (3.69 s) gives 1.80-1.81, as the 64 "
        "lightly used servers are then reordered as often as the Sweet Spot's busy guests; "
        "the guest's virtual time alone (0.763 s) gives 1.127-1.130, the other "
        "memory63 and reorder rows as they were, but breaks the reorder knob law on seed 2 (small "
        "guests' response 21.65 ms with two large guests, 15.36 with three) and has no "
        "source either. Which 6.2 costs are IBM's (fid-m63s): the reorder walk is (seed "
        "001: roughly 130 ms per GB resident on a z10; the reorder tip: about 1 s per 8 GB); "
        "the XSTORE page-in and page-out (12 and 10 us on a z10), DASD fault (20 us) and "
        "steal (2 us) are our estimates (cp.toml). The ratio rides on the split between "
        "those borrowed path lengths and our own choices (the servers' 5 ms and the "
        "clients' 0.5 ms a request, not scaled: guests' work is a workload parameter), so "
        "a faster machine does not shrink both releases alike. Before [cpu_speed], a "
        "zEC12 family that divided only some paths by 1.75 was tried (fid-m63s): storage "
        "paths alone 1.101/1.101/1.098, with the reorder walk 1.108/1.107/1.106 (not "
        "refitted), with the network too 1.135/1.131/1.134; the consistent speed with "
        "reorder_cpu_s refitted is the figure above. Also: the 9121 "
        "family's note quotes IBM at 'tens of microseconds' of CP time for a synchronous "
        "XSTORE page-in on a 9021/9121 (about 30 MIPS), a few us on a z9 by MIPS, below our "
        "10-12 us; lowering them moves every XSTORE scenario and the constants fitted "
        "there. Tried (2026-11-27, before the reorder phase and the history above; "
        "not kept): 6 and 5 us (the 9121's 60 and 50 over "
        "ten, the fault path's ratio, 200 against 20) give 1.102/1.102/1.102 here, and "
        "3 and 2.5 us (over twenty, the engines' MIPS) 1.085 on every seed, with "
        "scan_us_per_frame_52 (0.861), vdisk_us_per_block (5.55) and page_alloc_free "
        "(0.222) refitted; every other case keeps its rows but paging-difficulties, "
        "whose overflow to paging DASD is a knife edge: three or four of its per-volume "
        "and channel rows then miss on one seed or two (page_writes@XXPG*, "
        "pct_alloc@XXPG*, page_reads@CFD0*, pct_busy of the paging volumes or of "
        "channels 67 and 69), as any change to CP's timing reshuffles which volumes "
        "the bursts land on. 6.3 work we lack, looked for and not found "
        "here: PGMBK reclaim (CP frees a PGMBK only for a segment with no resident page; "
        "the servers keep 85% of their cold pages resident, touched uniformly, so no such "
        "segment; the clients' untouched segments have none) and frame-table scans (the "
        "below-2 GB lists never run empty). Not tuned "
        "away: the clients' own work a request (0.5 ms) and size (64 MB) are our choices, "
        "made before the ratio was measured"
    ),
    ("fine", "", "pct_act@LMRLN1P"): (
        "100 against 87: our HF sample finds a user active when it used processor time "
        "since the sample before (or is in a working state), and our Domino guest's 100 Hz "
        "timer ticks in every 2 s window; it never leaves the dispatch list either (CP's "
        "test idle outlasts a 10 ms tick), so neither reading gives 87. USTAT reads the "
        "seed's way (the states are shares of the active samples, >System< weights them by "
        "%ACT, which reproduces the seed's >System< row). What IBM documents: CP's user "
        "high-frequency state counters (MRUSEINT, D4 R4, USEINT_HF*: I/O wait, console "
        "function, simulation, page wait, limit list, CPU wait, running, eligible SVM wait, "
        "loading, dormant, dormant SVM wait, I/O active, test idle, test-idle SVM wait, "
        "page active, tested in that order) are counts per monitor sample interval; no "
        "record we know of tells whether a user used the processor between two HF samples, so "
        "Performance Toolkit can tell activity per interval only (our hf_act is our own "
        "counter). The seed fits one such rule: an interval counts (all its samples) when "
        "one of its HF samples found the user neither idle in queue, nor dormant, nor in "
        "an SVM wait. With 30 samples a minute (2 s HF, 60 s intervals) and the seed's own "
        "non-idle share of the active samples (%RUN 5 + %CPU 3), 1 - (1 - 0.08 x 0.87)^30 "
        "= 0.89 (seed 87); DTCVSW2 (%CPU 9, %ACT 91) 0.92; LMRLN2P (13 of 99) 0.98 (99); "
        "the seed's TCPIP (%ACT 4 with only %CPU 1) fits it less well. Tried: the "
        "collector filing every sample's state and USTAT counting per interval by that "
        "rule; over 1200 s (20 intervals) LMRLN1P 70/100/100, DTCVSW2 100/75/90, PERFSVM "
        "0/55/85, TCPIP 0/0/0 (seeds 1-3): our guests' non-idle shares (LMRLN1P 3.7-11.5% "
        "of its samples, DTCVSW2 4-6%) swing it, and fine's 180 s run holds 3 intervals "
        "(a %ACT of 0, 33, 67 or 100), so it was not adopted. Also suspected: the guest "
        "was not there for part of the 70 minutes (the customer reports Java dumps)"
    ),
    ("fine", "", "pct_act@DTCVSW2"): (
        "100 against 91: our VSWITCH controller is woken by every QDIO signal and works on "
        "the packets (cp/vswitch.py, controller_us_per_packet), and packets flow in every "
        "2 s window. IBM says a controller initializes and terminates the VSWITCH's OSA "
        "connection and is not involved in the data transfer, which CP does "
        "(vm.ibm.com/virtualnetwork/contrllr.html); CP checks controllers for stalls "
        "(SWIBK SWIEFAILOVER, SWIESTALLED). A controller woken only by such checks and "
        "its own timers could be idle in some 2 s windows, but no source found gives "
        "their interval, and one set from this figure would fit it, not predict it. Read "
        "per monitor interval instead (see pct_act@LMRLN1P), the seed's %CPU 9 gives "
        "%ACT 92; ours, 4-6% of its samples in CPU wait, gave 75-100 over 1200 s"
    ),
    ("fine", "", "pct_act@PERFSVM"): (
        "3/6/7 (seeds 1-3, seed 1 out) against 13: PERFSVM is a CMS service machine "
        "that wakes once a monitor sample interval, works, sits out CP's test-idle time "
        "and goes dormant, so one or two samples a minute find it active, many of them "
        "dormant already (%DM 40-67 of its active samples, 33-80 over 600 s, the seed's "
        "60); the seed's PERFSVM was active in about four samples a minute and also "
        "waited on I/O "
        "(%IOA 23) and sat in test idle not waiting for *MONITOR (%TIW 11; ours: every "
        "idle sample waits for *MONITOR, SVM and test idle or dormant), work it does "
        "that is not in the seed. Which seeds miss is a matter of phase: its timer runs "
        "every 60 s, a "
        "multiple of the 2 s HF rate, so a run's random timer phase decides for every "
        "minute alike whether a sample catches its burst running (seeds 2 and 3: two "
        "active samples a minute, RUN then DM) or not (seed 1: one, DM or TI). Read per "
        "monitor interval (see pct_act@LMRLN1P) it gave 0/55/85 over 1200 s. The seed's "
        "PERFSVM was seen dormant after work in about 2.3 samples a minute (60% of 13% of "
        "30), one wake each at most, so it woke two or three times a minute: perhaps also "
        "for monitor event data (the seed's advice enables all events but seeks and "
        "scheduler), which zvmsim does not deliver to a guest. Tried (fid-fine2): PERFSVM "
        "now appends each interval to its history files on its A-disk (8 one-block "
        "asynchronous writes to PERFSVM 0191 on LPVRM1 0E00, the seed's CP volume): "
        "%ACT 3/7/7, %IOA 0 on seeds 1-3, 0E00 .1 I/O a second at .7 ms. The seed's %IOA "
        "23 means I/O in flight at 0.9 of its 30 samples a minute, some 1.8 s a minute: "
        "about 300 writes at the seed's 0E00 response time (6.3 ms), while 0E00 carries "
        ".4 I/O a second (24 a minute) in all. So the seed's PERFSVM I/O is not history "
        "appends to 0E00: perhaps it also wrote the MONWRITE file the customer sent "
        "(FCX225's 30.1 I/O a second hold 7.6 on volumes FCX108's excerpt does not list), "
        "which zvmsim does not model"
    ),
    ("fine", "", "pgin_pgout"): (
        "0 against 14 a second: our partition is roomier than the seed's. The seed's "
        "FCX113 shows the guests' pages at 9.8 GB resident and 0.8 GB in XSTORE "
        "(LMRDB2P 4,084 MB in all, LMRWASP 2,611, LMRLN1P 2,044, LMRLN2P 2,043 against "
        "our used_mb of 4,000, 2,250, 1,750 and 1,950, in 12 GB of central): all ours "
        "fit. Tried with the seed's sizes and 10 GB of central, and the Linux servers' "
        "default of two touches a second of rarely used pages (cold_touch_rate, 0 here): "
        "pages do age out to XSTORE (0.4 GB) and come back at 3.8-4.0 a second, but the "
        "demand scan refills the free list a batch at a time every few hundred seconds, "
        "so a 180 s window sees the page-ins and no page-outs; the rate of touches of "
        "rarely used pages would be a choice made with this figure in view. The seed's "
        "own SYSSUMLG rows say the traffic came in bursts: its first nine minutes show "
        "PGIN+PGOUT 0 but for 1.5 in one, so its 70-minute mean of 14 comes from minutes "
        "the excerpt does not print, and a 3-minute window may rightly see none (issue "
        "18 section 6: light XSTORE traffic). Its FCX113 also says which way the pages "
        "went: MS>X about 9 a second against X>MS about 3 (LMRDB2P 4.7 out and .4 in, "
        "LMRLN1P 3.0 out, LMRWASP 2.0 in), so most of the traffic was CP taking frames "
        "from guests whose storage use grew during the hour, not an exchange of touched "
        "and stolen pages; our Linux servers' footprint is settled before the window "
        "(they touch no new pages), so a growth rate would be the missing workload, and "
        "the seed gives it only as this figure. Tried again with the seed's sizes, 10 GB "
        "of central and two cold touches a second: X>MS 3.6-3.9, MS>X 0 (seeds 1-3)"
    ),
    (
        "undersized_lpar",
        "ifls=3;central_gb=52;paging_volumes=40;workload_day=after",
        "serv_ms@paging volumes",
    ): (
        "1.54/1.54/1.55 ms a page (seeds 1-3) against 3.0-4.3: the after day's paging "
        "I/O itself is right, 3.1 ms a read on paging2008 (pend, connect, transfer), "
        "but each read of the idle newcomers' pages brings 2 (read_pages_max), as "
        "every read of a counted guest does (block_size, the before day's miss "
        "above), while the seed's reads bring about one page each (P-Rds .1 against "
        "SSCH+RSCH .0-.1 on every volume): pages CP migrated from XSTORE one user at "
        "a time, seldom two of a block together. MLOAD (resp_ms) shows the same, "
        "as nothing queues"
    ),
    ("undersized_lpar", "", "block_size"): (
        "3.99 pages per write I/O (seeds 1-3) against 2-3: each write takes the run "
        "of free slots at the cursor, the pages one read frees over the used share "
        "(here 2 / 0.50). The same rule fits the seed's 3390-3s if their reads bring "
        "about 1.7 pages: solving each row's SSCH for pages per read R with writes of "
        "R / used share gives R 1.70-1.77 and writes of 2.9-3.1 pages, shown 2 or 3 "
        "(truncated); the thrasher's tracked blocks (the pages of one segment stolen "
        "together, some single) give 1.6. Our counted Linux guests' reads always "
        "bring read_pages_max = 2: counted spaces keep no segment blocks, and the "
        "pages on DASD here were mostly written by the storage history's large "
        "steals, whose segment blocks are full. Not modelled; it would reach every "
        "scenario with counted spaces on DASD. The rule does not fit the seed's "
        "22%-full 3390-9s (7 against 3). Tried (fid-blockread, branch kept, not "
        "merged): counted spaces keeping their paging blocks as counts per volume (a "
        "steal's pages of one segment form a block; a fault reads its page and the "
        "next of its block) and the storage history's DASD pages cut into blocks of "
        "the run's mean, with cold_touch_rate refitted 14 -> 20 on the DASD page "
        "rate: block_size 2.62/2.84/2.94, every undersized row passing, but the "
        "full-volumes sequel's page_reads@CFD0* and %Used for Alloc of the 3390-3s "
        "then miss on seed 1 (one volume just over), and the simulation takes 17% "
        "longer; whole-block reads ran away (63-65 page reads/s on the 3390-3s). "
        "Tried again (fid-pgd4, commit 68b6e30, reverted in 656342a): counted spaces "
        "keep their blocks per volume as a count; a migration's *count* pages of a "
        "space of S segments (its footprint) lie in S(1 - (1 - 1/S)^count) of them, "
        "as the tracked spaces' shuffled clock gives, so its blocks are count over "
        "that; a fault reads its page and the next of its block (read_pages_max 2), "
        "and a VDISK's release frees its blocks as runs. The storage history's steals "
        "stand for many of the run's: blocks of the even share of one refill, "
        "(high - low) / spaces, 1080 pages here (uncapped, its 7.7 M pages in blocks "
        "of 20 and more leave every read at 2 pages and block_size 3.90). Reads then "
        "bring 1.35 pages here (1.07 in memory63's apache-paging on 6.2, 2 on the "
        "sequel's VDISKs, whose steals fill their 8 segments). With the touch rates "
        "refitted on the two page rates (warm 21, cold 20 over seeds 1-3; cold 14 "
        "left page_rate 727 and page_reads 14.0) every undersized row passes: "
        "block_size 2.65-2.66, page_rate 1003-1008, pgin_pgout 1599-1737, queue_len "
        "2.98-3.17, resp_ms 26.6-27.9 (cold 20 with warm 22: resp_ms 29.9 on seed 1); "
        "thrasher, reorder, emergency_scan, real_vs_expanded and hipersockets keep "
        "every row (seed 1), the sequel too on seeds 2-3 but for one volume's "
        "page_reads@CFD0* on seed 1 (30.7, the bound 30.8; 30.8 before), and "
        "memory63's apache-paging on 6.2 reads a page a fault: dasd_total 2770 "
        "(4197 +-20%) and pgin_pgout 8033 (10311 +-20%) fail on seed 1, and resizing "
        "its servers does not bring both back (880 MB: 3199 and 7913, 910 MB: 3608 "
        "and 7728, while 6.3's dasd_total, the touches' fit, rises to 4322 and "
        "4838). The rule also undershoots the seeds' pages a read (1.35 here against "
        "about 1.7, the thrasher's 1.24 against 1.6): z/VM's blocks seem larger than "
        "a uniform spread of the stolen pages over the segments gives. And the refit's "
        "paging I/O makes undersized-lpar some 22% slower (pure Python, cpu 5.8 s "
        "against 4.75 s, seed 1)"
    ),
    ("memory63", "workload=sweet-spot;release=6.3", "pct_sys"): (
        "no mechanism the talk documents reaches 4.7%: its FCX143 example from its "
        "384 GB 6.3 system (2013/10/15 09:28, aging list 7787M = 2% of DPA) shows "
        "981 DASD page reads and 603 writes a second. The scaled Sweet Spot now pages "
        "at that rate (about 109-111 reads and 67 early writes/s, 1/8 scale). What 6.3's CP "
        "does for it on no user's behalf is charged as system time: the demand scan's "
        "visits and trial invalidations, reclaims from the aging list, XSTORE copies, "
        "paging I/O interrupts, the available-list lock (RSA2GLCK, about 59 requests/s, "
        "no collisions); faults and revalidations go to the faulting user, as in z/VM. "
        "The system part comes to about 0.016% of each "
        "processor (capture ratio .9998). 4.7% of four processors over 178 pages/s "
        "would be about 1000 us of CP time per page moved (z/VM's paging path is tens "
        "of us). Looked for and not found here (fid-m63s): 6.3's reclaim of guests' "
        "PGMBKs (about 380 MB of them; CP frees one only for a segment with no resident "
        "page, and the guests keep 99% of their cold pages resident, touched uniformly), "
        "frame-table scans (the below-2 GB lists never run empty); nor does IBM's 6.3 "
        "report (www.vm.ibm.com/perf/reports/zvm/html/630mem.html) in the part we could "
        "read say what else 6.3's CP does. The talk credits 6.2's drop to the end of "
        "reorder AND of spin lock contention; what 6.3 keeps is likely lock and "
        "dispatcher work of its full-size machine (eight times our four IFLs), which a "
        "1/8-scale run cannot show. IBM documents such system time growing with the "
        "logical CPUs: the scheduler lock (SRMSLOCK), the TRQBK queue lock "
        "(HCPTRQLK) and the dispatch-vector lock (DSVLOCK) in z/VM 6.4 APAR VM65988 "
        "(for 'more than 10% system overhead', www.ibm.com/support/pages/apar/VM65988), "
        "the scheduler "
        "lock, the guest LAN's NDMBK lock and guest PTE serialization under a Linux "
        "memory-thrashing workload in z/VM for z13 and VM65696 "
        "(www.vm.ibm.com/perf/reports/zvm/html/1q5cpu.html), RSA2GLCK before 6.4 "
        "(640mcr2t.html). Their contention grows with the N-way and the system-wide "
        "rates, both cut eight-fold here, and no source gives a rule to scale it; "
        "putting it in would mean copying the figure into a constant"
    ),
    ("pav_mdc", "mdc=on;vm64199=on", "disc_ms@E700"): (
        "ours .2: the 2105's disconnect is one constant for every I/O (fitted on "
        "MDC off). The seed's disconnect follows how many I/Os run at once on the "
        "volume and what they are: .1 at the base without the fix (one at a time, "
        "some 40% of them MDC's full-track reads), .2 with MDC off (four at once, "
        "32 KB each), .3-.4 on every exposure with the fix (four at once, a third "
        "of them full-track reads). Tried on paper, none fits all three: (1) a "
        "read miss staged from the rank costs the full-track reads, yet the case "
        "with most of them (no fix) shows the least disconnect, so at most about "
        ".1 ms more a full-track read, .03 on average with the fix; (2) a resource "
        "each I/O holds in its disconnect (a rank or the volume, one I/O at a "
        "time) must be held under .15 ms (the one-at-a-time case): at MDC off's "
        "2190 I/Os a second that is at most a third busy, an M/D/1 wait under "
        ".04 ms, and with the fix (1680 I/Os a second, 66 MB/s against 70) less; "
        "(3) a disconnect growing with the I/Os in flight on the volume gives four "
        "at once the same with MDC on or off. Only an interaction of MDC's "
        "full-track reads with the I/Os running beside them would do (for example "
        "the 2105 holding an I/O whose Define Extent overlaps a write's in "
        "progress, were MDC's reads to define more than their track); no IBM "
        "source at hand says so. Tried in code (not kept): a stage of the 2105 "
        "that a volume's I/Os pass one at a time at the start of their connect "
        "(so a wait there is disconnect time, and I/Os one at a time never wait), "
        "its time in proportion to the bytes, the rest of the disconnect .1 (the "
        "no-fix figure): with the stage's rate set so MDC off gives .20, the fix "
        "gives .24 (seeds 1-2; less when only reads or only writes pass it), "
        "and that only because our fix case moves about 80 MB/s against the "
        "seed's 66 (1936 I/Os a second against 1680). Nor does a wait to "
        "reconnect on a busy path: the four FICON paths carry about 2.6 s of "
        "connect time a second with "
        "MDC off and 2.5 with the fix, so an M/M/4 wait is about .3 ms in both, not "
        ".2 and .4. What raises it is not known; not modelled"
    ),
    ("paging_difficulties", "phase=vdisk-format;escon_chpids=2", "pct_busy@>>Mean>>"): (
        "ours 6.0%: T/V is fitted (vdisk_us_per_block), so the busy follows the VDISK "
        "blocks formatted a second; the seed's 10.3% needs about 1.7 times as many. "
        "Storage is sized so the overflow to paging DASD runs at the seed's paging I/O "
        "rate (.7-1.3 I/O/s a volume); a faster pace needs more storage to keep that "
        "overflow, and the overflow is a knife edge: step_gap_s .35 (1.7 times the "
        "pace) gives 7.2-8.0% busy, with paging DASD idle at 1300-1400 MB central and "
        "the channels 75% busy at 1148 MB; .2 gives 8.7%, inside the tolerance, but at "
        "1450 MB with paging DASD idle (CP's time does not grow in proportion with the "
        "pace). Not had together with the paging rows, and a pace set from this row "
        "would make it an echo of an input (workload), not a prediction. The seed's "
        "intervals say where the difference lies: at 11:22-11:25 (T/V 164-197, 9.9-10.5% "
        "busy, 2.7 processors nearly all CP's) XSTORE moved only 2,600-3,300 pages a "
        "second, where ours moves 9,300 for 1.6 processors, so the seed's CP did three "
        "to five times our VDISK work for each page it had to find a frame for: the "
        "application does VDISK I/O to pages already there (rewrites, reads) besides "
        "formatting new ones, at a rate the seed does not give. Tried: the guest's own "
        "time per I/O from seed 003's CMS COPYFILE (8.8 us, same 2094, against our "
        "4) with vdisk_us_per_block scaled with it (11.9 us: T/V 93) gives 11.2% busy "
        "but a capture ratio of .87 (seed .76): CP's system time must grow with it "
        "(memory63's available-list lock, turned on with it, is far too much: 33% "
        "busy, capture .29, the 5.2 demand scan holding it while 26 processors spin). "
        "Examined (fid-vdisk2): with T/V fitted and the capture ratio predicted, the "
        "busy is the guests' virtual time times T/V, so CP work added per VDISK page "
        "first touched on the user's behalf (clearing the frame, building its PGMBK) "
        "only lowers the refitted vdisk_us_per_block and moves nothing; the capture "
        "holds only if CP's unchargeable time grows with the virtual time, and ours is "
        "per page stolen (of 97 s of system time in a seed-1 run, 74 are the 336 "
        "emergency scans, 73 of it their look at some 300,000 frames each at "
        "scan_us_per_frame_52, and "
        "23 the page-outs to XSTORE). A shorter cycle (step_gap_s .343, use_s 5.7: 1.75 "
        "times the pages formatted a second) gives 10.2% busy, T/V 108, capture .75 on "
        "every seed, but XSTORE then moves 16,200 pages a second (the seed 5,418) and "
        "the overflow to paging DASD varies from seed to seed more than the paging rows "
        "allow: with 240 s no central size from 1149 to 1165 MB passes them all (1155: "
        "the volumes' %Busy 9.9/7.5/4.1), with 600 s 1151 MB gives channels 10.1/10.8/"
        "8.6% and volumes 8.5/9.4/7.1 (seed 3 out), and 900 s does not settle it (1150 "
        "MB: channels 12.2/12.1/8.3). The seed's fewer XSTORE moves for more CP work "
        "say its VDISK pages are mostly released before they are stolen (more storage "
        "than ours for the pages in use, or VDISKs that live shorter); but at that pace "
        "with 1500 MB central XSTORE moves 4,948 pages a second (near the seed's) and "
        "the scans that go with them leave T/V 91.5, capture .89, busy 8.6 (seed 1), so "
        "the seed's unchargeable CP time does not come from stealing frames alone: "
        "some of the VDISK I/O work itself (or something else per I/O) would be "
        "unchargeable, a split no source at hand gives. The other way to more of it, "
        "more scans a page stolen (each looks at every frame), comes with the "
        "available list's refill (high_frames, our choice): 3000 frames instead of "
        "8000 gives 9.3-9.5% busy but T/V 169-171 and capture .47; balancing that "
        "against more central storage and refitting vdisk_us_per_block would fit the "
        "capture ratio, a prediction, so it was not done"
    ),
    ("paging_difficulties", "phase=vdisk-format;escon_chpids=2", "pct_busy@paging volumes"): (
        "seed 1: 4.5% against 8-18 (seeds 2 and 3: 8.1, 8.4): %Busy is the share of "
        "the interval the exposure served I/O (rate x Serv), and seed 1's overflow to "
        "paging DASD is the smallest (.7 I/O/s a volume against 1.3). The seed's 11-15% "
        "is about twice its own rate x Serv (1.3/s x 54 ms = 7%), where every other "
        "seed's FCX108 shows %Busy = rate x Serv, so Perfkit's %Busy here counts "
        "something we do not (the time the device is reserved while its I/O waits for "
        "the channel?). It is not in proportion to the rate either: 12-15% at .8 to 1.3 "
        "I/O/s, %Busy less rate x Serv about 4-8 points on every volume. The row "
        "follows the overflow, the small difference of large flows (see pct_busy@>>Mean>>"
        "): with the faster pace tried there seed 1 passes at 1155 MB (9.9) and seeds 2-3 "
        "fail (7.5, 4.1); migration writes sent one block at a time with at most 24 in "
        "flight (see pct_alloc@XXPG*) lower it (seed 2 7.3)"
    ),
    ("paging_difficulties", "phase=vdisk-format;escon_chpids=2", "pct_alloc@XXPG*"): (
        "ours 10/10/8% (seeds 1-3) against 37-44: CP's allocator passes over a volume "
        "with a paging I/O in flight, but our demand scan migrates XSTORE pages in a "
        "dozen bursts of 50-450 blocks at one instant: a burst finds all 24 volumes idle "
        "(every look used) or all still writing the last burst over the two ESCON "
        "channels (a whole round of looks for each block), so the share follows how the "
        "bursts fall, not the seed's steadier stream of migration writes; the more "
        "paging I/O, the lower (23/12/20% when the overflow ran at .4-.6 I/O/s a volume). "
        "But the seed's writes come in bursts too (Pend 47 ms at 8% channel busy is a "
        "line of some 30 I/Os for two channels), and under our rule such a burst over "
        "24 volumes gives about 12%; so the seed's CP passes over volumes on some other "
        "test. A clue for it: P-Wrt / %Alloc is .40-.41 pages/s a percent on all 16 "
        "volumes of this FCX109 (14-page blocks) and .38-.42 on 18 of the sequel's 19 "
        "(its 3390-3s' 4-page blocks and 3390-9s' 11 alike), so looks are counted in "
        "pages (or made per page), equally on every volume, and the volumes written "
        "least are those passed over most. Tried (IBM does not document the test): "
        "pass over a volume whose MLOAD (a smoothed service time per page x (1 + its "
        "I/Os in flight and held)) is above the volumes' mean, which the sequel's fast "
        "3390-9s never are: 51-92% here, too high and too spread (seed 37-44). "
        "Why ours come in bursts (fid-vdisk2): every demand scan here is an emergency "
        "scan refilling the available list from low (1000 frames) to high (8000) at one "
        "instant, some 7,100 VDISK pages, and a page-out that finds XSTORE full "
        "migrates what it needs, so 20-36 instants of a run (seeds 1-3) migrate up to "
        "7,100 pages (500 blocks) each: migration is demand-driven, the demand comes in "
        "scans. Read in blocks, the seed's .40 is about 2.9 looks a second at every "
        "volume for 1.2 blocks placed there: some 1.5 volumes passed over a block. "
        "Tried (not kept): (1) the migration writes placed by a CP process a block at a "
        "time with at most K of them held or in flight: K 8-22 gives 97-100% (a block "
        "nearly always finds a volume idle), 23 gives 71-87%, 24-40 gives 4-19%, while "
        "the pend comes to 16, 37, 47, 52 and 57-59 ms at K 8, 16, 20, 22 and 24 up: a "
        "steady line of some 22 writes gives the seed's pend without bursts, but under "
        "this rule %Alloc in it is all or nothing; (2) passing over only a volume whose "
        "I/O holds a channel (not one waiting for one): 82-100%; (3) looks and uses "
        "counted in pages (each page placed a use): 53-62% here and CFD0* 98-99.5, but "
        "the sequel's XXPG* 91-93 (calibration row 47.5) and the Undersized LPAR's "
        "98.5-98.9 (seed 84 +-10)"
    ),
    ("paging_difficulties", "phase=full-volumes", "pct_alloc@CFD0*"): (
        "ours 80-94% (seeds 1-3) against 98-100: CP's allocator passes over a volume with a "
        "paging I/O in flight, and our 3390-9s are busy about 20% of the time (9.2 ms an "
        "I/O on the ESCON channels they share with the 3390-3s: pend 5.8, connect 3.4), "
        "where the seed's take .4-1.3 ms an I/O, 1-2% busy (see serv_ms@CFD0*). Tried "
        "(issue 18 part 6): the 3390-9s on two FICON CHPIDs of their own with the 2105's "
        "timing (.3 ms a page, 3% busy) gives 95.6-100 / 97.7-99.1 / 96-99.1 (seeds 1-3), "
        "but breaks ssch_rate@CFD0* (see serv_ms@CFD0*); on the ESCON channels with "
        "paging2105 and ESCON's connect per CCW (see serv_ms@XXPG*), .87 ms a page: "
        "95.2-98.8. Tried (fid-pgdboth), both together (see serv_ms@CFD0*): 88-99 with the "
        "3390-9s on FICON and paging2008; 96.5-100 with paging2008's pend and disc and the "
        "2105's connect; 98.3-100 on every seed at 100 MB/s, with ssch_rate@CFD0* failing in "
        "each (the 3390-9s' two-page reads)"
    ),
    ("paging_difficulties", "phase=full-volumes", "page_writes@XXPG*"): (
        "seed 3: volumes over 23.25 pages/s (seeds 1 and 2 pass since CP backs "
        "the VDISKs with PGMBKs and central is 1160 MB; before, seed 2 had three volumes at "
        "23.4-24.4 and seed 3 three at 23.7-24.3): the volumes passed over least while busy "
        "take the most blocks (a look passes over a volume with a paging I/O in flight, and "
        "the demand scan places a steal's blocks at one instant). Seed 3 passed until a "
        "queued page read's real-I/O path became system time (zvmsim.cp.io), which moved the "
        "run's timing. With the 3390-9s on FICON (see serv_ms@CFD0*) seed 3 passes "
        "(20.1-23.0), seed 2 not (23.4). Our writes run ahead of our reads: about 1.05 pages "
        "written a page read on the 3390-3s and 1.1-1.2 on the 3390-9s, where the seed writes"
        " .87 (17.2-20.0 over 20.4-22.7) and .92; seed 1 passes only because its 3390-3s read"
        " some 10% less than the seed's (18.6-21.2). With the sequel's paging I/O at the "
        "seed's connect time (fid-escon, see serv_ms@XXPG*) the reads match the seed's and "
        "seed 1 fails too (21.9-23.9). Under 5.2's rule (a page read frees its slot, "
        "cp/paging.py read_done) a steady state cannot write fewer pages than it reads, and "
        "ours writes more (new VDISK pages overflow too), while the seed's 19 volumes shown "
        "read 13% more than they wrote in those five minutes: a draining DASD population, or "
        "slots kept on a read, which the model does not do. Tried (fid-pgdboth): ESCON's "
        "connect per CCW and the 3390-9s on FICON together (see serv_ms@XXPG*): reads "
        "20.4-23.0 (the seed's 20.4-22.7), writes 20.9-24.3: over 23.25 on every seed in "
        "five variants (the 3390-9s' control unit, ccw_ms .16-.23), on two at reads_per_s "
        "33, on seed 2 alone with fid-blockread's 80ea0aa. With the reads right, what is "
        "left is the writes a read (1.05 against .87)"
    ),
    ("paging_difficulties", "phase=full-volumes", "ssch_rate@XXPG*"): (
        "ours 17-20 a second against 12.4-15.8 (passed before issue 18's blocking "
        "model, with a window fitted on this very phase): our full 3390-3s write about "
        "2.2 pages an I/O where the seed's show mostly 4. Free slots come back a read's "
        "two pages at a time, so on a volume 88% used the runs at the cursor are about "
        "2 / .88 slots; the seed's longer runs there (while its undersized LPAR, 57% "
        "used, shows 2-3) say the free space or the pages CP had ready differ between "
        "the two systems in ways the model does not follow. Tried (issue 18 part 6): a "
        "write channel program that writes the scattered free slots within a reach of "
        "40 slots past the cursor (one placed block an I/O) fits the seed's blocks by "
        "fullness (3% 14, 15% 12, 88% 3.5, 99% 1) and passes this row, pct_alloc and "
        "page_writes on every seed, but gives the Undersized LPAR's 52%-used volumes "
        "14-page writes (seed 2-3, ours 3.9 now) and breaks that case's ssch_rate, "
        "queue_len and resp_ms: its seed's blocks follow the pages CP had ready "
        "(2-3 even on its 22%-used volumes), which the model does not follow; both "
        "are needed together. The 3390-9s on FICON (see serv_ms@CFD0*) leave it at "
        "17-21.6, and with ESCON's connect per CCW as well (fid-pgdboth) at 19.6-22.3: "
        "faster I/O does not lengthen the 2.2-page writes"
    ),
    ("paging_difficulties", "phase=full-volumes", "serv_ms@XXPG*"): (
        "ours about 6 ms a page (13 ms an SSCH of 2.1 pages: pend 10, connect 3.1); the "
        "seed's .6-2.2. Read as the device's service time over the pages moved (ours), the "
        "seed's own RDEVs say what a page costs there: 16DE (XXPG0E) is in both calls; in "
        "the sequel, with no queue, .6 ms a page at 41.0 pages over 15.0 SSCH/s is 1.6 ms "
        "an I/O of 2.7 pages, while in the first call (INTERIM DEVICE 11:45-11:47) the same "
        "volumes' Conn was 5.4-7.6 ms for I/Os of 12 to 14 pages (14-page writes; 16DE's "
        "were reads, see serv_ms@CFD0*). A connect time of about .1 ms plus .47 ms a page "
        "fits both (about twice ESCON's .24 ms to move 4 KB: ESCON interlocks each CCW of "
        "the channel program, one a page, where FICON pipelines them); paging2008 (fitted "
        "on the thrasher's FICON 3390-9s) costs 2.55 ms an I/O whatever its size, so our "
        "2-page I/Os are 3.1 ms connected. Tried (issue 18 part 6): the 2105's pend and "
        "disconnect with .05 ms + 8.5 MB/s of connect (.48 ms a page) on these volumes, the "
        "3390-9s on FICON: 2.0 ms a page (pend 3 ms: the demand scan places a steal's "
        "blocks at one instant, so the I/Os queue for the six channels in bursts though "
        "these are 16% busy), and the faster page-ins move more pages (page_writes@XXPG* "
        "21.6-23.5, seed 1 out too). Tried (fid-escon): connect as the control unit's "
        "part per I/O plus ESCON's per chained CCW (CP's paging channel program chains one "
        "CCW package a page, HCPPIOBK; ESCON interlocks each command, FICON pipelines "
        "them): overhead + (pages - 1) x ccw_ms + the bytes at 17 MB/s, paging2105's part "
        "the 2105's .05 ms, and the sequel's 3390-3s on paging2105 (16DE is a 2105 volume "
        "in both calls). ccw_ms fitted on phase=vdisk-format's conn_ms is .30 ms (16DE "
        "alone says .24), and then that phase's pend_ms (72 against at most 71.5) and its "
        "channels' pct_busy (12.1, 12.7 on seeds 2-3 against at most 12) fail: its 14-page "
        "writes hold the two channels longer. With .23 every phase=vdisk-format row still "
        "passes (conn 5.9-6.0) and this row comes to 1.9-2.1 ms a page (pend 3.0, "
        "disc .2, conn .8 on 2.1-page I/Os; .84-1.56 needed): what is left is the pend of "
        "the demand scan's bursts. But the faster page-ins move more pages "
        "(page_reads@XXPG* 20.4-22.9, the seed's 20.4-22.7, ours 18.5-22.8 now): "
        "page_writes@XXPG* fails on seed 1 in every variant tried (21.9-23.9, see there), "
        "and with the 3390-9s on paging2105 too ssch_rate@CFD0* fails on every seed "
        "(20.5-25.2; on paging2008 it passes with .23). Not committed. Tried "
        "(fid-pgdboth), both together: that connect as ESCON's ccw_ms per CCW after the "
        "first (zvmsim.hardware.dasd, committed, set by no data) on paging2105 (.05 ms an "
        "I/O) for the 3390-3s, and the 3390-9s on two FICON CHPIDs of their own; ccw_ms "
        "fitted jointly on this row and phase=vdisk-format's conn_ms (tools/calibrate.py: "
        ".167 ms: 1.43-1.48 here, conn_ms 5.2, both within; paging1997's "
        "ESCON paging in Real vs expanded would use it too). It passes, but the faster "
        "page-ins move the pages the seed's do (page_reads@XXPG* 20.4-23.0) and "
        "page_writes@XXPG* fails in every variant (20.9-24.3 a volume, see there); "
        "below .2 phase=vdisk-format's pct_busy@paging volumes also fails on seed 2 (7.2 "
        "at .167: fewer connect ms). Not committed"
    ),
    ("paging_difficulties", "phase=full-volumes", "serv_ms@CFD0*"): (
        "ours about 2.5 ms a page: our 3390-9s share paging2008 and the six ESCON CHPIDs "
        "with the 3390-3s. The seed puts them elsewhere: their device numbers (5805, D007, "
        "D008, D00D) lie outside the 2105-E8 ranges its FCX131 shows on the ESCON CHPIDs "
        "(1240-1259, 16C0-16E3); their Area Extent is a slot count (810000, 896800), not "
        "the 3390-3s' cylinders; and .1 ms a page at 4.4 pages an SSCH (D007: 86.8 pages "
        "over 19.9 SSCH/s) is .44 ms an I/O, less than ESCON's 17 MB/s needs to move 4.4 "
        "pages alone (1.06 ms). Tried (issue 18 part 6), the 3390-9s on two FICON CHPIDs of "
        "their own: with paging2008's timing .91-.98 ms a page (its 2.55 ms connect "
        "overhead per I/O, fitted on the thrasher's FICON 3390-9s, makes a 4-page I/O 3.4 "
        "ms); with the 2105's (fitted on PAV and MDC) .30-.32, and then pct_alloc@CFD0* "
        "passes on seed 2, pct_alloc@XXPG* on all seeds and page_writes@XXPG* on seed 3, "
        "but ssch_rate@CFD0*, passing now, fails on every seed (20.6-26.8 against at most "
        "24.25): the fast, seldom busy 3390-9s take more blocks (42-46 pages written a "
        "second), and our page reads bring read_pages_max = 2 pages where the seed's "
        "3390-9s' bring about 2.7 (SSCH less write I/Os: 46.5 pages over 17.5 read SSCH/s "
        "on CF5805, 2.0 on the 3390-3s). The seed's reads have no fixed size: about 12 "
        "pages a read in the first call (its FCX109 11:16-12:37: 19.8 pages read a second "
        "on the 16 volumes over about 1.7 read SSCH, the other 18.6 of the 20.3 SSCH being "
        "14-page writes; 8 to 20 pages within the report's rounding), 2.0 on the sequel's "
        "3390-3s, 2.7 on its 3390-9s; our VDISKs are counted spaces, whose reads always "
        "bring read_pages_max = 2. Tried: read_pages_max 3 moves about 40% more pages (the "
        "extra pages read are stolen again) and breaks the Undersized LPAR's page_reads and "
        "page_writes; a counted space's read bringing the pages of one segment stolen "
        "together (the steal over the segments it spans) reads about 9 pages in the sequel "
        "too and moves three to four times the pages (our steals take whole VDISKs). Needed "
        "together: the FICON path and reads that bring more of a large block. Tried "
        "(fid-escon, see serv_ms@XXPG*): on the ESCON channels with paging2105 and ESCON's "
        "connect per CCW .86-.88 ms a page (ssch_rate@CFD0* then fails on every seed, "
        "20.5-25.2); with paging2008 and the connect per CCW 1.5-1.6. Tried (fid-pgdboth): "
        "the 3390-3s on paging2105 with ESCON's connect per CCW (see serv_ms@XXPG*) and "
        "the 3390-9s on FICON CHPIDs 80 and 81, seeds 1-3 with ccw_ms .16-.23: on paging2008 "
        ".89-.97 ms a page, ssch_rate@CFD0* 19.8-24.2 (24.7 on seed 3 at reads_per_s 33), "
        "pct_alloc@CFD0* 88-99; on paging2105 (the 2105's timing) .30-.31, 21-25 "
        "SSCH/s, pct_alloc 96-100; with paging2008's pend and disc (.2, .03) and the 2105's "
        "connect (.05 ms + 26.2 MB/s, no 2.55 ms fixed part) .23-.24 (passes), pct_alloc "
        "96.5-100 (seed 3 out), 21.5-25.4 SSCH/s; at 100 MB/s .12 and pct_alloc 98.3-100 "
        "(passes), 21-25.3 SSCH/s. The faster the 3390-9s, the more pages come back from "
        "them (36-43 a second, the seed's 42-46) two pages a read, so ssch_rate@CFD0* "
        "fails on every seed: only reads of about 2.7 pages (the seed's) let the FICON "
        "path land. fid-blockread's 80ea0aa (a read brings the faulting page and the next "
        "of its block, at most read_pages_max = 2) leaves it at 20.3-24.3. read_pages_max "
        "3 (every fault, tracked pages too) breaks the thrasher it was fitted on: "
        "LIN102's page_reads 571 (439 +-25%) and etr 1438 (1049 +-20%) on seed 1. "
        "Counted spaces keeping the blocks of their segments (fid-pgd4, see "
        "undersized_lpar block_size) leave the VDISKs' reads at 2 pages: a VDISK's "
        "steal fills the blocks of its 8 segments, so reads of 2.7 need a cap above 2"
    ),
    ("grinch", "pinned_data=on", "pct_dm@users of 1742"): (
        "ours 0 (seeds 1-3) of the active samples against 51. USTAT's %DM stands "
        "under Perfkit's '<-SVM and->' heading: dormant while waiting for a service "
        "machine (CP's HFDSVM, counted apart from plain dormant, HFDORM, as HFTSVM, "
        "%TI, is from HFTIDL, %TIW; MRUSEINT D4 R4); zvmsim now samples it so. Our "
        "query users wait for the SFS server only within CP's test-idle time (one "
        "block I/O a request, %TI 2.5-3.9 against the seed's 3), and are dropped "
        "at their terminals waiting for nobody (62 on seed 1, which zvmsim shows in "
        "%OTH). A slower server does not give the seed's figures: a sample files a "
        "state only if the user used processor time since the sample before (or is "
        "working), so an idle wait of any length is filed at most once, by the "
        "first sample after the user's last work, and the first 300 ms of an SVM "
        "wait are test idle: with 1 s samples about 0.3 of those first samples find "
        "the user still in test idle, however long the server takes. EDLSFS "
        "requests of 60 block I/Os (seconds each) gave %TI 6.8 and %DM 27 on seed "
        "1 (a quarter), and %IOW 50 with the device at 41 I/Os a second and 100% "
        "busy against 26.7 and 65% (40 I/Os: %DM 10, 39 I/Os a second, 99%); "
        "requests served one at a time or behind locks lengthen the wait the same "
        "way and keep the same split. The seed's %TI 3 beside %DM 51 (0.06), with "
        "%OTH at most 7 (its columns sum to 93), needs SVM-dormant samples with no "
        "test idle before them: users CP drops at once while they wait for a "
        "service machine, as it drops a user at a console read. A trial (not kept) "
        "that filed the query users' terminal waits as SVM waits gave %DM 61, %OTH "
        "1, %TI 4, %IOW 25 on seed 1, the device's rows unchanged: the shape, not "
        "yet the figure. IBM's z/VM performance notes count 'users in SVM wait on "
        "the VTAM/VSCS servers' as a measure of end-user response, which suggests "
        "users logged on through VTAM/VSCS wait for that server at their "
        "terminals; the seed does not say how its users log on, and no source found "
        "says CP files such a console read as an SVM wait, so zvmsim does not "
        "model it"
    ),
}


# Known misses that show on some seeds only (the others fall within the tolerance):
# key as in KNOWN_MISSES -> the seeds that miss; a miss not named here misses on all.
SEED_MISSES: dict[tuple[str, str, str], tuple[int, ...]] = {
    ("fine", "", "pct_act@PERFSVM"): (1,),
    ("paging_difficulties", "phase=vdisk-format;escon_chpids=2", "pct_busy@paging volumes"): (1,),
    ("paging_difficulties", "phase=full-volumes", "page_writes@XXPG*"): (3,),
    ("memory63", "workload=apache-paging", "itr ratio 6.3/6.2"): (1,),
}


def _miss_key(row: dict[str, str]) -> tuple[str, str, str] | None:
    case, knobs = row["case"], row["knobs"]
    for key in ((case, knobs, row["column"]), (case, knobs, f"{row['column']}@{row['entity']}")):
        if key in KNOWN_MISSES:
            return key
    return None


def known_miss(row: dict[str, str]) -> str | None:
    """Why *row* is a documented miss (its column's, or its entity's), or None."""
    key = _miss_key(row)
    return KNOWN_MISSES[key] if key else None


def missed_seeds(row: dict[str, str], seeds: tuple[int, ...]) -> tuple[int, ...]:
    """Of *seeds*, those on which the known miss *row* misses (none if it is no miss)."""
    key = _miss_key(row)
    if key is None:
        return ()
    return tuple(s for s in seeds if s in SEED_MISSES.get(key, seeds))


def knobs_of(text: str) -> dict[str, str]:
    """A row's knobs, ``mdc=on;vm64199=off``, as a dict."""
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
    cpowned = report(run, "FCX109").frame
    if row["report"] == "FCX109":
        return [float(cpowned[row["column"]].mean())]
    pages = set(cpowned["addr"])
    frame = report(run, "FCX108").frame
    vols = frame[frame["addr"].isin(pages)]
    column = row["column"].split()[0]
    if "(sum" in row["column"]:
        return [float(vols[column].sum())]
    return [float((vols[column] * vols["io_rate"]).sum() / vols["io_rate"].sum())]


def _throughput(row: dict, run) -> float:
    """ETR of the users a row names (``system``: all; ``VSG1U*``: a pattern), or
    for an ITR row ETR per processor busy (FCX225 %Busy as a fraction)."""
    frame = report(run, "TXN").frame
    users = frame[frame["userid"] != ">>All<<"]
    if row["entity"] != "system":
        users = users[[fnmatchcase(u, row["entity"]) for u in users["userid"]]]
    etr = float(users["etr"].sum())
    if row["column"].startswith("itr"):
        busy = report(run, "FCX225").frame.iloc[0]["pct_busy"] / 100.0
        return etr / busy
    return etr


def _release_ratio(row: dict, seed: int, run_data) -> list[float]:
    """A figure of z/VM 6.3 over the same figure of 6.2, other knobs as the row says."""
    knobs = knobs_of(row["knobs"])
    new = run_data(row["scenario"], seed, **knobs, release="6.3")
    old = run_data(row["scenario"], seed, **knobs, release="6.2")
    return [_throughput(row, new) / _throughput(row, old)]


def _knob_ratio(row: dict, seed: int, run_data) -> list[float]:
    """A figure with one set of knobs over the same figure with another:
    ``resp_ms ratio mdc=track/mdc=record`` (``,`` between several knobs of a side)."""
    base, sides = row["column"].split(" ratio ")
    figures = []
    for side in sides.split("/"):
        knobs = {**knobs_of(row["knobs"]), **knobs_of(side.replace(",", ";"))}
        run = run_data(row["scenario"], seed, **knobs)
        figures.append(_observed({**row, "column": base}, run)[0])
    return [figures[0] / figures[1]]


def _observed(row: dict, run: RunData) -> list[float]:
    if row["entity"] == "paging volumes":
        return _paging_volumes(row, run)
    if row["report"] == "FCX109":  # the paging volumes whose volsers match: each one
        frame = report(run, "FCX109").frame
        vols = frame[[fnmatchcase(v, row["entity"]) for v in frame["volser"]]]
        return [float(v) for v in vols[row["column"]]]
    if row["report"] == "FCX149":  # the monitor profile: one row
        return [float(report(run, "FCX149").frame.iloc[0][row["column"]])]
    if row["report"] in ("FCX225", "VMCFLOG"):  # a by-time report: the interval named
        frame = report(run, row["report"]).frame
        return [float(frame[frame["interval_end"] == row["entity"]].iloc[0][row["column"]])]
    if row["report"] == "CECLOG":  # "IFL pool": busy or PR/SM overhead summed over its PUs
        frame = report(run, "CECLOG").frame
        pool = frame[
            (frame["interval_end"] == ">>Mean>>") & (frame["pu_type"] == row["entity"].split()[0])
        ]
        column = row["column"].split()[0]
        return [float(pool.iloc[0][column] * pool.iloc[0]["count"])]
    if row["report"] == "FCX126":  # a partition (``XXXA CP``: its CPs only): the mean over its PUs
        frame = report(run, "FCX126").frame
        name, _, pu_type = row["entity"].partition(" ")
        pus = frame[frame["partition"] == name]
        if pu_type:
            pus = pus[pus["pu_type"] == pu_type]
        return [float(pus[row["column"]].mean())]
    if row["report"] == "FCX161":  # "67 and 69": the mean over the CHPIDs named
        frame = report(run, "FCX161").frame
        chpids = row["entity"].split(" and ")
        return [float(frame[frame["chpid"].isin(chpids)][row["column"]].mean())]
    if row["report"] == "FCX143":  # a by-time report: the interval (or >>Mean>>) named
        frame = report(run, "FCX143").frame
        return [float(frame[frame["interval_end"] == row["entity"]].iloc[0][row["column"]])]
    if row["report"] == "FCX100":  # the processors' mean (per processor)
        frame = report(run, "FCX100").frame
        return [float(frame[frame["cpu"] != ">>Total<<"][row["column"]].mean())]
    if row["report"] == "FCX240":  # "out_bytes_rate (MB/s)": in the seed's megabytes
        frame = report(run, "FCX240").frame
        column, *unit = row["column"].split()
        value = float(frame[frame["addr"] == row["entity"]].iloc[0][column])
        return [value / 1e6 if unit == ["(MB/s)"] else value]
    if row["report"] == "FCX231":
        frame = report(run, "FCX231").frame
        return [float(frame[frame["chpid"] == row["entity"]].iloc[0][row["column"]])]
    if row["report"] in ("FCX177", "FCX111"):  # a device's control-unit cache figures
        frame = report(run, row["report"]).frame
        return [float(frame[frame["addr"] == row["entity"]].iloc[0][row["column"]])]
    if row["report"] == "FCX215":  # one FICON or OSA channel
        frame = report(run, "FCX215").frame
        return [float(frame[frame["chpid"] == row["entity"]].iloc[0][row["column"]])]
    if row["report"] == "FCX147":  # each VDISK the entity (its owner) holds
        frame = report(run, "FCX147").frame
        return [float(v) for v in frame[frame["owner"] == row["entity"]][row["column"]]]
    if row["report"] == "TXN":
        frame = report(run, "TXN").frame
        return [float(frame[frame["userid"] == row["entity"]].iloc[0][row["column"]])]
    if row["report"] == "FCX114" and row["entity"].startswith("users of "):
        # the users FCX110 lists as doing I/O to the device: their mean
        addr = row["entity"].removeprefix("users of ")
        details = report(run, "FCX110").frame
        users = details[details["addr"] == addr].iloc[0]["users"].split()
        frame = report(run, "FCX114").frame
        return [float(frame[frame["userid"].isin(users)][row["column"]].mean())]
    if row["report"] == "FCX114":  # one user's share of samples in a state
        frame = report(run, "FCX114").frame
        return [float(frame[frame["userid"] == row["entity"]].iloc[0][row["column"]])]
    if row["report"] == "REORDMON":  # each guest the entity's pattern names
        frame = report(run, "REORDMON").frame
        rows = frame[[fnmatchcase(u, row["entity"]) for u in frame["userid"]]]
        return [float(v) for v in rows[row["column"]]]
    if row["report"] in ("FCX163", "FCX164"):
        frame = report(run, row["report"], user=row["entity"]).frame
        return [float(frame[frame["interval_end"] == ">>Mean>>"].iloc[0][row["column"]])]
    if row["report"] == "FCX112":
        frame = report(run, "FCX112").frame
        return [r[row["column"]] for r in _entities(row["entity"], frame, "userid")]
    frame = report(run, "FCX108").frame
    if row["entity"].endswith("volume"):
        volser = row["entity"].split()[0]
        vol = frame[frame["volser"] == volser]
        if row["column"].startswith("io_rate+avoid_rate"):
            return [float(vol["io_rate"].sum() + vol["avoid_rate"].sum())]
        return [float(vol["io_rate"].sum())]
    return [r[row["column"]] for r in _entities(row["entity"], frame, "addr")]


def within(value: float, target: float, tolerance: str) -> bool:
    """Whether *value* meets *target* within a row's tolerance
    (``0.2``, ``abs 2``, ``above``, ``below``)."""
    if tolerance == "above":  # the seed gives a bound ("above 100%")
        return value > target
    if tolerance == "below":  # ... or says a figure falls ("decreased overhead")
        return value < target
    if tolerance.startswith("abs"):
        return abs(value - target) <= float(tolerance.split()[1])
    return abs(value - target) <= float(tolerance) * abs(target)


def observed(row: dict[str, str], seed: int, run_data: RunGetter) -> list[float]:
    """The figures of *row* in the simulation with *seed* (one, or one per entity named)."""
    if row["column"].endswith("ratio 6.3/6.2"):
        return _release_ratio(row, seed, run_data)
    if " ratio " in row["column"] and "=" in row["column"]:
        return _knob_ratio(row, seed, run_data)
    return _observed(row, run_data(row["scenario"], seed, **knobs_of(row["knobs"])))


# --- docs/fidelity.md: the table of every target, written by tools/fidelity_doc.py

DOC_COLUMNS = (
    "case",
    "knobs",
    "report",
    "entity",
    "column",
    "seed",
    "tolerance",
    "ours",
    "role",
    "passes",
)


def row_key(row: dict[str, str]) -> tuple[str, ...]:
    """What names a target: case, knobs, report, entity and column."""
    return tuple(row[k] for k in ("case", "knobs", "report", "entity", "column"))


def shown(values: list[float]) -> str:
    """Figures as the table shows them: three digits or so, ``/`` between entities."""

    def one(v: float) -> str:
        if abs(v) >= 100:
            return f"{v:.0f}"
        return f"{v:.1f}" if abs(v) >= 10 else f"{v:.2f}"

    return " / ".join(one(v) for v in values)


def _cell(text: str) -> str:
    return text.replace("|", "\\|") or "-"


def doc_line(row: dict[str, str], ours: str, passes: str) -> str:
    """One row of the table in ``docs/fidelity.md``."""
    cells = [*row_key(row), row["seed_value"], row["tolerance"], ours, row["role"], passes]
    return "| " + " | ".join(_cell(c) for c in cells) + " |"


def parse_doc(text: str) -> dict[tuple[str, ...], dict[str, str]]:
    """The table rows of ``docs/fidelity.md``, keyed like :func:`row_key`."""
    rows = {}
    for line in text.splitlines():
        if not line.startswith("| ") or line.startswith(("| case ", "| ---")):
            continue
        cells = [c.strip().replace("\\|", "|") for c in line.strip("| ").split(" | ")]
        if len(cells) != len(DOC_COLUMNS):
            continue
        cell = dict(zip(DOC_COLUMNS, ["" if c == "-" else c for c in cells], strict=True))
        cell["seed_value"] = cell["seed"]
        rows[row_key(cell)] = cell
    return rows
