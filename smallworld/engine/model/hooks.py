"""The hooks through which races, powers, artifacts and places change the rules.

A content unit subclasses `Unit` and overrides only the hooks it needs; every hook here is a
no-op. The engine asks `overrides(unit, name)` once per unit, so a hook nobody overrides costs
nothing on the hot path. Units hold no game state: everything they track lives in the State
(`seat.ext`, `state.turn.data`, region pieces), so a state stays plain JSON.

Who is asked:
- *own* hooks are asked of the units of the seat that acts (its Active race and power; its
  In-Decline race and power too when the unit sets `works_in_decline`);
- *defender* hooks (`defender_payments`, `dues_paid`, `prevent_loss`) are asked of the units of
  the seat whose region is targeted;
- *global* hooks (`any_conquest`, `turn_start`) are asked of every unit in play.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any, ClassVar

from smallworld.engine.model.actions import Action
from smallworld.engine.model.errors import Why
from smallworld.engine.model.options import OptionSpec
from smallworld.engine.model.protocol import ActionSpec, Arg, EventSpec, Field, FieldType, PromptSpec

try:  # read by the optional compiled build (tools/build-compiled) when it compiles this module
    from mypy_extensions import mypyc_attr
except ImportError:  # interpreted without the development tools, where the decorator changes nothing

    def mypyc_attr(*_args: Any, **_attrs: Any) -> Any:  # type: ignore[misc]
        return lambda cls: cls


if TYPE_CHECKING:
    from smallworld.engine.model.state import State


class Cause(StrEnum):
    """What makes a region lose tokens (asked of the loss exceptions, `prevent_loss`)."""

    CONQUEST = "conquest"  # the region is conquered
    EMPTIED = "emptied"  # an effect empties the region as a conquest by nobody would (a bomb)
    TAKEN = "taken"  # an effect takes one token out of the region (Intimidating)


class Effect(StrEnum):
    """What a player does to another player's region, for the dues its defenders ask (§6.7)."""

    CONQUEST = "conquest"  # a conquest or a final attempt, of any kind
    HOSTILE = "hostile"  # an effect that takes or moves tokens: a bomb going off, Intimidating, a Portal
    PLACEMENT = "placement"  # putting something there: a bomb, a Military Objective, a stolen Artifact
    # taking away a piece that is no token (Intimidating removing a Wisp Wall or a Fort): a power used
    # on the region, but no token is forced out, so no attack for Harmony (AMB-52)
    REMOVAL = "removal"


EVERY_EFFECT = frozenset(Effect)
ALL_TOKENS = 1 << 30  # `decline_keep`: every token stays when the race declines


@dataclass(frozen=True)
class Piece:
    """A kind of physical piece that sits in regions (Wisp Wall, Fort, Watch Tower, Beast, ...)."""

    id: str
    supply: int  # how many the box holds
    defense: int = 0  # added to the conquest cost of its region (§6.6)
    immune: bool = False  # its region cannot be targeted by other players (§9.6)
    removed_on_conquest: bool = False  # discarded when its region is conquered (§6.8)
    removed_when_emptied: bool = False  # discarded when its region has no race token left (§6.2)
    occupies: bool = False  # makes its region non-empty and occupied (Beasts, Champion: §4)
    troop: bool = False  # moves like a race token: readied, redeployed, withdrawn (Beasts, Champion)
    pays: bool = False  # a troop that can pay conquest costs like a race token (Beasts, AMB-46)
    displaceable: bool = False  # a troop that another player's power may move or discard (Beasts, AMB-15)
    tag_fields: tuple[Field, ...] = ()  # each piece carries a tag with these fields (a bomb: its kind)


# `__init__` written out: the one `dataclass` makes is interpreted code even in a compiled build
# (tools/build-compiled), and one is made for every conquest.
@dataclass(init=False)
class ConquestInfo:
    """What a conquest met, judged before the defenders were removed (§6.8)."""

    region: int
    attacker: int
    defender_race: str | None  # race that held the region, "murlocs", or None if empty
    defender_seat: int | None  # seat owning that race (None for Murlocs and empty regions)
    defender_tokens: int  # race tokens (and occupying pieces) that were there
    was_nonempty: bool
    own_declined: bool  # the attacker took a region of their own In-Decline race
    option: str | None
    lost: int  # tokens of the defending race discarded by this conquest (§6.9)
    prevented: str | None  # id of the unit that took the loss instead (Chapel, Beast, ...)

    def __init__(
        self,
        region: int,
        attacker: int,
        defender_race: str | None,
        defender_seat: int | None,
        defender_tokens: int,
        was_nonempty: bool,
        own_declined: bool,
        option: str | None = None,
        lost: int = 0,
        prevented: str | None = None,
    ) -> None:
        self.region = region
        self.attacker = attacker
        self.defender_race = defender_race
        self.defender_seat = defender_seat
        self.defender_tokens = defender_tokens
        self.was_nonempty = was_nonempty
        self.own_declined = own_declined
        self.option = option
        self.lost = lost
        self.prevented = prevented

    def to_json(self, ref: Any = None) -> dict[str, Any]:
        """Its JSON form; `ref` (the map's `ref`) writes the region as "SIDE:ID"."""
        # Field by field, not `vars(self)`: a compiled build (tools/build-compiled) gives the
        # instance no `__dict__`.
        out: dict[str, Any] = {
            "region": self.region if ref is None else ref(self.region),
            "attacker": self.attacker,
            "defender_race": self.defender_race,
            "defender_seat": self.defender_seat,
            "defender_tokens": self.defender_tokens,
            "was_nonempty": self.was_nonempty,
            "own_declined": self.own_declined,
            "option": self.option,
            "lost": self.lost,
            "prevented": self.prevented,
        }
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any], index: Any = None) -> ConquestInfo:
        """From its JSON form; `index` (the map's `index`) reads a "SIDE:ID" region."""
        values = dict(data)
        if index is not None:
            values["region"] = index(values["region"])
        return cls(**values)


# The fields of a ConquestInfo in JSON (a conquest waiting for a prompt: `Turn.resume`).
CONQUEST_FIELDS = (
    Field("region", FieldType.REGION, "the region conquered"),
    Field("attacker", FieldType.SEAT, "the conqueror's seat"),
    Field("defender_race", FieldType.UNIT, "the race that held it", nullable=True),
    Field("defender_seat", FieldType.SEAT, "its seat", nullable=True),
    Field("defender_tokens", FieldType.INT, "race tokens and occupying pieces that were there"),
    Field("was_nonempty", FieldType.BOOL, "whether the region was non-empty (§4)"),
    Field("own_declined", FieldType.BOOL, "whether it held the attacker's own In-Decline race"),
    Field("option", FieldType.TEXT, "the conquest's named option", nullable=True),
    Field("lost", FieldType.INT, "defending tokens discarded"),
    Field("prevented", FieldType.UNIT, "the unit that took the loss instead", nullable=True),
)


@mypyc_attr(allow_interpreted_subclasses=True)
class Unit:
    """A race, special power, artifact or legendary place. Override hooks as needed."""

    id: ClassVar[str] = ""
    kind: ClassVar[str] = ""  # "race", "power", "relic"
    section: ClassVar[str] = ""  # rules section, e.g. "§8.15"
    dues_on: ClassVar[frozenset[Effect]] = EVERY_EFFECT  # the effects its defender_payments apply to
    works_in_decline: ClassVar[bool] = False  # own hooks also apply to the In-Decline race/power
    everywhere: ClassVar[bool] = False  # relics: own hooks apply to every seat, owner or not (Well)
    min_per_region: ClassVar[int] = 1  # tokens every region must keep (Tauren: 2, §8.14)
    decline_keep: ClassVar[int] = 1  # tokens turned per region on decline (§6.16 step 3)
    loss_priority: ClassVar[int] = 100  # order of loss exceptions, lower first (§6.9, AMB-12)
    turn_end_step: ClassVar[int] = 0  # its step in the end-of-turn order (§6.13), lower first
    # A power still in effect In Decline (Garrisoned's Forts, Marshdweller's toll): its badge stays
    # beside the In-Decline banner and is discarded only when that race leaves play (AMB-65).
    badge_kept_in_decline: ClassVar[bool] = False
    # Its badge stays beside the In-Decline banner whatever `declined_badge` says: its own rules
    # say so (classic Spirit, classic-rules.md §5.4 step 2).
    badge_always_kept: ClassVar[bool] = False
    # Its `prevent_loss` discards a piece of its own in the token's place: still a loss (Beasts, AMB-31).
    loss_is_piece: ClassVar[bool] = False
    holds_water: ClassVar[bool] = False  # its tokens may stand in a Sea or Lake (Naga, §8.10)
    option_stacks: ClassVar[bool] = False  # its conquest option may join another unit's on one conquest
    pieces: ClassVar[tuple[Piece, ...]] = ()  # pieces this unit brings into the game
    options: ClassVar[tuple[OptionSpec, ...]] = ()  # rule options that change this unit's rule
    # Seams of other editions (all off in Small World of Warcraft):
    conquers_in_decline: ClassVar[bool] = False  # In Decline, the race opens its owner's turn with
    # a conquest phase of its own (classic Ghouls)
    declines_after_scoring: ClassVar[bool] = False  # may go into decline after a normal turn's scoring
    decline_slot: ClassVar[str | None] = None  # In Decline, the race takes a slot of its own: it stays
    # beside the player's other In-Decline race instead of replacing it (classic Spirit)
    final_attempt: ClassVar[bool] = True  # False: the seat makes no target-first final die attempt
    # (its unit uses the die its own way: classic Berserk)
    # The protocol this unit adds (engine/model/protocol.py): its action kinds (prompt answers included),
    # the events it records and the prompts it raises.
    action_specs: ClassVar[tuple[ActionSpec, ...]] = ()
    # What the unit keeps in its namespace of the seat data (`State.seat_data`) and of the turn
    # data (`State.turn_data`): positions are checked against these.
    seat_fields: ClassVar[tuple[Field, ...]] = ()
    turn_fields: ClassVar[tuple[Field, ...]] = ()
    event_specs: ClassVar[tuple[EventSpec, ...]] = ()
    prompt_specs: ClassVar[tuple[PromptSpec, ...]] = ()
    # Derived from `action_specs`: kinds handled by `apply_action` (not prompt answers), and kinds
    # whose integer argument is a second region.
    action_kinds: ClassVar[frozenset[str]] = frozenset()
    region_args: ClassVar[frozenset[str]] = frozenset()

    def __init_subclass__(cls) -> None:
        # No `super().__init_subclass__()`: `object`'s does nothing, and compiled by mypyc
        # (tools/build-compiled) that call fails with "super(type, obj): obj must be an instance".
        if "action_specs" in vars(cls):
            cls.action_kinds = frozenset(s.kind for s in cls.action_specs if s.step != "prompt")
            cls.region_args = frozenset(s.kind for s in cls.action_specs if Arg.REGION in s.args)

    # --- picking and turn flow -------------------------------------------------------------
    def on_pick(self, st: State, seat: int) -> None:
        """Just after the combo was picked (§6.3 step 5)."""

    def turn_start(self, st: State, seat: int, owner: int) -> None:
        """Global: start of `seat`'s turn, before the decline choice (§6.1 steps 2-3)."""

    def expand_start(self, st: State, seat: int) -> None:
        """Own: the seat expands this turn, or has just picked (§6.1 step 5)."""

    def after_conquests(self, st: State, seat: int) -> None:
        """Own: conquests are over, before redeployment (§6.11)."""

    def redeploy_start(self, st: State, seat: int) -> None:
        """Own: at the start of the active player's redeployment (§6.12)."""

    def turn_end(self, st: State, seat: int) -> None:
        """Own: end-of-turn placements, before scoring (§6.13)."""

    def on_reveal(self, st: State, seat: int, region: int) -> None:
        """Relic: its face-down marker in `region` was just revealed by `seat`'s race (§10.1)."""

    def on_decline(self, st: State, seat: int) -> None:
        """Own: the race has just gone into decline (§6.16 step 4)."""

    # --- conquest --------------------------------------------------------------------------
    def extra_targets(self, st: State, seat: int, first: bool) -> int:
        """Own: mask of regions this unit makes targetable besides the normal ones (§6.5 c)."""
        return 0

    def waives_travel(self, st: State, seat: int, region: int, first: bool) -> bool:
        """Own: True to waive the +1 travel cost on this Entry region (§6.5)."""
        return False

    def cost_reduction(self, st: State, seat: int, region: int, option: str | None) -> int:
        """Own: tokens taken off the conquest cost (§6.6); any reduction makes the minimum 1."""
        return 0

    def conquest_options(self, st: State, seat: int, region: int) -> Iterable[str]:
        """Own: named once-per-turn options for a conquest of `region` (Frostmourne, ...)."""
        return ()

    def declare_conquest(self, st: State, seat: int, region: int, option: str | None) -> None:
        """Own: a conquest or a final attempt on `region` is declared (before the die, §6.10)."""

    def losses_forced(self, st: State, seat: int, count: int) -> None:
        """Own: an effect of the seat other than a conquest (Intimidating) has just discarded `count`
        tokens of another race (§6.9; counted by the Forsaken, AMB-31)."""

    def hostile_effect(self, st: State, seat: int, region: int) -> None:
        """Own: an effect other than a conquest hits another player's `region` (bomb, Intimidating,
        Portal swap): an attack for Harmony (AMB-10), not a conquest."""

    def defender_payments(
        self, st: State, attacker: int, region: int, owner: int
    ) -> Iterable[tuple[int | None, int, str]]:
        """Defender: coins the attacker must pay before conquering `region` (§6.7): (payee, VC, the
        id of the unit whose rule asks for them)."""
        return ()

    def shielded(self, st: State, owner: int, attacker: int) -> int:
        """Defender: mask of the owner's regions that `attacker`'s Active race may not target now
        (a declared peace: classic Diplomat). In-Decline races conquering in their own phase are
        not bound by it."""
        return 0

    def dues_paid(self, st: State, attacker: int, region: int, owner: int) -> None:
        """Defender: the attacker has just paid the dues of an attack on `region` (§6.7; Harmony)."""

    def on_enter(self, st: State, seat: int, info: ConquestInfo) -> None:
        """Own: §6.8 step 3, the race has just entered a conquered region (defenders gone, marker
        revealed). A prompt raised here is answered before steps 4-6 are applied."""

    def on_conquest(self, st: State, seat: int, info: ConquestInfo) -> None:
        """Own: per-conquest effects of the attacker (§6.8 step 5)."""

    def any_conquest(self, st: State, seat: int, info: ConquestInfo) -> None:
        """Global: after any successful conquest (§6.8 step 4: Military Objectives)."""

    def prevent_loss(self, st: State, owner: int, region: int, cause: str) -> bool:
        """Defender: return True to take the loss instead of one race token (§6.9). `cause` is
        a `Cause` (conquest, emptied, taken); when the region is conquered or emptied it still holds its troop
        pieces (Beasts, the Champion) while asked, and a unit may discard one (`remove_piece`)."""
        return False

    def loss_spared(self, st: State, owner: int, region: int, cause: str, by: str) -> None:
        """Defender: an exception asked before this unit (`by`, §6.9 order) already spared the race
        token of `region`. What follows any conquest or explosion of the region still happens here:
        the Champion's capture and ransom (AMB-61)."""

    # --- scoring -----------------------------------------------------------------------------
    def score(self, st: State, seat: int) -> int:
        """Own: end-of-turn bonus of the Active race or power (§6.14)."""
        return 0

    def score_declined(self, st: State, seat: int) -> int:
        """Own (In-Decline race): bonus that works In Decline (§6.14)."""
        return 0

    def faction(self, st: State, seat: int, base: str | None) -> str | None:
        """Own: the faction the Active race fights for this turn (§6.15; Battleground)."""
        return base

    # --- decisions of its own -----------------------------------------------------------------
    def actions(self, st: State, seat: int) -> Iterable[Action]:
        """Own: extra legal actions in the current step."""
        return ()

    def after_action(self, st: State, seat: int) -> None:
        """Own: one of the seat's unit actions of the conquest step was just applied (a Portal swap,
        a steal, ...). What the seat's race holds now may ask a decision at once: the Battleground
        reached by a swap in its own turn (AMB-77)."""

    def free_conquest_left(self, st: State, seat: int) -> bool:
        """Own: whether the seat may still make a conquest that needs no token in hand this turn
        (the Champion's): while one is left, conquests are not over (AMB-53)."""
        return False

    def apply_action(self, st: State, action: Action) -> None:
        """Apply an action of one of `action_kinds` (already known to be legal)."""
        raise NotImplementedError(action.kind)

    def explain(self, st: State, action: Action) -> Why | None:
        """Why an action of one of `action_kinds` is not legal now: (rule section, message), as a
        `Why` naming its reason (`why`)."""
        return None

    def why(self, rule: str, message: str, key: str, **params: Any) -> Why:
        """A refusal of this unit: the reason `<id>.<key>`, whose words are `why.<key>` in the unit's
        catalogue (`smallworld.words`), with `params` as plain JSON values."""
        return Why(rule, message, f"{self.id}.{key}", **params)

    def prompt_actions(self, st: State, prompt: dict[str, Any]) -> Iterable[Action]:
        """The answers to a prompt this unit raised with `State.push_prompt`."""
        return ()

    def apply_prompt(self, st: State, prompt: dict[str, Any], action: Action) -> None:
        """Apply an answer (already known to be legal); call `st.pop_prompt()` when it is settled."""
        raise NotImplementedError(action.kind)

    def hide(self, view: dict[str, Any], seat: int | None) -> None:
        """Remove what `seat` may not know from a view (None: spectator), beyond the fields the
        unit declares secret (the engine redacts those itself). Replace a key of the view; never
        change a value in place: the seats' views of a ply share their values (`PublicView`)."""

    def resample(self, st: State, rng: Any) -> None:
        """Redraw, in a state built from a view (a determinisation), the secrets this unit keeps with
        values drawn from `rng` (a `random.Random`) that the public facts allow: how search bots
        sample the states a seat cannot tell apart (`bots/determinize.py`). The state's secret
        fields hold placeholders (each field's first choice) until then."""


def overrides(unit: Unit, name: str) -> bool:
    return getattr(type(unit), name) is not getattr(Unit, name)


# Every hook a unit may override (the methods of `Unit`): editions build their tables from this.
HOOK_NAMES: tuple[str, ...] = tuple(
    name for name, value in vars(Unit).items() if callable(value) and not name.startswith("_")
)
