"""Every case-study notebook in a real browser: Voilà renders it, a knob turns, the report moves.

Voilà runs the notebook the way an instructor's projector shows it (app mode:
no code). Debian's Chromium, driven by Playwright, opens it, turns one knob
of its dashboard and waits for the dashboard's report to change; a figure
read off the report must move the way the case study says. A screenshot of
each notebook after the change is saved under ``test-artifacts/browser/``.
"""

from __future__ import annotations

import importlib.util
import os
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = ROOT / "notebooks"
ARTIFACTS = ROOT / "test-artifacts" / "browser"


# ---- a Voilà server on 127.0.0.1 serving notebooks/, and Debian's Chromium ----

CHROMIUM = Path(os.environ.get("ZVMSIM_CHROMIUM", "/usr/bin/chromium"))
# quiet, sandbox-free Chromium for a closed network (see the project's env notes)
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# Module scope: the server, its kernels and Chromium go when this file's tests
# end, not when the whole suite does (under xdist the worker goes on to other files).
@pytest.fixture(scope="module")
def voila() -> Iterator[str]:
    """The base URL of a Voilà server on the notebooks (app mode: no code shown)."""
    port = _free_port()
    log = open(ROOT / "test-artifacts" / "voila.log", "w") if _artifacts() else subprocess.DEVNULL
    proc = subprocess.Popen(
        [
            sys.executable, "-m", "voila", "--no-browser", f"--port={port}",
            "--Voila.ip=127.0.0.1", "--Voila.tornado_settings={'autoreload': False}",
            "--VoilaConfiguration.show_tracebacks=True", str(ROOT / "notebooks"),
        ],
        cwd=ROOT, stdout=log, stderr=subprocess.STDOUT,
        env=dict(os.environ, MPLBACKEND="Agg"),
    )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                urllib.request.urlopen(base, timeout=5).close()
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("the Voilà server did not start") from None
                time.sleep(0.5)
        yield base
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def _artifacts() -> bool:
    (ROOT / "test-artifacts").mkdir(exist_ok=True)
    return True


# Voilà's spinner turns (a CSS animation) while the notebook runs, and headless
# Chromium draws every frame of it in software: a quarter of a core a page,
# taken from the kernel that runs the notebook. The pages under test hold still
# (as Playwright's screenshots do with animations="disabled").
STILL = """(() => {
    const css = "*, *::before, *::after { animation: none !important; "
        + "transition: none !important; }";
    const add = () => {
        const style = document.createElement("style");
        style.textContent = css;
        document.head.appendChild(style);
    };
    if (document.head) { add(); return; }
    const watch = new MutationObserver(() => { if (document.head) { watch.disconnect(); add(); } });
    watch.observe(document, {childList: true, subtree: true});
})()"""


@pytest.fixture(scope="module")
def browser() -> Iterator:
    """Headless Debian Chromium (no browser download), driven by Playwright: one
    browser context for the file's pages, so Voilà's scripts are fetched and
    compiled once (its HTTP and code caches), not once a page; no animations."""
    if not CHROMIUM.exists():
        pytest.fail(
            f"no Chromium at {CHROMIUM}: install it with 'apt-get install chromium' "
            "(python3 bootstrap.py test does this when it can)"
        )
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
        )
        try:
            context = chromium.new_context(viewport={"width": 1400, "height": 1000})
            context.add_init_script(STILL)
            yield context
        finally:
            chromium.close()


# ---- the checks ----


def _number(pattern: str) -> Callable[[str], float]:
    """A reader of the first group of *pattern* (multi-line) as a number."""

    def read(text: str) -> float:
        match = re.search(pattern, text, re.MULTILINE)
        assert match, f"pattern {pattern!r} not found in the dashboard's report"
        value = match.group(1).replace(",", "")
        return 0.0 if value in ("...", "") else float(value)

    return read


def _count(pattern: str) -> Callable[[str], float]:
    return lambda text: float(len(re.findall(pattern, text, re.MULTILINE)))


@dataclass(frozen=True)
class Turn:
    """One knob turn: which control, to what, and how a figure must move."""

    knob: str  # the control's label
    kind: str  # "toggle", "slider" or "dropdown"
    value: str  # the button's text, the slider's new value or the option
    figure: Callable[[str], float]  # read off the dashboard's report text
    moves: str  # "up" or "down"
    why: str


TURNS: dict[str, Turn] = {
    "00-start-here.ipynb": Turn(
        "mdc", "toggle", "on", _number(r"^E7FC\s+->E700\s+\S+\s+\S+\s+\S+\s+(\S+)"), "down",
        "the first dashboard: with MDC on (no fix) the PAV aliases fall idle in FCX108",
    ),
    "01-collecting-monwrite.ipynb": Turn(
        "io_domain", "toggle", "off", _count(r"not enabled"), "up",
        "with the I/O domain off, the reports that need it say so instead of showing zeros",
    ),
    "02-fine.ipynb": Turn(
        "scenario", "dropdown", "thrasher", _count(r"\[\s+ok\s+\]"), "down",
        "the health check finds problems on the thrasher's system that the fine one lacks",
    ),
    "03-emergency-scan.ipynb": Turn(
        "linux_swap", "toggle", "minidisk", _number(r"^>>Mean>>\s+(\S+)"), "down",
        "with swap on minidisks the demand scan needs no frames",
    ),
    "04-thrasher.ipynb": Turn(
        "thrashers", "slider", "2", _count(r"^LIN10\d\s+>>Mean>>"), "up",
        "a second thrasher appears in the paging report",
    ),
    "05-undersized-lpar.ipynb": Turn(
        "central_gb", "slider", "52", _number(r"^>>Mean>>\s+\S+\s+(\S+)"), "down",
        "storage cures the paging, and with it CP's share (T/V)",
    ),
    "06-pav-mdc.ipynb": Turn(
        "mdc", "toggle", "on", _number(r"^E7FC\s+->E700\s+\S+\s+\S+\s+\S+\s+(\S+)"), "down",
        "MDC's full-track reads may not use the aliases: they fall idle (VM64199)",
    ),
    "07-paging-difficulties.ipynb": Turn(
        "chpid_type", "toggle", "ficon",
        _number(r"^>>All DASD<<\s+\S+\s+\S+\s+\S+\s+\S+\s+(\S+)"), "down",
        "FICON takes away the wait for a free ESCON path (pend)",
    ),
    "08-grinch.ipynb": Turn(
        "pinned_data", "toggle", "off",
        _number(r"^1742\s+3390\s+USE001(?:\s+\S+){8}\s+(\S+)"), "down",
        "without pinned data the cache answers again and response falls",
    ),
    "09-hipersockets.ipynb": Turn(
        "transport", "toggle", "osa", _number(r"^DBTXN\s+>>All<<\s+\S+\s+(\S+)"), "down",
        "OSA does not wait for the starved z/OS partition to be dispatched: faster transactions",
    ),
    "10-memory63.ipynb": Turn(
        "release", "toggle", "6.2", _number(r"^>>Mean>>\s+\S+\s+(\S+)"), "up",
        "back on z/VM 6.2 the demand scan and reorder raise CP's share (T/V)",
    ),
    "11-excess-share.ipynb": Turn(
        "excess_share_defect", "toggle", "on", _number(r"^LINUX03\s+(\S+)"), "up",
        "with the defect the time LINUX04 leaves goes to LINUX03 alone",
    ),
    "16-prsm-overhead.ipynb": Turn(
        "logical_pus", "slider", "8",
        _number(r"PR/SM for all partitions of the pool\s+(\S+)"), "down",
        "fewer logical IFLs for z/VM's partition: fewer, cheaper PR/SM dispatches",
    ),
    "12-reorder.ipynb": Turn(
        "set_reorder", "toggle", "off-big", _number(r"^LXBIG1\s+\S+(?:\s+\S+){8}\s+(\S+)"), "down",
        "SET REORDER OFF for the big guests: CP no longer stops them (%CFW in REORDMON)",
    ),
    "13-vmcf-master.ipynb": Turn(
        "release", "toggle", "2.2", _number(r"^>>Mean>>\s+(\S+)"), "up",
        "VM/ESA 2.2.0 runs VMCF on every processor: the VMCF rate rises",
    ),
    "14-real-vs-expanded.ipynb": Turn(
        "xstore_mb", "slider", "128", _number(r"^CMSINT\s+>>All<<\s+\S+\s+(\S+)"), "down",
        "128 MB of the 512 as XSTORE: users back from a short pause find their pages there",
    ),
    "15-mdc-record-level.ipynb": Turn(
        "mdc", "toggle", "record", _number(r"^DBJOB\s+>>All<<\s+\S+\s+(\S+)"), "down",
        "record-level MDC keeps the scattered busy records: the database requests get faster",
    ),
    "17-mdc-flashcopy.ipynb": Turn(
        "mdc_on_targets", "toggle", "off", _number(r"^>>Mean>>\s+\S+\s+(\S+)"), "down",
        "without MDC on the FlashCopy targets CP stops invalidating: T/V falls back to about 1",
    ),
    "20-mystery-system.ipynb": Turn(
        "report", "dropdown", "FCX108 DEVICE", _count(r"^FCX108 "), "up",
        "picking DEVICE shows the mystery system's device report",
    ),
}  # fmt: skip


def _operate(control, turn: Turn) -> None:
    if turn.kind == "toggle":
        control.locator("button", has_text=re.compile(f"^{re.escape(turn.value)}$")).click()
    elif turn.kind == "dropdown":
        control.locator("select").select_option(turn.value)
    else:
        readout = control.locator(".widget-readout")
        readout.click()
        readout.press("Control+a")
        readout.type(turn.value)
        readout.press("Enter")


def _control(page, turn: Turn):
    classes = {
        "toggle": ".widget-toggle-buttons",
        "slider": ".widget-slider",
        "dropdown": ".widget-dropdown",
    }
    label = re.compile(f"^{re.escape(turn.knob)}$")
    return page.locator(classes[turn.kind]).filter(has=page.locator("label", has_text=label)).first


def _changed(page, report, before: str, seconds: float = 120.0) -> str:
    """The report's text once it differs from *before* (the locator is looked up
    afresh each time: a dashboard may replace its output widgets)."""
    for _ in range(int(seconds * 4)):
        text = report.inner_text(timeout=30_000)
        if text != before:
            page.wait_for_timeout(500)  # let the whole output arrive
            return report.inner_text(timeout=30_000)
        page.wait_for_timeout(250)
    raise AssertionError("the dashboard's report did not change after the knob was turned")


_KERNEL_ID = """() => {
    const config = document.getElementById("jupyter-config-data");
    return config ? JSON.parse(config.textContent).kernelId || null : null;
}"""

# The request Voilà's own unload handler sends (a beacon), awaited here so the
# kernel is surely gone. Voilà's pages set no _xsrf cookie (voila#1458), so its
# beacon is refused (403) unless the cookie exists: the double-submit check only
# needs the cookie and the form field to agree, so the page makes one.
_SHUT_DOWN = """async (kernel) => {
    let xsrf = (document.cookie.match(/\\b_xsrf=([^;]*)\\b/) || [])[1];
    if (!xsrf) {
        xsrf = Array.from({length: 32}, () => Math.floor(Math.random() * 16).toString(16)).join("");
        document.cookie = `_xsrf=${xsrf}; path=/`;
    }
    const form = new FormData();
    form.append("_xsrf", xsrf);
    const base = JSON.parse(document.getElementById("jupyter-config-data").textContent).baseUrl;
    const answer = await fetch(`${base}voila/api/shutdown/${kernel}`, {method: "POST", body: form});
    return answer.status;
}"""


def _kernel_alive(base: str, kernel: str) -> bool:
    try:
        urllib.request.urlopen(f"{base}/api/kernels/{kernel}", timeout=10).close()
        return True
    except urllib.error.HTTPError as exc:
        if exc.code == 404:
            return False
        raise


def close_page(page, base: str) -> str | None:
    """Close *page* and shut its Voilà kernel down; the kernel's id (None: there was none).

    A page left open keeps its kernel (a Python process of some 150 MB with a
    simulation cached) until the server stops; closing it without unload
    handlers, as Playwright does by default, keeps it too.
    """
    kernel = status = None
    try:
        kernel = page.evaluate(_KERNEL_ID)
        status = page.evaluate(_SHUT_DOWN, kernel) if kernel else None
    except Exception:  # a page that broke: the test says why; its kernel goes with the server
        kernel = None
    finally:
        page.close(run_before_unload=True)
    if kernel:
        assert status == 204, f"Voilà did not shut kernel {kernel} down (HTTP {status})"
    return kernel


def _start_voila(args: list[str], log: Path) -> tuple[subprocess.Popen, str]:
    """Start Voilà with *args* on a free port; the process and its base URL once it answers."""
    port = _free_port()
    with open(log, "w") as out:
        proc = subprocess.Popen(
            [*args, "--no-browser", f"--port={port}", "--Voila.ip=127.0.0.1"],
            cwd=ROOT, stdout=out, stderr=subprocess.STDOUT, env=dict(os.environ, MPLBACKEND="Agg"),
        )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 120
    while True:
        try:
            urllib.request.urlopen(base, timeout=5).close()
            return proc, base
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.terminate()
                raise RuntimeError("the Voilà server did not start") from None
            time.sleep(0.5)


def test_app_mode_shows_the_dashboard_and_it_answers(
    browser, tmp_path, one_browser_at_a_time
) -> None:
    """``bootstrap.py app 06-pav-mdc``: the page shows the first dashboard, the
    dashboard answers a knob, and its kernel goes when the page closes.
    (First in the file, before the shared Voilà server starts: one server at a time.)"""
    spec = importlib.util.spec_from_file_location("bootstrap", ROOT / "bootstrap.py")
    assert spec and spec.loader
    boot = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(boot)
    args = boot.voila_args("06-pav-mdc", [])
    assert args[1] == "notebooks/06-pav-mdc.ipynb" and set(boot.CULL) <= set(args)
    log = tmp_path / "voila-app.log"
    proc, base = _start_voila([sys.executable, "-m", "voila", *args[1:]], log)
    turn = TURNS["06-pav-mdc.ipynb"]
    page = browser.new_page()
    step = "open the page"
    try:
        start = time.monotonic()
        page.goto(base, timeout=240_000)
        step = "wait for the dashboard"
        control = _control(page, turn)
        control.wait_for(timeout=240_000)
        report = control.locator("xpath=..").locator("pre").last
        report.wait_for(timeout=120_000)
        shown = time.monotonic() - start
        step = "turn the knob"
        before = report.inner_text()
        _operate(control, turn)
        after = _changed(page, report, before)
        step = "shut the kernel down"
        kernel = close_page(page, base)
        assert kernel and not _kernel_alive(base, kernel)
    except Exception as exc:  # say where it stuck, with the server's last words and a picture
        if not page.is_closed():
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / "app-mode-failure.png"))
        tail = " | ".join(log.read_text().splitlines()[-8:])
        raise AssertionError(f"app mode failed at '{step}': {exc} (Voilà: {tail})") from exc
    finally:
        if not page.is_closed():
            page.close()
        proc.terminate()
        proc.wait(timeout=30)
    assert turn.figure(after) < turn.figure(before), turn.why
    print(f"app mode: first dashboard {shown:.1f} s after the page request")


def test_every_notebook_has_a_browser_check() -> None:
    notebooks = {p.name for p in NOTEBOOKS.glob("[0-9][0-9]-*.ipynb")}  # 00's first dashboard too
    assert notebooks <= set(TURNS), f"no browser check for {sorted(notebooks - set(TURNS))}"


@pytest.mark.parametrize("notebook", sorted(TURNS))
def test_notebook_dashboard_in_the_browser(
    notebook: str, voila: str, browser, one_browser_at_a_time
) -> None:
    turn = TURNS[notebook]
    if not (NOTEBOOKS / notebook).exists():
        pytest.skip(f"{notebook} is not in this checkout")
    page = browser.new_page()
    kernel = None
    try:
        page.goto(f"{voila}/voila/render/{notebook}", timeout=240_000)
        control = _control(page, turn)
        control.wait_for(timeout=240_000)
        board = control.locator("xpath=..")
        report = board.locator("pre").last
        report.wait_for(timeout=120_000)
        before = report.inner_text()
        _operate(control, turn)
        after = _changed(page, report, before)
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"{Path(notebook).stem}.png"), full_page=False)
    finally:
        kernel = close_page(page, voila)
    assert kernel and not _kernel_alive(voila, kernel), f"{notebook}: its kernel still runs"
    old, new = turn.figure(before), turn.figure(after)
    moved = new > old if turn.moves == "up" else new < old
    assert moved, f"{notebook}: expected the figure to go {turn.moves} ({turn.why}): {old} -> {new}"
