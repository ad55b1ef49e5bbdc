"""What the web client is sent, as plain JSON built from the engine's own answers.

- `board(game)`: the islands of a game laid out together, every region with its polygon, terrain,
  features, neighbours and a label point (from `smallworld/boards/`), so the browser draws the
  table without knowing the board files.
- `words(game)`: every catalogue the client needs (core, edition, units and the client's own
  `web` catalogue), `{owner: {lang: {id: template}}}`.
- `seat_state(st, seat)`: the seat's view, the legal actions as protocol JSON each with its words
  in every language, the view's events and pending prompt in words, and, for the seat in its
  conquest step, `explain` for every region. Texts come in all three languages so that the
  language can switch in the browser without asking the server again.

A seat named in these texts is sent as a mark, `⟦seat N⟧` (N the 0-based seat), or `⟦seat N|You⟧`
for the reader's own seat (the catalogue's word for "you", so the sentence keeps its grammar): the
page writes each mark as that player's name with the seat's colour (`static/names.js`), the one
name the page gives a player everywhere. The catalogues' templates stay as they are: the mark is
the `{seat}` parameter they are given.
"""

from __future__ import annotations

import json
from functools import cache, lru_cache
from typing import Any

from smallworld.boards import geometry
from smallworld.engine.api.game import Game
from smallworld.engine.api.views import view_for
from smallworld.engine.flow.plans import current_plan
from smallworld.engine.model import protocol
from smallworld.engine.model.actions import DEPLOY
from smallworld.engine.model.state import Phase, State
from smallworld.web import STATIC
from smallworld.words import LANGS, for_edition
from smallworld.words.describe import TUI, describe, tui_catalogue
from smallworld.words.voice import Voice

WEB = "web"
GAP = 6.0  # box units between two islands (islands never touch, §2.1)
SIDE = 100.0


@cache
def web_catalogue() -> dict[str, dict[str, str]]:
    data: dict[str, dict[str, str]] = json.loads((STATIC.parent / "words.json").read_text("utf-8"))
    return data


def board(game: Game) -> dict[str, Any]:
    """The table: sides in a grid of at most 3 columns (large sides first, as they are drawn)."""
    sides = list(game.map.sides)
    cols = len(sides) if len(sides) <= 3 else (len(sides) + 1) // 2  # 4 sides: 2 x 2; 5: 3 + 2
    rows = (len(sides) + cols - 1) // cols
    out: list[dict[str, Any]] = []
    for i, side in enumerate(sides):
        x = (i % cols) * (SIDE + GAP)
        y = (i // cols) * (SIDE + GAP)
        regions = []
        for r in side.regions:
            ref = f"{side.id}:{r.id}"
            label = geometry.interior_point(r.polygon)[0] if r.polygon else (50.0, 50.0)
            regions.append(
                {
                    "ref": ref,
                    "id": r.id,
                    "n": game.map.index(ref),
                    "name": r.name,
                    "terrain": r.terrain,
                    "features": sorted(r.features),
                    "adjacent": [f"{side.id}:{a}" for a in r.adjacent],
                    "polygon": [[round(px, 2), round(py, 2)] for px, py in r.polygon],
                    "label": [round(label[0], 2), round(label[1], 2)],
                }
            )
        out.append(
            {
                "id": side.id,
                "name": side.name,
                "size": side.size,
                "x": x,
                "y": y,
                "outline": [[round(px, 2), round(py, 2)] for px, py in side.outline],
                "regions": regions,
            }
        )
    pieces = {p.id: uid for uid, unit in game.edition.units.items() for p in unit.pieces}
    width, height = cols * SIDE + (cols - 1) * GAP, rows * SIDE + (rows - 1) * GAP
    return {"sides": out, "pieces": pieces, "width": width, "height": height}


def words(game: Game) -> dict[str, dict[str, dict[str, str]]]:
    cats = dict(for_edition(game.edition).catalogues)
    cats[WEB] = web_catalogue()
    return cats


def seat_mark(seat: int, word: str | None = None) -> str:
    """A seat in a text the page is sent: `⟦seat 1⟧`, or `⟦seat 1|You⟧` with the word to show."""
    return f"⟦seat {seat}|{word}⟧" if word else f"⟦seat {seat}⟧"


class WebVoice(Voice):
    """The terminal game's voice (it owns the words of a move's costs and contents, `describe`),
    with every seat named by a mark the page replaces with the player's name (`seat_mark`)."""

    def seat(self, seat: int | None, listed: bool = False) -> str:
        if seat is None:
            return super().seat(seat, listed)
        return seat_mark(seat, super().seat(seat, listed) if seat == self.viewer else None)


@lru_cache(maxsize=64)
def web_voice(game: Game, lang: str, viewer: int | None) -> WebVoice:
    return WebVoice(game, lang, viewer, extra={TUI: tui_catalogue()})


def _voices(game: Game, seat: int | None) -> dict[str, Voice]:
    return {lang: web_voice(game, lang, seat) for lang in LANGS}


def public_game(settings: dict[str, Any]) -> Game:
    """The game of a server's public settings (no seed; the drawn boards pinned by id), enough for
    the board and the words: neither depends on the seed once the boards are named."""
    return Game.from_settings({**settings, "seed": 0})


def event_texts(game: Game, events: list[dict[str, Any]], seat: int | None) -> dict[str, list[str]]:
    """Events (as `seat` may see them) in words, in every language: the game log."""
    return {lang: [v.event(e) for e in events] for lang, v in _voices(game, seat).items()}


def extras(st: State, seat: int | None) -> dict[str, Any]:
    """What the web client adds to a seat's view: the words of each legal action (in the order of
    `st.legal_actions()`, the order of the view's `legal`) and of the pending prompt, `explain` for
    every region while the seat conquers, the redeployment `plan` it edits, and the game's rounds.
    A server merges this into its view answer (docs/web.md)."""
    game = st.game
    view_pending = [p for p in st.pending if p.get("seat") == seat or p.get("public")]
    acting = seat is not None and seat == st.acting_seat and st.phase != Phase.OVER
    voices = _voices(game, seat)
    legal = st.legal_actions() if acting else []
    explain: dict[str, Any] | None = None
    if acting and st.phase == Phase.CONQUER and not st.pending:
        explain = {game.map.ref(r): game.explain(st, r, seat) for r in range(game.map.n)}
    plan: dict[str, Any] | None = None
    if acting and seat is not None and any(a.kind == DEPLOY for a in legal):
        # The redeployment the client edits: what the seat's regions hold now, as a plan names it.
        current = {
            game.map.ref(r): {"tokens": t, **troops} for r, (t, troops) in current_plan(st, seat).items()
        }
        plan = {
            "current": current,
            # What must stay on each region, the floor of its "−": the redeployment began by
            # lifting every token above each region's minimum into hand (§6.12, the Tauren's
            # included: `turn._begin_redeploy`), and a plan only adds to what is left (`expand_plan`
            # refuses less: `plan_removes`, `plan_troops`), so the floor is what the region holds now.
            "minimum": {ref: dict(held) for ref, held in current.items()},
            "offered": sorted(
                {game.map.ref(a.region) for a in legal if a.kind == DEPLOY and a.region is not None}
            ),
        }
    prompt = view_pending[0] if view_pending else None
    return {
        "texts": {
            "legal": {lang: [describe(st, a, v) for a in legal] for lang, v in voices.items()},
            "prompt": {lang: v.prompt(prompt) for lang, v in voices.items()} if prompt else None,
        },
        "explain": explain,
        "plan": plan,
        "rounds": game.rounds,
    }


def seat_view(st: State, seat: int | None) -> dict[str, Any]:
    """The seat's view, its legal actions as protocol JSON and the `extras`: what a server's view
    answer holds for the web client."""
    game = st.game
    acting = seat is not None and seat == st.acting_seat and st.phase != Phase.OVER
    legal = [protocol.action_to_json(game, a) for a in st.legal_actions()] if acting else []
    return {"seat": seat, "view": view_for(st, seat), "legal": legal, **extras(st, seat)}
