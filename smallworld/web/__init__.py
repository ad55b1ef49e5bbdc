"""The web client: static files (plain JavaScript modules, SVG and CSS, no build step) and the
JSON a server hands them (`payload`). The server serves `STATIC` and calls `payload` for what a
seat sees; the client never decides legality, it shows what these payloads offer (docs/web.md)."""

from __future__ import annotations

from pathlib import Path

STATIC = Path(__file__).parent / "static"

__all__ = ["STATIC"]
