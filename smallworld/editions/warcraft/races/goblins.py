"""Goblins (§8.7, §6.1 step 3, §6.13 step 3, AMB-13): bombs.

The box holds 12 bombs, 6 that explode and 6 duds, told apart only when revealed.

* Picking the Goblin banner (anyone, every time, AMB-13) gathers all 12, from the boards too, and
  shuffles them into a face-down stack kept beside the Goblin player (the seat data's `stack`, top =
  last).
* End of each Goblin turn (Active race, so never on the decline turn): the player may put bombs, one
  at a time from the top of the stack, in regions adjacent to a Goblin region that hold an opponent's
  Active race: at most one per region, never in an immune region (Watch Tower), and a region holding
  another player's Aegis of Aggramar only after paying its owner 2 VC (the dues of a placement,
  §6.7). A placed bomb is a `bomb` piece whose tag says its place in the order of placement and its
  kind; the kind is hidden from every seat, the Goblin player included, and moves with the piece
  (a Portal swap carries it).
* Start of the Goblin player's next turn, before the decline choice (so also on the turn they will
  decline), each bomb is resolved in placement order. If the region holds tokens of any opponent
  (even a race that has gone In Decline since) it is revealed: an exploding bomb empties the region
  as a conquest by nobody would (§6.9 losses and their exceptions, Wisp Walls and Forts removed,
  withdrawn tokens redeployed after the active player's redeployment), with no reward of any kind
  (no Faction Bonus, no per-conquest coins, no Artifact); a dud does nothing; the bomb leaves the
  game either way. A region with no opponent token (empty, or only the Goblin player's own or Murloc
  tokens) sends the bomb back on top of the stack, still unseen.
* Payments before an explosion (§6.7, §8.7 RES: a Goblin holding Harmony pays 2 VC before a bomb
  may affect a Pandaren region; the Aegis asks its 2 VC for each hostile effect, AMB-19) are the dues
  of a hostile effect, with the Goblin player as the attacker; they are paid automatically when
  affordable (the explosion is the Goblin player's own weapon), otherwise the exploding bomb is
  discarded without effect ("blocked"). A region that became immune since the bomb was placed (a
  Watch Tower raised at the end of its owner's turn, AMB-36: immunity covers bombs) blocks it the same
  way. A dud asks for nothing.
* In Decline: bombs are only ever placed by an Active Goblin race and resolved at the start of the
  very next turn of that player, before the decline choice (§6.16 step 4: "already resolved"), so
  In-Decline Goblins never have a bomb out; their unit needs no In-Decline hooks.

Revealed outcomes are public: the turn data's `resolved` lists them for the turn, an event is
recorded for each bomb placed or resolved, and the seat data counts the bombs of each kind revealed
since the last gathering (what the bots need to resample the hidden ones). The kind of a bomb that
goes back to the stack is never recorded.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from smallworld.engine.model.actions import Action
from smallworld.engine.model.board_map import bits
from smallworld.engine.model.errors import Why
from smallworld.engine.model.hooks import Cause, Effect, Piece, Unit
from smallworld.engine.model.protocol import (
    ActionSpec,
    EventSpec,
    Field,
    FieldType,
    PromptSpec,
    region_field,
    seat_field,
)
from smallworld.engine.rules import conquest
from smallworld.engine.rules.losses import remove_defenders

if TYPE_CHECKING:
    from smallworld.engine.model.state import State

ID = "goblins"
BOMB = "bomb"
EXPLODING, DUD = "exploding", "dud"
KINDS = (EXPLODING, DUD)
BOMBS_PER_KIND = 6

PLACE = "bomb"
DONE = "bomb_done"
_DONE = Action(DONE)
RESULTS = ("returned", EXPLODING, DUD, "blocked")
BLASTS, FIZZLES = "blasts", "fizzles"  # seat data: bombs of each kind revealed since the gathering
REVEALED = {EXPLODING: BLASTS, DUD: FIZZLES}


class Goblins(Unit):
    id = ID
    kind = "race"
    section = "§8.7"
    turn_end_step = 3  # §6.13 step 3: bombs
    # A bomb has no defence, makes no region immune or occupied, and only leaves when it is
    # resolved: conquest, emptying and declines leave it where it is. Its tag carries its kind.
    pieces = (
        Piece(
            BOMB,
            supply=2 * BOMBS_PER_KIND,
            tag_fields=(
                Field("order", FieldType.INT, "its place in the order of placement"),
                Field("kind", FieldType.CHOICE, "exploding or dud", choices=KINDS, secret="everyone"),
            ),
        ),
    )
    action_specs = (
        ActionSpec(PLACE, "put the top bomb of the stack in this region", region=True, step="prompt"),
        ActionSpec(DONE, "place no more bombs this turn", step="prompt"),
    )
    prompt_specs = (
        PromptSpec(
            "bombs",
            "place the top bomb of your stack next to your regions, or stop",
            (PLACE, DONE),
            rule="§8.7",
        ),
    )
    event_specs = (
        EventSpec(
            "bomb_placed",
            "a face-down bomb was placed",
            (
                seat_field("the Goblin player"),
                region_field(),
                Field("bomb", FieldType.CHOICE, "its kind", choices=KINDS, secret="everyone"),
            ),
        ),
        EventSpec(
            "bomb",
            "a bomb was resolved",
            (
                seat_field("the Goblin player"),
                region_field(),
                Field("result", FieldType.CHOICE, "what happened", choices=RESULTS),
                Field("race", FieldType.UNIT, "the race it hit", optional=True),
                Field("defender", FieldType.SEAT, "that race's owner", optional=True),
                Field("lost", FieldType.INT, "tokens discarded", optional=True),
                Field("prevented", FieldType.UNIT, "the unit that spared the loss", optional=True),
            ),
        ),
    )
    seat_fields = (
        Field("stack", FieldType.CHOICES, "the face-down stack, top last", choices=KINDS, secret="everyone"),
        Field("placed", FieldType.INT, "bombs placed since the stack was gathered", optional=True),
        Field(BLASTS, FieldType.INT, "exploding bombs revealed since then", optional=True),
        Field(FIZZLES, FieldType.INT, "duds revealed since then", optional=True),
    )
    turn_fields = (Field("resolved", FieldType.OBJECTS, "the bombs resolved this turn", optional=True),)

    # --- picking: the stack --------------------------------------------------------------------
    def on_pick(self, st: State, seat: int) -> None:
        for r in range(st.game.map.n):
            st.remove_piece(r, BOMB)
        for s in st.seats:
            s.ext.pop(ID, None)
        stack = [EXPLODING] * BOMBS_PER_KIND + [DUD] * BOMBS_PER_KIND
        st.rng.shuffle(stack)
        st.seat_data(seat, ID)["stack"] = stack

    # --- end of turn: placing --------------------------------------------------------------------
    def turn_end(self, st: State, seat: int) -> None:
        if st.seats[seat].active == self.id and self._targets(st, seat):
            st.push_prompt(self.id, seat, "bombs")

    def _targets(self, st: State, seat: int) -> list[int]:
        out = []
        for r in self._candidates(st, seat):
            if self._why_not(st, seat, r) is None:
                out.append(r)
        return out

    def _candidates(self, st: State, seat: int) -> Iterable[int]:
        mine = st.seats[seat].ext.get(ID, {})
        if not mine.get("stack") or st.supply.get(BOMB, 0) <= 0:
            return ()
        own = st.occupied_mask(self.id)
        return bits(st.game.map.adjacent_to(own) & ~own & ~st.immune)

    def _why_not(self, st: State, seat: int, r: int) -> Why | None:
        """The one answer to "may the top bomb go into region `r` now" (listing and errors)."""
        name = st.game.map.regions[r].name
        race = st.race[r]
        if (
            race is None
            or race == st.game.natives
            or not st.is_active_race(race)
            or st.owner_seat(race) == seat
        ):
            return self.why(
                "§8.7",
                f"{name} holds no opponent's Active race",
                "bomb_no_opponent",
                region=st.game.map.ref(r),
            )
        if not (st.game.map.adjacent_to(st.occupied_mask(self.id)) >> r) & 1:
            return self.why(
                "§8.7",
                f"{name} is not next to a Goblin region",
                "bomb_not_adjacent",
                region=st.game.map.ref(r),
            )
        if (st.immune >> r) & 1:
            return Why(
                "§9.6",
                f"{name} is immune to all powers (Watch Tower)",
                "immune_powers",
                region=st.game.map.ref(r),
            )
        pieces = st.pieces[r]
        if pieces and BOMB in pieces:
            return self.why(
                "§8.7",
                f"{name} already holds a bomb (at most one per region)",
                "bomb_there",
                region=st.game.map.ref(r),
            )
        if not conquest.can_affect(st, seat, [r], Effect.PLACEMENT):
            return Why(
                "§6.7",
                f"a bomb in {name} requires paying the Aegis of Aggramar's 2 VC first",
                "unpaid_any",
                region=st.game.map.ref(r),
            )
        return None

    def prompt_actions(self, st: State, prompt: dict[str, Any]) -> Iterable[Action]:
        seat = prompt["seat"]
        return [*(Action(PLACE, r) for r in self._targets(st, seat)), _DONE]

    def apply_prompt(self, st: State, prompt: dict[str, Any], action: Action) -> None:
        seat = prompt["seat"]
        if action.kind == DONE or action.region is None:
            st.pop_prompt()
            return
        r = action.region
        conquest.pay_placement(st, seat, r)
        mine = st.seat_data(seat, ID)
        kind = mine["stack"].pop()
        order = mine.get("placed", 0)
        mine["placed"] = order + 1
        st.add_piece(r, BOMB, tags=[{"order": order, "kind": kind}])
        st.event("bomb_placed", seat=seat, region=r, bomb=kind)
        if not self._targets(st, seat):
            st.pop_prompt()

    def explain(self, st: State, action: Action) -> Why | None:
        if not st.pending or st.pending[0]["unit"] != self.id:
            if action.kind in (PLACE, DONE):
                return self.why("§8.7", "bombs are placed at the end of an Active Goblin turn", "bomb_when")
            return None
        if action.kind != PLACE or action.region is None:
            return self.why(
                "§8.7", f"place a bomb first ('{PLACE} REGION') or stop placing ('{DONE}')", "bomb_prompt"
            )
        seat = st.pending[0]["seat"]
        if not st.seats[seat].ext.get(ID, {}).get("stack"):
            return self.why("§8.7", "no bomb is left in the stack", "bomb_stack_empty")
        why = self._why_not(st, seat, action.region)
        return why or (self.why("§8.7", "no bomb is left in the box", "bomb_box_empty"))

    # --- start of the next turn: resolving ---------------------------------------------------------
    def turn_start(self, st: State, seat: int, owner: int) -> None:
        if seat != owner or ID not in st.seats[owner].ext:
            return
        bombs = sorted(
            (tag["order"], r, tag["kind"]) for r, here in st.tags.items() for tag in here.get(BOMB, ())
        )
        if not bombs:
            return
        records = list(st.turn.data.get(ID, {}).get("resolved", []))
        for _order, r, kind in bombs:
            records.append(self._resolve(st, owner, r, kind))
        st.turn_data(ID)["resolved"] = records

    def _resolve(self, st: State, owner: int, r: int, kind: str) -> dict[str, Any]:
        ref = st.game.map.ref(r)
        st.remove_piece(r, BOMB)
        race = st.race[r]
        victim = st.owner_seat(race)
        mine = st.seat_data(owner, ID)
        if victim is None or victim == owner:
            mine["stack"] = [*mine.get("stack", []), kind]
            st.event("bomb", seat=owner, region=r, result="returned")
            return {"region": ref, "result": "returned"}
        record: dict[str, Any] = {"region": ref, "result": kind, "race": race, "defender": victim}
        count = REVEALED[kind]
        mine[count] = mine.get(count, 0) + 1  # revealed: an exploding bomb even when it is blocked
        if kind == EXPLODING:
            # A Watch Tower raised since the bomb was placed protects the region from it (AMB-36), and
            # the dues of a hostile effect (Harmony, Aegis) must be paid (§6.7, AMB-10, AMB-19).
            if (st.immune >> r) & 1 or not conquest.can_affect(st, owner, [r]):
                record["result"] = "blocked"
            else:
                conquest.hostile_effect(st, owner, r)
                info = remove_defenders(st, r, None, Cause.EMPTIED)
                if st.race[r] is None:
                    st.clear_pieces(r, "removed_when_emptied")
                record["lost"] = info.lost
                if info.prevented:
                    record["prevented"] = info.prevented
        st.event("bomb", seat=owner, region=r, **{k: v for k, v in record.items() if k != "region"})
        return record

    # --- hidden information ----------------------------------------------------------------------
    def resample(self, st: State, rng: random.Random) -> None:
        """Redraw the hidden kinds in a determinisation (`bots/determinize.py`): the stack and the
        placed bombs are drawn from what is left of the six and six once the revealed ones are taken
        out."""
        holder = next((s for s in st.seats if ID in s.ext), None)
        if holder is None:
            return
        mine = holder.ext[ID]
        left = [EXPLODING] * max(BOMBS_PER_KIND - int(mine.get(BLASTS, 0)), 0)
        left += [DUD] * max(BOMBS_PER_KIND - int(mine.get(FIZZLES, 0)), 0)
        rng.shuffle(left)
        placed = [t for here in st.tags.values() for t in here.get(BOMB, ())]
        need = len(mine.get("stack", [])) + len(placed)
        while len(left) < need:  # a position that says more than the box holds: draw freely
            left.append(rng.choice(KINDS))
        mine["stack"] = [left.pop() for _ in mine.get("stack", [])]
        for tag in placed:
            tag["kind"] = left.pop()


UNIT = Goblins()
