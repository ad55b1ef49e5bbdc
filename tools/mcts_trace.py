#!/usr/bin/env python3
"""tools/mcts_trace.py --seed S ...: one traced game of MCTS against greedy; the code and its usage are
in smallworld/measure/trace.py (`tools/mcts_trace.py --help`)."""

import importlib.util
import sys
from pathlib import Path

# The checkout's package unless one is already on the path (the compiled build, put first).
if importlib.util.find_spec("smallworld") is None:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from smallworld.measure.trace import main

if __name__ == "__main__":
    main()
