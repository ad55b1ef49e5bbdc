#!/usr/bin/env python3
"""Retrain the learned bot's value model: `python tools/train_value.py [--seed S] [--out FILE]`
(the recipe and its defaults: smallworld/bots/learned/train.py and docs/bots.md)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from smallworld.bots.learned.train import main

if __name__ == "__main__":
    raise SystemExit(main())
