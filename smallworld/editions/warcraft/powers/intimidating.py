"""Intimidating (§9.13, §6.11, AMB-15, AMB-48, AMB-36, AMB-31, AMB-12, AMB-10): move enemy tokens.

Three times per turn, during the conquest step (before the final die attempt and before the player
ends conquests, AMB-15), the player takes 1 token from an opponent's region (of their Active or
In-Decline race) adjacent to one of the Intimidating Active race's regions and moves it to another
region of that same race, which the Intimidating player chooses. Actions (one use each):

* `intimidate REF DEST` moves a race token of REF to DEST (`SIDE:ID` in text, a flat index in the
  Action), or `intimidate REF discard` when that race has no other region. Murlocs (AMB-48:
  allowed, although they are no opponent) are always discarded.
* `intimidate_troop REF DEST|discard` does the same with a troop piece that other players may move
  (a Beast, §9.3; AMB-15: Beasts can be moved, the Champion cannot).
* `intimidate_remove REF KIND` removes a Wisp Wall or a Fort from REF (§8.11, AMB-27): while a region
  holds one, no token can be taken from it.

Resolutions:
* A region left with no token or occupying piece is lost by its owner (AMB-15).
* A Tauren region of an Active race left under its 2 (§8.14, AMB-11): what is left there (the lone
  token, with a Beast or the Champion if one stayed) must move at once to another region of that
  race, chosen by its owner (AMB-15): with one such region it goes there at once, with several the
  owner answers a prompt (`regroup REF`) before the Intimidating player goes on; with none it goes
  to hand and stays there (AMB-11). Either way the region is lost.
* A discarded token counts for the Forsaken (AMB-31, the `losses_forced` hook); Holy Light and the Chapel
  can save it (the defender's `prevent_loss` hooks with cause "intimidate"), and the saved token is
  withdrawn to hand.
* It is not a conquest: no Faction Bonus (AMB-38), no per-conquest bonus.
* Watch Tower regions are immune (AMB-36). The Aegis (2 VC) and Harmony (2 VC, once per turn) are paid
  before each use (§6.7); the Marshdweller toll is for conquests only. Removing a Wisp Wall or a Fort
  forces no token out: it is no attack on a Pandaren race, so Harmony asks nothing for it (the
  Aegis still does), and a Pandaren player removing one has not attacked its owner (AMB-52). Moving a
  token into its owner's own region is no attack on that region, so destinations may be immune or
  hold the Aegis (AMB-54).
* An Active Pandaren with this power that moves a token of another player's Active race has attacked
  that player (AMB-10).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from smallworld.engine.model.actions import Action
from smallworld.engine.model.board_map import bits
from smallworld.engine.model.errors import Why
from smallworld.engine.model.hooks import Cause, Effect, Unit
from smallworld.engine.model.protocol import (
    ActionSpec,
    Arg,
    EventSpec,
    Field,
    FieldType,
    PromptSpec,
    region_field,
    seat_field,
)
from smallworld.engine.rules import conquest
from smallworld.engine.rules.losses import lose_token, note_withdrawn, occupants, region_emptied

if TYPE_CHECKING:
    from smallworld.engine.model.state import State

ID = "intimidating"
TOKEN = "intimidate"
TROOP = "intimidate_troop"
REMOVE = "intimidate_remove"
DISCARD = "discard"
REGROUP = "regroup"  # the Tauren player's answer: `regroup REF` (where the lone token goes)
USES = 3


def _uses(st: State) -> int:
    return int(st.turn.data.get(ID, {}).get("uses", 0))


def _walls(st: State, region: int) -> list[str]:
    """Pieces that must be removed before a token can be taken: the defence markers that are no
    troops (Wisp Walls, Forts; §9.13)."""
    p = st.pieces[region]
    if not p:
        return []
    kinds = st.game.pieces
    return sorted(k for k in p if k in kinds and kinds[k].defense > 0 and not kinds[k].troop)


def _effect(st: State, region: int) -> Effect:
    """What the next use on `region` does: while a Wisp Wall or Fort stands there, a use can only
    remove it, which forces no token out (AMB-52); otherwise it takes a token or a troop."""
    return Effect.REMOVAL if _walls(st, region) else Effect.HOSTILE


def _troops(st: State, region: int) -> list[str]:
    """The troop pieces in a region that another player may move (Beasts, not the Champion)."""
    kinds = st.game.pieces
    return [k for k in st.troops_in(region) if kinds[k].displaceable]


def _settle(st: State, region: int, race: str, owner: int | None) -> None:
    """After a token left `region`: a lone Tauren moves on (§8.14), an empty region is lost."""
    if owner is not None and st.seats[owner].active == race:
        left = occupants(st, region)
        if 0 < left < st.min_per_region(race):
            others = st.occupied_mask(race) & ~(1 << region)
            if not others:  # nowhere to go: it stays in hand (AMB-11)
                st.seats[owner].hand += st.tokens[region]
                st.tokens[region] = 0
                for kind, n in st.troops_in(region).items():
                    st.lift_piece(region, owner, kind, n)
                note_withdrawn(st, owner)
            elif others & (others - 1) == 0:  # one other region: no choice to make
                _regroup(st, region, others.bit_length() - 1, owner)
            else:
                st.push_prompt(ID, owner, "regroup", region=region)
                return
    if occupants(st, region):
        return
    region_emptied(st, region)


def _regroup(st: State, src: int, dst: int, owner: int) -> None:
    """Move everything left in `src` (tokens, Beasts, the Champion) into `dst`; `src` is lost."""
    st.tokens[dst] += st.tokens[src]
    st.tokens[src] = 0
    for kind, n in st.troops_in(src).items():
        st.lift_piece(src, owner, kind, n)
        st.place_held(dst, owner, kind, n)
    st.event("regroup", seat=owner, region=src, to=dst)
    st.set_region(src, None, 0)
    st.clear_pieces(src, "removed_when_emptied")


def _count_loss(st: State, seat: int) -> None:
    """A token discarded by a use is a loss the seat forced (the Forsaken buy one more: §8.5, AMB-31)."""
    for u in st.hook_units(seat, "losses_forced"):
        u.losses_forced(st, seat, 1)


class Intimidating(Unit):
    id = ID
    kind = "power"
    section = "§9.13"
    action_specs = (
        ActionSpec(
            TOKEN,
            "take 1 token from an opponent's region next to you to another region of its race",
            region=True,
            args=(Arg.REGION, Arg.CHOICE),
            choices=(DISCARD,),
        ),
        ActionSpec(
            TROOP,
            "take a Beast from an opponent's region next to you to another region of its race",
            region=True,
            args=(Arg.REGION, Arg.CHOICE),
            choices=(DISCARD,),
        ),
        ActionSpec(
            REMOVE,
            "remove a Wisp Wall or a Fort from an opponent's region next to you",
            region=True,
            args=(Arg.PIECE,),
        ),
        ActionSpec(REGROUP, "where the lone Tauren token left behind goes", region=True, step="prompt"),
    )
    prompt_specs = (
        PromptSpec(
            "regroup",
            "move the lone token left in this region to another of your regions",
            (REGROUP,),
            (region_field("the region it leaves"),),
            rule="§8.14",
        ),
    )
    event_specs = (
        EventSpec(
            "intimidate",
            "Intimidating took a token or a troop",
            (
                seat_field(),
                region_field(),
                Field("race", FieldType.UNIT, "whose token"),
                Field("piece", FieldType.TEXT, "'token' or the troop's kind"),
                Field("to", FieldType.REGION, "where it went (null: discarded)", nullable=True),
            ),
        ),
        EventSpec(
            "intimidate_remove",
            "Intimidating removed a Wisp Wall or a Fort",
            (seat_field(), region_field(), Field("piece", FieldType.PIECE, "the piece")),
        ),
        EventSpec(
            "intimidate_saved",
            "a loss exception saved the token Intimidating would discard",
            (seat_field("its owner"), region_field()),
        ),
        EventSpec(
            "regroup",
            "a lone token left behind moved to another region of its race",
            (
                seat_field("its owner"),
                region_field("the region it left"),
                region_field("where it went", "to"),
            ),
        ),
    )
    turn_fields = (Field("uses", FieldType.INT, "uses this turn", optional=True),)

    def _ready(self, st: State, seat: int) -> bool:
        s = st.seats[seat]
        return (
            st.in_conquest_step(seat)
            and s.power == self.id
            and _uses(st) < USES
            and bool(st.occupied_mask(s.active))
        )

    def _targets(self, st: State, seat: int) -> list[int]:
        """Regions a use may hit now: an opponent's (or Murloc) region next to the race, not
        immune, whose dues the player can pay."""
        own = st.occupied_mask(st.seats[seat].active)
        out = []
        for r in bits(st.game.map.adjacent_to(own) & ~own & ~st.immune):
            race = st.race[r]
            if race is None:
                continue
            owner = st.owner_seat(race)
            if race != st.game.natives and (owner is None or owner == seat):
                continue
            if conquest.can_affect(st, seat, [r], _effect(st, r)):
                out.append(r)
        return out

    def _destinations(self, st: State, region: int) -> list[int | str]:
        race = st.race[region]
        if race == st.game.natives:
            return [DISCARD]
        others = st.occupied_mask(race) & ~(1 << region)
        return list(bits(others)) or [DISCARD]

    def actions(self, st: State, seat: int) -> Iterable[Action]:
        if not self._ready(st, seat):
            return []
        out: list[Action] = []
        for r in self._targets(st, seat):
            walls = _walls(st, r)
            if walls:
                out.extend(Action(REMOVE, r, k) for k in walls)
                continue
            dests = self._destinations(st, r)
            if st.tokens[r]:
                out.extend(Action(TOKEN, r, d) for d in dests)
            if _troops(st, r):
                out.extend(Action(TROOP, r, d) for d in dests)
        return out

    def apply_action(self, st: State, action: Action) -> None:
        seat = st.acting_seat
        r = action.region
        assert r is not None
        st.turn_data(ID)["uses"] = _uses(st) + 1
        if action.kind == REMOVE:
            # A Wall or Fort: a power used on the region (the Aegis asks its 2 VC), but no token is
            # forced out, so it is no attack on a Pandaren race (no Harmony payment, AMB-52).
            conquest.pay_all(st, seat, conquest.payments(st, seat, r, Effect.REMOVAL))
            st.remove_piece(r, str(action.arg), 1)
            st.event("intimidate_remove", seat=seat, region=r, piece=action.arg)
            return
        conquest.hostile_effect(st, seat, r)
        race = st.race[r]
        assert race is not None
        owner = st.owner_seat(race)
        dest = action.arg
        piece = "token"
        if action.kind == TROOP:
            assert owner is not None
            kind = _troops(st, r)[0]
            piece = kind
            if isinstance(dest, int):
                st.lift_piece(r, owner, kind, 1)
                st.place_held(dest, owner, kind, 1)
            else:
                st.remove_piece(r, kind, 1)
                _count_loss(st, seat)
        elif isinstance(dest, int):
            st.tokens[r] -= 1
            st.tokens[dest] += 1
        elif lose_token(st, r, Cause.TAKEN):
            _count_loss(st, seat)
        else:
            st.event("intimidate_saved", seat=owner, region=r)
        st.event(
            "intimidate",
            seat=seat,
            region=r,
            race=race,
            piece=piece,
            to=dest if isinstance(dest, int) else None,
        )
        _settle(st, r, race, owner)

    # --- the Tauren player's answer: where the lone token goes (§8.14) ----------------------------
    def prompt_actions(self, st: State, prompt: dict[str, Any]) -> Iterable[Action]:
        src = st.game.map.index(prompt["region"])
        others = st.occupied_mask(st.race[src]) & ~(1 << src)
        return [Action(REGROUP, r) for r in bits(others)]

    def apply_prompt(self, st: State, prompt: dict[str, Any], action: Action) -> None:
        assert action.region is not None
        _regroup(st, st.game.map.index(prompt["region"]), action.region, prompt["seat"])
        st.pop_prompt()

    def explain(self, st: State, action: Action) -> Why | None:
        seat = st.acting_seat
        s = st.seats[seat]
        if action.kind not in (TOKEN, TROOP, REMOVE):
            return None
        if s.power != self.id:
            return self.why("§9.13", "only a race with the Intimidating power may intimidate", "not_yours")
        if not st.in_conquest_step(seat):
            return self.why(
                "§6.11", "Intimidating is only used in your conquest step, before conquests end", "when"
            )
        if _uses(st) >= USES:
            return self.why("§9.13", "Intimidating is used at most 3 times per turn", "used_up", most=USES)
        r = action.region
        if r is None:
            return self.why("§9.13", "Intimidating needs a target region", "no_target")
        name = st.game.map.regions[r].name
        if (st.immune >> r) & 1:
            return Why("§9.6", f"{name} is immune to all powers", "immune_powers", region=st.game.map.ref(r))
        if r not in self._targets(st, seat):
            if not conquest.can_affect(st, seat, [r], _effect(st, r)) and st.race[r] is not None:
                return Why(
                    "§6.7",
                    f"using Intimidating on {name} requires paying first",
                    "unpaid_any",
                    region=st.game.map.ref(r),
                )
            return self.why(
                "§9.13",
                f"{name} is not an opponent's region adjacent to your Active race",
                "not_target",
                region=st.game.map.ref(r),
            )
        walls = _walls(st, r)
        if action.kind == REMOVE:
            if not walls:
                return self.why(
                    "§9.13",
                    f"{name} holds no Wisp Wall or Fort to remove",
                    "no_wall",
                    region=st.game.map.ref(r),
                )
            return self.why(
                "§9.13",
                f"the piece to remove from {name} is one of: " + ", ".join(walls),
                "remove_which",
                region=st.game.map.ref(r),
                pieces=list(walls),
            )
        if walls:
            return self.why(
                "§9.13",
                f"the Wisp Wall or Fort in {name} must be removed first (one use each)",
                "wall_first",
                region=st.game.map.ref(r),
            )
        if action.kind == TROOP and not _troops(st, r):
            return self.why(
                "§9.13",
                f"{name} holds no troop that may be taken (the Champion cannot be moved)",
                "no_troop",
                region=st.game.map.ref(r),
            )
        if action.kind == TOKEN and not st.tokens[r]:
            return self.why(
                "§9.13",
                f"{name} holds no race token to take (the Champion cannot be moved)",
                "no_token",
                region=st.game.map.ref(r),
            )
        m = st.game.map
        refs = [d if isinstance(d, str) else m.ref(d) for d in self._destinations(st, r)]
        dests = ", ".join(refs)
        return self.why(
            "§9.13",
            f"what is taken from {name} goes to another region of the same race: {dests}",
            "where_to",
            region=m.ref(r),
            regions=[d for d in refs if ":" in d],
        )


UNIT = Intimidating()
