"""`smallworld play`: a whole game in the terminal, the human against random bots.

`text` turns actions into words and words into actions, `screen` draws the tables, `app` runs
the loop (input and output are injectable so tests can script a game)."""

from smallworld.tui.app import run_play

__all__ = ["run_play"]
