// The lobby (#/): a new game's form, "my games" and the games to join, watch or replay. The
// screen's parts shared with the rest of the client (the element maker, the words, the refusals)
// come from app.js.
import * as api from "./api.js";
import * as W from "./i18n.js";
import * as N from "./names.js";
import { app, h, refused, useWords } from "./app.js";
import { tutorialLink } from "./tutorial.js";
import * as Account from "./account.js";
import { quickBox } from "./players.js";

// The editions a game can be created in and the variants each offers (the server checks them too:
// it refuses a variant an edition lacks, naming the field).
const EDITION_VARIANTS = { warcraft: ["standard", "team"], classic: ["standard"] };

// The lobby's lists: the player's own games, the open games to join, the games in progress to
// watch and the finished ones to replay.
const LISTS = [
  { key: "mine", id: "my-games", title: "my_games", status: null },
  { key: "open", id: "open-games", title: "open_games", status: "open" },
  { key: "playing", id: "watch-games", title: "lobby.watch_games", status: "playing" },
  { key: "over", id: "finished-games", title: "lobby.finished_games", status: "over" },
];

// A game as a list shows it: never its id, but its title (or edition), the players (the
// opponents, in the player's own list), the day it began, whose turn it is ("your turn" stands
// out) or how it ended, and what can be done with it.
function gameRow(g, list, join) {
  const mine = g.my_seats || [];
  const others = g.seats.map((_, i) => i).filter((i) => !mine.includes(i));
  const names = (seats) => seats.map((i) => N.playerName(g.seats, i)).join(", ");
  const edition = g.settings?.edition || "warcraft";
  const title = g.title || [W.t(`edition.${edition}`), g.settings?.variant === "team" ? W.t("variant.team") : null].filter(Boolean).join(" · ");
  const when = new Date(g.created * 1000).toLocaleString(W.current(), { day: "numeric", month: "short", year: "numeric", hour: "2-digit", minute: "2-digit" });
  const link = (href, label, cls) => h("a", { href, class: `button ${cls}` }, label);
  let state = null;
  if (g.status === "open") state = h("span", { class: "state" }, W.t("lobby.waiting"));
  else if (g.status === "playing") {
    const turn = mine.includes(g.acting_seat)
      ? h("strong", { class: "your-turn" }, W.t("your_turn"))
      : h("span", { class: "state" }, W.t("lobby.turn_of", { name: N.playerName(g.seats, g.acting_seat) }));
    state = h("span", {}, h("span", { class: "round" }, W.t("round", { n: g.round, of: g.rounds })), " · ", turn);
  } else if (g.result) state = resultLine(g, mine, names);
  const actions = [];
  if (list === "open" && g.seats.some((s) => s.open && !s.joined)) actions.push(h("button", { class: "join-open", onclick: () => join(g) }, W.t("join")));
  if (list === "mine") actions.push(link(`#/game/${g.game}`, W.t("open"), "open-game"));
  else if (g.status !== "over") actions.push(link(`#/game/${g.game}`, W.t("spectate"), "watch"));
  if (g.status === "over") actions.push(link(`#/replay/${g.game}`, W.t("replay"), "replay"));
  return h("li", { class: "game-row", dataset: { game: g.game, status: g.status } },
    h("div", { class: "game-what" },
      h("strong", { class: "game-title" }, title), " · ",
      h("span", { class: "players" }, list === "mine" && others.length ? W.t("lobby.vs", { names: names(others) }) : names(g.seats.map((_, i) => i)))),
    h("div", { class: "game-when" }, h("time", { datetime: new Date(g.created * 1000).toISOString() }, W.t("lobby.created", { date: when })), state ? " · " : "", state),
    h("div", { class: "buttons" }, ...actions));
}

// How a finished game ended, for the reader: won, lost or shared when it holds a seat, else who
// won; and the final coins, the winners' first.
function resultLine(g, mine, names) {
  const res = g.result;
  const winners = res.winners || [];
  const won = mine.some((i) => winners.includes(i));
  // A reader holding every seat (hot-seat) reads who won, as one holding none.
  const own = mine.length > 0 && mine.length < res.scores.length;
  const words = !own ? W.t("lobby.winner", { names: names(winners) })
    : W.t(won ? (winners.length > 1 ? "lobby.shared" : "lobby.you_won") : "lobby.you_lost");
  const order = [...res.scores.keys()].sort((a, b) => res.scores[b] - res.scores[a]);
  return h("span", { class: `result${own ? (won ? " won" : " lost") : ""}` },
    h("strong", {}, words), ` (${order.map((i) => res.scores[i]).join("–")})`);
}

// The bot levels a seat may be given (GET /api/bots: easiest first, as the ladder rated them), asked
// once; until they come, or if they do not, the bots are named without their ratings.
let botLevels = null;
const PLAIN_LEVELS = ["random", "greedy", "mcts"].map((level) => ({ level, ratings: {} }));

// "Medium: Greedy · ladder 1886": the level's difficulty, its bot and its rating at the table size
// the ladder played nearest to this game's.
function levelLabel(lv, players) {
  const name = W.t(`level.${lv.level}`);
  const sizes = Object.keys(lv.ratings).sort((a, b) => Math.abs(a - players) - Math.abs(b - players) || a - b);
  if (!lv.difficulty || !sizes.length) return name;
  return W.t("level.rated", { difficulty: W.t(`difficulty.${lv.difficulty}`), name, rating: lv.ratings[sizes[0]].rating });
}

// The lists refresh by themselves while the lobby is open and its tab is seen: every REFRESH_MS
// (the tests shorten it: `window.__swLobbyPoll`, set before the page loads), at once when the
// tab is seen again, never while it is hidden. Only a list that changed is drawn again, in place:
// the form, the account box and what is being typed in them stay as they are.
export const REFRESH_MS = 15000;
const refreshMs = () => window.__swLobbyPoll || REFRESH_MS;

export class Lobby {
  constructor() {
    // The form's choices live here, so that a re-render (a seat added, a language switched) keeps them.
    this.seats = [{ kind: "me" }, { kind: "bot", level: "greedy" }];
    this.form = { name: api.playerName(), edition: "warcraft", variant: "standard", clock: "turns" };
    // The lists (docs/server.md, "Lists"): each a page at a time, newest first; `next` is the
    // cursor of the following page (null: none).
    this.lists = Object.fromEntries(LISTS.map((l) => [l.key, { games: [], next: null }]));
    this.timer = null;
    this.closed = false;
    this.onVisible = () => {
      clearTimeout(this.timer);
      if (!document.hidden) this.refresh();
    };
    document.addEventListener("visibilitychange", this.onVisible);
    this.load();
  }
  async load() {
    try { await useWords("warcraft"); } catch { /* the words already loaded stay */ }
    const levels = botLevels ? null : api.call("GET", "/api/bots").then((b) => { botLevels = b.levels.filter((lv) => lv.difficulty); }, () => {});
    await Promise.all([...LISTS.map((l) => this.fetch(l)), levels]);
    if (this.closed) return;
    this.render();
    this.schedule();
  }
  schedule() {
    clearTimeout(this.timer);
    if (!this.closed && !document.hidden) this.timer = setTimeout(() => this.refresh(), refreshMs());
  }
  // Each list again, as many games as it shows (its first page at the least); a list that changed
  // replaces its section, the control focused in it focused again.
  async refresh() {
    clearTimeout(this.timer);
    await Promise.all(LISTS.map(async (list) => {
      const have = this.lists[list.key];
      const limit = Math.min(50, Math.max(8, have.games.length));
      let answer;
      try {
        if (list.status) answer = await api.listGames(list.status, null, limit);
        else if (api.playerToken() || api.loggedIn()) answer = await api.myGamesPage(null, limit);
        else return;
      } catch { return; } // kept as it was; the next refresh asks again
      if (this.closed || (JSON.stringify(answer.games) === JSON.stringify(have.games) && answer.next === have.next)) return;
      this.lists[list.key] = { games: answer.games, next: answer.next };
      this.redrawList(list);
    }));
    this.schedule();
  }
  redrawList(list) {
    const old = document.getElementById(list.id);
    if (!old) return;
    const active = old.contains(document.activeElement) ? document.activeElement : null;
    const row = active && active.closest("li[data-game]");
    const cls = active && [...active.classList].join(".");
    const fresh = this.listSection(list);
    old.replaceWith(fresh);
    if (!active) return;
    const again = (row && fresh.querySelector(`li[data-game="${row.dataset.game}"] ${active.tagName}${cls ? `.${cls}` : ""}`))
      || (cls && fresh.querySelector(`${active.tagName}.${cls}`)) || fresh.querySelector("h2");
    if (again) { if (again.tagName === "H2") again.tabIndex = -1; again.focus({ preventScroll: true }); }
  }
  // One page of a list; `more`: the next one, added under those shown.
  async fetch(list, more = false) {
    const have = this.lists[list.key];
    let answer = { games: [], next: null };
    try {
      if (list.status) answer = await api.listGames(list.status, more ? have.next : null);
      else if (api.playerToken() || api.loggedIn()) answer = await api.myGamesPage(more ? have.next : null);
    } catch { /* an empty list; the next visit asks again */ }
    this.lists[list.key] = { games: more ? [...have.games, ...answer.games] : answer.games, next: answer.next };
  }
  async more(list) {
    await this.fetch(list, true);
    this.render();
    document.querySelector(`#${list.id} .more`)?.focus({ preventScroll: true });
  }
  close() {
    this.closed = true;
    clearTimeout(this.timer);
    document.removeEventListener("visibilitychange", this.onVisible);
  }
  render() {
    const players = this.seats.length;
    const seatRow = (s, i) => h("div", { class: "seat-row" },
      h("label", { for: `seat-${i}` }, W.t("seat", { n: i + 1 })),
      h("select", { id: `seat-${i}`, name: `seat-${i}`, onchange: (e) => { s.kind = e.target.value; this.render(); } },
        ...["me", "hotseat", "invite", "open", "bot"].map((k) => h("option", { value: k, selected: s.kind === k }, W.t(`seat.${k}`)))),
      s.kind === "bot" ? h("select", { "aria-label": W.t("level"), name: `level-${i}`, onchange: (e) => { s.level = e.target.value; } },
        ...(botLevels || PLAIN_LEVELS).map((lv) => h("option", { value: lv.level, selected: s.level === lv.level }, levelLabel(lv, players)))) : null);
    const form = h("form", { id: "create", class: "panel", onsubmit: (e) => { e.preventDefault(); this.create(); } },
      h("h2", {}, W.t("create")),
      // Logged in, the account's name is the player's: no name to type.
      api.loggedIn() ? null : h("label", {}, W.t("name"), " ", h("input", { id: "name", name: "name", value: this.form.name, autocomplete: "nickname", oninput: (e) => { this.form.name = e.target.value; } })),
      h("label", {}, W.t("players"), " ", h("select", { id: "players", onchange: (e) => this.resize(+e.target.value) },
        ...[2, 3, 4, 5].map((n) => h("option", { value: n, selected: n === players }, n)))),
      h("label", {}, W.t("edition"), " ", h("select", { id: "edition", onchange: (e) => { this.form.edition = e.target.value; if (!EDITION_VARIANTS[this.form.edition].includes(this.form.variant)) this.form.variant = "standard"; this.render(); } },
        ...Object.keys(EDITION_VARIANTS).map((k) => h("option", { value: k, selected: this.form.edition === k }, W.t(`edition.${k}`))))),
      h("label", {}, W.t("variant"), " ", h("select", { id: "variant", onchange: (e) => { this.form.variant = e.target.value; } },
        ...EDITION_VARIANTS[this.form.edition].map((k) => h("option", { value: k, selected: this.form.variant === k }, W.t(`variant.${k}`))))),
      h("label", {}, W.t("clock"), " ", h("select", { id: "clock", onchange: (e) => { this.form.clock = e.target.value; } },
        ...["turns", "live"].map((k) => h("option", { value: k, selected: this.form.clock === k }, W.t(`clock.${k}`))))),
      h("fieldset", {}, h("legend", {}, W.t("players")), ...this.seats.map(seatRow)),
      // A rated game (docs/players.md): a logged-in account's, one seat each, no undo.
      api.loggedIn() ? h("label", { class: "rated" }, h("input", { type: "checkbox", id: "rated", checked: this.form.rated,
        onchange: (e) => { this.form.rated = e.target.checked; this.render(); } }), " ", W.t("players.rated")) : null,
      // Take-backs (docs/server.md, Undo): offered in a casual game unless its creator says no.
      this.form.rated && api.loggedIn() ? null : h("label", { class: "undo-choice" }, h("input", { type: "checkbox", id: "allow-undo", checked: this.form.undo !== false,
        onchange: (e) => { this.form.undo = e.target.checked; } }), " ", W.t("lobby.allow_undo")),
      h("button", { type: "submit", id: "create-game", class: "primary" }, W.t("create")));
    // The account box and the quick game keep their state across the lobby's redraws; a language
    // switched draws them again in its words.
    if (this.wordsIn !== W.current()) {
      this.account?.relabel();
      this.quick?.relabel();
      this.wordsIn = W.current();
    }
    this.account = this.account || Account.box(() => { this.quick = null; this.load(); });
    this.quick = this.quick || quickBox(api.loggedIn());
    app.replaceChildren(h("div", { class: "lobby", id: "lobby" },
      h("h1", {}, W.t("lobby")), h("p", { class: "learn" }, tutorialLink()), this.account, this.quick, form,
      ...LISTS.map((l) => this.listSection(l))));
  }
  listSection(list) {
    const { games, next } = this.lists[list.key];
    return h("section", { class: "panel game-list", id: list.id }, h("h2", {}, W.t(list.title)),
      games.length ? h("ul", {}, ...games.map((g) => gameRow(g, list.key, (x) => this.joinOpen(x)))) : h("p", {}, W.t("no_games")),
      next ? h("button", { class: "more", onclick: () => this.more(list) }, W.t("lobby.more")) : null);
  }
  // The name a new seat takes: the account's when logged in (the server uses it), else the one typed.
  playerName() {
    if (api.loggedIn()) return api.playerName() || "Player";
    return (document.getElementById("name")?.value || "").trim() || "Player";
  }
  async joinOpen(g) {
    const name = this.playerName();
    const seat = g.seats.find((s) => s.open && !s.joined).seat;
    try {
      if (!api.loggedIn()) await api.ensurePlayer(name);
      await api.join(g.game, { seat }, name);
      location.hash = `#/game/${g.game}`;
    } catch (e) { if (!e.network) alert(refused(e)); } // out of reach: the banner says so (connection.js)
  }
  // "Try again" while the server is out of reach (connection.js): the lists again.
  retry() { return this.refresh(); }
  resize(n) {
    while (this.seats.length < n) this.seats.push({ kind: "bot", level: "greedy" });
    this.seats.length = n;
    this.render();
  }
  async create() {
    if (!api.loggedIn()) {
      try { await api.ensurePlayer(this.playerName()); } catch (e) { if (!e.network) alert(refused(e)); return; }
    }
    const variant = document.getElementById("variant").value;
    // The server's seat kinds: this browser's seats (one, or several for hot-seat) are the creator's.
    const kind = { me: "creator", hotseat: "creator", invite: "invite", open: "open", bot: "bot" };
    const spec = { edition: document.getElementById("edition").value, variant, players: this.seats.length, clock: { kind: this.form.clock === "live" ? "live" : "turn" },
      seats: this.seats.map((s) => (s.kind === "bot" ? { kind: "bot", level: s.level || "greedy" } : { kind: kind[s.kind] })) };
    if (this.form.rated && api.loggedIn()) spec.rated = true;
    else if (this.form.undo === false) spec.undo = false;
    try {
      const r = await api.createGame(spec);
      const invites = r.seats.filter((s) => s.invite).map((s) => ({ seat: s.seat, link: `${location.origin}/#/join/${r.game}/${s.invite}` }));
      localStorage.setItem(`sw.invites.${r.game}`, JSON.stringify(invites));
      location.hash = `#/game/${r.game}`;
    } catch (e) { if (!e.network) alert(refused(e)); }
  }
}
