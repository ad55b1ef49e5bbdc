// The lobby (#/): a new game's form, "my games" and the games to join, watch or replay. The
// screen's parts shared with the rest of the client (the element maker, the words, the refusals)
// come from app.js.
import * as api from "./api.js";
import * as W from "./i18n.js";
import * as N from "./names.js";
import { app, h, refused, useWords } from "./app.js";

// The editions a game can be created in and the variants each offers (the server checks them too:
// it refuses a variant an edition lacks, naming the field).
const EDITION_VARIANTS = { warcraft: ["standard", "team"], classic: ["standard"] };

export class Lobby {
  constructor() {
    // The form's choices live here, so that a re-render (a seat added, a language switched) keeps them.
    this.seats = [{ kind: "me" }, { kind: "bot", level: "greedy" }];
    this.form = { name: api.playerName(), edition: "warcraft", variant: "standard", clock: "turns" };
    this.mine = [];
    this.open = [];
    this.load();
  }
  async load() {
    try { await useWords("warcraft"); } catch { /* the words already loaded stay */ }
    try { if (api.playerToken()) this.mine = await api.myGames(); } catch { this.mine = []; }
    try { this.open = await api.openGames(); } catch { this.open = []; }
    this.render();
  }
  close() {}
  render() {
    const players = this.seats.length;
    const seatRow = (s, i) => h("div", { class: "seat-row" },
      h("label", { for: `seat-${i}` }, W.t("seat", { n: i + 1 })),
      h("select", { id: `seat-${i}`, name: `seat-${i}`, onchange: (e) => { s.kind = e.target.value; this.render(); } },
        ...["me", "hotseat", "invite", "open", "bot"].map((k) => h("option", { value: k, selected: s.kind === k }, W.t(`seat.${k}`)))),
      s.kind === "bot" ? h("select", { "aria-label": W.t("level"), name: `level-${i}`, onchange: (e) => { s.level = e.target.value; } },
        ...["random", "greedy", "mcts"].map((l) => h("option", { value: l, selected: s.level === l }, W.t(`level.${l}`)))) : null);
    const form = h("form", { id: "create", class: "panel", onsubmit: (e) => { e.preventDefault(); this.create(); } },
      h("h2", {}, W.t("create")),
      h("label", {}, W.t("name"), " ", h("input", { id: "name", name: "name", value: this.form.name, autocomplete: "nickname", oninput: (e) => { this.form.name = e.target.value; } })),
      h("label", {}, W.t("players"), " ", h("select", { id: "players", onchange: (e) => this.resize(+e.target.value) },
        ...[2, 3, 4, 5].map((n) => h("option", { value: n, selected: n === players }, n)))),
      h("label", {}, W.t("edition"), " ", h("select", { id: "edition", onchange: (e) => { this.form.edition = e.target.value; if (!EDITION_VARIANTS[this.form.edition].includes(this.form.variant)) this.form.variant = "standard"; this.render(); } },
        ...Object.keys(EDITION_VARIANTS).map((k) => h("option", { value: k, selected: this.form.edition === k }, W.t(`edition.${k}`))))),
      h("label", {}, W.t("variant"), " ", h("select", { id: "variant", onchange: (e) => { this.form.variant = e.target.value; } },
        ...EDITION_VARIANTS[this.form.edition].map((k) => h("option", { value: k, selected: this.form.variant === k }, W.t(`variant.${k}`))))),
      h("label", {}, W.t("clock"), " ", h("select", { id: "clock", onchange: (e) => { this.form.clock = e.target.value; } },
        ...["turns", "live"].map((k) => h("option", { value: k, selected: this.form.clock === k }, W.t(`clock.${k}`))))),
      h("fieldset", {}, h("legend", {}, W.t("players")), ...this.seats.map(seatRow)),
      h("button", { type: "submit", id: "create-game", class: "primary" }, W.t("create")));
    const gameRow = (g, mine) => h("li", { class: "game-row", dataset: { game: g.game } },
      h("span", {}, `${g.title || g.game} · ${g.seats.map((_, i) => N.playerName(g.seats, i)).join(", ")}`),
      mine && (g.my_seats || []).includes(g.acting_seat) && g.status === "playing" ? h("strong", { class: "your-turn" }, W.t("your_turn")) : null,
      g.status === "over" ? h("span", {}, W.t("game_over")) : null,
      !mine && g.seats.some((s) => s.open && !s.joined)
        ? h("button", { class: "join-open", onclick: () => this.joinOpen(g) }, W.t("join")) : null,
      h("a", { href: `#/game/${g.game}`, class: "button" }, mine ? W.t("open") : W.t("spectate")));
    app.replaceChildren(h("div", { class: "lobby", id: "lobby" },
      h("h1", {}, W.t("lobby")), form,
      h("section", { class: "panel", id: "my-games" }, h("h2", {}, W.t("my_games")),
        this.mine.length ? h("ul", {}, ...this.mine.map((g) => gameRow(g, true))) : h("p", {}, W.t("no_games"))),
      h("section", { class: "panel", id: "open-games" }, h("h2", {}, W.t("open_games")),
        this.open.length ? h("ul", {}, ...this.open.map((g) => gameRow(g, false))) : h("p", {}, W.t("no_games")))));
  }
  async joinOpen(g) {
    const name = document.getElementById("name").value.trim() || "Player";
    await api.ensurePlayer(name);
    const seat = g.seats.find((s) => s.open && !s.joined).seat;
    try { await api.join(g.game, { seat }, name); location.hash = `#/game/${g.game}`; } catch (e) { alert(refused(e)); }
  }
  resize(n) {
    while (this.seats.length < n) this.seats.push({ kind: "bot", level: "greedy" });
    this.seats.length = n;
    this.render();
  }
  async create() {
    const name = document.getElementById("name").value.trim() || "Player";
    await api.ensurePlayer(name);
    const variant = document.getElementById("variant").value;
    // The server's seat kinds: this browser's seats (one, or several for hot-seat) are the creator's.
    const kind = { me: "creator", hotseat: "creator", invite: "invite", open: "open", bot: "bot" };
    const spec = { edition: document.getElementById("edition").value, variant, players: this.seats.length, clock: { kind: this.form.clock === "live" ? "live" : "turn" },
      seats: this.seats.map((s) => (s.kind === "bot" ? { kind: "bot", level: s.level || "greedy" } : { kind: kind[s.kind] })) };
    try {
      const r = await api.createGame(spec);
      const invites = r.seats.filter((s) => s.invite).map((s) => ({ seat: s.seat, link: `${location.origin}/#/join/${r.game}/${s.invite}` }));
      localStorage.setItem(`sw.invites.${r.game}`, JSON.stringify(invites));
      location.hash = `#/game/${r.game}`;
    } catch (e) { alert(refused(e)); }
  }
}
