"""The engine's rule ids: what a core error cites, before an edition maps it to its rulebook.

The engine never writes a section number: an `Edition` maps each id to a section of its own rules
(`Edition.cite`), so the same check cites §6.10 in Small World of Warcraft and §5.2 in the classic
game. Units belong to one edition and cite their own sections directly.
"""

from __future__ import annotations

from enum import StrEnum


class Rule(StrEnum):
    TRAY = "tray"  # physical token limits
    MAP = "map"  # the regions of the map
    TURN = "turn"  # the order of a turn
    START = "start"  # start of a turn: decline or expand
    ABANDON = "abandon"  # readying troops and abandoning regions
    PICK = "pick"  # picking a combo
    AT_LEAST_ONE = "at_least_one"  # a conquest needs a token in hand
    TARGETS = "targets"  # which regions may be targeted
    COST = "cost"  # the conquest cost
    PAYMENTS = "payments"  # coins due before a conquest or a hostile effect
    LOSSES = "losses"  # losses and withdrawn tokens
    FINAL = "final"  # the final conquest attempt with the die
    CONQUESTS_OVER = "conquests_over"  # no conquest after the final attempt or redeployment
    AFTER_CONQUESTS = "after_conquests"  # between the last conquest and redeployment
    REDEPLOY = "redeploy"  # redeployment
    WITHDRAWN = "withdrawn"  # withdrawn tokens placed by their owner
    SCORING = "scoring"
    DECLINE = "decline"  # going into decline
    IMMUNE = "immune"  # immune regions
    GAME_OVER = "game_over"  # the end of the game
