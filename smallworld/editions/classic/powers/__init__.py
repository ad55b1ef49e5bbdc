"""The 20 special powers of classic Small World (classic-rules.md §8), one unit per module."""
