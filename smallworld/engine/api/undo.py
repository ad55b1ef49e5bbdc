"""Undo within a turn: the plies the seat to act may go back to (issue 28, "Undo where it is safe").

A player may take back their own decisions of the turn under way, one after the other from the
last, as long as taking one back hides nothing that somebody has learnt and takes back nothing
that somebody else decided. So the decision at ply p can be undone, and ply p is an *undo point*,
when it and every later decision are the acting seat's own and none of them is a *barrier*:

- `ROLL`: it used the game's randomness: the reinforcement die of a final attempt (§6.10, classic
  §5.2), a shuffle or a random draw (a Goblin stack, §8.7; the Well of Eternity's fallback, §10.3).
  Found by the generator's state (`State.rng`) or the scripted rolls (`State.rolls`) changing;
- `REVEAL`: something hidden from a viewer became known to that viewer or left the game: a
  face-down marker turned up by a race entering its region (§10.1), the next banner and badge
  drawn from the stacks onto the row by a pick (§6.3, classic §5.1), a hidden bomb resolved. Found
  from what, for the spectator and for every seat, the state holds and that viewer's view does not
  (`views.PublicView`): the same rules of secrecy as every view, with no list of units. The parts
  that the public view replaced (`hidden_parts`: the stacks, face-down markers, units' secret
  fields, what a `hide` replaced) are compared between the two states first; only where they
  differ are their values counted (`secrets` compares whole views: the reference, and the way
  when a `hide` replaced a part that the public view redacts);
- `SEAT`: it was another seat's decision (a defender's regroup or withdrawn redeployment, §6.9,
  §6.12; a prompt answered by another seat);
- `TURN`: a turn began with it (§6.1): nothing before the start of the turn is ever undone.

The coin totals that views hide are not counted as secrets: a decision of the seat changes only
what the seat itself knows of them. The engine decides nothing here about who may undo (a rated
game, a bot's seat): that is the host's (server/undo.py).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from smallworld.engine.api.serialize import state_to_json
from smallworld.engine.api.views import PublicView
from smallworld.engine.model.state import State
from smallworld.engine.rules.variants.base import Variant

ROLL = "roll"
REVEAL = "reveal"
SEAT = "seat"
TURN = "turn"
BARRIERS = (ROLL, REVEAL, SEAT, TURN)

# Parts of the state's JSON that are no hidden information: what the last action set off, prompts
# (decisions asked for, not facts), the generator (ROLL watches it) and the ply.
_NOT_SECRETS = frozenset({"events", "pending", "rng", "rolls", "ply", "viewer", "result"})


@dataclass(frozen=True)
class UndoPoint:
    """Going back to `ply`: the position before `action`, the first of the decisions undone
    (`before`: that position, for the words of the decision; a state of its own)."""

    ply: int
    seat: int
    action: Any
    before: State | None = field(default=None, compare=False, repr=False)


def _leaves(value: Any, out: Counter[tuple[str, Any]], top: bool = False, seat: bool = False) -> None:
    """Count every scalar of a JSON value (keys left out), typed so that True and 1 differ."""
    if isinstance(value, dict):
        for k, v in value.items():
            if top and k in _NOT_SECRETS:
                continue
            if seat and k == "coins":
                continue
            if top and k == "seats" and isinstance(v, list):
                for s in v:
                    _leaves(s, out, seat=True)
                continue
            _leaves(v, out)
    elif isinstance(value, list):
        for v in value:
            _leaves(v, out)
    elif value is not None:
        out[(type(value).__name__, value)] += 1


def _diff(a: Any, b: Any, only_a: Counter[tuple[str, Any]], only_b: Counter[tuple[str, Any]]) -> None:
    """The leaves of `a` and of `b` (as `_leaves` counts them) outside the parts where the two are
    equal: walked side by side, a part equal in both is skipped whole (compared in C)."""
    if a == b:
        return
    if isinstance(a, dict) and isinstance(b, dict):
        for k, v in a.items():
            if k in b:
                _diff(v, b[k], only_a, only_b)
            else:
                _leaves(v, only_a)
        for k, v in b.items():
            if k not in a:
                _leaves(v, only_b)
    elif isinstance(a, list) and isinstance(b, list):
        for x, y in zip(a, b, strict=False):
            _diff(x, y, only_a, only_b)
        for x in a[len(b) :]:
            _leaves(x, only_a)
        for y in b[len(a) :]:
            _leaves(y, only_b)
    else:
        _leaves(a, only_a)
        _leaves(b, only_b)


_Leaves = Counter[tuple[str, Any]]


def _seat_diff(a: Any, b: Any, only_a: _Leaves, only_b: _Leaves) -> None:
    """`_diff` of one seat's JSON as `_leaves` counts a seat: without its coin total."""
    if isinstance(a, dict) and isinstance(b, dict):
        for k, v in a.items():
            if k == "coins":
                continue
            if k in b:
                _diff(v, b[k], only_a, only_b)
            else:
                _leaves(v, only_a)
        for k, v in b.items():
            if k != "coins" and k not in a:
                _leaves(v, only_b)
    else:
        _leaves(a, only_a, seat=True)
        _leaves(b, only_b, seat=True)


# The counts of the parts of views already worked out (`_hidden_from`): per part of the state's JSON
# (a top-level key, and the seat for a seat), the last few (the state's part, the view's part,
# their counts).
_Memo = dict[tuple[str, int], list[tuple[Any, Any, _Leaves, _Leaves]]]
_MEMO_DEPTH = 6


def _hidden_from(full: dict[str, Any], views: list[dict[str, Any]], memo: _Memo) -> list[_Leaves]:
    """For each view, `full`'s leaves minus the view's (both counted as `_leaves(..., top=True)`
    counts them). The parts of the two that are equal count the same on both sides, so only the
    parts that differ are counted: the same multiset as counting both whole, for a fraction of the
    work (most of a view is the state's JSON as it is). A part that every view shares (the views of
    one public view share most) is counted once for all; `memo`: the counts of parts worked out
    before, found again by equality (the states of one run of decisions share most values)."""

    def part(key: str, i: int, a: Any, b: Any, seat: bool) -> tuple[_Leaves, _Leaves] | None:
        if b is not _MISSING and a == b:
            return None
        known = memo.get((key, i))
        if known is None:
            known = memo[key, i] = []
        for fa, fb, ca, cb in known:
            if (fb is b or fb == b) and (fa is a or fa == a):
                return ca, cb
        ca, cb = Counter(), Counter()
        if b is _MISSING:
            _leaves(a, ca, seat=seat)
        elif seat:
            _seat_diff(a, b, ca, cb)
        else:
            _diff(a, b, ca, cb)
        known.insert(0, (a, b, ca, cb))
        del known[_MEMO_DEPTH:]
        return ca, cb

    shared_full: _Leaves = Counter()
    shared_view: _Leaves = Counter()
    own: list[list[tuple[_Leaves, _Leaves]]] = [[] for _ in views]

    def count(key: str, i: int, a: Any, bs: list[Any], seat: bool) -> None:
        b0 = bs[0]
        if bs.count(b0) == len(bs):  # one part for every view (the same object, or equal)
            got = part(key, i, a, b0, seat)
            if got is not None:
                if got[0]:
                    shared_full.update(got[0])
                if got[1]:
                    shared_view.update(got[1])
            return
        for j, b in enumerate(bs):
            got = part(key, i, a, b, seat)
            if got is not None:
                own[j].append(got)

    for k, v in full.items():
        if k in _NOT_SECRETS:
            continue
        ws = [view.get(k, _MISSING) for view in views]
        if k == "seats" and isinstance(v, list) and all(isinstance(w, list) for w in ws):
            for i, s in enumerate(v):
                count(k, i, s, [w[i] if i < len(w) else _MISSING for w in ws], True)
            for j, w in enumerate(ws):
                if len(w) > len(v):
                    extra: _Leaves = Counter()
                    for t in w[len(v) :]:
                        _leaves(t, extra, seat=True)
                    own[j].append((Counter(), extra))
        elif k == "seats":  # not a list on some side: counted whole, as `_leaves` counts it
            for j, w in enumerate(ws):
                whole_full: _Leaves = Counter()
                whole_view: _Leaves = Counter()
                _leaves({k: v}, whole_full, top=True)
                if w is not _MISSING:
                    _leaves({k: w}, whole_view, top=True)
                own[j].append((whole_full, whole_view))
        else:
            count(k, -1, v, ws, False)
    out = []
    for j, view in enumerate(views):
        only_full, only_view = shared_full.copy(), shared_view.copy()
        for ca, cb in own[j]:
            if ca:
                only_full.update(ca)
            if cb:
                only_view.update(cb)
        for k, w in view.items():
            if k not in full and k not in _NOT_SECRETS:
                _leaves({k: w}, only_view, top=True)
        out.append(_minus(only_full, only_view))
    return out


def _minus(a: _Leaves, b: _Leaves) -> _Leaves:
    """`a - b` for counts that are all positive (`Counter.__sub__` without its calls of `__missing__`)."""
    get = b.get
    return Counter({v: m for v, n in a.items() if (m := n - get(v, 0)) > 0})


_MISSING = object()


def secrets(
    st: State, public: PublicView | None = None, memo: _Memo | None = None
) -> list[Counter[tuple[str, Any]]]:
    """What each viewer does not see of `st` (the spectator first, then each seat), as the multiset
    of the state's values that are missing from that viewer's view. `public`: `st`'s public view when
    the caller has it already (it is only read); `memo`: the counts of parts kept from the secrets of
    other states (`_hidden_from`; it holds those states' values, which nothing may change)."""
    full = state_to_json(st)
    if public is None:
        public = PublicView(st)
    views = [public.view(viewer) for viewer in (None, *range(st.game.players))]
    return _hidden_from(full, views, {} if memo is None else memo)


# The parts of a view that `PublicView.view` picks per viewer (the others are `PublicView.base`'s),
# and the parts that `PublicView` itself redacts (`PublicView.redacted`).
_PER_VIEWER = frozenset({"seats", "turn", "pending", "events", "viewer"})
_REDACTED = frozenset({"race_stack", "power_stack", "spare_markers", "markers", "regions"})

# What one viewer does not see of a state, as the parts of the state's JSON a view replaced: the
# pairs (the state's part, the view's) hidden from every viewer (`PublicView.redacted`, one list for
# all), then this viewer's own pairs (a seat's or the turn's secret fields, what a `hide` replaced;
# `_MISSING` on the side that lacks the part). Equal parts, equal secrets: comparing the parts of two
# states (in C) tells most often, without counting, that a decision revealed nothing to the viewer.
Hidden = tuple[list[tuple[Any, Any]], tuple[tuple[Any, Any], ...]]


def _field_pairs(full: dict[str, Any], shown: Any, out: list[tuple[Any, Any]]) -> None:
    """The pairs (the state's, the view's) of the fields of units' data (`{unit: {field: value}}`)
    that a view replaced: `PublicView` copies each unit's data and replaces its secret fields, so the
    others are the state's own values (the same objects)."""
    if not isinstance(shown, dict):
        out.append((full, shown))
        return
    for u, d in full.items():
        e = shown.get(u, _MISSING)
        if e is d:
            continue
        if not isinstance(d, dict) or not isinstance(e, dict):
            out.append((d, e))
            continue
        for k, x in d.items():
            y = e.get(k, _MISSING)
            if y is not x:
                out.append((x, y))
        for k, y in e.items():
            if k not in d:
                out.append((_MISSING, y))
    for u, e in shown.items():
        if u not in full:
            out.append((_MISSING, e))


def _hook_pairs(base: dict[str, Any], view: dict[str, Any], out: list[tuple[Any, Any]]) -> bool:
    """The pairs of the parts a `hide` replaced, added or took out of a view (False: it replaced a
    part that `PublicView` redacts or picks per viewer, which only `secrets` can count)."""
    for k, w in view.items():
        if k in _PER_VIEWER or k in _NOT_SECRETS:
            continue
        a = base.get(k, _MISSING)
        if w is not a:
            if k in _REDACTED:
                return False
            out.append((a, w))
    for k, a in base.items():
        if k not in view and k not in _NOT_SECRETS:
            if k in _REDACTED or k in _PER_VIEWER:
                return False
            out.append((a, _MISSING))
    return True


def hidden_parts(public: PublicView) -> list[Hidden] | None:
    """For the spectator and each seat, the parts of `public.state`'s JSON that its view replaced
    (`Hidden`), from what `public` says it hid, without the state's JSON or comparing whole views (a
    view is the state's JSON with those parts replaced). None when a unit's or variant's `hide`
    replaced a part that `PublicView` redacts or picks per viewer: then only `secrets` knows."""
    base = public.base
    turn = base["turn"]
    # Without a `hide` (no unit's, the variant's the base's no-op) a view's other parts are the base's.
    hooked = bool(public.hiders) or type(public.state.game.variant).hide is not Variant.hide
    out: list[Hidden] = []
    for viewer in (None, *range(public.n)):
        view = public.view(viewer)
        own: list[tuple[Any, Any]] = []
        form = view["turn"]
        if form is not turn:
            if form is not public.turn_mine and form is not public.turn_other:
                return None
            _field_pairs(turn["data"], form["data"], own)  # (the rest of the turn is the state's)
        seats = view["seats"]
        if len(seats) != public.n:
            return None
        for i, ext in enumerate(public.seat_ext):
            form = seats[i]
            if form is not public.shown[i] and form is not public.hidden[i]:
                return None
            if ext is not None:
                _field_pairs(ext, form["ext"], own)  # (the coin totals are not counted)
        if hooked and not _hook_pairs(base, view, own):
            return None
        out.append((public.redacted, tuple(own)))
    return out


def _count_pairs(pairs: Sequence[tuple[Any, Any]], only_a: _Leaves, only_b: _Leaves) -> None:
    for a, b in pairs:
        if a is _MISSING:
            _leaves(b, only_b)
        elif b is _MISSING:
            _leaves(a, only_a)
        else:
            _diff(a, b, only_a, only_b)


def count_hidden(parts: Hidden) -> _Leaves:
    """`secrets` of one viewer from its `Hidden` parts: the same multiset, since the leaves of the
    parts a view left as they are count the same on both sides."""
    only_a: _Leaves = Counter()
    only_b: _Leaves = Counter()
    _count_pairs(parts[0], only_a, only_b)
    _count_pairs(parts[1], only_a, only_b)
    return _minus(only_a, only_b)


def hidden(public: PublicView) -> list[_Leaves] | None:
    """`secrets(public.state)` from `hidden_parts` (None where those are None)."""
    parts = hidden_parts(public)
    return None if parts is None else [count_hidden(p) for p in parts]


def _plain_barrier(before: State, after: State, seat: int) -> str | None:
    """The barriers that need no view: another seat's decision, a new turn, randomness."""
    if before.acting_seat != seat or before.turn_seat != seat:
        return SEAT
    if (
        after.turn_seat != seat
        or after.round != before.round
        or any(e.get("type") == "turn" for e in after.events)
    ):
        return TURN
    if after.rng.state != before.rng.state or len(after.rolls) != len(before.rolls):
        return ROLL
    return None


def _revealed(
    hidden_before: list[Counter[tuple[str, Any]]], hidden_after: list[Counter[tuple[str, Any]]]
) -> bool:
    """Whether something hidden from some viewer before is no longer hidden from it (or is gone)."""
    return any(_fewer(b, a) for b, a in zip(hidden_before, hidden_after, strict=True))


def _fewer(before: Counter[tuple[str, Any]], after: Counter[tuple[str, Any]]) -> bool:
    """Whether `before - after` is not empty, without making it: some value more often before (equal
    counts, the usual case, compared in C first: the counts hold no zeros)."""
    return not dict.__eq__(before, after) and any(n > after.get(v, 0) for v, n in before.items())


def barrier(before: State, after: State, seat: int) -> str | None:
    """Why `seat` may not go back before the decision that led from `before` to `after` (one of
    `BARRIERS`), or None when it may."""
    why = _plain_barrier(before, after, seat)
    if why is None and _revealed(secrets(before), secrets(after)):
        why = REVEAL
    return why


@dataclass(frozen=True)
class UndoReport:
    """The undo points of the seat to act, latest first, and what stops going further back (a
    `BARRIERS` name, or None when the decisions reach back to the start given)."""

    points: list[UndoPoint]
    stop: str | None


_UNKNOWN = object()


class UndoRun:
    """`undo_report` worked out one decision at a time: the states of a run of decisions from a
    start, each decision's barrier and each state's secrets worked out once, however many times the
    report is asked for (a host asks at every ply: the report of a run of n decisions then costs one
    decision's work, not n). The states are the run's own: nothing may change them."""

    def __init__(self, start: State, public: PublicView | None = None) -> None:
        """`public`: the start's public view when the caller has it (it is only read)."""
        self.states: list[State] = [start]
        self._start_public = public if public is not None and public.state is start else None
        self.actions: list[Any] = []
        self._why: dict[tuple[int, int], Any] = {}  # (decision, seat) -> its barrier or None
        self._hidden_parts: dict[int, list[Hidden] | None] = {}  # state -> `hidden_parts`
        self._hidden: dict[int, list[_Leaves | None]] = {}  # state -> `secrets` as worked out, per viewer
        self._memo: _Memo = {}  # the counts of the parts of the run's states' views (`secrets`)

    def push(self, action: Any, after: State | None = None) -> None:
        """The run's next decision; `after`: the state it leads to, when the caller has it (held as
        it is: the caller changes it no more), else played here on a copy of the last state."""
        if after is None:
            after = self.states[-1].clone()
            after.apply(action)
        self.actions.append(action)
        self.states.append(after)

    def _parts(self, i: int, public: PublicView | None) -> list[Hidden] | None:
        """The state's `hidden_parts` (None: they say nothing, `_counts` compares views)."""
        got = self._hidden_parts.get(i, _UNKNOWN)
        if got is _UNKNOWN:
            st = self.states[i]
            mine = public if public is not None and public.state is st else None
            if mine is None:
                mine = self._start_public if i == 0 and self._start_public is not None else PublicView(st)
            got = self._hidden_parts[i] = hidden_parts(mine)
            if got is None:
                counted: list[_Leaves | None] = [*secrets(st, mine, self._memo)]
                self._hidden[i] = counted
        return got  # type: ignore[return-value]  # (not _UNKNOWN: that is never kept)

    def _counts(self, i: int, viewer: int) -> Counter[tuple[str, Any]]:
        """What the viewer (0: the spectator, then each seat) does not see of state `i`, counted."""
        got = self._hidden.get(i)
        if got is None:
            got = self._hidden[i] = [None] * (self.states[i].game.players + 1)
        c = got[viewer]
        if c is None:
            parts = self._hidden_parts[i]
            assert parts is not None  # (else `_parts` counted them all)
            c = got[viewer] = count_hidden(parts[viewer])
        return c

    def _reveals(self, i: int, public: PublicView | None) -> bool:
        """Whether the decision from state `i` made known something hidden from some viewer: counted
        only for a viewer whose hidden parts differ between the two states (equal parts hide the same
        values; the parts of one field hold values of one JSON type, so `1 == True` never meets)."""
        before, after = self._parts(i, None), self._parts(i + 1, public)
        for v in range(self.states[i].game.players + 1):
            if before is not None and after is not None and before[v] == after[v]:
                continue  # the same parts hidden: the same secrets
            if _fewer(self._counts(i, v), self._counts(i + 1, v)):
                return True
        return False

    def _barrier(self, i: int, seat: int, public: PublicView | None) -> str | None:
        why = self._why.get((i, seat), _UNKNOWN)
        if why is _UNKNOWN:
            before, after = self.states[i], self.states[i + 1]
            why = _plain_barrier(before, after, seat)
            if why is None and self._reveals(i, public):
                why = REVEAL
            self._why[i, seat] = why
        return why

    def report(self, public: PublicView | None = None) -> UndoReport:
        """`undo_report` of the start and the decisions pushed; `public`: the last state's public view
        when the caller has it (it is only read)."""
        final = self.states[-1]
        seat = final.acting_seat
        if final.is_over() or seat != final.turn_seat:
            return UndoReport([], SEAT)
        points: list[UndoPoint] = []
        for i in range(len(self.actions) - 1, -1, -1):
            why = self._barrier(i, seat, public)
            if why is not None:
                return UndoReport(points, why)
            before = self.states[i]
            points.append(UndoPoint(before.ply, seat, self.actions[i], before))
        return UndoReport(points, None)


def undo_report(start: State, actions: Sequence[Any]) -> UndoReport:
    """Play `actions` (protocol JSON or `Action`s) from `start` (left as it is) and say which plies
    the seat to act at the end may go back to. None while the game is over or while the seat to act
    is not the one whose turn it is (a defender decides: it undoes nothing of another's turn)."""
    run = UndoRun(start.clone())
    for a in actions:
        run.push(a)
    return run.report()


def undo_points(start: State, actions: Sequence[Any]) -> list[UndoPoint]:
    """The plies the seat to act after `actions` (played from `start`) may go back to, latest first:
    `undo_report(...).points`."""
    return undo_report(start, actions).points
