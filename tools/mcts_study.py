#!/usr/bin/env python3
"""tools/mcts_study.py run|summary|compare ...: the MCTS strength study; the code and its usage are in
smallworld/measure/study.py (`tools/mcts_study.py --help`)."""

import importlib.util
import sys
from pathlib import Path

# The checkout's package unless one is already on the path (the compiled build, put first).
if importlib.util.find_spec("smallworld") is None:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from smallworld.measure.study import main

if __name__ == "__main__":
    main()
