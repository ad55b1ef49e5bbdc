"""Refresh the generated blocks of the docs from the code: the protocol tables of docs/protocol.md
(`smallworld.engine.schema.markdown_tables`) and the RL tables of docs/rl.md
(`smallworld.env.layout_doc.markdown`). Tests compare the docs with the code; this rewrites them.

    python tools/regenerate_docs.py
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _refresh(path: Path, begin: str, end: str, block: Callable[[], str]) -> bool:
    text = path.read_text(encoding="utf-8")
    i, j = text.index(begin), text.index(end) + len(end)
    new = text[:i] + block() + text[j:]
    if new != text:
        path.write_text(new, encoding="utf-8")
    return new != text


def main() -> None:
    from smallworld.engine import schema
    from smallworld.env import layout_doc

    changed = [
        _refresh(
            ROOT / "docs" / "protocol.md",
            schema.BEGIN,
            schema.END,
            lambda: schema.markdown_tables("warcraft"),
        ),
        _refresh(ROOT / "docs" / "rl.md", layout_doc.BEGIN, layout_doc.END, layout_doc.markdown),
    ]
    print("updated" if any(changed) else "up to date")


if __name__ == "__main__":
    main()
