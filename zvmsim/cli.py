"""The command line: ``zvmsim scenarios|knobs|report|monwrite|archive`` (see docs/contract)."""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import NoReturn

from . import __version__, native
from .api import monwrite as write_file
from .api import report as build_report
from .api import simulate
from .errors import ZvmsimError
from .monitor import archive
from .monitor.monread import MonwriteError, MonwriteReader
from .monitor.stream import MonitorData
from .perfkit import REPORTS, Report, RunData, find_report, reduce
from .scenario import load_scenario, scenario_names
from .window import (
    MAX_DURATION_S,
    MAX_INTERVAL_S,
    MAX_INTERVALS,
    MIN_INTERVAL_S,
    check_duration,
    check_interval,
)

__all__ = ["main"]


class _Parser(argparse.ArgumentParser):
    """argparse that reports bad usage as a ZvmsimError (one line, exit 2)."""

    def error(self, message: str) -> NoReturn:
        raise ZvmsimError(message)


def _parser() -> argparse.ArgumentParser:
    p = _Parser(prog="zvmsim", description="z/VM performance case studies, emulated.")
    p.add_argument(
        "--version",
        action="version",
        version=f"zvmsim {__version__}: {native.STATUS}",
        help="the version, and whether the hot modules run compiled (mypyc) or as pure Python",
    )
    sub = p.add_subparsers(dest="command", required=True, parser_class=_Parser)
    sub.add_parser("scenarios", help="list scenarios and their knobs")
    k = sub.add_parser("knobs", help="show a scenario's knobs")
    k.add_argument("scenario")

    def run_options(q: argparse.ArgumentParser) -> None:
        q.add_argument("--set", action="append", default=[], metavar="KNOB=VALUE")
        q.add_argument("--seed", type=int, default=1)
        q.add_argument(
            "--duration",
            type=float,
            metavar="SECONDS",
            help=f"simulated time, at most {MAX_DURATION_S:g} s (4 hours); default: the scenario's",
        )
        q.add_argument(
            "--interval",
            type=float,
            metavar="SECONDS",
            help=f"MONITOR SAMPLE interval, {MIN_INTERVAL_S:g} to {MAX_INTERVAL_S:g} s, "
            f"at most {MAX_INTERVALS} in a run; default: the scenario's",
        )

    r = sub.add_parser("report", help="simulate a scenario and print reports")
    r.add_argument("names", nargs="+", metavar="SCENARIO REPORT")
    run_options(r)
    r.add_argument("--from", dest="source", metavar="FILE", help="report from a monitor file")
    r.add_argument("--format", choices=("text", "csv", "json"), default="text")
    r.add_argument("--user", metavar="USERID")
    r.add_argument("--interim", type=int, metavar="N", help="INTERIM: the N-th interval only")
    r.add_argument(
        "--salvage",
        action="store_true",
        help="with --from: report what is intact in a damaged file (with a warning)",
    )
    m = sub.add_parser("monwrite", help="simulate a scenario and save its monitor data")
    m.add_argument("scenario")
    m.add_argument("-o", "--output", required=True, metavar="FILE")
    run_options(m)
    a = sub.add_parser("archive", help="pack monitor files with notes to send, list, unpack")
    acts = a.add_subparsers(dest="action", required=True, parser_class=_Parser)
    ap = acts.add_parser("pack", help="pack files and a note into ARCHIVE (.zip or .tar.gz)")
    ap.add_argument("archive")
    ap.add_argument("files", nargs="+", metavar="FILE")
    ap.add_argument("--notes", default="", metavar="TEXT", help="what was collected, and why")
    ap.add_argument("--notes-file", metavar="PATH", help="take the notes from a text file")
    acts.add_parser("list", help="what an archive holds").add_argument("archive")
    au = acts.add_parser("unpack", help="unpack and check an archive")
    au.add_argument("archive")
    au.add_argument("-d", "--dir", default=".", metavar="DIR")
    return p


def _knob_values(pairs: list[str]) -> dict[str, str]:
    """``--set`` pairs as a dict; a knob given twice is refused (which value was meant?)."""
    values: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        key = key.strip()
        if not sep or not key:
            raise ZvmsimError(f"--set takes KNOB=VALUE, not '{pair}'")
        if key in values:
            raise ZvmsimError(
                f"knob '{key}' is set twice ({key}={values[key]} and {key}={value.strip()}): "
                "give each knob once"
            )
        values[key] = value.strip()
    return values


def _check_window(args: argparse.Namespace) -> None:
    """--duration and --interval each within bounds (zvmsim.window); the scenario checks both."""
    if args.duration is not None:
        check_duration(args.duration, "--duration")
    if args.interval is not None:
        check_interval(args.interval, "--interval")


def _simulate(args: argparse.Namespace, scenario: str) -> MonitorData:
    _check_window(args)
    return simulate(
        scenario,
        _knob_values(args.set),
        seed=args.seed,
        duration=args.duration,
        interval=args.interval,
    )


def _rows(rep: Report) -> list[dict]:
    rows = rep.frame.round(3).to_dict("records")
    return [
        {k: (None if isinstance(v, float) and math.isnan(v) else v) for k, v in row.items()}
        for row in rows
    ]


def _print_reports(reps: list[Report], fmt: str) -> None:
    out = sys.stdout
    if fmt == "text":
        out.write("\n\n".join(r.text for r in reps) + "\n")
    elif fmt == "csv":
        for rep in reps:
            if len(reps) > 1:
                out.write(f"# {rep.fcx} {rep.name}\n")
            out.write(rep.frame.round(3).to_csv(index=False, lineterminator="\n"))
    else:
        doc = {r.fcx: {"name": r.name, "title": r.title, "rows": _rows(r)} for r in reps}
        out.write(json.dumps(doc, indent=1) + "\n")


def _check_names(names: list[str], args: argparse.Namespace) -> str:
    """Every report name known, and --user only beside per-user reports, before any work.

    --user with no per-user report is refused; beside one, the warning returned
    names the others (they cover every user). No warning: ``""``.
    """
    scenarios = [name for name in names if name in scenario_names()]
    if args.source and scenarios:
        raise ZvmsimError(
            f"'{scenarios[0]}' is a scenario, but --from FILE reads saved monitor data and takes "
            f"no scenario: give only report names (report --from {args.source} FCX108 ...)"
        )
    specs = [find_report(name) for name in names]
    other = [f"{s.fcx} {s.name}" for s in specs if not s.per_user]
    if args.user is None or not other:
        return ""
    if len(other) == len(specs):
        apply = " ".join(s.fcx for s in REPORTS.values() if s.per_user)
        raise ZvmsimError(
            f"--user does not apply to {', '.join(other)}: not a per-user report "
            f"(--user limits {apply})"
        )
    return (
        f"--user does not apply to {', '.join(other)}: not a per-user report, it covers every user"
    )


def _cmd_report(args: argparse.Namespace) -> None:
    names = list(args.names)
    if args.source:
        if args.set or args.duration is not None or args.interval is not None:
            raise ZvmsimError(
                "--from reads saved data: --set, --duration and --interval do not apply"
            )
        warning = _check_names(names, args)
        run = _reduce_file(args.source, args.salvage)
    else:
        if args.salvage:
            raise ZvmsimError("--salvage reads a damaged monitor file: it needs --from FILE")
        if len(names) < 2:
            raise ZvmsimError("report needs a scenario and at least one report name")
        warning = _check_names(names[1:], args)
        run = reduce(_simulate(args, names.pop(0)))
    interval = None
    if args.interim is not None:
        if not 1 <= args.interim <= len(run.intervals):
            count = len(run.intervals)
            raise ZvmsimError(f"--interim must be 1 to {count} (the data's monitor intervals)")
        interval = args.interim - 1
    reps = [build_report(run, name, user=args.user, interval=interval) for name in names]
    if warning:
        print(f"zvmsim: warning: {warning}", file=sys.stderr)
    _print_reports(reps, args.format)


def _reduce_file(path: str, salvage: bool) -> RunData:
    """Reduce a MONWRITE file as it is read; with *salvage*, warn about what was skipped."""
    if Path(path).is_dir():
        raise ZvmsimError(f"cannot read {path}: it is a directory")
    reader = MonwriteReader(path, salvage=salvage)
    try:
        run = reduce(reader)
    except MonwriteError as exc:
        if salvage or not exc.block:
            raise
        raise ZvmsimError(f"{exc} (--salvage reports what is intact)") from None
    except ZvmsimError:
        if salvage and not reader.sets_read:  # no warning first: there is nothing to cover
            raise ZvmsimError(
                f"{path}: nothing in the file is monitor data (no intact record set to salvage)"
            ) from None
        raise
    finally:
        skipped = reader.skipped_line()
        if skipped:  # a real system's file: records zvmsim has no reduction for
            print(f"zvmsim: note: {path}: {skipped}", file=sys.stderr)
        if reader.damage and reader.sets_read:
            first = reader.damage[0]
            more = f" and {len(reader.damage) - 1} more" if len(reader.damage) > 1 else ""
            print(
                f"zvmsim: warning: {path}: damaged data skipped at {first}{more}; "
                "the reports cover only what is intact",
                file=sys.stderr,
            )
    return run


def _cmd_monwrite(args: argparse.Namespace) -> None:
    _check_window(args)
    done = write_file(
        args.scenario,
        args.output,
        _knob_values(args.set),
        seed=args.seed,
        duration=args.duration,
        interval=args.interval,
    )
    print(
        f"{done.records} monitor records in {done.sets} record sets written to "
        f"{args.output} ({done.blocks} blocks of 4096 bytes)"
    )


def _read_notes(path: str) -> str:
    """The text of a notes file, or one line saying why it cannot be read."""
    if Path(path).is_dir():
        raise ZvmsimError(f"cannot read {path}: it is a directory")
    try:
        return Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise ZvmsimError(f"cannot read {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise ZvmsimError(
            f"cannot read {path}: it is not plain text (byte {exc.start} is not UTF-8); "
            "notes go in a text file"
        ) from None


def _cmd_archive(args: argparse.Namespace) -> None:
    if args.action == "unpack":
        for path in archive.unpack(args.archive, args.dir):
            print(path)
        return
    if args.action == "pack":
        notes = args.notes
        if args.notes_file:
            notes = _read_notes(args.notes_file)
        members = archive.pack(args.archive, args.files, notes)
    else:
        members = archive.list_archive(args.archive)
    print(f"{'name':<24} {'bytes':>12} {'packed':>10}  what")
    for m in members:
        packed = "-" if m.packed is None else str(m.packed)
        print(f"{m.name:<24} {m.size:>12} {packed:>10}  {m.what}")
    total = sum(m.size for m in members)
    size = Path(args.archive).stat().st_size
    print(f"{len(members)} files, {total} bytes packed into {size} ({total / size:.1f} to 1)")


def _cmd_scenarios() -> None:
    scenarios = [load_scenario(name) for name in scenario_names()]
    width = max(len(sc.title) for sc in scenarios)
    for sc in scenarios:
        knobs = ", ".join(f"{k.name}={k.show(k.default)}" for k in sc.knobs.values()) or "-"
        print(f"{sc.name:<20} {sc.title:<{width}}  knobs: {knobs}")


def _cmd_knobs(scenario: str) -> None:
    sc = load_scenario(scenario)
    print(f"{'knob':<20} {'type':<7} {'default':<10} {'allowed':<22} help")
    for k in sc.knobs.values():
        print(f"{k.name:<20} {k.kind:<7} {k.show(k.default):<10} {k.allowed():<22} {k.help}")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    try:
        args = _parser().parse_args(argv)
        if args.command == "scenarios":
            _cmd_scenarios()
        elif args.command == "knobs":
            _cmd_knobs(args.scenario)
        elif args.command == "report":
            _cmd_report(args)
        elif args.command == "archive":
            _cmd_archive(args)
        else:
            _cmd_monwrite(args)
    except ZvmsimError as exc:
        print(f"zvmsim: error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        print("zvmsim: error: interrupted", file=sys.stderr)
        return 2
    except Exception as exc:  # a bug: one line for the student, the details on request
        if os.environ.get("ZVMSIM_DEBUG"):
            raise
        where = f"{type(exc).__name__}: {exc}".splitlines()[0]
        print(
            f"zvmsim: internal error: {where} (a bug in zvmsim; set ZVMSIM_DEBUG=1 for details)",
            file=sys.stderr,
        )
        return 1
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
