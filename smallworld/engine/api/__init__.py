"""The engine's API, its top layer: the game object, views for a seat, serialization and its
schema, records, notation, position files, invariants and the `explain` of a region
(docs/engine.md, "Layers")."""
