"""Browser tests: Playwright's Python package driving Debian's Chromium (never `playwright install`).
`make test` installs /usr/bin/chromium when it is missing (tools/install-chromium.sh)."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any, cast

import pytest
from needs import require, uses_browser
from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright
from web_driver import ARGS, CHROMIUM, CONSOLE, SHOTS


class _Chromium:
    """Chromium for the browser tests in a row, launched by the first and closed after the last of
    them (`pytest_runtest_teardown`): Playwright's sync API keeps an event loop running in this
    thread while it is open, and the tests that come after on the same worker call `asyncio.run`.
    The `browser` fixture is this object, which stands for the Chromium running now."""

    def __init__(self) -> None:
        self.homes: pytest.TempPathFactory | None = None
        self.playwright: Any = None
        self.browser: Browser | None = None

    def launch(self) -> Browser:
        if self.browser is None:
            assert self.homes is not None, "the browser fixture launches Chromium"
            home = self.homes.mktemp("chromium-home")
            xdg = {"XDG_CONFIG_HOME": str(home / "config"), "XDG_CACHE_HOME": str(home / "cache")}
            self.playwright = sync_playwright().start()
            self.browser = self.playwright.chromium.launch(
                executable_path=CHROMIUM, args=ARGS, env={**os.environ, **xdg}
            )
        return self.browser

    def __getattr__(self, name: str) -> Any:
        return getattr(self.launch(), name)

    def close(self) -> None:
        if self.browser is not None:
            self.browser.close()
            self.playwright.stop()
            self.browser = self.playwright = None


CHROME = _Chromium()


@pytest.fixture(scope="session")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Browser]:
    require("browser")  # skipped without Chromium, failed under CI=true (tests/needs.py)
    CHROME.homes = tmp_path_factory
    yield cast(Browser, CHROME)
    CHROME.close()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    try:
        return (yield)  # the test's own teardown first: its pages are closed with their browser
    finally:
        if nextitem is None or not uses_browser(nextitem):
            CHROME.close()


@contextlib.contextmanager
def serve(data: Path, *extra: str) -> Iterator[str]:
    """A `smallworld serve` process on a free port of 127.0.0.1 with its SQLite store in `data` (and
    `extra` options); yields the address it prints once it listens, and stops it after."""
    exe = str(Path(sys.executable).with_name("smallworld"))
    # Every page comes from 127.0.0.1: the cap of games with bots per address (30, tested in
    # tests/server) would refuse the suite's own games once it has left 30 under way.
    args = ["--port", "0", "--data", str(data), "--rate", "0", "--bot-games-per-address", "0"]
    args += ["--log-level", "warning", *extra]
    with open(data / "server.log", "w") as log:
        proc = subprocess.Popen(
            [exe, "serve", *args],
            stdout=subprocess.PIPE,
            stderr=log,
            text=True,
        )
    assert proc.stdout is not None
    line = proc.stdout.readline()
    if not line.startswith("smallworld: open "):
        proc.kill()
        pytest.fail(f"smallworld serve did not start: {line!r} {(data / 'server.log').read_text()[-2000:]}")
    try:
        yield line.split()[-1]
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@pytest.fixture(scope="session")
def real_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The real game server, as `make play` starts it: `smallworld serve` on a free port of
    127.0.0.1 with its embedded SQLite store in a fresh folder (its bots in worker processes, its
    WebSocket); the address is the line it prints once it listens."""
    with serve(tmp_path_factory.mktemp("smallworld-data")) as url:
        yield url


def _context(browser: Browser, width: int, height: int) -> BrowserContext:
    ctx = browser.new_context(viewport={"width": width, "height": height})
    ctx.set_default_timeout(20000)
    return ctx


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    ctx = _context(browser, 1280, 800)
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    said = CONSOLE.setdefault(id(pg), [])
    pg.on("console", lambda m: said.append(f"{m.type}: {m.text}"[:300]))
    # The socket's frames too, each cut short: which decision went out and what came back.
    pg.on(
        "websocket",
        lambda ws: (
            ws.on("framesent", lambda f: said.append(f"sent: {f}"[:160])),
            ws.on("framereceived", lambda f: said.append(f"received: {f}"[:160])),
            ws.on("close", lambda _: said.append("socket closed")),
        ),
    )
    # And each request that is not a read, with its answer's status (an undo, a plan sent by HTTP).
    pg.on(
        "requestfinished",
        lambda r: r.method != "GET" and said.append(f"{r.method} {r.url.split('/api/')[-1]}"[:160]),
    )
    yield pg
    CONSOLE.pop(id(pg), None)
    ctx.close()
    assert not errors, f"script errors on the page: {errors}"


@pytest.fixture
def new_page(browser: Browser) -> Iterator[object]:
    """Pages in fresh contexts (another person's browser), any viewport."""
    ctxs: list[BrowserContext] = []

    def make(width: int = 1280, height: int = 800) -> Page:
        ctx = _context(browser, width, height)
        ctxs.append(ctx)
        return ctx.new_page()

    yield make
    for c in ctxs:
        c.close()


@pytest.fixture(scope="session")
def shots() -> Path:
    path = Path(SHOTS)
    path.mkdir(parents=True, exist_ok=True)
    return path
