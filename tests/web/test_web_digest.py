"""The daily e-mail in the browser (issue 29, item 8; docs/players.md): a logged-in player gives an
address and opts in from the account box, and the server started with `--smtp` sends the digest of
the turn-by-turn games where it is their turn, caught here by a local SMTP sink (aiosmtpd)."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from aiosmtpd.controller import Controller
from conftest import serve
from playwright.sync_api import Page, expect
from server.helpers import Sink, free_port

pytestmark = pytest.mark.browser  # Chromium through Playwright (tests/needs.py)


@pytest.fixture
def mailed(tmp_path: Path) -> Iterator[tuple[str, Sink]]:
    """A server whose digests go to a local sink, looking for digests due every second."""
    sink, port = Sink(), free_port()
    ctl = Controller(sink, hostname="127.0.0.1", port=port)
    ctl.start()
    try:
        with serve(tmp_path, "--smtp", f"smtp://127.0.0.1:{port}", "--digest-every", "1",
                   "--site", "http://play.example") as url:  # fmt: skip
            yield url, sink
    finally:
        ctl.stop()


def test_opting_in_from_the_account_box_brings_the_digest(
    new_page: Callable[..., Page], mailed: tuple[str, Sink]
) -> None:
    url, sink = mailed
    page = new_page()
    page.goto(url)
    page.fill("#account-user", "Quinn")
    page.fill("#account-password", "correct horse battery")
    page.click("#sign-up")
    expect(page.locator("#account-name")).to_contain_text("Quinn")
    page.select_option("#lang", "de")
    page.wait_for_function("() => document.documentElement.lang === 'de'")
    page.click("#digest summary")
    page.fill("#digest-email", "quinn@localhost")  # the browser takes it; the server wants a domain
    page.check("#digest-on")
    page.click("#digest-save")
    expect(page.locator("#account .account-error")).not_to_have_text("")  # refused, in words
    expect(page.locator("#digest-said")).to_have_text("")
    page.fill("#digest-email", "quinn@example.org")
    page.click("#digest-save")
    saved = "Gespeichert: eine tägliche E-Mail an quinn@example.org, wenn Sie am Zug sind"
    expect(page.locator("#digest-said")).to_have_text(saved)
    expect(page.locator("#account .account-error")).to_have_text("")
    page.click("#create-game")  # turn by turn, against the greedy bot
    page.wait_for_selector("#game")
    gid = page.url.rsplit("/", 1)[1]
    page.wait_for_selector("#game[data-acting='yes']", timeout=60000)
    deadline = time.monotonic() + 60
    while not sink.mails and time.monotonic() < deadline:
        time.sleep(0.2)
    assert len(sink.mails) == 1, "no digest reached the sink"
    mail = sink.mails[0]
    assert mail["To"] == "quinn@example.org"
    part = mail.get_body() if mail.is_multipart() else mail  # type: ignore[attr-defined]
    body = part.get_payload(decode=True).decode()
    assert f"http://play.example/#/game/{gid}" in body
    time.sleep(2.5)  # two more rounds: at most one digest a day
    assert len(sink.mails) == 1
