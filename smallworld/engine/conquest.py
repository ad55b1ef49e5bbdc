"""Targets, cost, payments and resolution of a conquest (§6.5-§6.10)."""

from __future__ import annotations

from dataclasses import asdict

from smallworld.engine.hooks import ConquestInfo, Unit
from smallworld.engine.setup import return_banner
from smallworld.engine.state import State


class Attack:
    """What a seat's conquests depend on, gathered once per listing (the hot path)."""

    __slots__ = (
        "adjacent",
        "extra",
        "first",
        "minimum",
        "optional",
        "own",
        "race",
        "reducers",
        "seat",
        "units",
        "waivers",
    )

    def __init__(self, st: State, seat: int) -> None:
        game = st.game
        s = st.seats[seat]
        self.seat = seat
        self.race = s.active
        self.own = st.race_mask.get(s.active, 0) if s.active else 0
        self.first = self.own == 0
        self.adjacent = game.map.adjacent_to(self.own)
        self.units: list[Unit] = st.units(seat)
        self.reducers = [u for u in self.units if game.overrides(u, "cost_reduction")]
        self.waivers = [u for u in self.units if game.overrides(u, "waives_travel")]
        self.optional = [u for u in self.units if game.overrides(u, "conquest_options")]
        self.minimum = max((u.min_per_region for u in self.units), default=1)
        extra = 0
        for u in self.units:
            if game.overrides(u, "extra_targets"):
                extra |= u.extra_targets(st, seat, self.first)
        self.extra = extra


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
    return ((normal & ~game.map.water) | att.extra) & ~att.own & ~st.immune


def cost(st: State, att: Attack, region: int, option: str | None = None) -> int:
    """Tokens the attacker must place to take `region` (§6.6)."""
    game = st.game
    c = 2 + st.tokens[region] + st.defense[region] + game.map.defence[region]
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


Due = tuple[int | None, int, str]


def payments(st: State, attacker: int, region: int, conquest: bool = True) -> list[Due]:
    """Coins due before the conquest of `region` may be declared (§6.7), or before another hostile
    effect on it (`conquest=False`: no toll that only applies to conquests, like Marshdweller's)."""
    owner = st.owner_seat(st.race[region])
    if owner is None or owner == attacker:
        return []
    out: list[Due] = []
    game = st.game
    for u in st.units(owner):
        if game.overrides(u, "defender_payments") and (conquest or not u.conquest_only_dues):
            out.extend(u.defender_payments(st, attacker, region, owner))
    return out


def defended_mask(st: State, attacker: int) -> int:
    """Regions whose owners have a unit that may ask for payments (§6.7): only there is it worth
    asking `payments` (the hot path of listing conquests)."""
    game = st.game
    out = 0
    for i, s in enumerate(st.seats):
        if i != attacker and any(game.overrides(u, "defender_payments") for u in st.units(i)):
            out |= st.occupied_mask(s.active) | st.occupied_mask(s.declined)
    return out


def can_pay(st: State, attacker: int, region: int) -> bool:
    """Whether the attacker can pay what a conquest of `region` asks at declaration (§6.7)."""
    if st.race[region] is None:
        return True
    return sum(d[1] for d in payments(st, attacker, region)) <= st.seats[attacker].coins


def effect_dues(st: State, actor: int, regions: list[int]) -> list[Due]:
    """The dues of one hostile effect on several regions: a due asked twice by the same payee for
    the same reason is paid once (Harmony is paid once per turn, §6.7)."""
    out: list[Due] = []
    seen: set[tuple[int | None, str]] = set()
    for r in regions:
        for payee, amount, why in payments(st, actor, r, conquest=False):
            if (payee, why) not in seen:
                seen.add((payee, why))
                out.append((payee, amount, why))
    return out


def can_affect(st: State, actor: int, regions: list[int]) -> bool:
    """Whether `actor` can pay what a hostile effect on these regions asks."""
    return sum(d[1] for d in effect_dues(st, actor, regions)) <= st.seats[actor].coins


def hostile_effect(st: State, actor: int, region: int) -> None:
    """A hostile effect that is not a conquest is about to hit `region`: its dues are paid and the
    actor's units are told (§6.7; AMB-10, AMB-36)."""
    pay_dues(st, actor, region, conquest=False)
    owner = st.owner_seat(st.race[region])
    if owner is None or owner == actor:
        return
    game = st.game
    for u in st.units(actor):
        if game.overrides(u, "hostile_effect"):
            u.hostile_effect(st, actor, region)


def pay_all(st: State, attacker: int, dues: list[tuple[int | None, int, str]]) -> None:
    for payee, amount, why in dues:
        paid = st.pay(attacker, payee, amount)
        st.event("payment", seat=attacker, payee=payee, coins=paid, why=why)


def pay_dues(st: State, attacker: int, region: int, conquest: bool = True) -> None:
    """Pay what the defenders of `region` ask before an attack on it (§6.7) and tell their units, so
    once-per-turn dues (Harmony) are not asked again. Other hostile effects should call this too."""
    dues = payments(st, attacker, region, conquest)
    if not dues:
        return
    pay_all(st, attacker, dues)
    owner = st.owner_seat(st.race[region])
    if owner is None:
        return
    game = st.game
    for u in st.units(owner):
        if game.overrides(u, "dues_paid"):
            u.dues_paid(st, attacker, region, owner)


def declare(st: State, att: Attack, region: int, option: str | None) -> None:
    """A conquest is declared: payments are made (§6.7) and the attacker's units are told."""
    if st.race[region] is not None:
        pay_dues(st, att.seat, region)
    game = st.game
    for u in att.units:
        if game.overrides(u, "declare_conquest"):
            u.declare_conquest(st, att.seat, region, option)


def occupying_pieces(st: State, region: int) -> int:
    """Pieces that stand for race tokens in `region` (Beasts, the Champion: §4, AMB-32)."""
    p = st.pieces[region]
    if not p:
        return 0
    kinds = st.game.pieces
    return sum(c for k, c in p.items() if k in kinds and kinds[k].occupies)


def remove_defenders(st: State, region: int, attacker: int | None, cause: str) -> ConquestInfo:
    """Empty `region` of its defenders with their losses (§6.9); returns what was there."""
    race = st.race[region]
    n = st.tokens[region]
    owner = st.owner_seat(race)
    held = occupying_pieces(st, region)
    info = ConquestInfo(
        region=region,
        attacker=attacker if attacker is not None else -1,
        defender_race=race,
        defender_seat=owner,
        defender_tokens=n + held,
        was_nonempty=race is not None or held > 0,
        own_declined=owner is not None and owner == attacker,
    )
    if race is None:
        st.clear_pieces(region, "removed_on_conquest")
        return info
    if race == st.game.natives:
        st.set_region(region, None, 0)  # natives never come back (§6.9)
        info.lost = n
    elif owner is not None and st.seats[owner].active == race:
        seat = st.seats[owner]
        for u in sorted(st.units(owner), key=lambda u: u.loss_priority):
            if st.game.overrides(u, "prevent_loss") and u.prevent_loss(st, owner, region, cause):
                info.prevented = u.id
                break
        # Beasts and the Champion are withdrawn with the tokens (§9.3, §9.5) only now, so the loss
        # exceptions above saw which of them stood in this region (the hand may hold others).
        if held:
            for kind, k in st.troops_in(region).items():
                st.lift_piece(region, owner, kind, k)
        st.set_region(region, None, 0)
        seat.hand += n
        if info.prevented is None and seat.hand > 0:
            seat.hand -= 1
            st.tray[race] += 1
            info.lost = 1
        if owner not in st.turn.withdrawn:
            st.turn.withdrawn.append(owner)
    else:
        st.set_region(region, None, 0)
        st.tray[race] += n
        info.lost = n
        if owner is not None and not st.race_mask.get(race):
            # The last token of an In-Decline race left the map (§6.17).
            st.seats[owner].declined = None
            st.seats[owner].declined_power = None
            return_banner(st, race)
    st.clear_pieces(region, "removed_on_conquest")
    return info


def resolve(
    st: State, seat: int, region: int, placed: int, option: str | None, troops: dict[str, int] | None = None
) -> ConquestInfo:
    """A successful conquest: defenders out, attackers in, then per-conquest effects (§6.8).
    `troops` are pieces already taken out of the attacker's hand (Beasts) that go in too."""
    race = st.seats[seat].active
    assert race is not None
    info = remove_defenders(st, region, seat, "conquest")
    info.option = option
    st.set_region(region, race, placed)
    if troops:
        held = st.seats[seat].held
        for kind, k in troops.items():
            held[kind] = held.get(kind, 0) + k
            st.place_held(region, seat, kind, k)
    if region in st.markers:
        st.reveal(region, seat)
    game = st.game
    waiting = len(st.pending)
    for u in st.units(seat):  # step 3: control of what lies there, with its decisions (Battleground)
        if game.overrides(u, "on_enter"):
            u.on_enter(st, seat, info)
    if len(st.pending) > waiting:
        # Steps 4-6 wait for the answer (`flow.advance` resumes them): the Military Objective of a
        # Battleground region is judged with the faction just chosen.
        st.turn.data[RESUME] = asdict(info)
        return info
    finish(st, seat, info)
    return info


RESUME = "resume_conquest"  # turn data: a conquest whose steps 4-6 wait for a prompt's answer


def finish(st: State, seat: int, info: ConquestInfo) -> None:
    """§6.8 steps 4-6: Military Objectives, per-conquest effects, the records of the conquest."""
    turn = st.turn
    turn.conquests += 1
    d = info.defender_race
    own_ok = not info.own_declined or st.game.options.own_decline_bonus
    if d is not None and d != st.game.natives and own_ok:
        turn.took[d] = turn.took.get(d, 0) + 1
    game = st.game
    for u in st.units(seat):
        if game.overrides(u, "on_conquest"):
            u.on_conquest(st, seat, info)
    for _owner, u in st.all_units():
        if game.overrides(u, "any_conquest"):
            u.any_conquest(st, seat, info)
