"""Ghouls (§7, CL-AMB-06, CL-AMB-41): every Ghoul token stays on the board when they decline, and
In Decline they keep conquering in a phase of their own that opens their owner's turn (the engine's
`rise` decision): ready, conquer, an optional final die attempt, redeploy; no power, no bonus for
the Active race. They may attack their owner's Active race as an enemy would (its immune regions
stay immune to them). A player who used the phase may not decline that turn."""

from __future__ import annotations

from smallworld.engine.model.hooks import ALL_TOKENS, Unit


class Ghouls(Unit):
    id = "ghouls"
    kind = "race"
    section = "§7"
    conquers_in_decline = True
    decline_keep = ALL_TOKENS


UNIT = Ghouls()
