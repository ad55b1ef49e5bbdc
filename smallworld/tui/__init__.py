"""`smallworld play`: a whole game in the terminal, the human against random bots.

`text` turns actions into words and words into actions, `events` tells what happened and what a
prompt asks, `screen` draws the tables, `app` runs the loop (input and output are injectable so tests
can script a game). Every word comes from the catalogues of `smallworld.words` in the language of
`--lang` (en, pt, de): the units' own for everything a race, power or marker declares, this
client's `words.json` for its own chrome. Typed commands and moves stay in English."""

from smallworld.tui.app import run_play

__all__ = ["run_play"]
