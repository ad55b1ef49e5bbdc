"""Constants shared by the engine and the content, with no imports (breaks import cycles)."""

MURLOCS = "murlocs"  # the ownerless In-Decline race (§3.2 step 5)
MURLOC_SUPPLY = 15  # §1.2
