// The live connection of one seat (or a spectator) to a game: one WebSocket at
// /api/games/ID/ws?client=web&token=SEAT_TOKEN&since=PLY (docs/web.md "One socket, an honest
// connection"). Every `hello` and `update` carries the seat's view answer and the moves since the
// last one, each with its words (the server's `client=web`), so the page fetches nothing after an
// update; the seat's decisions go over the same socket (`act`, answered by `ack` or `error`).
//
// Honest: a heartbeat (`ping` every HEARTBEAT_MS, a socket silent for PONG_MS more is taken as
// dead), the browser's own offline/online events, and a state the page shows in words: "online",
// "lost" (the connection dropped; retrying with backoff) and "offline" (the browser is offline, or
// several tries failed; still retrying). A reconnect sends the last ply seen as `since`, and the
// `hello` brings the moves missed meanwhile. Where no socket opens at all, the page polls `moves`
// and `view` over HTTP instead (the same catch-up).
import * as api from "./api.js";
import * as W from "./i18n.js";

export const HEARTBEAT_MS = 10000;
export const PONG_MS = 5000;
// The tests shorten both (`window.__swHeartbeat = {every, silence}`, set before the page loads).
const beat = () => ({ every: HEARTBEAT_MS, silence: PONG_MS, ...(window.__swHeartbeat || {}) });
const ACK_MS = 10000; // an act unanswered this long is taken as lost (a resend is safe: same ply)
const BACKOFF_MS = [300, 1000, 2000, 4000, 8000];
const OFFLINE_AFTER = 3; // failed tries in a row after which the state says "offline"

export class NetworkError extends Error {
  constructor() { super("network"); this.network = true; }
}

export class Live {
  constructor(gameId, seatToken, lastPly, onUpdate, onStatus, sessionSeat = null) {
    this.gameId = gameId;
    this.seatToken = seatToken;
    this.sessionSeat = sessionSeat; // a seat the browser's session holds (no seat token: account.js)
    this.lastPly = lastPly; // moves before this ply have been delivered (null: none wanted before the view's)
    this.onUpdate = onUpdate; // (viewAnswer, moves, how): how is "socket" or "http"
    this.onStatus = onStatus; // ("online" | "lost" | "offline")
    this.onRewind = null; // (ply): the game went back to `ply` (an undo, undo.js)
    this.onChat = null; // (message | null): a chat line (chat.js); null after a reconnect: catch up
    this.closed = false;
    this.paused = false;
    this.failures = 0; // tries in a row that did not open
    this.opened = false; // a socket has opened at least once
    this.ws = null;
    this.poller = null;
    this.retry = null;
    this.beat = null;
    this.silence = null;
    this.nextRef = 1;
    this.waiting = new Map(); // ref -> {resolve, reject, timer}: acts sent, not yet answered
    this.status = null;
    this.received = 0; // socket messages with a view: the tests count updates against fetches
    this.fetched = 0; // catch-ups over HTTP
    this.delivered = false; // a view has come (the socket's first message, or a fetch)
    this.ready = new Promise((resolve) => { this.markReady = resolve; });
    this.onOffline = () => { if (this.ws) this.dead(this.ws); else this.setStatus("offline"); };
    this.onOnline = () => { this.failures = 0; if (!this.ws) this.reconnectNow(); else this.ping(); };
    window.addEventListener("offline", this.onOffline);
    window.addEventListener("online", this.onOnline);
    this.connect();
  }
  setStatus(status) {
    if (status === this.status) return;
    this.status = status;
    this.onStatus(status);
  }
  url() {
    const proto = location.protocol === "https:" ? "wss" : "ws";
    const token = this.seatToken ? `&token=${encodeURIComponent(this.seatToken)}`
      : Number.isInteger(this.sessionSeat) ? `&seat=${this.sessionSeat}` : "";
    const since = this.lastPly === null ? "" : `&since=${this.lastPly}`;
    return `${proto}://${location.host}/api/games/${this.gameId}/ws?client=web${since}${token}`;
  }
  connect() {
    this.retry = null;
    if (this.closed || this.ws) return;
    if (!("WebSocket" in window)) { this.poll(); return; }
    let ws;
    try { ws = new WebSocket(this.url()); } catch { this.failed(); return; }
    this.ws = ws;
    let opened = false;
    ws.onopen = () => {
      opened = true;
      this.opened = true;
      this.failures = 0;
      this.stopPolling();
      this.startHeartbeat();
      if (this.onChat) this.onChat(null); // lines missed while the socket was down (chat.js)
    };
    ws.onmessage = (ev) => {
      this.heard();
      let msg;
      try { msg = JSON.parse(ev.data); } catch { return; }
      this.message(msg);
    };
    ws.onclose = () => {
      if (this.ws === ws) this.ws = null;
      this.stopHeartbeat();
      this.failAll();
      if (this.closed) return;
      if (!opened) this.failures += 1;
      this.failed();
    };
  }
  message(msg) {
    if (msg.type === "chat") { if (this.onChat) this.onChat(msg.message); return; } // chat.js
    if ((msg.type === "update" || msg.type === "hello") && msg.view && this.lastPly !== null
        && msg.view.ply < this.lastPly && !(msg.moves || []).length) {
      // Behind what was delivered: the moves from that ply on were taken back (undo.js), or, at
      // worst, an update overtaken by a catch-up, which the catch-up below sets right again.
      this.lastPly = msg.view.ply;
      if (this.onRewind) this.onRewind(msg.view.ply);
      this.catchUp();
      return;
    }
    if ((msg.type === "hello" || msg.type === "update") && msg.view) {
      this.received += 1;
      this.setStatus("online");
      // A server that sends no words on its socket (an older one): the message is only a signal.
      if (!msg.texts) this.catchUp();
      else this.deliver(msg, msg.moves || [], "socket");
    } else if (msg.type === "ack" || (msg.type === "error" && this.waiting.has(msg.ref))) {
      const w = this.waiting.get(msg.ref);
      if (!w) return;
      this.waiting.delete(msg.ref);
      clearTimeout(w.timer);
      if (msg.type === "ack") w.resolve(msg);
      else w.reject(new api.ApiError(400, msg.error));
    }
  }
  // A try that failed (or a socket that closed): the state says so, and the next try comes after
  // a pause that grows; where sockets never open, polling takes over.
  failed() {
    if (this.closed) return;
    const offline = navigator.onLine === false || this.failures >= OFFLINE_AFTER;
    this.setStatus(offline ? "offline" : "lost");
    if (!this.opened && this.failures >= 2) this.poll();
    const wait = BACKOFF_MS[Math.min(this.failures, BACKOFF_MS.length - 1)];
    if (!this.retry) this.retry = setTimeout(() => this.connect(), wait * (0.8 + 0.4 * Math.random()));
  }
  reconnectNow() {
    if (this.retry) { clearTimeout(this.retry); this.retry = null; }
    this.connect();
  }
  // --- heartbeat: a ping every HEARTBEAT_MS; a socket that then stays silent for PONG_MS is dead
  // (a network that went away closes nothing by itself).
  startHeartbeat() {
    this.stopHeartbeat();
    this.beat = setInterval(() => this.ping(), beat().every);
  }
  stopHeartbeat() {
    clearInterval(this.beat);
    clearTimeout(this.silence);
    this.beat = null;
    this.silence = null;
  }
  ping() {
    const ws = this.ws;
    if (!ws || ws.readyState !== WebSocket.OPEN) return;
    try { ws.send(JSON.stringify({ type: "ping", ref: `hb${this.nextRef++}` })); } catch { ws.close(); return; }
    if (!this.silence) this.silence = setTimeout(() => { this.silence = null; if (this.ws === ws) this.dead(ws); }, beat().silence);
  }
  heard() {
    clearTimeout(this.silence);
    this.silence = null;
  }
  dead(ws) {
    // The socket cannot be trusted any more: let it go at once (its close may take long to come).
    this.ws = null;
    ws.onclose = null;
    ws.onmessage = null;
    try { ws.close(); } catch { /* already closed */ }
    this.stopHeartbeat();
    this.failAll();
    this.failures += 1;
    this.failed();
  }
  failAll() {
    for (const [ref, w] of this.waiting) { clearTimeout(w.timer); w.reject(new NetworkError()); this.waiting.delete(ref); }
  }
  // --- a decision: over the socket when it is open (no HTTP request), else over HTTP (then the
  // moves and view are fetched, as no socket brings them).
  async act(seat, ply, action) {
    const ws = this.ws;
    if (ws && ws.readyState === WebSocket.OPEN && this.status === "online") {
      const ref = this.nextRef++;
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => { this.waiting.delete(ref); reject(new NetworkError()); this.dead(ws); }, ACK_MS);
        this.waiting.set(ref, { resolve, reject, timer });
        try { ws.send(JSON.stringify({ type: "act", ref, ply, action })); } catch { this.waiting.delete(ref); clearTimeout(timer); reject(new NetworkError()); }
        this.ping(); // a lost network shows at once, not at the next heartbeat
      });
    }
    let ack;
    try { ack = await api.act(this.gameId, this.seatToken, seat, ply, action); } catch (e) {
      if (e instanceof api.ApiError) throw e;
      throw new NetworkError();
    }
    await this.catchUp();
    return ack;
  }
  deliver(answer, newMoves, how) {
    if (this.lastPly === null) this.lastPly = answer.view.ply;
    const fresh = newMoves.filter((m) => m.ply >= this.lastPly);
    if (fresh.length) this.lastPly = fresh[fresh.length - 1].ply + 1;
    this.onUpdate(answer, fresh, how);
    this.delivered = true;
    this.markReady();
  }
  async catchUp() {
    if (this.paused) return false;
    try {
      this.fetched += 1;
      const missed = this.lastPly === null ? [] : await api.moves(this.gameId, this.seatToken, this.lastPly);
      const answer = await api.view(this.gameId, this.seatToken);
      if (this.lastPly !== null && answer.view.ply < this.lastPly && !missed.length) { // taken back (undo.js)
        this.lastPly = answer.view.ply;
        if (this.onRewind) this.onRewind(answer.view.ply);
      }
      this.deliver(answer, missed, "http");
      return true;
    } catch { return false; }
  }
  poll() {
    if (this.poller || this.closed) return;
    const tick = async () => {
      this.poller = null;
      if (this.closed || (this.ws && this.status === "online")) return;
      const ok = await this.catchUp();
      if (this.closed || (this.ws && this.status === "online")) return;
      this.setStatus(ok ? "online" : navigator.onLine === false ? "offline" : "lost");
      this.poller = setTimeout(tick, ok ? 1500 : 3000);
    };
    this.poller = setTimeout(tick, 0);
  }
  stopPolling() {
    if (this.poller) clearTimeout(this.poller);
    this.poller = null;
  }
  // The connection drops as a network failure would (the tests' hook): the socket closes, or the
  // polling stops for a moment, and the catch-up brings the page back.
  drop(ms = 1500) {
    if (this.ws) { this.ws.close(); return; }
    this.paused = true;
    this.setStatus("lost");
    setTimeout(() => { this.paused = false; }, ms);
  }
  close() {
    this.closed = true;
    window.removeEventListener("offline", this.onOffline);
    window.removeEventListener("online", this.onOnline);
    this.stopHeartbeat();
    this.stopPolling();
    if (this.retry) clearTimeout(this.retry);
    this.failAll();
    if (this.ws) this.ws.close();
  }
}

// --- the server out of reach (issue 28, item 8). A request that gets no answer (api.js
// `Unreachable`) shows a banner under the top bar, in words, with "Try again"; the page also tries
// again by itself every RETRY_MS (the tests shorten it: `window.__swRetryMs`) and as soon as the
// browser says it is online. Where no game's connection shows its state, the top bar says
// "offline" too. The first answer that comes clears both. "Try again" does what the screen says
// (app.js `whenBack`: a game reconnects, the lobby refreshes its lists, a screen that never loaded
// loads again).
export const RETRY_MS = 5000;
const retryMs = () => window.__swRetryMs || RETRY_MS;
let down = false;
let retrier = null;
let retryTimer = null;

export function whenBack(fn) { retrier = fn; }
export const isDown = () => down;

function banner() {
  let b = document.getElementById("offline");
  if (!b) {
    b = document.createElement("div");
    b.id = "offline";
    b.className = "offline-banner";
    b.setAttribute("role", "alert");
    b.hidden = true;
    const bar = document.querySelector(".topbar");
    if (bar) bar.after(b); else document.body.prepend(b);
  }
  return b;
}

// The banner's words, in the language shown (drawn again when it changes: app.js relabel).
export function relabelOffline() {
  if (!down) return;
  const b = banner();
  const said = document.createElement("span");
  said.className = "offline-text";
  said.textContent = W.t("conn.unreachable");
  const again = document.createElement("button");
  again.type = "button";
  again.id = "offline-retry";
  again.textContent = W.t("conn.retry");
  again.addEventListener("click", () => retryNow());
  b.replaceChildren(said, " ", again);
  b.hidden = false;
  const conn = document.getElementById("conn");
  if (conn && conn.dataset.by === "http") conn.textContent = W.t("live.offline");
}

function noteReach(ok) {
  if (ok !== down) return; // no change
  down = !ok;
  const conn = document.getElementById("conn");
  if (down) {
    if (conn && !conn.dataset.status) { conn.dataset.status = "offline"; conn.dataset.by = "http"; }
    relabelOffline();
    scheduleRetry();
  } else {
    clearTimeout(retryTimer);
    banner().hidden = true;
    if (conn && conn.dataset.by === "http") {
      // (unless a game's connection has said its own state since)
      if (conn.dataset.status === "offline") { delete conn.dataset.status; conn.textContent = ""; }
      delete conn.dataset.by;
    }
  }
}

function scheduleRetry() {
  clearTimeout(retryTimer);
  retryTimer = setTimeout(retryNow, retryMs());
}

export function retryNow() {
  clearTimeout(retryTimer);
  // The screen's retry, else any answer at all (the words, which every screen needs).
  const again = retrier || (() => api.words());
  Promise.resolve().then(again).catch(() => {}).finally(() => { if (down) scheduleRetry(); });
}

api.onReach(noteReach);
window.addEventListener("online", () => { if (down) retryNow(); });

// The client's own words (owner "web") kept from the last visit, so that a page loaded while the
// server is out of reach can say so in the reader's language.
export function keepWords(cats) {
  try { if (cats && cats.web) localStorage.setItem("sw.words.web", JSON.stringify({ web: cats.web })); } catch { /* storage full or off */ }
}
export function keptWords() {
  try { return JSON.parse(localStorage.getItem("sw.words.web") || "null"); } catch { return null; }
}
