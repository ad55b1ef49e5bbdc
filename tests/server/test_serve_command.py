"""`smallworld serve` (issue 13, `make play`): it says the address it listens on in one line, serves
the lobby from the embedded SQLite store with no set-up, and `--open` never fails without a browser."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from smallworld.server.main import address, open_browser

SMALLWORLD = str(Path(sys.executable).with_name("smallworld"))


def _serve(
    tmp_path: Path, env: dict[str, str], lines: int, *extra: str
) -> tuple[subprocess.Popen[str], list[str]]:
    proc = subprocess.Popen(
        [SMALLWORLD, "serve", "--port", "0", "--data", str(tmp_path / "data"), *extra],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env=env,
        cwd=tmp_path,
    )
    assert proc.stdout is not None
    # The first line comes once the server listens (an empty one: it exited).
    return proc, [proc.stdout.readline() for _ in range(lines)]


@pytest.mark.slow  # a `smallworld serve` process
def test_serve_prints_its_address_and_serves_the_lobby_from_a_fresh_store(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    proc, lines = _serve(tmp_path, env, 2, "--open")
    try:
        assert lines[0].startswith("smallworld: open http://127.0.0.1:"), lines
        url = lines[0].split()[-1]
        # No display: --open says so and the server goes on.
        assert "no browser" in lines[1]
        with urllib.request.urlopen(url, timeout=10) as r:
            assert 'id="app"' in r.read().decode()
        with urllib.request.urlopen(url + "api/games", timeout=10) as r:
            assert json.loads(r.read()) == {"games": [], "next": None}
        assert (tmp_path / "data" / "smallworld.db").exists()
        assert proc.poll() is None
    finally:
        proc.terminate()
        proc.wait(timeout=20)


@pytest.mark.slow  # a `smallworld serve` process
def test_open_uses_the_default_browser_where_there_is_one(tmp_path: Path) -> None:
    # BROWSER names the command webbrowser runs; a display makes the platform count as having one.
    mark = tmp_path / "opened"
    env = {**os.environ, "DISPLAY": ":9", "BROWSER": f"sh -c 'echo %s > {mark}'"}
    proc, lines = _serve(tmp_path, env, 1, "--open")
    try:
        url = lines[0].split()[-1]
        for _ in range(200):
            if mark.exists() and mark.read_text().strip():
                break
            assert proc.poll() is None
            time.sleep(0.05)
        assert mark.read_text().strip() == url
    finally:
        proc.terminate()
        proc.wait(timeout=20)


def test_address_of_wildcard_hosts_is_the_loopback() -> None:
    assert address("0.0.0.0", 8000) == "http://127.0.0.1:8000/"
    assert address("::", 80) == "http://[::1]:80/"
    assert address("127.0.0.1", 8000) == "http://127.0.0.1:8000/"


def test_open_browser_says_so_without_a_display(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.setattr(sys, "platform", "linux")
    said: list[str] = []
    open_browser("http://127.0.0.1:1/", said.append)
    assert len(said) == 1 and "no browser" in said[0]
