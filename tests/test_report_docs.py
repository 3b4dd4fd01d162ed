"""The report reference pages (docs/reports/) match the report catalog."""

from __future__ import annotations

import importlib.util
from pathlib import Path

TOOL = Path(__file__).resolve().parent.parent / "tools" / "report_docs.py"


def test_report_pages_are_up_to_date() -> None:
    spec = importlib.util.spec_from_file_location("report_docs", TOOL)
    assert spec and spec.loader
    docs = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(docs)
    wanted = docs.pages()
    have = {p.name: p.read_text() for p in docs.DOCS.glob("*.md")}
    stale = sorted(n for n in wanted if have.get(n) != wanted[n])
    extra = sorted(set(have) - set(wanted))
    assert not stale and not extra, (
        f"docs/reports is out of date ({stale + extra}): run python tools/report_docs.py"
    )
