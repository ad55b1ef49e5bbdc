"""How combos are offered and picked, and who wins: the standard game here; an edition may add its
own variants (Small World of Warcraft's team variant lives with that edition)."""

from smallworld.engine.rules.variants.base import Variant
from smallworld.engine.rules.variants.standard import Standard

__all__ = ["Standard", "Variant"]
