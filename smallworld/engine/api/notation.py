"""Text forms of actions: `conquer L1a:4`, `final L1a:4`, `deploy L1a:4 all`, `pick 2`, `decline`.

Parsing matches the text against the legal actions, so anything that parses is legal; a text
that names no legal action raises `IllegalActionError` with the rule it breaks.
"""

from __future__ import annotations

import contextlib

from smallworld.engine.api.game import Game
from smallworld.engine.model.actions import Action
from smallworld.engine.model.errors import IllegalActionError, SmallworldError
from smallworld.engine.model.state import State


def to_text(game: Game, a: Action) -> str:
    parts = [a.kind]
    if a.region is not None:
        parts.append(game.map.ref(a.region))
    if a.arg is not None:
        is_region = a.kind in game.region_args and isinstance(a.arg, int)
        parts.append(game.map.ref(a.arg) if is_region else str(a.arg))
    return " ".join(parts)


def _takes_no_region(st: State, kind: str) -> bool:
    """True when the kind names no region (`pick 2`, a prompt's `buy 1`): the word after the kind is
    then its argument, even where it could also name a region."""
    spec = st.game.action_specs.get(kind)
    if spec is not None:
        return not spec.region
    seen = False
    for a in st.legal_actions():
        if a.kind == kind:
            if a.region is not None:
                return False
            seen = True
    return seen


def parse(st: State, text: str) -> Action:
    """The action a text names (checked only for form; `State.apply` checks legality)."""
    words = text.split()
    if not words:
        raise SmallworldError("action: empty text")
    kind = words[0].lower()
    region: int | None = None
    rest = words[1:]
    if rest and not _takes_no_region(st, kind):
        try:
            word = rest[0]
            m = st.game.map
            # "SIDE:ID", a name, or a bare number: a flat index unless a one-side map's local id
            numeric = word.isdigit() and kind != "pick" and word not in m.refs
            region = m.index(int(word) if numeric else word)
            rest = rest[1:]
        except KeyError:
            region = None
    arg: int | str | None = None
    if rest:
        word = " ".join(rest)
        arg = int(word) if word.lstrip("-").isdigit() else word
        if isinstance(arg, str) and kind in st.game.region_args:
            with contextlib.suppress(KeyError):  # a second region: "portal L1a:3 M1b:2"
                arg = st.game.map.index(word)
    if region is None and words[1:] and kind != "pick" and isinstance(arg, str):
        # A region-taking kind with an unknown region name: say so instead of "not legal".
        known = {a.kind for a in st.legal_actions() if a.region is not None}
        if kind in known:
            raise IllegalActionError(
                "§2.2", f"no region {words[1]!r} on this map", None, "no_region_named", {"name": words[1]}
            )
    return Action(kind, region, arg)
