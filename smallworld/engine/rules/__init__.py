"""The engine's rules: losses, conquest, decline, scoring and the game variants (the standard game,
the team variant). Imports the model only (docs/engine.md, "Layers")."""
