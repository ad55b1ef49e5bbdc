"""Stout (§8, CL-AMB-15): the race may go into decline at the end of any conquest turn, after
scoring (the engine's `after_score` decision: `decline` or `pass`); no second scoring, and the next
turn starts with a pick."""

from __future__ import annotations

from smallworld.engine.model.hooks import Unit


class Stout(Unit):
    id = "stout"
    kind = "power"
    section = "§8"
    declines_after_scoring = True


UNIT = Stout()
