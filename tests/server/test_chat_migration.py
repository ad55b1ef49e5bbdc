"""Migration 0003 adds the chat table: a database made by 0002 keeps its games and gains an empty
chat that works; going back down to 0002 drops it again. (That the migrated database is exactly
what schema.py declares, chat table included, is tests/server/test_migrations.py's.)"""

from __future__ import annotations

from alembic import command
from alembic.config import Config
from sqlalchemy import insert, inspect

from smallworld.server import chat
from smallworld.server import schema as t
from smallworld.server.store import MIGRATIONS, Store, make_engine, migrate


def test_a_database_of_0002_gains_the_chat_and_loses_it_on_downgrade(any_db_url: str) -> None:
    engine = make_engine(any_db_url)
    migrate(engine, "0002")
    assert "chat" not in inspect(engine).get_table_names()
    with engine.begin() as c:
        c.execute(
            insert(t.games).values(
                id="g1", settings="{}", seed="1", status="over", ply=3, meta="{}", created=1.0, updated=1.0
            )
        )
    engine.dispose()
    store = Store(any_db_url)  # a server's start: upgrades to the head
    try:
        assert "chat" in inspect(store.engine).get_table_names()
        assert store.game("g1") is not None and chat.store_read(store, "g1", chat.CHANNELS) == []
        posted = chat.store_post(store, "g1", "seats", 0, "Ann", "kept with the game", 3)
        assert chat.store_read(store, "g1", chat.CHANNELS) == [posted]
        cfg = Config()
        cfg.set_main_option("script_location", str(MIGRATIONS))
        with store.engine.begin() as conn:
            cfg.attributes["connection"] = conn
            command.downgrade(cfg, "0002")
        assert "chat" not in inspect(store.engine).get_table_names()
        assert store.game("g1") is not None
    finally:
        store.close()
