// The replay of a finished game (#/replay/ID): the board at any move, stepped with buttons, the
// slider or the arrow keys; beside it the players (name and seat colour, races, coins: every coin
// is public once the game is over), the round, whose move it was and the move in words (the
// server's texts of its events, `payload.event_texts`).
import * as api from "./api.js";
import * as W from "./i18n.js";
import * as N from "./names.js";
import { drawBoard, raceColour, raceName, abbrev } from "./board.js";
import { app, h, refused, useWords } from "./app.js";
import { replayChat } from "./chat.js";

export class Replay {
  constructor(gameId) {
    this.id = gameId;
    this.ply = 0;
    this.keys = (e) => this.key(e);
    this.start();
  }
  async start() {
    try {
      this.info = await api.gameInfo(this.id);
      await useWords(this.info.settings?.edition);
      this.board = await api.board(this.id);
      this.data = await api.replay(this.id); // every state of the finished game
    } catch (e) { app.replaceChildren(h("p", { class: "error" }, refused(e))); return; }
    document.addEventListener("keydown", this.keys);
    this.render();
  }
  close() { document.removeEventListener("keydown", this.keys); }
  // ← and → step through the moves (Home and End: the first and the last) wherever the focus is,
  // but in a text field or on the slider, which steps by itself.
  key(e) {
    const t = e.target;
    if (t && (t.id === "replay-slider" || t.tagName === "INPUT" || t.tagName === "SELECT" || t.tagName === "TEXTAREA")) return;
    const to = { ArrowLeft: this.ply - 1, ArrowRight: this.ply + 1, Home: 0, End: Infinity }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    this.go(to);
  }
  go(ply) {
    if (!this.data) return;
    this.ply = Math.max(0, Math.min(this.data.states.length - 1, ply));
    this.render();
  }
  seats() { return this.data.seats || this.info.seats; }
  // The players at this move: name and colour, races, coins; the seat that moved is marked.
  playersPanel(v, mover) {
    const seats = this.seats();
    return h("section", { class: "panel replay-players", id: "replay-players" }, h("h2", {}, W.t("replay.players")),
      h("ol", {}, ...v.seats.map((s, i) => h("li", { class: i === mover ? "to-act" : "", dataset: { seat: i } },
        N.tag(seats, i),
        h("span", { class: "races" },
          s.active ? h("span", { class: "race" }, " · ", h("span", { class: "emblem", style: `background:${raceColour(s.active)}` }, abbrev(s.active)),
            ` ${W.unitName(s.power)} ${raceName(s.active)}`) : null,
          s.declined ? h("span", { class: "race declined" }, ` · ↓${raceName(s.declined)}`) : null),
        h("span", { class: "coins", dataset: { coins: s.coins } }, `${s.coins} ${W.t("coins")}`)))));
  }
  render() {
    if (!this.data) return;
    const states = this.data.states;
    const last = states.length - 1;
    const v = states[this.ply];
    const rounds = states[last].round;
    const move = this.ply > 0 ? this.data.actions[this.ply - 1] : null;
    const texts = this.data.texts ? this.data.texts[this.ply] : null;
    // The decision taken (as it was offered), then what it set off.
    const decision = move && this.data.decisions ? W.pick(this.data.decisions[this.ply - 1]) : null;
    const lines = this.ply === 0 ? [W.t("replay.start")] : texts ? W.pick(texts) : (v.events || []).map((ev) => ev.type);
    const seats = this.seats();
    const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
    svg.setAttribute("class", "board");
    drawBoard(svg, this.board, v);
    app.replaceChildren(h("div", { id: "replay", class: "game replay", dataset: { ply: v.ply, phase: v.phase, round: v.round } },
      h("h1", { class: "sr-only" }, W.t("replay.heading", { title: this.info.title || W.t(`edition.${this.info.settings?.edition || "warcraft"}`) })),
      h("section", { class: "board-wrap" }, svg),
      h("aside", { class: "side" },
        h("section", { class: "panel" }, h("h2", {}, W.t("replay")),
          h("div", { class: "replay-where", id: "replay-where" },
            `${W.t("round", { n: v.round, of: rounds })} · ${W.t("replay.move", { n: this.ply, of: last })}`),
          h("div", {}, W.phase(v.phase)),
          h("input", { type: "range", id: "replay-slider", min: 0, max: last, value: this.ply, "aria-label": W.t("replay"),
            oninput: (e) => this.go(+e.target.value), onchange: (e) => this.go(+e.target.value) }),
          h("div", { class: "buttons" },
            h("button", { id: "replay-first", onclick: () => this.go(0), disabled: this.ply === 0 }, W.t("first")),
            h("button", { id: "replay-prev", onclick: () => this.go(this.ply - 1), disabled: this.ply === 0 }, W.t("prev")),
            h("button", { id: "replay-next", onclick: () => this.go(this.ply + 1), disabled: this.ply === last }, W.t("next")),
            h("button", { id: "replay-last", onclick: () => this.go(last), disabled: this.ply === last }, W.t("last")))),
        h("section", { class: "panel log", id: "replay-move", "aria-live": "polite" },
          move ? h("h2", {}, N.tag(seats, move.seat)) : null,
          decision ? h("p", { class: "decision", id: "replay-decision" }, ...N.rich(decision, seats)) : null,
          h("ol", {}, ...lines.map((t) => h("li", {}, ...N.rich(t, seats))))),
        this.playersPanel(v, move ? move.seat : -1))));
    const chat = replayChat(this.data.chat, this.ply, seats); // the messages posted at this ply (chat.js)
    if (chat) document.querySelector("#replay aside.side").append(chat);
    document.getElementById("replay-slider")?.focus({ preventScroll: true });
  }
}
