"""The engine's turn flow: setup, the legal actions and their effect (`turn`), redeployment plans
and the diagnosis of a refused action. Imports the rules and the model (docs/engine.md, "Layers")."""
