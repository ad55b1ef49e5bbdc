"""The e-mail digest (issue 29, item 8): once a day at most, a player who gave an address and asked
for it gets one e-mail listing the turn-by-turn games where it is their turn, in their language
(`smallworld/words/mail.json`), through the SMTP server the operator configured
(`smallworld serve --smtp smtp://HOST:PORT`, or `smtps://USER:PASSWORD@HOST:PORT`; `--site URL`
for the links). Nothing is sent without `--smtp`, to no one who has not opted in, and no game is
listed that is not the player's turn; a send that fails is tried again at the next round."""

from __future__ import annotations

import asyncio
import json
import logging
import smtplib
import time
from collections.abc import Callable
from email.message import EmailMessage
from functools import cache
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from sqlalchemy import select, update

from smallworld.server import schema as t
from smallworld.server.store import Store
from smallworld.words import Words, read_catalogue

log = logging.getLogger("smallworld.server")

PERIOD_S = 86400.0  # at most one digest a day per player
ROUND_S = 600.0  # how often the server looks for digests due


@cache
def _words() -> Words:
    return Words({"mail": read_catalogue(Path(__file__).parents[1] / "words" / "mail.json")})


def due(store: Store, now: float, acting: Callable[[str], int | None]) -> list[dict[str, Any]]:
    """Players opted in, with an address, not sent a digest for a day, and the turn-by-turn games
    where the seat to act is theirs (only the players with at least one)."""
    with store.engine.connect() as c:
        people = c.execute(
            select(t.players.c.id, t.players.c.name, t.players.c.email, t.players.c.lang)
            .where(t.players.c.digest.is_(True), t.players.c.email.is_not(None))
            .where((t.players.c.digest_sent.is_(None)) | (t.players.c.digest_sent <= now - PERIOD_S))
        ).all()
        out = []
        for p in people:
            rows = c.execute(
                select(t.games.c.id, t.games.c.meta, t.games.c.settings, t.seats.c.seat)
                .join(t.seats, t.seats.c.game_id == t.games.c.id)
                .where(t.seats.c.player_id == p.id, t.games.c.status == "playing")
            ).all()
            games = []
            for g in rows:
                meta = json.loads(g.meta)
                if (meta.get("clock") or {}).get("kind") == "live":
                    continue  # a live game is played at the table, not by e-mail
                if acting(g.id) == g.seat:
                    seats = c.execute(
                        select(t.seats.c.seat, t.seats.c.name).where(t.seats.c.game_id == g.id)
                    ).all()
                    others = [s.name for s in seats if s.seat != g.seat]
                    games.append(
                        {
                            "id": g.id,
                            "title": meta.get("title") or "",
                            "others": others,
                            "edition": json.loads(g.settings).get("edition", "warcraft"),
                        }
                    )
            if games:
                out.append(
                    {"id": p.id, "name": p.name, "email": p.email, "lang": p.lang or "en", "games": games}
                )
    return out


def message(person: dict[str, Any], sender: str, site: str) -> EmailMessage:
    w, lang = _words(), person["lang"]
    n = len(person["games"])
    lines = [
        w.text("mail", "digest.hello", lang, name=person["name"]),
        w.text("mail", "digest.intro", lang),
        "",
    ]
    for g in person["games"]:
        title = g["title"] or ", ".join(g["others"])
        lines.append(
            w.text(
                "mail",
                "digest.game",
                lang,
                title=title,
                others=", ".join(g["others"]),
                edition=g["edition"],
                link=f"{site.rstrip('/')}/#/game/{g['id']}",
            )
        )
    lines += ["", w.text("mail", "digest.footer", lang, site=site)]
    msg = EmailMessage()
    msg["Subject"] = w.text("mail", "digest.subject", lang, n=n)
    msg["From"] = sender
    msg["To"] = person["email"]
    msg.set_content("\n".join(lines))
    return msg


def send(url: str, msgs: list[EmailMessage]) -> None:
    u = urlsplit(url)
    secure = u.scheme == "smtps"
    port = u.port or (465 if secure else 25)
    cls = smtplib.SMTP_SSL if secure else smtplib.SMTP
    with cls(u.hostname or "127.0.0.1", port, timeout=30) as s:
        if u.username:
            s.login(unquote(u.username), unquote(u.password or ""))
        for m in msgs:
            s.send_message(m)


class Digest:
    def __init__(
        self, service: Any, smtp: str, site: str, sender: str | None = None, every: float = ROUND_S
    ) -> None:
        self.service, self.smtp, self.site, self.every = service, smtp, site, every
        self.sender = sender or f"smallworld@{urlsplit(site).hostname or 'localhost'}"
        self.task: asyncio.Task[None] | None = None

    def acting(self, game_id: str) -> int | None:
        live = self.service.live.get(game_id)
        return None if live is None else int(live.state.acting_seat)

    async def run_once(self, now: float | None = None) -> int:
        """Send the digests due now; answers how many were sent."""
        now = time.time() if now is None else now
        for gid in await asyncio.to_thread(_playing, self.service.store):
            if gid not in self.service.live:
                try:
                    await self.service.get(gid)  # whose turn it is needs the game's state
                except Exception:
                    continue
        people = await asyncio.to_thread(due, self.service.store, now, self.acting)
        sent = 0
        for p in people:
            try:
                await asyncio.to_thread(send, self.smtp, [message(p, self.sender, self.site)])
            except (OSError, smtplib.SMTPException) as e:
                log.warning(json.dumps({"event": "digest_failed", "player": p["id"], "error": repr(e)}))
                continue
            await asyncio.to_thread(_sent, self.service.store, p["id"], now)
            sent += 1
        if sent:
            log.info(json.dumps({"event": "digests_sent", "count": sent}))
        return sent

    def start(self) -> None:
        async def loop() -> None:
            while not self.service.closing:
                try:
                    await self.run_once()
                except Exception:
                    log.exception("the digest round failed")
                await asyncio.sleep(self.every)

        self.task = asyncio.ensure_future(loop())

    async def close(self) -> None:
        if self.task is not None:
            self.task.cancel()


def _playing(store: Store) -> list[str]:
    with store.engine.connect() as c:
        return [r[0] for r in c.execute(select(t.games.c.id).where(t.games.c.status == "playing")).all()]


def _sent(store: Store, pid: str, now: float) -> None:
    with store._begin() as c:
        c.execute(update(t.players).where(t.players.c.id == pid).values(digest_sent=now))
