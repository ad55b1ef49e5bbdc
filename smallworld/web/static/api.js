// The one module that talks to the game server (docs/web.md lists every call).
// Everything else in the client gets data from here and sends decisions through here.
// Identity: a player token (ties a person's seats together) and, per game, the seat tokens this
// browser holds (several for hot-seat), all kept in localStorage so a reload keeps the seats.

const store = window.localStorage;

export function playerToken() { return store.getItem("sw.player"); }
export function playerName() { return store.getItem("sw.name") || ""; }

export function seatTokens(gameId) {
  try { return JSON.parse(store.getItem(`sw.seats.${gameId}`) || "{}"); } catch { return {}; }
}
function saveSeat(gameId, seat, token) {
  const all = seatTokens(gameId);
  all[seat] = token;
  store.setItem(`sw.seats.${gameId}`, JSON.stringify(all));
}

export class ApiError extends Error {
  constructor(status, body) {
    super(body && body.message ? body.message : `HTTP ${status}`);
    this.status = status;
    this.body = body || {};
  }
}

async function call(method, path, { body, seatToken } = {}) {
  const headers = { "Accept": "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const pt = playerToken();
  if (pt) headers["X-Player-Token"] = pt;
  if (seatToken) headers["X-Seat-Token"] = seatToken;
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  let data = null;
  try { data = await res.json(); } catch { data = null; }
  if (!res.ok) throw new ApiError(res.status, data);
  return data;
}

export async function ensurePlayer(name) {
  if (playerToken() && (!name || name === playerName())) return;
  const p = await call("POST", "/api/players", { body: { name: name || "Player" } });
  store.setItem("sw.player", p.token);
  store.setItem("sw.name", p.name);
}

export const words = () => call("GET", "/api/words");
export const openGames = () => call("GET", "/api/games");
export const myGames = () => call("GET", "/api/players/me/games");
export const gameInfo = (gameId) => call("GET", `/api/games/${gameId}`);

export async function createGame(spec) {
  const r = await call("POST", "/api/games", { body: spec });
  for (const s of r.seats) if (s.token) saveSeat(r.game_id, s.seat, s.token);
  return r;
}

export async function join(gameId, invite) {
  const r = await call("POST", `/api/games/${gameId}/join`, { body: { invite } });
  saveSeat(gameId, r.seat, r.token);
  return r;
}

export const state = (gameId, seatToken) => call("GET", `/api/games/${gameId}/state`, { seatToken });
export const updates = (gameId, seatToken, since) =>
  call("GET", `/api/games/${gameId}/updates?since=${since}`, { seatToken });
export const act = (gameId, seatToken, ply, action) =>
  call("POST", `/api/games/${gameId}/actions`, { body: { ply, action }, seatToken });
export const replayAt = (gameId, ply) => call("GET", `/api/games/${gameId}/replay/${ply}`);

// Live updates: a WebSocket per seat (or spectator) at /api/games/ID/ws?token=SEAT_TOKEN. The
// server sends {"type": "update", "state": SEAT_STATE} after every ply; on (re)connecting the
// client says {"type": "hello", "since": PLY} and the server replays what it missed. Where the
// socket cannot open (or the server has none) the client polls `updates`, the same catch-up.
export class Live {
  constructor(gameId, seatToken, lastPly, onState, onStatus) {
    this.gameId = gameId;
    this.seatToken = seatToken;
    this.lastPly = lastPly;
    this.onState = onState;
    this.onStatus = onStatus;
    this.closed = false;
    this.failures = 0;
    this.ws = null;
    this.poller = null;
    this.connect();
  }
  seen(ply) { this.lastPly = Math.max(this.lastPly, ply); }
  connect() {
    if (this.closed) return;
    if (this.failures >= 2 || !("WebSocket" in window)) { this.poll(); return; }
    const proto = location.protocol === "https:" ? "wss" : "ws";
    const q = this.seatToken ? `?token=${encodeURIComponent(this.seatToken)}` : "";
    let opened = false;
    try {
      this.ws = new WebSocket(`${proto}://${location.host}/api/games/${this.gameId}/ws${q}`);
    } catch { this.failures += 1; this.connect(); return; }
    this.ws.onopen = () => {
      opened = true;
      this.failures = 0;
      this.onStatus("online");
      this.ws.send(JSON.stringify({ type: "hello", since: this.lastPly }));
    };
    this.ws.onmessage = (ev) => {
      let msg;
      try { msg = JSON.parse(ev.data); } catch { return; }
      if (msg.type === "update" && msg.state) this.deliver([msg.state]);
    };
    this.ws.onclose = () => {
      this.ws = null;
      if (this.closed) return;
      if (!opened) this.failures += 1;
      this.onStatus(opened ? "lost" : "polling");
      setTimeout(() => this.catchUp().finally(() => this.connect()), opened ? 500 : 0);
    };
  }
  deliver(states) {
    for (const s of states) {
      if (s.view.ply <= this.lastPly) continue;
      this.lastPly = s.view.ply;
      this.onState(s);
    }
  }
  async catchUp() {
    try {
      const list = await updates(this.gameId, this.seatToken, this.lastPly);
      this.deliver(list);
      return true;
    } catch { return false; }
  }
  poll() {
    if (this.poller || this.closed) return;
    const tick = async () => {
      if (this.closed) return;
      const ok = await this.catchUp();
      this.onStatus(ok ? "polling" : "lost");
      this.poller = setTimeout(tick, ok ? 1500 : 3000);
    };
    this.poller = setTimeout(tick, 1500);
  }
  // Test hook and the reconnect path: drop the connection as a network failure would.
  drop() { if (this.ws) this.ws.close(); else this.onStatus("lost"); }
  close() {
    this.closed = true;
    if (this.ws) this.ws.close();
    if (this.poller) clearTimeout(this.poller);
  }
}
