"""Targets, cost, payments and resolution of a conquest (§6.5-§6.10).

`judge` is the one answer to "may this region be conquered so, and how": the listing of legal
actions asks it for every target and option, and the error of a refused conquest asks it why.
`attempt` is the one sequence of a declared conquest (payments, then the tokens or the die) that
every way of conquering shares: the engine's own, the Gnomes', the Ashes of Al'ar's, the Champion's.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum

from smallworld.engine.model.actions import Action, at_regions
from smallworld.engine.model.derived import listed_attack
from smallworld.engine.model.hooks import ConquestInfo, Effect, Unit
from smallworld.engine.model.state import Ph, State
from smallworld.engine.rules.losses import remove_defenders


class Attack:
    """What a seat's conquests depend on, gathered once per listing (the hot path)."""

    __slots__ = (
        "active",
        "adjacent",
        "defended",
        "extra",
        "final",
        "first",
        "hooked",
        "minimum",
        "optional",
        "own",
        "power",
        "race",
        "reducers",
        "seat",
        "shield",
        "units",
        "waivers",
    )

    def __init__(self, st: State, seat: int) -> None:
        game = st.game
        s = st.seats[seat]
        self.seat = seat
        active = self.active = s.active  # what it was built for (`flow._declare`)
        self.power = s.power
        race = self.race = st.turn.race if st.turn.race is not None and seat == st.turn_seat else active
        own = self.own = st.race_mask.get(race, 0) if race else 0
        first = self.first = own == 0
        self.adjacent = game.map.adjacent_to(own)
        if race is not None and race != active:
            # An In-Decline race in its own phase: only its own unit speaks (its badge is gone).
            hooked = game.units_hooked([game.units[race]])
        else:
            hooked = st.seat_hooks(seat)  # one lookup for the hooks below (the hot path)
        self.hooked = hooked
        self.units: Sequence[Unit] = hooked.units
        # `defended_mask(st, seat)` when a listing worked it out (None: not known); only there may a
        # conquest's declaration ask dues.
        self.defended: int | None = None
        self.reducers = hooked.reducers
        self.waivers = hooked.waivers
        self.optional = hooked.optional
        self.minimum = hooked.minimum
        extra = 0
        for u in hooked.extra_targets:
            extra |= u.extra_targets(st, seat, first)
        self.extra = extra
        self.final = hooked.final
        # Shields (a declared peace) bind the Active race only; most editions have none at all.
        self.shield = shielded(st, seat) if race is not None and race == active and game.shields else 0


def dues_regions(st: State, att: Attack) -> int:
    """`defended_mask` of the attack's seat: the one its listing worked out, when it did."""
    return att.defended if att.defended is not None else defended_mask(st, att.seat)


def current_attack(st: State, seat: int) -> Attack:
    """The seat's Attack now, for the units' own listings (`Unit.actions`), which run just after the
    listing of conquests: its Attack when it still holds, else a new one. Callers must not change it
    (copy what they adjust, as the Gnomes' assault does with a new Attack)."""
    return listed_attack(st, seat, st.ply) or Attack(st, seat)


def shielded(st: State, seat: int) -> int:
    """Regions the seat's Active race may not target because another player's unit shields them
    (the `shielded` defender hook: a declared peace)."""
    game = st.game
    out = 0
    if not game.edition.hooked["shielded"]:
        return out  # the hot path: an edition without such a unit pays nothing
    for i in range(len(st.seats)):
        if i != seat:
            for u in st.hook_units(i, "shielded"):
                out |= u.shielded(st, i, seat)
    return out


def conquering_race(st: State, seat: int) -> str | None:
    """The race whose conquests the seat makes now: its Active race, or during an In-Decline race's
    own phase (`Turn.race`) that race."""
    if st.turn.race is not None and seat == st.turn_seat:
        return st.turn.race
    return st.seats[seat].active


def available(st: State, seat: int) -> int:
    """Tokens that can pay for a conquest: race tokens in hand, then paying troops (AMB-46)."""
    s = st.seats[seat]
    if not s.held or st.turn.race is not None:
        return s.hand
    kinds = st.game.pieces
    return s.hand + sum(n for k, n in s.held.items() if kinds[k].pays)


def options(st: State, att: Attack, region: int) -> list[str | None]:
    """The ways `region` may be attacked: plainly (None), or with a named option (Frostmourne, ...)."""
    out: list[str | None] = [None]
    for u in att.optional:
        out.extend(u.conquest_options(st, att.seat, region))
    return out


def targets(st: State, att: Attack) -> int:
    """Mask of the regions the seat may attack now (§6.5)."""
    game = st.game
    normal = game.first_mask if att.first else (att.adjacent | game.reach_mask)
    return ((normal & ~game.map.water) | att.extra) & ~att.own & ~st.immune & ~att.shield


def cost(st: State, att: Attack, region: int, option: str | None = None) -> int:
    """Tokens the attacker must place to take `region` (§6.6; the base: option `conquest_base`)."""
    game = st.game
    base: int = game.options.conquest_base
    c = base + st.tokens[region] + st.defense[region] + game.map.defence[region]
    if (game.travel_mask >> region) & 1 and not (att.adjacent >> region) & 1:
        for u in att.waivers:
            if u.waives_travel(st, att.seat, region, att.first):
                break
        else:
            c += game.travel_cost
    if att.reducers:
        red = 0
        for u in att.reducers:
            red += u.cost_reduction(st, att.seat, region, option)
        if red:
            c = max(c - red, 1)
    return c if c >= att.minimum else att.minimum


def cost_terms(st: State, att: Attack, region: int, option: str | None = None) -> list[dict[str, object]]:
    """The conquest cost of `region` term by term, each with the unit it comes from: what `cost`
    adds up (a test keeps the two equal)."""
    game = st.game
    terms: list[dict[str, object]] = [{"term": "base", "value": game.options.conquest_base, "unit": "core"}]
    if st.tokens[region]:
        terms.append(
            {"term": "defenders", "value": st.tokens[region], "unit": "core", "race": st.race[region]}
        )
    for kind, n in sorted((st.pieces[region] or {}).items()):
        piece = game.pieces.get(kind)
        if piece is not None and piece.defense:
            terms.append(
                {"term": "piece", "piece": kind, "value": piece.defense * n, "unit": game.piece_unit[kind]}
            )
    if game.map.defence[region]:
        terrain = game.map.regions[region].terrain
        terms.append(
            {"term": "terrain", "terrain": terrain, "value": game.map.defence[region], "unit": "core"}
        )
    if (game.travel_mask >> region) & 1 and not (att.adjacent >> region) & 1:
        waiver = next((u for u in att.waivers if u.waives_travel(st, att.seat, region, att.first)), None)
        if waiver is None:
            terms.append({"term": "travel", "value": game.travel_cost, "unit": "core"})
        else:
            terms.append({"term": "travel", "value": 0, "unit": waiver.id, "waived": True})
    total = sum(int(t["value"]) for t in terms)  # type: ignore[call-overload]
    red = 0
    for u in att.reducers:
        k = u.cost_reduction(st, att.seat, region, option)
        if k:
            red += k
            terms.append({"term": "reduction", "value": -k, "unit": u.id})
    if red:
        floor = max(total - red, 1)
        if floor != total - red:
            terms.append({"term": "minimum", "value": floor - (total - red), "unit": "core"})
        total = floor
    if total < att.minimum:
        terms.append(
            {
                "term": "minimum",
                "value": att.minimum - total,
                "unit": att.units[0].id if att.units else "core",
            }
        )
    return terms


Due = tuple[int | None, int, str]


def payments(st: State, attacker: int, region: int, effect: Effect = Effect.CONQUEST) -> list[Due]:
    """Coins due before a conquest of `region` may be declared (§6.7), or before another effect on
    it: each defender unit asks only for the effects it names in `dues_on` (Marshdweller's toll is
    for conquests only, the Aegis asks for every effect, placements included)."""
    owner = st.owner_seat(st.race[region])
    if owner is None or owner == attacker:
        return []
    return dues_of(st, attacker, region, owner, st.hook_units(owner, "defender_payments"), effect)


def dues_of(
    st: State, attacker: int, region: int, owner: int, units: Sequence[Unit], effect: Effect = Effect.CONQUEST
) -> list[Due]:
    """`payments` once the owner of `region` and its `defender_payments` units are known."""
    out: list[Due] = []
    for u in units:
        if effect in u.dues_on:
            out.extend(u.defender_payments(st, attacker, region, owner))
    return out


def defended_mask(st: State, attacker: int) -> int:
    """Regions whose owners have a unit that may ask for payments (§6.7): only there is it worth
    asking `payments` (the hot path of listing conquests)."""
    out = 0
    masks = st.race_mask
    for i, s in enumerate(st.seats):
        if i != attacker and (s.active or s.declined) and st.hook_units(i, "defender_payments"):
            if s.active:
                out |= masks.get(s.active, 0)
            for race in s.declined_races():
                out |= masks.get(race, 0)
    return out


def can_pay(st: State, attacker: int, region: int) -> bool:
    """Whether the attacker can pay what a conquest of `region` asks at declaration (§6.7)."""
    if st.race[region] is None:
        return True
    return sum(d[1] for d in payments(st, attacker, region)) <= st.seats[attacker].coins


def effect_dues(st: State, actor: int, regions: list[int], effect: Effect = Effect.HOSTILE) -> list[Due]:
    """The dues of one effect on several regions: a due asked twice by the same payee for the same
    reason is paid once (Harmony is paid once per turn, §6.7)."""
    out: list[Due] = []
    seen: set[tuple[int | None, str]] = set()
    for r in regions:
        for payee, amount, why in payments(st, actor, r, effect):
            if (payee, why) not in seen:
                seen.add((payee, why))
                out.append((payee, amount, why))
    return out


def can_affect(st: State, actor: int, regions: list[int], effect: Effect = Effect.HOSTILE) -> bool:
    """Whether `actor` can pay what an effect on these regions asks."""
    return sum(d[1] for d in effect_dues(st, actor, regions, effect)) <= st.seats[actor].coins


def hostile_effect(st: State, actor: int, region: int) -> None:
    """A hostile effect that is not a conquest is about to hit `region`: its dues are paid and the
    actor's units are told (§6.7; AMB-10, AMB-36)."""
    pay_dues(st, actor, region, Effect.HOSTILE)
    owner = st.owner_seat(st.race[region])
    if owner is None or owner == actor:
        return
    for u in st.hook_units(actor, "hostile_effect"):
        u.hostile_effect(st, actor, region)


def pay_placement(st: State, actor: int, region: int) -> None:
    """Pay what a placement in `region` asks (a bomb, a Military Objective, a stolen Artifact:
    the Aegis's 2 VC, AMB-19, AMB-36)."""
    pay_all(st, actor, payments(st, actor, region, Effect.PLACEMENT))


def pay_all(st: State, attacker: int, dues: list[Due]) -> None:
    for payee, amount, why in dues:
        paid = st.pay(attacker, payee, amount)
        st.event("payment", seat=attacker, payee=payee, coins=paid, why=why)


def pay_dues(st: State, attacker: int, region: int, effect: Effect = Effect.CONQUEST) -> None:
    """Pay what the defenders of `region` ask before an attack on it (§6.7) and tell their units, so
    once-per-turn dues (Harmony) are not asked again. Other hostile effects should call this too."""
    dues = payments(st, attacker, region, effect)
    if not dues:
        return
    pay_all(st, attacker, dues)
    owner = st.owner_seat(st.race[region])
    if owner is None:
        return
    for u in st.hook_units(owner, "dues_paid"):
        u.dues_paid(st, attacker, region, owner)


def declare(st: State, att: Attack, region: int, option: str | None) -> None:
    """A conquest is declared: payments are made (§6.7) and the attacker's units are told."""
    if st.race[region] is not None and (att.defended is None or (att.defended >> region) & 1):
        pay_dues(st, att.seat, region)
    for u in att.hooked.lists["declare_conquest"]:
        u.declare_conquest(st, att.seat, region, option)


# --- may it be conquered, and how -------------------------------------------------------------------
class Refusal(StrEnum):
    """Why a conquest of a region with an option is not possible now (`judge`, `why_not`)."""

    OVER = "over"  # conquests are over for the turn (§6.10)
    NO_TOKEN = "no_token"  # no token in hand (§6.4)
    OWN = "own"  # the conquering race holds it
    IMMUNE = "immune"
    WATER = "water"  # a Sea or Lake the race may not enter
    UNREACHABLE = "unreachable"  # neither adjacent nor reachable (§6.5)
    TOO_SHORT = "too_short"  # more tokens short than a final attempt allows (§6.10)
    UNPAID = "unpaid"  # the dues cannot be paid (§6.7)
    OPTION = "option"  # the named option is not available for it


def judge(
    st: State, att: Attack, region: int, option: str | None, hand: int, coins: int, defended: int
) -> str | Refusal:
    """For a target region and option: CONQUER when the tokens in hand pay for it, FINAL when only
    a final die attempt can take it, or the Refusal that forbids both."""
    c = cost(st, att, region, option)
    if c > hand and (not att.final or c - hand > st.game.options.max_final_shortfall or hand < att.minimum):
        return Refusal.TOO_SHORT
    if (defended >> region) & 1:
        dues = payments(st, att.seat, region)
        if dues and sum(d[1] for d in dues) > coins:
            return Refusal.UNPAID
    return "conquer" if c <= hand else "final"


# The options of a target when no unit names one (a list, as `options` returns: a compiled build
# iterates a list by index, any other sequence through an iterator). Never changed.
PLAIN: list[str | None] = [None]


def listing(st: State, att: Attack, hand: int, coins: int, defended: int) -> list[Action]:
    """The conquests and final attempts the seat may make now, target by target (region order),
    then option by option: what `judge` allows of every target, computed in one pass (the hot path
    of listing legal actions; a test keeps the two the same)."""
    new = tuple.__new__  # Action(kind, region, option) without the NamedTuple constructor's overhead
    out: list[Action] = []
    game = st.game
    plain_conquer, plain_final = at_regions("conquer", game.map.n), at_regions("final", game.map.n)
    tokens, defense, terrain = st.tokens, st.defense, game.map.defence
    travel = game.travel_mask & ~att.adjacent
    minimum = att.minimum
    base0: int = game.options.conquest_base
    short = game.options.max_final_shortfall if att.final and hand >= minimum else -1
    seat = att.seat
    optional, reducers, waivers = att.optional, att.reducers, att.waivers
    defenders: dict[int, Sequence[Unit]] = {}
    mask = targets(st, att)
    while mask:  # `bits(mask)` inline: region order, lowest first
        low = mask & -mask
        mask ^= low
        r = low.bit_length() - 1
        base = base0 + tokens[r] + defense[r] + terrain[r]
        if (travel >> r) & 1:
            for u in waivers:
                if u.waives_travel(st, seat, r, att.first):
                    break
            else:
                base += game.travel_cost
        refused: bool | None = None  # whether the dues are more than the coins: asked once per target
        # The usual case has no named option: only the plain conquest, without asking `options`.
        for opt in options(st, att, r) if optional else PLAIN:
            c = base
            if reducers:
                red = 0
                for u in reducers:
                    red += u.cost_reduction(st, seat, r, opt)
                if red:
                    c = c - red if c - red > 1 else 1
            if c < minimum:
                c = minimum
            if c > hand and c - hand > short:
                continue  # too short, even for a final attempt
            if (defended >> r) & 1:
                if refused is None:
                    refused = _unpaid(st, seat, r, coins, defenders)
                if refused:
                    continue
            if opt is None:
                out.append(plain_conquer[r] if c <= hand else plain_final[r])
            else:
                out.append(new(Action, ("conquer" if c <= hand else "final", r, opt)))
    return out


def _unpaid(st: State, seat: int, r: int, coins: int, defenders: dict[int, Sequence[Unit]]) -> bool:
    """`listing`: whether the dues of an attack on `r` are more than the coins (§6.7); `defenders`
    keeps the `defender_payments` units of each owner met, looked up once per listing."""
    owner = st.owner_seat(st.race[r])
    if owner is None or owner == seat:
        return False
    units = defenders.get(owner)
    if units is None:
        units = defenders[owner] = st.hook_units(owner, "defender_payments")
    dues = dues_of(st, seat, r, owner, units)
    return bool(dues) and sum(d[1] for d in dues) > coins


def target_refusal(st: State, att: Attack, region: int) -> Refusal | None:
    """Why `region` is not among the targets now (None when it is)."""
    if (targets(st, att) >> region) & 1:
        return None
    if (att.own >> region) & 1:
        return Refusal.OWN
    if (st.immune >> region) & 1 or (att.shield >> region) & 1:
        return Refusal.IMMUNE
    if (st.game.map.water >> region) & 1:
        return Refusal.WATER
    return Refusal.UNREACHABLE


def conquests_open(st: State, seat: int) -> bool:
    """Whether the seat may still start a conquest this turn: in its conquest step, before the final
    attempt or the end of conquests (§6.10, AMB-53)."""
    return st.phase == Ph.CONQUER and seat == st.turn_seat and not st.turn.done


# --- a declared conquest ------------------------------------------------------------------------
def attempt(st: State, att: Attack, region: int, option: str | None, cost_now: int, final: bool) -> bool:
    """Declare a conquest (payments, §6.7) and make it: with `cost_now` tokens from hand, or as the
    final attempt with the reinforcement die (§6.10). Returns whether the region was taken."""
    declare(st, att, region, option)
    if final:
        return die_attempt(st, att.seat, region, option, cost_now)
    place_conquest(st, att.seat, region, option, cost_now)
    return True


def free_conquest(
    st: State, att: Attack, region: int, tokens: int, troops: dict[str, int], event: str | None = None
) -> None:
    """A conquest that costs nothing: `tokens` race tokens and `troops` from hand go in, after the
    payments of its declaration (the Champion's, §9.5). `event` is recorded before it resolves."""
    seat = att.seat
    declare(st, att, region, None)
    s = st.seats[seat]
    s.hand -= tokens
    held = s.held
    for kind, n in troops.items():  # out of hand now; `resolve` places them
        held[kind] -= n
        if not held[kind]:
            del held[kind]
    if event is not None:
        st.event(event, seat=seat, region=region)
    resolve(st, seat, region, tokens, None, dict(troops))


def place_conquest(st: State, seat: int, region: int, option: str | None, cost_now: int) -> None:
    """A conquest the seat can pay for: `cost_now` tokens go in, race tokens first, then paying
    troops (AMB-46)."""
    s = st.seats[seat]
    tokens = min(s.hand, cost_now)
    s.hand -= tokens
    resolve(st, seat, region, tokens, option, take_paying(st, seat, cost_now - tokens))


def die_attempt(st: State, seat: int, region: int, option: str | None, cost_now: int) -> bool:
    """The final conquest attempt (§6.10): roll; on success every token and paying troop in hand
    goes in. Either way conquests are over for the turn. Returns whether it succeeded."""
    roll = st.roll_die()
    s = st.seats[seat]
    st.turn.die = roll
    have = available(st, seat)
    won = have + roll >= cost_now
    st.event("die", seat=seat, region=region, roll=roll, cost=cost_now, tokens=have, success=won)
    if won:
        placed = s.hand
        s.hand = 0
        resolve(st, seat, region, placed, option, take_paying(st, seat, have - placed))
    end_conquests(st)
    return won


def conquest_possible(st: State, seat: int) -> bool:
    """Whether a further conquest is possible this turn (AMB-53): a race token or a paying troop in
    hand, or a free conquest left (the Champion's, `Unit.free_conquest_left`)."""
    if st.turn.race is not None:  # an In-Decline race's own phase: its tokens in hand only
        return st.seats[seat].hand > 0
    if available(st, seat) > 0:
        return True
    return any(u.free_conquest_left(st, seat) for u in st.hook_units(seat, "free_conquest_left"))


def end_conquests(st: State) -> None:
    """Conquests are over for this turn (§6.10, §6.11)."""
    st.turn.done = True
    st.phase = Ph.AFTER_CONQUESTS


def take_paying(st: State, seat: int, n: int) -> dict[str, int]:
    """Take `n` paying troops (Beasts) out of hand for a conquest, once race tokens ran out."""
    out: dict[str, int] = {}
    if n <= 0 or st.turn.race is not None:
        return out
    held = st.seats[seat].held
    for kind in sorted(held):
        if n and st.game.pieces[kind].pays:
            k = min(n, held[kind])
            held[kind] -= k
            if not held[kind]:
                del held[kind]
            out[kind] = k
            n -= k
    return out


def resolve(
    st: State, seat: int, region: int, placed: int, option: str | None, troops: dict[str, int] | None = None
) -> ConquestInfo:
    """A successful conquest: defenders out, attackers in, then per-conquest effects (§6.8).
    `troops` are pieces already taken out of the attacker's hand (Beasts) that go in too."""
    race = conquering_race(st, seat)
    assert race is not None
    info = remove_defenders(st, region, seat, "conquest")
    info.option = option
    st.set_region(region, race, placed)
    if troops:
        held = st.seats[seat].held
        for kind, k in troops.items():
            held[kind] = held.get(kind, 0) + k
            st.place_held(region, seat, kind, k)
    # The troops that went in are named only when there are some (the Champion, Beasts): a free
    # conquest with the Champion alone places 0 race tokens, and the event says what went in.
    went = {kind: k for kind, k in sorted(troops.items()) if k} if troops else None
    more = {"troops": went} if went else {}
    st.event(
        "conquest",
        seat=seat,
        region=region,
        race=race,
        defender=info.defender_race,
        defender_seat=info.defender_seat,
        tokens=placed,
        lost=info.lost,
        **more,
    )
    if region in st.markers:
        st.reveal(region, seat)
    game = st.game
    waiting = len(st.pending)
    if st.turn.race:
        own = game.units[race]
        units: list[Unit] | tuple[Unit, ...] = [own] if game.overrides(own, "on_enter") else []
    else:
        units = st.hook_units(seat, "on_enter")
    for u in units:  # step 3: control of what lies there, with its decisions (Battleground)
        u.on_enter(st, seat, info)
    if len(st.pending) > waiting:
        # Steps 4-6 wait for the answer (`flow.advance` resumes them): the Military Objective of a
        # Battleground region is judged with the faction just chosen.
        st.turn.resume = info.to_json(st.game.map.ref)
        return info
    finish(st, seat, info)
    return info


def finish(st: State, seat: int, info: ConquestInfo) -> None:
    """§6.8 steps 4-6: Military Objectives, per-conquest effects, the records of the conquest."""
    turn = st.turn
    turn.conquests += 1
    game = st.game
    if turn.race is not None:
        return  # an In-Decline race's own phase: no power, no bonus, no objective of the Active race
    d = info.defender_race
    own_ok = not info.own_declined or game.options.own_decline_bonus
    if d is not None and d != game.natives and own_ok:
        turn.took[d] = turn.took.get(d, 0) + 1
    for u in st.hook_units(seat, "on_conquest"):
        u.on_conquest(st, seat, info)
    for i in range(len(st.seats)):
        for u in st.hook_units(i, "any_conquest"):
            u.any_conquest(st, seat, info)
