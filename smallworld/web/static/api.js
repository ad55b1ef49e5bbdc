// The one module that talks to the game server (smallworld/server, issue 12); docs/web.md lists
// every call. Everything else in the client gets data from here and sends decisions through here.
// Identity: the player token (ties a person's seats together) and, per game, the seat tokens this
// browser holds (several for hot-seat), kept in localStorage so that a reload keeps the seats.
// Both travel as `Authorization: Bearer TOKEN`.

import * as W from "./i18n.js";

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
function savePlayer(answer, name) {
  if (answer && answer.player_token) store.setItem("sw.player", answer.player_token);
  if (answer && answer.player && answer.player.name) store.setItem("sw.name", answer.player.name);
  else if (name) store.setItem("sw.name", name);
}

export class ApiError extends Error {
  constructor(status, body) {
    super(body && body.message ? body.message : `HTTP ${status}`);
    this.status = status;
    this.body = body || {};
  }
}

// The server out of reach (the network down, the server stopped, a proxy's 502/503/504 without a
// refusal of the server's): said in words, never the browser's "Failed to fetch". Every answer
// (or its absence) is told to the hooks of `onReach` (connection.js shows the state and retries).
export class Unreachable extends TypeError {
  constructor() { super(W.t("conn.unreachable")); this.network = true; }
}
const reachHooks = [];
export function onReach(fn) { reachHooks.push(fn); }
const reached = (ok) => { for (const fn of reachHooks) fn(ok); };

// How far the server's clock is ahead of this computer's, from the answers' `Date` header (whole
// seconds, so a gap under 2 s is taken as none): the seats' `deadline`s are the server's times.
let skewMs = 0;
export const serverSkewMs = () => skewMs;
function noteServerTime(res, sentAt) {
  const at = Date.parse(res.headers.get("Date") || "");
  if (!Number.isFinite(at)) return;
  const gap = at + 500 - (sentAt + Date.now()) / 2; // the header truncates to the second
  skewMs = Math.abs(gap) < 2000 ? 0 : gap;
}

// A logged-in browser's posts carry its session's CSRF token (account.js; docs/server.md, Accounts).
const csrf = () => (document.cookie.match(/(?:^|; )sw_csrf=([^;]*)/) || [])[1];
export const loggedIn = () => Boolean(csrf());

export async function call(method, path, { body, token } = {}) {
  const headers = { "Accept": "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers["Authorization"] = `Bearer ${token}`;
  else if (method !== "GET" && csrf()) headers["X-CSRF-Token"] = csrf();
  const sentAt = Date.now();
  let res;
  try {
    res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    reached(false);
    throw new Unreachable();
  }
  noteServerTime(res, sentAt);
  let data = null;
  try { data = await res.json(); } catch { data = null; }
  if (res.status >= 502 && res.status <= 504 && !(data && data.code)) { reached(false); throw new Unreachable(); }
  reached(true);
  if (!res.ok) throw new ApiError(res.status, data);
  return data;
}

// --- lobby --------------------------------------------------------------------------------------
export function forgetPlayer() { store.removeItem("sw.player"); }
export function rememberName(name) { store.setItem("sw.name", name); }
export async function ensurePlayer(name) {
  if (!playerToken() && loggedIn()) return; // the session is the player
  if (playerToken() && (!name || name === playerName())) return;
  savePlayer(await call("POST", "/api/players", { body: { name: name || "Player" } }), name);
}
// The catalogues of an edition (default: the server's, Warcraft); a game's screens load their own.
export const words = (edition) => call("GET", edition ? `/api/words?edition=${encodeURIComponent(edition)}` : "/api/words");
export const openGames = async () => (await call("GET", "/api/games")).games;
export const myGames = async () => (await call("GET", "/api/me/games", { token: playerToken() })).games;
// The lobby's lists, a page at a time, newest first (docs/server.md, "Lists"): {games, next};
// `status`: open | playing | over; `before`: the previous page's `next`.
const page = (before, limit) => `limit=${limit}${before ? `&before=${encodeURIComponent(before)}` : ""}`;
export const listGames = (status, before = null, limit = 8) => call("GET", `/api/games?status=${status}&${page(before, limit)}`);
export const myGamesPage = (before = null, limit = 8) => call("GET", `/api/me/games?${page(before, limit)}`, { token: playerToken() });
// A finished game's coins by round and where they came from: {scores, rounds, breakdown}.
export const scores = (gameId) => call("GET", `/api/games/${gameId}/scores`);
export const gameInfo = (gameId) => call("GET", `/api/games/${gameId}`);
export const board = (gameId) => call("GET", `/api/games/${gameId}/board`);
// Learning the game (rules.js, tutorial.js): an edition's units for the rules page, the tutorial's lessons.
export const rules = (edition) => call("GET", `/api/rules?edition=${encodeURIComponent(edition)}`);
export const tutorial = async () => (await call("GET", "/api/tutorial")).lessons;

// spec: {edition, variant, players, seats: [{kind: "creator"|"invite"|"open"|"bot", level}], clock: {kind}}
export async function createGame(spec) {
  const r = await call("POST", "/api/games", { body: spec, token: playerToken() });
  savePlayer(r);
  for (const s of r.seats) if (s.token) saveSeat(r.game, s.seat, s.token);
  return r;
}
// how: {invite} (a link's) or {seat} (an open seat); answers {seat, token}
export async function join(gameId, how, name) {
  const r = await call("POST", `/api/games/${gameId}/join`, { body: { ...how, name }, token: playerToken() });
  savePlayer(r);
  saveSeat(gameId, r.seat, r.token);
  return r;
}

// --- a game -------------------------------------------------------------------------------------
// The seat's view answer: the game summary, `seat`, `view`, `legal` (protocol actions) and the web
// client's extras (`texts`, `explain`, `plan`, `rounds`; smallworld/web/payload.py).
// `client=web` asks the server for the extras (they cost it time, so other clients go without).
export const view = (gameId, seatToken) => call("GET", `/api/games/${gameId}/view?client=web`, { token: seatToken });
// Moves from ply `since` on: [{ply, seat, by, action, events, texts}] as this seat may see them.
export const moves = async (gameId, seatToken, since) =>
  (await call("GET", `/api/games/${gameId}/moves?since=${since}&client=web`, { token: seatToken })).moves;
export const act = (gameId, seatToken, seat, ply, action) =>
  call("POST", `/api/games/${gameId}/act`, { body: { seat, ply, action }, token: seatToken });
// Take back the seat's decisions from ply `toPly` on (one of its view's `undo_points`): its new view.
export const undo = (gameId, seatToken, seat, toPly) =>
  call("POST", `/api/games/${gameId}/undo?client=web`, { body: { seat, to_ply: toPly }, token: seatToken });
// A seat this browser no longer holds (resigned: resign.js): its token is forgotten.
export function forgetSeat(gameId, seat) {
  const all = seatTokens(gameId);
  delete all[seat];
  store.setItem(`sw.seats.${gameId}`, JSON.stringify(all));
}
// A finished game: {states: [...], texts: [...], actions, seats, result}.
export const replay = (gameId) => call("GET", `/api/games/${gameId}/replay?client=web`);
// A game's chat (chat.js; docs/server.md, "Chat"): the messages after `since` this reader may read
// ({channels, messages}), and a post ({text, name?}: a spectator gives a name and no token).
export const chatRead = (gameId, seatToken, since) => call("GET", `/api/games/${gameId}/chat?since=${since}`, { token: seatToken });
export const chatPost = (gameId, seatToken, body) => call("POST", `/api/games/${gameId}/chat`, { body, token: seatToken });

// Live updates: one WebSocket per seat (or spectator), its heartbeat, reconnects and the
// decisions sent over it are in connection.js (`Live`).
