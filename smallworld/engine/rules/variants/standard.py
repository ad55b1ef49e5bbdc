"""The standard game: one row of six combos with coins left on skipped ones (§3.2, §6.3, §6.17, §7)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from smallworld.engine.model.actions import PICK, Action
from smallworld.engine.model.errors import Why
from smallworld.engine.model.rule_ids import Rule
from smallworld.engine.rules.variants.base import Variant

if TYPE_CHECKING:
    from smallworld.engine.model.state import State

ROW_SIZE = 6  # 5 column combos + the two stack tops (§3.2 step 4)


def draw_badge(st: State) -> str | None:
    """Top badge of the stack; when it is empty, the discards are shuffled into a new one (§6.3)."""
    if not st.power_stack and st.power_discard:
        st.power_stack = st.power_discard
        st.power_discard = []
        st.rng.shuffle(st.power_stack)
    return st.power_stack.pop(0) if st.power_stack else None


def refill_row(st: State) -> None:
    """Fill the visible combos from the stack tops, up to six (§6.3 step 4)."""
    while len(st.row) < ROW_SIZE and st.race_stack:
        badge = draw_badge(st)
        if badge is None:
            return
        st.row.append([st.race_stack.pop(0), badge, 0])


# The picks of every row position, built once (actions are immutable; every pick lists them).
_PICKS = tuple(Action(PICK, None, i) for i in range(ROW_SIZE))


class Standard(Variant):
    id = "standard"

    def setup_offer(self, st: State, banners: list[str], badges: list[str]) -> None:
        st.race_stack = banners
        st.power_stack = badges
        refill_row(st)

    def first_seat(self, st: State) -> int | None:
        return None

    def pick_actions(self, st: State, seat: int) -> list[Action]:
        coins = st.seats[seat].coins
        n = min(len(st.row), coins + 1)
        return list(_PICKS[:n]) if n <= ROW_SIZE else [Action(PICK, None, i) for i in range(n)]

    def take_combo(self, st: State, seat: int, position: int) -> tuple[str, str]:
        s = st.seats[seat]
        # AMB-45: pay 1 VC on each combo above from the coins held before collecting.
        s.coins -= position
        for j in range(position):
            st.row[j][2] += 1
        race, power, coins = st.row.pop(position)
        s.coins += coins
        refill_row(st)
        return race, power

    def return_banner(self, st: State, race: str) -> None:
        # AMB-08: the first empty slot of the row (so the row stays contiguous), else under the stack.
        if st.game.options.returned_banner == "first_empty_slot" and len(st.row) < ROW_SIZE:
            badge = draw_badge(st)
            if badge is not None:
                st.row.append([race, badge, 0])
                return
        st.race_stack.append(race)

    def discard_badge(self, st: State, power: str) -> None:
        # Option `discarded_badges`: the discard pile (§6.3), or straight under the stack (smawg).
        if st.game.options.discarded_badges == "stack_bottom":
            st.power_stack.append(power)
        else:
            st.power_discard.append(power)

    def withdraw_banners(self, st: State, in_play: set[str]) -> None:
        _withdraw(st, in_play, 0)

    def withdraw_badges(self, st: State, in_play: set[str]) -> None:
        _withdraw(st, in_play, 1)

    def winners(self, st: State) -> tuple[list[int], dict[str, Any]]:
        """§7: highest coins; tie: most race tokens on the boards; still tied: shared victory
        (AMB-35). A tie on coins adds `tie_break` to the result: the tied seats with their race
        tokens on the boards, so that a reader (and the end screen) sees why they won."""
        coins = [s.coins for s in st.seats]
        best = max(coins)
        winners = [i for i, c in enumerate(coins) if c == best]
        if len(winners) == 1:
            return winners, {}
        rule = st.game.edition.cite(Rule.GAME_OVER)
        if st.game.options.tie_break != "race_tokens":
            tied: list[dict[str, Any]] = [{"seat": i} for i in winners]
            return winners, {"tie_break": {"rule": rule, "by": "none", "tied": tied, "shared": True}}
        tokens = {i: st.race_tokens_on_board(i) for i in winners}
        most = max(tokens.values())
        tied = [{"seat": i, "value": tokens[i]} for i in winners]
        winners = [i for i in winners if tokens[i] == most]
        tie = {"rule": rule, "by": "race_tokens", "tied": tied, "shared": len(winners) > 1}
        return winners, {"tie_break": tie}

    def explain_pick(self, st: State, seat: int, action: Action) -> Why:
        rule = st.game.edition.cite(Rule.PICK)
        if not isinstance(action.arg, int) or not 0 <= action.arg < len(st.row):
            return Why(
                rule, f"pick needs a position 0..{len(st.row) - 1}", "pick_position", most=len(st.row) - 1
            )
        coins = st.seats[seat].coins
        return Why(
            rule,
            f"position {action.arg} costs {action.arg} VC and seat {seat} has {coins}",
            "pick_cost",
            position=action.arg,
            cost=action.arg,
            coins=coins,
        )


def _withdraw(st: State, in_play: set[str], slot: int) -> None:
    """A row combo whose banner (`slot` 0) or badge (1) is in play takes the next free one of its
    stack instead; with none left, the combo's other half goes back on the top of its own stack."""
    stacks = [st.race_stack, st.power_stack]
    free = [x for x in stacks[slot] if x not in in_play]
    row = []
    loose = []
    for combo in st.row:
        combo = combo[:]
        if combo[slot] in in_play:
            if not free:
                loose.append(combo[1 - slot])
                continue
            combo[slot] = free.pop(0)
        row.append(combo)
    st.row = row
    other = loose + stacks[1 - slot]
    st.race_stack, st.power_stack = (free, other) if slot == 0 else (other, free)
