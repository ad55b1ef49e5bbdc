"""Measurement: the one home of the code that times and sizes the game rather than plays it.

- `engine`: `smallworld bench`, complete random games on one core, and the `EngineSampler` yardstick;
- `costs`: what one state costs (bytes, a clone, a view, a replay);
- `server`: `smallworld bench server`, a load test of the game server over real sockets;
- `compare`: `tools/bench-compare REF`, the working tree's speed against an earlier commit;
- `study`: `tools/mcts_study.py`, the MCTS-against-greedy strength study (run, summary, compare);
- `trace`: `tools/mcts_trace.py`, what the search saw at each decision of one game.

A client of the rest (it may import the engine, the bots, the simulator and the server); nothing
outside it imports it but the command line (tests/test_architecture.py checks). The study's recorded
games are in data/studies/.
"""
