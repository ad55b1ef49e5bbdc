"""The compiled build that `play`, `serve` and `simulate` use when one is ready (smallworld/compiled.py):
keyed by the source, used by re-executing the interpreter with it first on the path, made in the
background once, and never in the way: pure Python runs whenever it cannot be used."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from smallworld import compiled
from smallworld.cli import main


@pytest.fixture
def builds(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "builds"
    monkeypatch.setenv(compiled.ENV_DIR, str(root))
    monkeypatch.delenv(compiled.ENV_BUILD, raising=False)
    monkeypatch.delenv(compiled.ENV_ACTIVE, raising=False)
    # The tests of the way to a build start from pure Python, whichever build runs the suite
    # (`make test` runs it again on the compiled one).
    monkeypatch.setattr(compiled, "running", lambda: "pure")
    return root


def test_every_hot_module_is_a_module_of_the_package() -> None:
    modules = compiled.hot_modules()
    assert "engine/flow/turn" in modules and "bots/mcts" in modules
    assert any(m.startswith("editions/warcraft/races/") for m in modules)
    missing = [m for m in modules if not (compiled.PACKAGE / f"{m}.py").is_file()]
    assert not missing


def test_the_digest_follows_every_byte_of_the_source(tmp_path: Path) -> None:
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "a.py").write_text("x = 1\n")
    (pkg / "sub" / "b.py").write_text("y = 2\n")
    first = compiled.digest(pkg)
    assert compiled.digest(pkg) == first
    (pkg / "sub" / "b.py").write_text("y = 3\n")
    changed = compiled.digest(pkg)
    assert changed != first
    (pkg / "sub" / "b.py").rename(pkg / "sub" / "c.py")  # a renamed module is another source
    renamed = compiled.digest(pkg)
    assert renamed not in (first, changed)
    # The build is a copy of the whole package: its data and the web client's files count too.
    (pkg / "static").mkdir()
    (pkg / "static" / "page.css").write_text("a { color: red; }\n")
    styled = compiled.digest(pkg)
    assert styled != renamed
    (pkg / "static" / "page.css").write_text("a { color: blue; }\n")
    assert compiled.digest(pkg) != styled


def test_pure_when_asked(
    builds: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv(compiled.ENV_BUILD, "pure")
    monkeypatch.setattr(compiled.subprocess, "Popen", _refuse)
    compiled.use(["simulate"])
    assert capsys.readouterr().err == ""
    assert not builds.exists()


def _refuse(*args: Any, **kwargs: Any) -> None:
    raise AssertionError("no build may start")


def test_a_ready_build_runs_the_command(builds: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = builds / compiled.digest()
    target.mkdir(parents=True)
    (target / compiled.READY).write_text("x 1\n")
    seen: dict[str, Any] = {}

    def execve(path: str, argv: list[str], env: dict[str, str]) -> None:
        seen.update(path=path, argv=argv, env=env)
        raise SystemExit(0)

    monkeypatch.setattr(compiled.os, "execve", execve)
    monkeypatch.setenv("PYTHONPATH", "/elsewhere")
    with pytest.raises(SystemExit):
        compiled.use(["simulate", "--games", "3"])
    assert seen["argv"][1:] == ["-P", "-m", "smallworld.cli", "simulate", "--games", "3"]
    assert seen["env"]["PYTHONPATH"].split(":") == [str(target), "/elsewhere"]
    assert seen["env"][compiled.ENV_ACTIVE] == "1"  # the re-executed command does not re-execute


def test_a_build_of_other_source_is_not_used(builds: Path, monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    old = builds / "0123456789abcdef01234567"
    old.mkdir(parents=True)
    (old / compiled.READY).write_text("x 1\n")
    monkeypatch.setattr(compiled.os, "execve", _refuse)
    monkeypatch.setattr(compiled, "missing_tools", lambda: "no C compiler (cc, gcc or clang)")
    compiled.use(["play"])
    assert "pure Python (no C compiler" in capsys.readouterr().err


def test_one_background_build_then_none_after_a_failure(
    builds: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    started: list[list[str]] = []

    class Child:
        def __init__(self, argv: list[str], **kwargs: Any) -> None:
            started.append(argv)
            assert kwargs["start_new_session"] and kwargs["env"][compiled.ENV_BUILD] == "pure"

    monkeypatch.setattr(compiled, "missing_tools", lambda: None)
    monkeypatch.setattr(compiled.subprocess, "Popen", Child)
    compiled.use(["simulate"])
    target = builds / compiled.digest()
    assert started == [[compiled.sys.executable, "-m", "smallworld.compiled", "build", "--out", str(target)]]
    assert "being made in the background" in capsys.readouterr().err
    # A build that failed is not tried again for the same source.
    (builds / f"{target.name}{compiled.FAILED}").write_text("mypyc: error\n")
    compiled.use(["simulate"])
    assert len(started) == 1
    assert "failed" in capsys.readouterr().err


def test_a_build_in_progress_is_not_started_twice(builds: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import fcntl

    target = builds / compiled.digest()
    builds.mkdir(parents=True)
    with open(builds / f"{target.name}.lock", "w") as held:
        fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
        monkeypatch.setattr(compiled, "missing_tools", lambda: None)
        monkeypatch.setattr(compiled.subprocess, "Popen", _refuse)
        assert compiled._start_background_build(target) is None


def test_a_failed_build_leaves_no_half_build(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def fail(files: list[str], cwd: Path) -> None:
        raise subprocess.CalledProcessError(1, files)

    monkeypatch.setattr(compiled, "_compile", fail)
    out = tmp_path / "builds" / "abc"
    with pytest.raises(subprocess.CalledProcessError):
        compiled.build(out, ["engine/model/rng"])
    assert not out.exists()
    assert list((tmp_path / "builds").iterdir()) == []  # the temporary copy is gone too


def test_reports_say_which_build_ran(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--players", "2", "--games", "1", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["build"] == compiled.running() in ("pure", "compiled")


def test_status_names_the_build_for_this_source(builds: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert compiled.main(["status"]) == 0
    out = capsys.readouterr().out
    assert f"running: {compiled.running()}" in out
    assert str(builds / compiled.digest()) in out and "(none)" in out


def test_the_cache_keeps_the_newest_builds(tmp_path: Path) -> None:
    import os
    import time

    now = time.time()
    for i, name in enumerate(["a1", "b2", "c3", "d4"]):
        d = tmp_path / name
        d.mkdir()
        (d / compiled.READY).write_text("x 1\n")
        (tmp_path / f"{name}.log").write_text("log\n")
        os.utime(d, (now - 100 + i, now - 100 + i))
    dead = tmp_path / ".building-x"
    dead.mkdir()
    os.utime(dead, (now - 7 * 3600, now - 7 * 3600))
    live = tmp_path / ".building-y"  # a build under way now
    live.mkdir()
    gone = compiled.prune(tmp_path, keep=3)
    assert sorted(p.name for p in gone) == [".building-x", "a1"]
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        ".building-y", "b2", "b2.log", "c3", "c3.log", "d4", "d4.log"
    ]
