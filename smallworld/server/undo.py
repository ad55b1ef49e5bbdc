"""Undo within a turn (docs/server.md, "Undo"): a seat takes back its own decisions since the last die
roll, reveal, draw or other seat's decision (the engine's `engine/api/undo.py` says which plies), in a
game that is not rated.

`POST /api/games/{gid}/undo` with `{"seat", "to_ply"}` deletes the seat's actions from `to_ply` on
(`Store.truncate`: one transaction, refused when the stored game moved meanwhile), rebuilds the state
at `to_ply` and sends every socket the position as a normal update: the undone moves are gone from
the log, the moves and the replay, as if they had never been made. Only the seat to act can undo,
and only while it is its own turn: no bot's or other seat's decision lies in between.

The state at the start of the seat's run of decisions is kept (`_Starts`) so that the undo points of
each ply cost the replay of that run only, not of the whole game.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections import OrderedDict
from typing import TYPE_CHECKING, Any

from smallworld.engine.api.game import Game
from smallworld.engine.api.undo import UndoPoint, UndoRun
from smallworld.engine.api.views import PublicView
from smallworld.engine.model.protocol import check_action
from smallworld.engine.model.state import State
from smallworld.server.errors import ServerError
from smallworld.server.positions import first_state

if TYPE_CHECKING:
    from smallworld.server.service import Live, Move, Service

log = logging.getLogger("smallworld.server")

# Why the engine stops going further back (`engine/api/undo.py`), in the refusal's message.
STOPS = {
    "roll": "a die roll or a random draw",
    "reveal": "something hidden was revealed",
    "seat": "another seat's decision",
    "turn": "the start of your turn",
}


class _Starts:
    """The state at the first ply of a seat's run of decisions, per game (the most recent games'), with
    its public view when the server made one: a run's first ply never changes once the run has begun,
    whatever is undone after it."""

    def __init__(self, size: int = 256) -> None:
        self.size = size
        self.states: OrderedDict[str, tuple[Game, int, State, PublicView | None]] = OrderedDict()

    def _kept(self, live: Live, ply: int) -> tuple[State, PublicView | None] | None:
        kept = self.states.get(live.id)
        # (A held live state that a catch-up moved on in place no longer has the ply it was kept at.)
        if kept is not None and kept[0] is live.game and kept[1] == ply and kept[2].ply == ply:
            self.states.move_to_end(live.id)
            return kept[2], kept[3]
        return None

    def _keep(self, live: Live, ply: int, st: State, public: PublicView | None) -> None:
        self.states[live.id] = (live.game, ply, st, public)
        self.states.move_to_end(live.id)
        while len(self.states) > self.size:
            self.states.popitem(last=False)

    def at(self, live: Live, ply: int) -> State:
        """The game's state at `ply` (a state of its own), replayed from the start when not kept."""
        kept = self._kept(live, ply)
        if kept is not None:
            return kept[0].clone()
        st = self._replayed(live, ply)
        return st.clone()

    def start(self, live: Live, ply: int) -> tuple[State, PublicView | None]:
        """The game's state at `ply` and its public view when kept (the kept state itself, which
        nothing may change: an `UndoRun`'s start), else replayed from the start (and kept)."""
        kept = self._kept(live, ply)
        return kept if kept is not None else (self._replayed(live, ply), None)

    def _replayed(self, live: Live, ply: int) -> State:
        st = first_state(live.game, live.meta)  # a game from a position starts there
        for m in live.moves[:ply]:
            st.apply(m.action, seat=m.seat)
        self._keep(live, ply, st, None)
        return st

    def hold(self, live: Live, public: PublicView | None = None) -> None:
        """Keep the live state as the game's state at its ply, as it is (a live state is replaced,
        never changed, but by a catch-up: `_kept` finds that by its ply), with its public view
        (`public`, when made): the start of the run of decisions that the seat to act begins now,
        which then needs no replay, no copy and no second public view."""
        ply = len(live.moves)
        if live.state.ply == ply:
            self._keep(
                live, ply, live.state, public if public is not None and public.state is live.state else None
            )

    def forget_after(self, live: Live, ply: int) -> None:
        """Drop the game's kept state when it lies after `ply` (its log was cut there)."""
        kept = self.states.get(live.id)
        if kept is not None and kept[1] > ply:
            del self.states[live.id]


STARTS = _Starts()


def run_start(live: Live, seat: int) -> int:
    """The first ply of the run of `seat`'s own decisions that ends the log (the log's length: none).
    A decision a bot made for the seat (its clock ran out: `by` is `clock`) ends the run like another
    seat's: the player takes back only what the player decided."""
    k = len(live.moves)
    while k > 0 and live.moves[k - 1].seat == seat and live.moves[k - 1].by == "human":
        k -= 1
    return k


def not_offered(live: Live, seat: int | None) -> str | None:
    """Why `seat` may undo nothing now, whatever the log holds (None: it may, where the engine says)."""
    st = live.state
    if live.meta.get("rated"):
        return "the game is rated: decisions are final"
    if live.meta.get("undo") is False:
        return "take-backs are off in this game: decisions are final"
    if live.status != "playing" or st.result is not None:
        return "the game is not under way"
    if seat is None or seat != st.acting_seat or seat != st.turn_seat:
        return "it is not your turn"
    if live.seats[seat]["bot"] is not None:
        return "a bot plays this seat"
    return None


class _Runs:
    """The run of decisions under way, per game (the most recent games'), as an `UndoRun` that the
    report of each ply extends by the decisions since (usually one) instead of replaying the run:
    valid while the run starts at the same ply and the log still holds the same moves (an undo, a
    catch-up or a reload makes new ones)."""

    def __init__(self, size: int = 256) -> None:
        self.size = size
        self.runs: OrderedDict[str, tuple[Game, int, list[Move], UndoRun]] = OrderedDict()

    def at(self, live: Live, k: int) -> UndoRun:
        """The game's run from ply `k` to its last move, with the log's moves since pushed."""
        moves = live.moves
        kept = self.runs.get(live.id)
        run = None
        if kept is not None and kept[0] is live.game and kept[1] == k:
            done, run = kept[2], kept[3]
            if (
                len(done) > len(moves) - k
                or any(m is not moves[k + j] for j, m in enumerate(done))
                or run.states[0].ply != k
                or run.states[-1].ply != k + len(done)  # a held live state moved on (a catch-up)
            ):
                run = None
        if run is None:
            done, run = [], UndoRun(*STARTS.start(live, k))
        for m in moves[k + len(done) :]:
            # The live state after the last move is held as it is: a live state is replaced, never
            # changed, but by a catch-up, which the check above finds (its ply moves on).
            last = m is moves[-1] and live.state.ply == run.states[0].ply + len(done) + 1
            run.push(m.action, live.state if last else None)
            done.append(m)
        self.runs[live.id] = (live.game, k, done, run)
        self.runs.move_to_end(live.id)
        while len(self.runs) > self.size:
            self.runs.popitem(last=False)
        return run


RUNS = _Runs()


def _report(live: Live, public: PublicView | None = None) -> tuple[list[UndoPoint], str | None]:
    st = live.state
    seat = st.acting_seat
    k = run_start(live, seat)
    if k == len(live.moves):
        return [], "seat" if k else None
    report = RUNS.at(live, k).report(public)
    stop = report.stop if report.stop is not None or k == 0 else "seat"
    return report.points, stop


def points(svc: Service, live: Live, seat: int | None) -> tuple[list[UndoPoint], str | None]:
    """`seat`'s undo points now, latest first, and what stops going further back (worked out once
    per ply, `Service._cache`)."""
    cache = svc._cache(live)
    if "start" not in cache:  # once per ply, whoever asks: where the seat to act's run begins
        cache["start"] = run_start(live, live.state.acting_seat) == len(live.moves)
        if cache["start"]:
            # Kept even where no undo is offered now: a defender's decision in another's turn
            # begins the run of its own turn that follows (then found by `_plain_barrier`).
            STARTS.hold(live, cache.get("public"))
    if not_offered(live, seat) is not None:
        return [], None
    got = cache.get("undo")
    if got is None:
        try:
            got = _report(live, cache.get("public"))
        except Exception:  # a fault of ours must not cost the seat its view: no undo offered
            log.exception("undo points of game %s at ply %s", live.id, live.state.ply)
            got = ([], None)
        cache["undo"] = got
    return got


def view_part(svc: Service, live: Live, seat: int | None, web: bool) -> dict[str, Any]:
    """What a seat's view answer carries: `undo_points`, latest first, each `{ply, action}` (and, for
    the web client, `texts`: the decision undone in words, in every language)."""
    if seat is None:
        return {}
    pts, _ = points(svc, live, seat)
    out = []
    game = live.game
    for p in pts:
        item: dict[str, Any] = {"ply": p.ply, "action": p.action}
        if web and p.before is not None:
            from smallworld.web import payload as web_payload
            from smallworld.words.describe import describe

            a = check_action(game, p.action)
            voices = {lang: web_payload.web_voice(game, lang, seat) for lang in web_payload.LANGS}
            item["texts"] = {lang: describe(p.before, a, v) for lang, v in voices.items()}
        out.append(item)
    return {"undo_points": out}


def _refused(message: str, field: str | None = "to_ply") -> ServerError:
    return ServerError("undo_refused", message, field)


def _rebuild(live: Live, to_ply: int) -> State:
    """The state at `to_ply`, from the kept start of the seat's run (or a replay from the start)."""
    k = run_start(live, live.state.acting_seat)
    st = STARTS.at(live, k) if k <= to_ply else STARTS.at(live, to_ply)
    for m in live.moves[st.ply : to_ply]:
        st.apply(m.action, seat=m.seat)
    return st


def _rewind(svc: Service, live: Live, to_ply: int, state: State | None = None) -> None:
    """Make the live game the one at `to_ply`: the state, the moves, what each socket has had."""
    live.state = state if state is not None else _rebuild(live, to_ply)
    del live.moves[to_ply:]
    STARTS.forget_after(live, to_ply)
    for sub in svc.subs.get(live.id, ()):
        sub.sent_ply = min(sub.sent_ply, to_ply)


async def undo(
    svc: Service, gid: str, seat: Any, token: str | None, to_ply: Any, web: bool
) -> dict[str, Any]:
    """Take back `seat`'s decisions from ply `to_ply` on; the answer is the seat's new view, with
    `undone`: how many decisions were taken back."""
    live = await svc.get(gid)
    if isinstance(to_ply, bool) or not isinstance(to_ply, int):
        raise ServerError("invalid_input", "to_ply: the ply to go back to (an undo point's)", "to_ply")
    async with live.lock:
        if svc.multi:
            await svc._catch_up(live)
        seat = await svc.authorize(live, seat, token)
        st = live.state
        why = not_offered(live, seat)
        if why is not None:
            raise _refused(f"nothing can be undone: {why}", None)
        if not 0 <= to_ply < st.ply:
            raise ServerError("invalid_input", f"to_ply: a ply before the game's ply {st.ply}", "to_ply")
        pts, stop = points(svc, live, seat)
        if to_ply not in {p.ply for p in pts}:
            if not pts:
                raise _refused(f"nothing can be undone since {STOPS.get(stop or '', 'the start')}")
            raise _refused(
                f"ply {to_ply} is not an undo point: you can go back to ply {pts[-1].ply} at the earliest"
                f" ({STOPS.get(stop or '', 'the start of the game')} came before)"
            )
        at = st.ply
        ok = await asyncio.to_thread(svc.store.truncate, gid, to_ply, seat, at)
        if not ok:
            raise ServerError("stale_ply", f"the game moved on from ply {at}: look again", "to_ply")
        _rewind(svc, live, to_ply)
    log.info(json.dumps({"event": "undo", "game": gid, "seat": seat, "from": at, "to": to_ply}))
    svc.broker.publish({"game": gid, "undo": to_ply})
    svc._after_change(live)  # the same decision, the same clock: its deadline is sent again
    svc._fan_out(live, force=True)
    return {**svc.view(live, seat, web), "undone": at - to_ply}


async def follow(svc: Service, live: Live) -> None:
    """Another process may have undone moves of the game (its broker message, or the store's ply
    found behind this process's): this process's copy goes back to where its log and the store's
    part, and the caller's catch-up (`Service._catch_up`) then applies what the store holds after.
    Call with the game's lock."""
    rows = await asyncio.to_thread(svc.store.actions, live.id)
    same = 0
    moves = live.moves
    while (
        same < min(len(rows), len(moves))
        and rows[same].seat == moves[same].seat
        and rows[same].action == moves[same].action
    ):
        same += 1
    if same < len(moves):
        _rewind(svc, live, same)
