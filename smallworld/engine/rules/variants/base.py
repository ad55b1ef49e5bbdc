"""How combos are offered and picked, where returned banners go, and who wins: the parts of the
rules that differ between the standard game (§3.2, §6.3, §6.17, §7) and the team variant (§11)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from smallworld.engine.model.actions import Action
from smallworld.engine.model.errors import Why

if TYPE_CHECKING:
    from smallworld.engine.model.state import State


class Variant:
    id = ""

    def validate(self, players: int) -> None:
        """Raise PositionError if the variant cannot be played with this many players."""

    def setup_offer(self, st: State, banners: list[str], badges: list[str]) -> None:
        """Lay out the shuffled banners and badges (§3.2 step 4)."""
        raise NotImplementedError

    def first_seat(self, st: State) -> int | None:
        """The seat that plays first, or None to draw it from the seed (§3.2 step 9)."""
        return None

    def pick_actions(self, st: State, seat: int) -> list[Action]:
        raise NotImplementedError

    def take_combo(self, st: State, seat: int, position: int) -> tuple[str, str]:
        """Pay for the combo at `position`, take it and replenish the offer (§6.3)."""
        raise NotImplementedError

    def return_banner(self, st: State, race: str) -> None:
        """A race left play: where its banner goes (§6.17)."""
        raise NotImplementedError

    def discard_badge(self, st: State, power: str) -> None:
        """A badge is discarded (§6.16 step 2, §6.17): onto the discard pile, which is shuffled into a
        new stack when the stack runs out (§6.3)."""
        st.power_discard.append(power)

    def winners(self, st: State) -> tuple[list[int], dict[str, Any]]:
        """The winning seats and any extra result data (§7)."""
        raise NotImplementedError

    def hide(self, view: dict[str, Any], seat: int | None) -> None:
        """Remove what `seat` may not know of the offer from a view: replace a key of the view,
        never change a value in place (the seats' views of a ply share their values)."""

    def teams(self, players: int) -> list[Any]:
        """The side each seat plays for, in seat order: seats with the same label win together."""
        return list(range(players))

    def coins_seen_by(self, st: State, seat: int | None) -> list[int]:
        """The seats whose coin totals `seat` may see before the game ends (§1.3; allies, §11.1)."""
        return [] if seat is None else [seat]

    def combos(self, st: State, seat: int) -> list[tuple[str | None, str | None, int]]:
        """What `pick N` would give `seat`, by N: (race, power, coins lying on it); None where a
        slot is empty. Default: the standard row."""
        return [(race, power, coins) for race, power, coins in st.row]

    def banners_in_the_box(self, game: Any) -> frozenset[str]:
        """The banners this variant's setup leaves out of the game (none in the standard game)."""
        return frozenset()

    def withdraw_banners(self, st: State, in_play: set[str]) -> None:
        """Take the banners of races in play out of the offer (a position that gives the seats but
        not the offer: the offer is derived, as the tray is)."""

    def withdraw_badges(self, st: State, in_play: set[str]) -> None:
        """Take the badges in play (or discarded by the position) out of the offer, as
        `withdraw_banners` does for the banners."""

    def offer_from_json(self, st: State, data: Any) -> dict[str, list[str]] | None:
        """The variant's own offer in a position (`offer`); the standard game has none."""
        from smallworld.engine.model.errors import PositionError

        raise PositionError("position.offer", "only the team variant has faction columns")

    def explain_pick(self, st: State, seat: int, action: Action) -> Why:
        from smallworld.engine.model.rule_ids import Rule

        return Why(st.game.edition.cite(Rule.PICK), f"pick {action.arg} is not available", "pick_unavailable")
