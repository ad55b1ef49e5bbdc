"""The 14 races of classic Small World (classic-rules.md §7), one unit per module."""
