"""App mode's first dashboard: seconds from the page request until it shows.

Starts Voilà the way ``python3 bootstrap.py app NOTEBOOK`` does: its
``voila_args`` (a preheated kernel runs the notebook ahead) and its background
warm-up filling an empty run cache (``zvmsim.warmup``). Waits ``--warm``
seconds, as a class would between starting the server and opening the page,
then opens the page in Debian's Chromium (Playwright) and times the request
until the notebook's first dashboard control and its report are on screen.
``--loads`` pages are opened one after another, ``--gap`` seconds apart; each
page's kernel is shut down when it closes. ``--cold`` drops the preheated
kernel, ``--no-warm-up`` the warm-up, ``--progressive`` streams cells as they run.

Usage: ``python benchmarks/app_start.py [NOTEBOOK] [--cold] [--no-warm-up] [--warm S]
[--loads N] [--gap S]``
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
TARGET = 4.0  # seconds from the page request to the first dashboard (issue 20)


def _bootstrap():
    spec = importlib.util.spec_from_file_location("bootstrap", ROOT / "bootstrap.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_up(url: str, proc: subprocess.Popen, seconds: float = 120) -> None:
    deadline = time.monotonic() + seconds
    while True:
        try:
            urllib.request.urlopen(url, timeout=5).close()
            return
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                raise SystemExit("the Voilà server did not start") from None
            time.sleep(0.25)


def first_dashboard(page, url: str) -> float:
    """Seconds from requesting *url* until a dashboard control and a report show."""
    start = time.perf_counter()
    page.goto(url, timeout=240_000, wait_until="commit")
    control = page.locator(".widget-toggle-buttons, .widget-slider, .widget-dropdown").first
    control.wait_for(timeout=240_000)
    control.locator("xpath=..").locator("pre").last.wait_for(timeout=240_000)
    return time.perf_counter() - start


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("notebook", nargs="?", default="06-pav-mdc")
    p.add_argument("--cold", dest="preheat", action="store_false", help="no preheated kernel")
    p.add_argument("--progressive", action="store_true", help="stream cells as they run")
    p.add_argument("--no-warm-up", action="store_true", help="leave the run cache empty")
    p.add_argument("--warm", type=float, default=40.0, help="seconds before the first page")
    p.add_argument("--loads", type=int, default=2)
    p.add_argument("--gap", type=float, default=20.0, help="seconds between page loads")
    args = p.parse_args()
    boot = _bootstrap()
    port = _free_port()
    voila = boot.voila_args(args.notebook, ["--no-browser", f"--port={port}"])
    voila[0:1] = [sys.executable, "-m", "voila"]
    if not args.preheat:  # bootstrap.py app preheats a single notebook
        voila = [a for a in voila if a not in boot.PREHEAT]
    if args.progressive:
        voila[4:4] = ["--progressive_rendering=True"]
    with tempfile.TemporaryDirectory() as cache:  # an empty run cache, as on a fresh clone
        env = dict(os.environ, ZVMSIM_RUN_CACHE=cache)
        warm = None if args.no_warm_up else boot.warm_up([args.notebook], env)
        proc = subprocess.Popen(
            voila, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        try:
            _measure(args, proc, port)
        finally:
            proc.terminate()
            proc.wait(timeout=30)
            if warm is not None:
                warm.terminate()
                warm.wait(timeout=30)


def _measure(args: argparse.Namespace, proc: subprocess.Popen, port: int) -> None:
    base = f"http://127.0.0.1:{port}"
    _wait_up(base, proc)
    time.sleep(args.warm)
    from playwright.sync_api import sync_playwright

    mode = "preheated" if args.preheat else "progressive" if args.progressive else "cold kernel"
    mode += ", no warm-up" if args.no_warm_up else ", warmed run cache"
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        for n in range(args.loads):
            if n:
                time.sleep(args.gap)
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            seconds = first_dashboard(page, base)
            page.close(run_before_unload=True)
            print(
                f"{args.notebook} ({mode}) page {n + 1}: first dashboard in {seconds:.1f} s"
                f" (target {TARGET:.0f} s)"
            )
        browser.close()


if __name__ == "__main__":
    main()
