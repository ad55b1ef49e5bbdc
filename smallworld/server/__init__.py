"""The game server (docs/server.md): a lobby and live games over HTTP and WebSocket, on the engine's
protocol. It never interprets rules: every action goes through `State.apply(action, seat=)`, every
client gets `view_for(state, seat)`, and errors are the engine's `to_json()` plus the server's own
codes (`errors.py`)."""
