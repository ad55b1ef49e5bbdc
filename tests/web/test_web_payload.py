"""What the web client is sent (smallworld/web/payload.py), checked against the engine itself."""

from __future__ import annotations

import json
import random
import re

from smallworld.engine.api.game import Game
from smallworld.engine.flow.plans import current_plan
from smallworld.engine.model import protocol
from smallworld.engine.model.state import Phase, State
from smallworld.web import STATIC, payload
from smallworld.words import LANGS


def _play(players: int, seed: int, until: object) -> State:
    game = Game.from_settings({"players": players, "seed": seed})
    st = game.new_initial_state()
    rng = random.Random(seed)
    while st.result is None and not until(st):  # type: ignore[operator]
        st.apply(rng.choice(st.legal_actions()), seat=st.acting_seat)
    return st


def test_board_names_every_region_once_with_its_map_index_and_neighbours() -> None:
    game = Game.from_settings({"players": 5, "seed": 4})
    b = payload.board(game)
    regions = [r for side in b["sides"] for r in side["regions"]]
    assert sorted(r["n"] for r in regions) == list(range(game.map.n))
    for r in regions:
        assert game.map.index(r["ref"]) == r["n"]
        assert r["ref"] == f"{r['ref'].split(':')[0]}:{r['id']}"
        assert len(r["polygon"]) >= 3
        for a in r["adjacent"]:
            assert r["ref"] in next(x["adjacent"] for x in regions if x["ref"] == a)
    # Islands laid out together never overlap (§2.1: islands never touch).
    boxes = [(s["x"], s["y"]) for s in b["sides"]]
    assert len(set(boxes)) == len(boxes)
    assert all(x + 100 <= b["width"] and y + 100 <= b["height"] for x, y in boxes)


def test_seat_state_offers_exactly_the_engines_legal_actions_in_three_languages() -> None:
    st = _play(3, 2, lambda s: s.phase == Phase.CONQUER and s.ply > 10)
    seat = st.acting_seat
    p = payload.seat_view(st, seat)
    game = st.game
    assert p["legal"] == [protocol.action_to_json(game, a) for a in st.legal_actions()]
    for lang in LANGS:
        texts = p["texts"]["legal"][lang]
        assert len(texts) == len(p["legal"])
        for text in texts:
            assert text and "tui." not in text and "{" not in text, text
    # Only the seat's own coins (§1.3); explain for every region while it conquers.
    assert all(s["coins"] is None for i, s in enumerate(p["view"]["seats"]) if i != seat)
    assert p["view"]["seats"][seat]["coins"] is not None
    assert p["explain"] is not None and set(p["explain"]) == {game.map.ref(r) for r in range(game.map.n)}
    other = payload.seat_view(st, (seat + 1) % 3)
    assert other["legal"] == [] and other["explain"] is None and other["texts"]["legal"]["en"] == []
    json.dumps(p)  # plain JSON all the way


def test_redeployment_carries_the_plan_the_client_edits() -> None:
    st = _play(2, 5, lambda s: s.phase == Phase.REDEPLOY and not s.pending)
    seat = st.acting_seat
    p = payload.seat_view(st, seat)
    assert p["plan"] is not None
    cur = {st.game.map.ref(r): {"tokens": t, **tr} for r, (t, tr) in current_plan(st, seat).items()}
    assert p["plan"]["current"] == cur
    # The plan the client sends unchanged (every token from hand on one offered region) is legal.
    target = p["plan"]["offered"][0]
    plan = dict(cur)
    plan[target] = {**plan.get(target, {"tokens": 0}), "tokens": plan.get(target, {"tokens": 0})["tokens"]}
    plan[target]["tokens"] += st.seats[seat].hand
    st.apply({"kind": "plan", "arg": {target: plan[target]}}, seat=seat)
    assert st.phase != Phase.REDEPLOY or st.acting_seat != seat


def test_event_texts_are_the_log_in_words_as_the_seat_sees_them() -> None:
    st = _play(2, 3, lambda s: any(e["type"] == "score" for e in s.events))
    texts = payload.event_texts(st.game, st.events, 0)
    assert set(texts) == set(LANGS)
    assert all(len(t) == len(st.events) and all(t) for t in texts.values())
    assert any("{" not in line and line for line in texts["de"])


def test_the_web_catalogue_has_every_key_the_client_uses_in_every_language() -> None:
    cat = payload.web_catalogue()
    keys = set(cat["en"])
    for lang in LANGS:
        assert set(cat[lang]) == keys, lang
    used: set[str] = set()
    for js in STATIC.glob("*.js"):
        used |= set(re.findall(r"\bW\.t\(\s*\"([a-z_.]+)\"", js.read_text("utf-8")))
    assert used and used - keys == set()
    assert {"seat.me", "seat.bot", "seat.invite", "seat.hotseat", "term.base", "term.defenders"} <= keys


def test_the_page_loads_only_files_the_package_ships() -> None:
    html = (STATIC / "index.html").read_text("utf-8")
    for ref in re.findall(r'(?:src|href)="/static/([^"]+)"', html):
        assert (STATIC / ref).is_file(), ref
    for js in STATIC.glob("*.js"):
        for ref in re.findall(r'from "\./([^"]+)"', js.read_text("utf-8")):
            assert (STATIC / ref).is_file(), f"{js.name} imports {ref}"


def test_a_defender_places_withdrawn_tokens_with_a_plan() -> None:
    # §6.12: the defender puts its withdrawn tokens back right after the attacker redeploys.
    st = _play(3, 1, lambda s: s.phase == Phase.WITHDRAWN and not s.pending)
    seat = st.acting_seat
    assert seat != st.turn_seat
    p = payload.seat_view(st, seat)
    assert p["plan"] is not None and p["plan"]["offered"]
    target = p["plan"]["offered"][0]
    final = dict(p["plan"]["current"][target])
    final["tokens"] += st.seats[seat].hand
    for kind, n in st.seats[seat].held.items():
        final[kind] = final.get(kind, 0) + n
    st.apply({"kind": "plan", "arg": {target: final}}, seat=seat)
    assert st.acting_seat != seat or st.phase != Phase.WITHDRAWN


def test_a_kept_champion_is_offered_with_its_words() -> None:
    """§6.2, §9.5 (AMB-26): the engine's `ready` reaches the client like any offered action, as
    protocol JSON with its words in every language (the region panel and the list of all moves)."""
    from pathlib import Path

    from smallworld import scenario

    where = Path(__file__).parents[1] / "scenarios/powers/championing/trap_champion_kept_by_readying.json"
    st = scenario.run(scenario.load(where)).state  # after "expand": Knoll keeps a Tauren and the Champion
    p = payload.seat_view(st, 0)
    i = p["legal"].index({"kind": "ready", "region": "T:2", "arg": "champion"})
    texts = {lang: p["texts"]["legal"][lang][i] for lang in LANGS}
    assert texts["en"] == (
        "take the Champion in 1 Knoll (Hill) into hand, 1 token from hand taking its place"
        " (then 2 tokens there)"
    )
    assert "Campeão" in texts["pt"] and "Champion" in texts["de"]
    assert all("{" not in t for t in texts.values())


def test_texts_name_each_seat_by_a_mark_the_page_writes_as_its_player() -> None:
    """Issue 28: the texts the page is sent say no "Seat 1": each seat is a mark (`⟦seat 1⟧`) that
    the page writes as the player's name; the reader's own seat carries its word ("You")."""
    game = Game.from_settings({"players": 3, "seed": 3})
    st = game.new_initial_state()
    rng = random.Random(3)
    events: list[dict[str, object]] = []
    while st.ply < 80 and st.result is None:
        st.apply(rng.choice(st.legal_actions()), seat=st.acting_seat)
        events += st.events
    seat_words = re.compile(r"\b(Seat|Jogador|Spieler) \d")
    for viewer in (0, None):
        texts = payload.event_texts(game, events, viewer)
        for lang in LANGS:
            joined = "\n".join(texts[lang])
            assert not seat_words.search(joined), lang
            assert payload.seat_mark(1) in joined and payload.seat_mark(2) in joined
            you = {"en": "You", "pt": "Você", "de": "Du"}[lang]
            assert (payload.seat_mark(0, you) in joined) == (viewer == 0)
            assert (payload.seat_mark(0) in joined) == (viewer is None)
    p = payload.seat_view(st, st.acting_seat)
    for lang in LANGS:
        assert not any(seat_words.search(t) for t in p["texts"]["legal"][lang])
