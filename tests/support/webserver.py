"""The `fechtbuch serve` app in-process for tests: a real uvicorn on 127.0.0.1 on a
port the OS picks, in a thread, and the system Chromium through Playwright.

Without Chromium (or Playwright) the browser tests skip, except under CI=true where
they fail (as tests/support/browser.py does for the viewer tests).  Nothing is downloaded:
Playwright is pointed at the installed Chromium.
"""

from __future__ import annotations

import datetime as dt
import os
import shutil
import signal
import socket
import threading
import time
from contextlib import ExitStack, contextmanager
from pathlib import Path

import pytest

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]

TODAY = dt.date(2026, 12, 1)


def _missing(what: str):
    if os.environ.get("CI", "").lower() in ("true", "1"):
        pytest.fail(f"CI=true but {what} is missing (.ci/run installs chromium)")
    pytest.skip(f"{what} is missing")


def chromium_path() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if not found:
        _missing("chromium")
    return found


@contextmanager
def serve_app(app, start_seconds: float):
    """``app`` served by a real uvicorn in a thread on a port of 127.0.0.1 that the OS
    picks; yields the port, and stops the server afterwards.

    The socket is bound here (port 0) and handed to uvicorn, rather than a free port
    looked up and bound later: between the two another test process could take it."""
    import uvicorn

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    server = uvicorn.Server(
        uvicorn.Config(
            app, host="127.0.0.1", port=port, log_level="warning", ws="websockets-sansio"
        )
    )
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + start_seconds
    while not server.started:
        if time.monotonic() > deadline:
            raise RuntimeError("the test server did not start")
        time.sleep(0.02)
    try:
        yield port
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()


def interrupt(process, seconds: float = 10) -> None:
    """Stop a server process of the test's own as a person does (Ctrl-C: SIGINT), kill
    it after ``seconds``, and close its pipes."""
    process.send_signal(signal.SIGINT)
    deadline = time.monotonic() + seconds
    while process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    if process.poll() is None:
        process.kill()
        process.wait()
    for pipe in (process.stdout, process.stderr):
        if pipe is not None:
            pipe.close()


@contextmanager
def running_server(data: Path, today=TODAY, seeds=None):
    """A served app on 127.0.0.1; yields its base URL and the Store."""
    from fechtbuch.web.server import Server, create_app
    from fechtbuch.web.store import Store

    counter = iter(seeds or (f"test-seed-{n}" for n in range(1000)))
    store = Store(data)
    app = create_app(Server(store, today=lambda: today, seed=lambda: next(counter)))
    with serve_app(app, start_seconds=20) as port:
        yield f"http://127.0.0.1:{port}/", store


class ModuleBrowser:
    """The one Playwright and Chromium of the test module that runs now, while a module
    holds them (tests/browser/conftest.py, :meth:`held`); started at their first use.

    Starting Playwright's driver and Chromium costs about a second of CPU, and the
    browser tests open a page a few hundred times: each page now gets a fresh browser
    context of this browser instead (no cookies, storage or cache shared with the
    page before).  A browser with flags of its own is launched by the same Playwright
    (a second sync Playwright in one thread is refused).  Per module, not per
    process: the module's end closes the browser and Playwright's event loop, which
    other modules' asyncio code must not meet."""

    def __init__(self) -> None:
        self.holding = False
        self.stack: ExitStack | None = None
        self.playwright = None
        self.browser = None

    @contextmanager
    def held(self):
        self.holding = True
        try:
            yield
        finally:
            self.holding = False
            if self.stack is not None:
                self.stack.close()
            self.stack = self.playwright = self.browser = None

    def launch(self, *extra_args: str):
        """A new browser of the module's Playwright (closed by the caller)."""
        if self.playwright is None:
            self.stack = ExitStack()
            self.playwright = self.stack.enter_context(_playwright())
        return _launched(self.playwright, extra_args)

    def get(self):
        if self.browser is None:
            self.browser = self.launch()
            self.stack.callback(self.browser.close)
        return self.browser


MODULE_BROWSER = ModuleBrowser()


@contextmanager
def chromium(*extra_args: str):
    """One headless system Chromium through Playwright (never a downloaded browser),
    with ``extra_args`` beside the usual flags: the module's browser when a module
    holds one and no flag is added (:class:`ModuleBrowser`), else a new one."""
    if MODULE_BROWSER.holding:
        if not extra_args:
            yield MODULE_BROWSER.get()
            return
        browser = MODULE_BROWSER.launch(*extra_args)
        try:
            yield browser
        finally:
            browser.close()
        return
    with _playwright() as playwright:
        browser = _launched(playwright, extra_args)
        try:
            yield browser
        finally:
            browser.close()


def _playwright():
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _missing("playwright (pip install -e '.[test]')")
    return sync_playwright()


def _launched(playwright, extra_args: tuple[str, ...]):
    return playwright.chromium.launch(
        executable_path=chromium_path(), args=[*CHROMIUM_ARGS, *extra_args]
    )


@contextmanager
def browser_page(viewport=None):
    with chromium() as browser:
        page = browser.new_page(viewport=viewport or {"width": 900, "height": 1100})
        errors: list[str] = []
        page.on("pageerror", lambda err: errors.append(f"{err}\n{err.stack}"))
        try:
            yield page, errors
        finally:
            page.context.close()


@contextmanager
def menu_page(url: str, viewport=None):
    """The page of `fechtbuch serve` at ``url`` once its menu is built; a script error
    on the page fails the test."""
    with browser_page(viewport) as (page, errors):
        page.goto(url)
        page.wait_for_selector("#games .game-card button")
        yield page
        assert errors == [], errors
