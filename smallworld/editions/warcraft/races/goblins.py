"""Goblins (§8.7, §6.1 step 3, §6.13 step 3, AMB-13): bombs.

The box holds 12 bombs, 6 that explode and 6 duds, told apart only when revealed.

* Picking the Goblin banner (anyone, every time, AMB-13) gathers all 12, from the boards too, and
  shuffles them into a face-down stack kept beside the Goblin player (`ext[STACK]`, top = last).
* End of each Goblin turn (Active race, so never on the decline turn): the player may put bombs, one
  at a time from the top of the stack, in regions adjacent to a Goblin region that hold an opponent's
  Active race: at most one per region, never in an immune region (Watch Tower), and a region holding
  another player's Aegis of Aggramar only after paying its owner 2 VC (`placement_dues`). A placed
  bomb is a `bomb` piece in the region; which kind it is stays in `ext[PLACED]`, hidden from every
  seat, the Goblin player included (`hide`).
* Start of the Goblin player's next turn, before the decline choice (so also on the turn they will
  decline), each bomb is resolved in placement order. If the region holds tokens of any opponent
  (even a race that has gone In Decline since) it is revealed: an exploding bomb empties the region
  as a conquest by nobody would (§6.9 losses and their exceptions, Wisp Walls and Forts removed,
  withdrawn tokens redeployed after the active player's redeployment), with no reward of any kind
  (no Faction Bonus, no per-conquest coins, no Artifact); a dud does nothing; the bomb leaves the
  game either way. A region with no opponent token (empty, or only the Goblin player's own or Murloc
  tokens) sends the bomb back on top of the stack, still unseen.
* Payments before an explosion (§6.7, §8.7 RES: a Goblin holding Harmony pays 2 VC before a bomb
  may affect a Pandaren region; the Aegis asks its 2 VC for each hostile effect, AMB-19) are asked of
  the defenders' units like those of an attack, with the Goblin player as the attacker
  (`conquest.payments`, `conquest.pay_dues`); they are paid automatically when affordable (the
  explosion is the Goblin player's own weapon), otherwise the bomb is revealed and discarded without
  effect ("blocked"). A region that became immune since the bomb was placed (a Watch Tower raised at
  the end of its owner's turn, AMB-36: immunity covers bombs) blocks it the same way. A dud asks for
  nothing.
* In Decline: bombs are only ever placed by an Active Goblin race and resolved at the start of the
  very next turn of that player, before the decline choice (§6.16 step 4: "already resolved"), so
  In-Decline Goblins never have a bomb out; their unit needs no In-Decline hooks.

Revealed outcomes are public: `st.turn.data[RESOLVED]` lists them for the turn and an event is
recorded for each bomb placed or resolved. The kind of a bomb that goes back to the stack is never
recorded.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from smallworld.editions.warcraft.relics import aegis_of_aggramar
from smallworld.engine import conquest
from smallworld.engine.actions import Action
from smallworld.engine.board_map import bits
from smallworld.engine.hooks import Piece, Unit

if TYPE_CHECKING:
    from smallworld.engine.state import State

BOMB = "bomb"
EXPLODING, DUD = "exploding", "dud"
BOMBS_PER_KIND = 6

STACK = "goblin_stack"  # seat ext: kinds of the face-down stack, top last
PLACED = "goblin_bombs"  # seat ext: region ref -> kind of each bomb on the boards, in placement order
RESOLVED = "goblin_bombs"  # turn data: public record of the bombs resolved at the start of this turn

PLACE = "bomb"
DONE = "bomb_done"
_DONE = Action(DONE)


class Goblins(Unit):
    id = "goblins"
    kind = "race"
    section = "§8.7"
    # A bomb has no defence, makes no region immune or occupied, and only leaves when it is
    # resolved: conquest, emptying and declines leave it where it is.
    pieces = (Piece(BOMB, supply=2 * BOMBS_PER_KIND),)

    # --- picking: the stack --------------------------------------------------------------------
    def on_pick(self, st: State, seat: int) -> None:
        for r in range(st.game.map.n):
            st.remove_piece(r, BOMB)
        for s in st.seats:
            s.ext.pop(STACK, None)
            s.ext.pop(PLACED, None)
        stack = [EXPLODING] * BOMBS_PER_KIND + [DUD] * BOMBS_PER_KIND
        st.rng.shuffle(stack)
        ext = st.seats[seat].ext
        ext[STACK] = stack
        ext[PLACED] = {}

    # --- end of turn: placing --------------------------------------------------------------------
    def turn_end(self, st: State, seat: int) -> None:
        if st.seats[seat].active == self.id and self._targets(st, seat):
            st.push_prompt(
                self.id,
                seat,
                text="Goblins: place the top bomb of your stack next to your regions, or stop placing bombs",
                rule="§8.7",
            )

    def placement_dues(self, st: State, seat: int, region: int) -> list[tuple[int | None, int, str]]:
        """Coins due before a bomb may go into `region`: (payee, VC, why).

        Placing a bomb is a power used on the region: the Aegis of Aggramar makes it cost 2 VC to its
        owner (§8.7: "not in immune regions (Watch Tower, or Aegis unless paid)", §6.7, AMB-19). No
        other rule charges for it (Harmony is due only when the bomb explodes)."""
        toll = aegis_of_aggramar.toll(st, seat, region)
        return [(st.marker_owner(region), toll, "§10.2 Aegis of Aggramar")] if toll else []

    def _targets(self, st: State, seat: int) -> list[int]:
        ext = st.seats[seat].ext
        if not ext.get(STACK) or st.supply.get(BOMB, 0) <= 0:
            return []
        own = st.occupied_mask(self.id)
        coins = st.seats[seat].coins
        out = []
        for r in bits(st.game.map.adjacent_to(own) & ~own & ~st.immune):
            race = st.race[r]
            if race is None or race == st.game.natives or not st.is_active_race(race):
                continue
            if st.owner_seat(race) == seat:
                continue
            pieces = st.pieces[r]
            if pieces and BOMB in pieces:
                continue
            dues = self.placement_dues(st, seat, r)
            if dues and sum(d[1] for d in dues) > coins:
                continue
            out.append(r)
        return out

    def prompt_actions(self, st: State, prompt: dict[str, Any]) -> Iterable[Action]:
        seat = prompt["seat"]
        return [*(Action(PLACE, r) for r in self._targets(st, seat)), _DONE]

    def apply_prompt(self, st: State, prompt: dict[str, Any], action: Action) -> None:
        seat = prompt["seat"]
        if action.kind == DONE or action.region is None:
            st.pop_prompt()
            return
        r = action.region
        conquest.pay_all(st, seat, self.placement_dues(st, seat, r))
        ext = st.seats[seat].ext
        stack = list(ext[STACK])
        kind = stack.pop()
        ext[STACK] = stack
        # New containers rather than in-place edits: copies of a state share nested values.
        ext[PLACED] = {**ext.get(PLACED, {}), st.game.map.ref(r): kind}
        st.add_piece(r, BOMB)
        st.event("bomb_placed", seat=seat, region=r)
        if not self._targets(st, seat):
            st.pop_prompt()

    def explain(self, st: State, action: Action) -> tuple[str, str] | None:
        if not st.pending or st.pending[0]["unit"] != self.id:
            return None
        if action.kind != PLACE or action.region is None:
            return "§8.7", f"place a bomb first ('{PLACE} REGION') or stop placing ('{DONE}')"
        seat, r = st.pending[0]["seat"], action.region
        name = st.game.map.regions[r].name
        race = st.race[r]
        if race is None or not st.is_active_race(race) or st.owner_seat(race) in (None, seat):
            return "§8.7", f"{name} holds no opponent's Active race"
        if not (st.game.map.adjacent_to(st.occupied_mask(self.id)) >> r) & 1:
            return "§8.7", f"{name} is not next to a Goblin region"
        if (st.immune >> r) & 1:
            return "§9.6", f"{name} is immune to all powers (Watch Tower)"
        pieces = st.pieces[r]
        if pieces and BOMB in pieces:
            return "§8.7", f"{name} already holds a bomb (at most one per region)"
        if self.placement_dues(st, seat, r):
            return "§6.7", f"a bomb in {name} requires paying the Aegis of Aggramar's 2 VC first"
        return "§8.7", "no bomb is left in the stack"

    # --- start of the next turn: resolving ---------------------------------------------------------
    def turn_start(self, st: State, seat: int, owner: int) -> None:
        if seat != owner:
            return
        ext = st.seats[owner].ext
        placed: dict[str, str] = ext.get(PLACED) or {}
        if not placed:
            return
        ext[PLACED] = {}
        records = list(st.turn.data.get(RESOLVED, []))
        for ref, kind in placed.items():
            records.append(self._resolve(st, owner, ref, kind))
        st.turn.data[RESOLVED] = records

    def _resolve(self, st: State, owner: int, ref: str, kind: str) -> dict[str, Any]:
        r = st.game.map.index(ref)
        st.remove_piece(r, BOMB)
        race = st.race[r]
        victim = st.owner_seat(race)
        if victim is None or victim == owner:
            ext = st.seats[owner].ext
            ext[STACK] = [*ext.get(STACK, []), kind]
            st.event("bomb", seat=owner, region=r, result="returned")
            return {"region": ref, "result": "returned"}
        record: dict[str, Any] = {"region": ref, "result": kind, "race": race, "defender": victim}
        if kind == EXPLODING:
            # A Watch Tower raised since the bomb was placed protects the region from it (AMB-36), and
            # the dues of a hostile effect (Harmony, Aegis) must be paid (§6.7, AMB-10, AMB-19).
            if (st.immune >> r) & 1 or not conquest.can_affect(st, owner, [r]):
                record["result"] = "blocked"
            else:
                conquest.hostile_effect(st, owner, r)
                info = conquest.remove_defenders(st, r, None, "bomb")
                if st.race[r] is None:
                    st.clear_pieces(r, "removed_when_emptied")
                record["lost"] = info.lost
                if info.prevented:
                    record["prevented"] = info.prevented
        st.event("bomb", seat=owner, region=r, **{k: v for k, v in record.items() if k != "region"})
        return record

    # --- hidden information ----------------------------------------------------------------------
    def hide(self, view: dict[str, Any], seat: int | None) -> None:
        # Nobody sees a face-down bomb, its owner included: only how many there are and where.
        # The view's ext may be the state's own dict: build a new one instead of editing it.
        for s in view.get("seats", []):
            ext = s.get("ext")
            if not ext or (STACK not in ext and PLACED not in ext):
                continue
            hidden = dict(ext)
            if STACK in hidden:
                hidden[STACK] = {"count": len(hidden[STACK])}
            if PLACED in hidden:
                hidden[PLACED] = list(hidden[PLACED])
            s["ext"] = hidden


UNIT = Goblins()
