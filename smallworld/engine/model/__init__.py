"""The engine's model, its lowest layer: errors, rule ids, random numbers, actions and the
protocol's declarations, rule options, the state and its derived indexes, the hooks units implement,
the edition and the game's settings. It imports nothing above it (docs/engine.md, "Layers")."""
