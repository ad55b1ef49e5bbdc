"""The compiled build: the hot modules compiled by mypyc, about three times the pure Python's speed
for search and simulation (docs/engine.md, "Compiled build").

Pure Python is the reference: the compiled modules are the same source, and the tests run on both.
`smallworld play`, `serve` and `simulate` call `use()` first: it runs the command on the compiled
build when one made from exactly this source is ready, starts building one in the background when a
C compiler and mypyc are there (the next run uses it), and says in one line on stderr which build
runs. `SMALLWORLD_BUILD=pure` keeps a command on pure Python (the tests set it).

A build is keyed by a digest of every `.py` of the package, so an edited file never runs from an
older build; builds live under `$XDG_CACHE_HOME/smallworld/compiled/` (or `$SMALLWORLD_COMPILED`),
each made in a temporary folder and renamed into place whole, under a lock, so two commands started
together make one build.

    python -m smallworld.compiled build [--out DIR] [--modules "engine/flow/turn bots/mcts ..."]
    python -m smallworld.compiled status
"""

from __future__ import annotations

import argparse
import fcntl
import hashlib
import importlib.util
import os
import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
ENV_BUILD = "SMALLWORLD_BUILD"  # "pure": never use or build one
ENV_DIR = "SMALLWORLD_COMPILED"  # where builds live (default: the user's cache folder)
ENV_ACTIVE = "SMALLWORLD_COMPILED_ACTIVE"  # set on the re-executed process: never re-execute twice
READY = "BUILT"  # written last in a finished build: its digest and module count
FAILED = ".failed"  # beside a build that could not be made (its log beside it): not tried again

# The modules compiled, as paths under smallworld/ without .py: the engine's hot paths, the search
# bots, and the Warcraft edition's units, whose hooks run inside every listing and conquest. They are
# compiled together with `engine/model/hooks` (their base class `Unit`) and with each other (a
# compiled class takes no interpreted base but `Unit`, which allows interpreted subclasses: test
# doubles, the classic edition's units).
ENGINE = (
    "model/actions", "model/board_map", "model/derived", "model/hooks", "model/keyed_rng",
    "model/rng", "model/state", "rules/conquest", "rules/decline", "rules/losses", "rules/scoring",
    "rules/variants/standard", "flow/plans", "flow/setup", "flow/turn", "api/game", "api/views",
)
OTHERS = ("bots/mcts", "bots/determinize", "bots/greedy", "editions/warcraft/factions")
UNIT_FOLDERS = ("editions/warcraft/races", "editions/warcraft/powers", "editions/warcraft/relics")

# What mypyc reads of mypy's settings: the checks it compiles under, and no failure for an optional
# library that this installation lacks (the compiled modules import none).
MYPY_SETTINGS = """[tool.mypy]
check_untyped_defs = true
no_implicit_optional = true
ignore_missing_imports = true
"""


def hot_modules(package: Path = PACKAGE) -> list[str]:
    units = sorted(
        f"{folder}/{p.stem}"
        for folder in UNIT_FOLDERS
        for p in (package / folder).glob("*.py")
        if p.stem != "__init__"
    )
    return [*(f"engine/{m}" for m in ENGINE), *OTHERS, *units]


def _sources(package: Path) -> Iterator[Path]:
    # Every file, not only the modules: a build is a copy of the whole package, and one kept after
    # a catalogue, a board, an edition's data or the web client changed would serve the old ones.
    for p in sorted(package.rglob("*")):
        if p.is_file() and "__pycache__" not in p.parts and p.suffix not in (".pyc", ".so"):
            yield p


def digest(package: Path = PACKAGE) -> str:
    """A hash of every file of the package (path and bytes) and of the Python that runs it."""
    h = hashlib.blake2b(digest_size=12)
    h.update(f"{sys.implementation.cache_tag}\0".encode())
    for p in _sources(package):
        h.update(p.relative_to(package).as_posix().encode() + b"\0")
        h.update(p.read_bytes() + b"\0")
    return h.hexdigest()


def builds_root() -> Path:
    if os.environ.get(ENV_DIR):
        return Path(os.environ[ENV_DIR])
    cache = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(cache) / "smallworld" / "compiled"


def running() -> str:
    """Which build this process runs: "compiled" when the engine's turn module is an extension."""
    from smallworld.engine.flow import turn

    return "compiled" if not str(turn.__file__).endswith(".py") else "pure"


def missing_tools() -> str | None:
    """What a build would lack here, in words; None when it can be made."""
    if importlib.util.find_spec("mypyc") is None:
        return "mypyc is not installed (pip install 'smallworld[speed]')"
    if not any(shutil.which(cc) for cc in (os.environ.get("CC") or "cc", "gcc", "clang")):
        return "no C compiler (cc, gcc or clang)"
    return None


def _compile(files: list[str], cwd: Path) -> None:
    """mypyc over `files` in its own process group, so that a build stopped midway stops its C
    compiler too (it would run on for minutes)."""
    proc = subprocess.Popen([sys.executable, "-m", "mypyc", *files], cwd=cwd, start_new_session=True)
    try:
        code = proc.wait()
    except BaseException:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        raise
    if code:
        raise subprocess.CalledProcessError(code, proc.args)


def build(out: Path, modules: list[str] | None = None, package: Path = PACKAGE) -> int:
    """Copy the package into a temporary folder beside `out`, compile `modules` there, and move the
    result to `out` whole; returns the number of compiled modules."""
    modules = modules or hot_modules(package)
    out.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=".building-", dir=out.parent))
    try:
        shutil.copytree(package, work / "smallworld", ignore=shutil.ignore_patterns("__pycache__", "*.so"))
        (work / "pyproject.toml").write_text(MYPY_SETTINGS, encoding="utf-8")
        files = [f"smallworld/{m}.py" for m in modules]
        _compile(files, work)
        shutil.rmtree(work / "build", ignore_errors=True)
        (work / "pyproject.toml").unlink()
        count = sum(1 for _ in (work / "smallworld").rglob("*.so"))
        (work / READY).write_text(f"{digest(work / 'smallworld')} {count}\n", encoding="utf-8")
        if out.exists():
            shutil.rmtree(out)
        work.rename(out)
        return count
    finally:
        shutil.rmtree(work, ignore_errors=True)


KEEP = 3  # builds kept in the cache: the newest, so that a few checkouts or versions need not rebuild


def prune(root: Path, keep: int = KEEP, stale_hours: float = 6.0) -> list[Path]:
    """Remove all but the `keep` newest builds under `root` (with their logs, locks and failure
    marks) and temporary folders of builds that died more than `stale_hours` ago; returns them."""
    import time

    builds = sorted((d for d in root.iterdir() if (d / READY).is_file()), key=lambda d: d.stat().st_mtime)
    gone = builds[:-keep] if keep else builds
    now = time.time()
    gone += [d for d in root.glob(".building-*") if now - d.stat().st_mtime > stale_hours * 3600]
    for d in gone:
        shutil.rmtree(d, ignore_errors=True)
        for suffix in (".log", ".lock", FAILED):
            (root / f"{d.name}{suffix}").unlink(missing_ok=True)
    return gone


def _say(line: str) -> None:
    print(f"smallworld: {line}", file=sys.stderr, flush=True)


def _start_background_build(target: Path) -> Path | None:
    """Start `python -m smallworld.compiled build --out target` detached, unless another process is
    building it already (its lock is held); returns the build's log, or None when one is running."""
    target.parent.mkdir(parents=True, exist_ok=True)
    lock = open(target.parent / f"{target.name}.lock", "w")  # noqa: SIM115 - held by the child
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        lock.close()
        return None
    log_path = target.parent / f"{target.name}.log"
    with open(log_path, "w") as log:
        subprocess.Popen(
            [sys.executable, "-m", "smallworld.compiled", "build", "--out", str(target)],
            stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
            start_new_session=True, pass_fds=(lock.fileno(),),
            env={**os.environ, ENV_BUILD: "pure"},
        )  # fmt: skip
    lock.close()  # the child holds the lock until it exits
    return log_path


def use(argv: list[str]) -> None:
    """Run this command on the compiled build when one is ready (re-executing the interpreter with
    it first on the path), else go on in pure Python and say why; never raises."""
    if os.environ.get(ENV_BUILD) == "pure":
        return
    if os.environ.get(ENV_ACTIVE) or running() == "compiled":
        _say("compiled build")
        return
    try:
        target = builds_root() / digest()
        if (target / READY).is_file():
            env = {**os.environ, ENV_ACTIVE: "1"}
            env["PYTHONPATH"] = os.pathsep.join(p for p in (str(target), env.get("PYTHONPATH")) if p)
            # -P: the current folder (a checkout) must not come before the build on the path.
            os.execve(sys.executable, [sys.executable, "-P", "-m", "smallworld.cli", *argv], env)
        failed = target.parent / f"{target.name}{FAILED}"
        if failed.exists():
            _say(f"pure Python (the compiled build of this source failed: {target.parent / target.name}.log)")
            return
        lacking = missing_tools()
        if lacking:
            _say(f"pure Python ({lacking}; a compiled build runs search about 3x faster)")
            return
        log = _start_background_build(target)
        where = f"log: {log}" if log else "another command is making it"
        _say(f"pure Python for now; the compiled build is being made in the background ({where}), "
             "the next run uses it")  # fmt: skip
    except OSError as e:  # a read-only cache, no room: pure Python is always there
        _say(f"pure Python (the compiled build is out of reach: {e})")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m smallworld.compiled", description=__doc__.split("\n")[0])
    sub = p.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build", help="compile the hot modules into a copy of the package")
    b.add_argument("--out", type=Path, default=None, help="the build's folder (default: the cache's)")
    b.add_argument("--modules", default=None, help="paths under smallworld/ without .py, space-separated")
    sub.add_parser("status", help="which build runs, and whether one made from this source is ready")
    args = p.parse_args(argv)
    if args.command == "status":
        target = builds_root() / digest()
        print(f"running: {running()}")
        print(f"build for this source: {target} ({'ready' if (target / READY).is_file() else 'none'})")
        print(f"can build: {missing_tools() or 'yes'}")
        return 0
    out = (args.out or builds_root() / digest()).resolve()
    # A build stopped by a signal cleans up after itself (its temporary copy), like one that failed.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    try:
        count = build(out, args.modules.split() if args.modules else None)
    except (OSError, subprocess.CalledProcessError) as e:
        stopped = isinstance(e, subprocess.CalledProcessError) and e.returncode < 0
        if args.out is None and not stopped:  # marked: commands stop starting a build that fails
            out.parent.mkdir(parents=True, exist_ok=True)
            (out.parent / f"{out.name}{FAILED}").write_text(f"{e}\n", encoding="utf-8")
        print(f"compiled build failed: {e}", file=sys.stderr)
        return 1
    if args.out is None:
        prune(out.parent)
    print(f"compiled: {count} modules in {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
