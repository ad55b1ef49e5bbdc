"""Spirit (§8, CL-AMB-14): In Decline, the race does not count against the one-declined-race limit:
it stays beside the player's other In-Decline race and both score; a later decline removes the
other one, never the Spirit race (the engine's `decline_slot`). Its badge is not discarded at the
decline (§5.4 step 2: "Exception: Spirit is kept"): it stays beside the In-Decline banner until
that race leaves play (`badge_always_kept`), so it never comes back into the offer meanwhile."""

from __future__ import annotations

from smallworld.engine.model.hooks import Unit


class Spirit(Unit):
    id = "spirit"
    kind = "power"
    section = "§8"
    decline_slot = "spirit"
    badge_always_kept = True


UNIT = Spirit()
