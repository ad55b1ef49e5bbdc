// The chat of a game (docs/web.md, "Chat"; the server's side: docs/server.md, "Chat"). One panel in
// the game screen's side column, made once and kept across the screen's renders (the screen hands
// it the new page each time: `attach`), so what is being typed, the list's scroll and the focus
// survive every update. A seat reads and writes the players' channel, a spectator the spectators';
// both are shown once the game is over, and in the replay at the ply each was posted (`replayChat`).
// Every text a person typed goes into the page as text (textContent), never as HTML.
// Mute: per player (a seat, or a spectator's name), per game, kept in localStorage; a muted
// player's messages are hidden and counted nowhere.
import * as api from "./api.js";
import * as W from "./i18n.js";
import * as N from "./names.js";

export const MAX_TEXT = 300; // the server's limit (smallworld/server/chat.py)
const NARROW = "(max-width: 760px)";

// The panel's own style sheet, linked once (the page's style.css stays the layouts').
if (!document.querySelector('link[href="/static/chat.css"]')) {
  document.head.append(Object.assign(document.createElement("link"), { rel: "stylesheet", href: "/static/chat.css" }));
}

// An element with attributes (`on*`: listeners) and children; a string child becomes a text node.
function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined && c !== false) e.append(c);
  return e;
}

// A message's poster as a mute key: a seat by its number, a spectator by the name given.
const who = (m) => (m.seat === null || m.seat === undefined ? `name:${m.name}` : `seat:${m.seat}`);
const clock = (m) => new Date(m.created * 1000).toLocaleTimeString(W.current(), { hour: "2-digit", minute: "2-digit" });

// One line: the poster (a seat with its colour dot and its one name; a spectator by the name given,
// marked as such), then the text.
function line(m, seats) {
  const seated = m.seat !== null && m.seat !== undefined;
  const poster = seated && seats ? N.tag(seats, m.seat) : el("span", { class: "who" }, m.name);
  return el("li", { class: `chat-line chat-${m.channel}`, "data-seq": m.seq, "data-seat": seated ? m.seat : "", "data-channel": m.channel, title: clock(m) },
    el("strong", { class: "chat-name" }, poster),
    seated ? null : el("small", { class: "chat-tag" }, ` (${W.t("chat.spectator")})`),
    ": ",
    el("span", { class: "chat-text" }, m.text));
}

export class ChatPanel {
  // `screen`: the game screen (its `id`, `info`, `tokens`, `heldSeats()` and `shown()`).
  constructor(screen) {
    this.screen = screen;
    this.byseq = new Map(); // seq -> message
    this.unread = 0;
    this.sawOver = false;
    this.error = null; // what went wrong, in words of the language shown: () => text
    this.muteKey = `sw.chat.mute.${screen.id}`;
    try { this.muted = new Set(JSON.parse(localStorage.getItem(this.muteKey) || "[]")); } catch { this.muted = new Set(); }
    const saved = localStorage.getItem("sw.chat.open");
    // Folded at first where no other person sits at the table (bots alone, a tutorial, a hot-seat
    // game): no one would answer there, and on a laptop the open panel covers the side column's foot.
    // Elsewhere open on a laptop, folded on a phone, until the reader chooses (kept for every game).
    const people = this.seats().some((s, i) => s.kind !== "bot" && !this.held().includes(i));
    this.open = people && (saved === null ? !window.matchMedia(NARROW).matches : saved === "1");
    this.build();
    this.sync(true);
  }
  held() { return this.screen.heldSeats(); }
  seated() { return this.held().length > 0; }
  // The token the chat reads with (the first seat this browser holds; none: a spectator), and the
  // one it posts with (the seat shown, the one to act in a hot-seat game).
  readToken() { return this.seated() ? this.screen.tokens[this.held()[0]] : null; }
  postToken() {
    if (!this.seated()) return null;
    const key = this.screen.shown().key;
    return this.screen.tokens[key] ?? this.readToken();
  }
  seats() { return (this.screen.info && this.screen.info.seats) || []; }
  build() {
    this.toggle = el("button", { type: "button", id: "chat-toggle", class: "chat-toggle", onclick: () => this.setOpen(!this.open) });
    this.note = el("p", { class: "chat-note", id: "chat-note" });
    // Where the list is scrolled to (kept across re-renders, which take the panel out of the page
    // for a moment): at the end it follows new messages, else it stays where the reader is.
    this.stick = true;
    this.scrollPos = 0;
    this.list = el("ol", { class: "chat-list", id: "chat-list", tabindex: "0", "aria-live": "polite", onscroll: () => {
      if (!this.list.isConnected || !this.list.clientHeight) return;
      this.stick = this.list.scrollHeight - this.list.scrollTop - this.list.clientHeight < 8;
      this.scrollPos = this.list.scrollTop;
    } });
    this.empty = el("p", { class: "chat-empty", id: "chat-empty" });
    this.nameInput = el("input", { id: "chat-name", class: "chat-name-input", maxlength: "40", autocomplete: "nickname", value: api.playerName() });
    this.input = el("input", { id: "chat-input", class: "chat-input", maxlength: String(MAX_TEXT), autocomplete: "off", enterkeyhint: "send" });
    this.sendButton = el("button", { type: "submit", id: "chat-send", class: "primary" });
    this.form = el("form", { id: "chat-form", class: "chat-form", onsubmit: (e) => { e.preventDefault(); this.send(); } },
      this.nameInput, this.input, this.sendButton);
    this.errorBox = el("p", { id: "chat-error", class: "chat-error error", role: "alert" });
    this.muteSummary = el("summary", {});
    this.muteList = el("ul", { class: "chat-mute-list" });
    this.mute = el("details", { id: "chat-mute", class: "chat-mute" }, this.muteSummary, this.muteList);
    this.body = el("div", { id: "chat-body", class: "chat-body" }, this.note, this.list, this.empty, this.form, this.errorBox, this.mute);
    this.el = el("section", { id: "chat", class: "panel chat" }, el("h2", {}, this.toggle), this.body);
    this.labels();
  }
  // The words of the panel, in the language now chosen, and what depends on the game's state.
  labels() {
    const over = (this.screen.info && this.screen.info.status) === "over";
    this.toggle.replaceChildren(W.t("chat"), this.unread ? el("span", { class: "chat-unread", id: "chat-unread", "aria-hidden": "true" }, String(this.unread)) : "");
    this.toggle.setAttribute("aria-expanded", this.open ? "true" : "false");
    this.toggle.setAttribute("aria-label", this.unread ? `${W.t("chat")} · ${W.t("chat.unread", { n: this.unread })}` : W.t("chat"));
    this.el.dataset.open = this.open ? "yes" : "no";
    this.el.dataset.unread = this.unread;
    this.body.hidden = !this.open;
    this.note.textContent = over ? W.t("chat.both") : this.seated() ? W.t("chat.seats_channel") : W.t("chat.spectators_channel");
    this.empty.textContent = W.t("chat.empty");
    this.nameInput.hidden = this.seated();
    this.nameInput.setAttribute("aria-label", W.t("name"));
    this.nameInput.setAttribute("placeholder", W.t("name"));
    this.input.setAttribute("aria-label", W.t("chat.message"));
    this.input.setAttribute("placeholder", W.t("chat.placeholder"));
    this.sendButton.textContent = W.t("chat.send");
    this.muteSummary.textContent = this.muted.size ? `${W.t("chat.mute")} (${this.muted.size})` : W.t("chat.mute");
    const error = this.error ? this.error() : "";
    if (this.errorBox.textContent !== error) this.errorBox.textContent = error; // said once (an alert)
    this.errorBox.hidden = !this.error;
    this.list.setAttribute("aria-label", W.t("chat"));
    this.muteOptions();
    this.draw();
  }
  // The players one may mute: the other seats held by people, and the spectators who wrote.
  muteOptions() {
    const seats = this.seats();
    const mine = new Set(this.held());
    const options = [];
    seats.forEach((s, i) => { if (s.kind !== "bot" && !mine.has(i)) options.push([`seat:${i}`, N.tag(seats, i)]); });
    const names = new Set([...this.byseq.values()].filter((m) => m.seat === null).map((m) => m.name));
    for (const name of [...names].sort()) options.push([`name:${name}`, el("span", { class: "who" }, name, el("small", {}, ` (${W.t("chat.spectator")})`))]);
    for (const key of this.muted) {
      if (!options.some(([k]) => k === key)) options.push([key, el("span", {}, key.replace(/^(seat|name):/, ""))]);
    }
    this.muteList.replaceChildren(...options.map(([key, label]) => el("li", {},
      el("label", {}, el("input", { type: "checkbox", "data-mute": key, checked: this.muted.has(key), onchange: (e) => this.setMuted(key, e.target.checked) }), " ", label))));
    this.mute.hidden = options.length === 0;
  }
  setMuted(key, on) {
    if (on) this.muted.add(key); else this.muted.delete(key);
    localStorage.setItem(this.muteKey, JSON.stringify([...this.muted]));
    this.labels();
  }
  setOpen(open) {
    this.open = open;
    localStorage.setItem("sw.chat.open", open ? "1" : "0");
    if (open) this.unread = 0;
    this.labels();
    if (open) this.input.focus({ preventScroll: true });
  }
  shown() { return [...this.byseq.values()].sort((a, b) => a.seq - b.seq).filter((m) => !this.muted.has(who(m))); }
  // The list, rebuilt only when what it shows changed (it is a live region: a screen reader reads
  // what is added, and a rebuild at every update of the game would read it all again).
  draw() {
    const shown = this.shown();
    const base = JSON.stringify([W.current(), this.seats().map((s) => [s.name, s.kind, s.bot, s.joined])]);
    const seqs = shown.map((m) => m.seq);
    const had = this.drawnSeqs || [];
    if (base === this.drawnBase && had.length <= seqs.length && had.every((q, i) => q === seqs[i])) {
      this.list.append(...shown.slice(had.length).map((m) => line(m, this.seats()))); // new lines only
    } else {
      this.list.replaceChildren(...shown.map((m) => line(m, this.seats())));
    }
    this.drawnBase = base;
    this.drawnSeqs = seqs;
    this.empty.hidden = shown.length > 0;
    this.list.hidden = shown.length === 0;
    this.list.scrollTop = this.stick ? this.list.scrollHeight : this.scrollPos;
  }
  // New messages; `live` ones (pushed, or missed while the socket was down: not the history read at
  // the start) count as unread while the panel is closed, unless they are this browser's own or a
  // muted player's.
  add(messages, live) {
    let fresh = 0;
    for (const m of messages) {
      if (this.byseq.has(m.seq)) continue;
      this.byseq.set(m.seq, m);
      const own = (m.seat !== null && this.held().includes(m.seat)) || this.posted === m.seq;
      if (live && !own && !this.muted.has(who(m))) fresh += 1;
    }
    if (fresh && !this.open) this.unread += fresh;
    this.labels();
  }
  // What the reader may read: all of it (`full`: at the start, after a reconnection, at the end of
  // the game when both channels open), else what came after the last message held.
  async sync(full = false) {
    this.synced = Date.now();
    const since = full ? 0 : Math.max(0, ...this.byseq.keys());
    try {
      const r = await api.chatRead(this.screen.id, this.readToken(), since);
      this.add(r.messages, this.loaded); // the history first read is not "unread"; what was missed since is
      this.loaded = true;
    } catch { /* the chat waits for the next update */ }
  }
  // A socket's chat message (null: the socket (re)opened: catch up).
  receive(message) {
    if (message) this.add([message], true);
    else this.sync(true);
  }
  async send() {
    const text = this.input.value.trim();
    if (!text) return;
    const body = { text };
    if (!this.seated()) {
      const name = this.nameInput.value.trim();
      if (!name) { this.error = () => W.t("chat.name_needed"); this.labels(); this.nameInput.focus(); return; }
      body.name = name;
    }
    this.sendButton.disabled = true;
    try {
      const r = await api.chatPost(this.screen.id, this.postToken(), body);
      this.posted = r.message.seq;
      this.input.value = "";
      this.error = null;
      this.stick = true;
      this.add([r.message], false);
    } catch (e) {
      const body = e && e.body && e.body.code ? e.body : null;
      this.error = () => (body ? W.refusal(body) : String((e && e.message) || e));
      this.labels();
    } finally {
      this.sendButton.disabled = false;
    }
  }
  // The game screen's hook, after each render: the panel goes into the new page (`root`): on a
  // laptop at the foot of the side column, where it stays in sight as the column scrolls (chat.css),
  // below the decisions; on a phone (one column) under the status, collapsed at first, so that it
  // is found without scrolling and covers nothing. Its words follow the language, and at the
  // game's end both channels are read.
  attach(root) {
    const over = (this.screen.info && this.screen.info.status) === "over";
    if (over && !this.sawOver) { this.sawOver = true; this.sync(true); }
    // No socket (the page polls the game): the chat is read with the game's updates, every 3 s at most.
    else if (this.screen.status === "polling" && Date.now() - (this.synced || 0) > 3000) this.sync();
    const status = root.querySelector("#status");
    const side = root.querySelector("aside.side") || root;
    if (status && window.matchMedia(NARROW).matches) status.after(this.el);
    else side.append(this.el);
    this.labels();
  }
}

// The replay's messages at one ply (posted while the game was at that ply: after the move before
// it), both channels, as the panel writes them; null when there are none.
export function replayChat(messages, ply, seats) {
  const here = (messages || []).filter((m) => m.ply === ply);
  if (!here.length) return null;
  return el("section", { class: "panel chat replay-chat", id: "replay-chat" },
    el("h2", {}, W.t("chat.here")),
    el("ol", { class: "chat-list" }, ...here.map((m) => line(m, seats))));
}
