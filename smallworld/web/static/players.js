// Players' pages (docs/players.md): the leaderboard (#/leaderboard[/EDITION/VARIANT/PACE]), a
// player's profile with their rating over time (#/player/ID, or bot:LEVEL), quick games (a box in
// the lobby) and tournaments (#/tournaments, #/tournament/ID). Every word from the catalogue
// (words.json, "players.*"); the server's refusals in words (i18n.refusal).
import * as api from "./api.js";
import * as W from "./i18n.js";
import * as N from "./names.js";
import { h as el } from "./app.js"; // the one element maker for HTML

const app = () => document.getElementById("app");
if (!document.querySelector('link[href="/static/players.css"]')) {
  document.head.append(Object.assign(document.createElement("link"), { rel: "stylesheet", href: "/static/players.css" }));
}

function svg(tag, attrs = {}, ...children) {
  const e = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined && v !== null && v !== false) e.setAttribute(k, v);
  for (const c of children.flat()) if (c !== null && c !== undefined && c !== false) e.append(c instanceof Node ? c : String(c));
  return e;
}
const said = (e) => (e && e.body && e.body.code ? W.refusal(e.body) : W.t("players.failed"));
const POOLS = ["warcraft/standard/turn", "warcraft/standard/live", "warcraft/team/turn", "warcraft/team/live", "classic/standard/turn", "classic/standard/live"];
const poolName = (pool) => {
  const [edition, variant, pace] = pool.split("/");
  return `${W.t(`edition.${edition}`)} · ${W.t(`variant.${variant}`)} · ${W.t(`players.pace.${pace}`)}`;
};
// A leaderboard's or a profile's name: the player's, or the bot's level in words.
const who = (e) => (e.bot ? W.t("players.bot", { level: W.t(`level.${e.bot}`) }) : e.player.name);
const ratingText = (r) => W.t("players.rating", { rating: r.rating, uncertainty: r.uncertainty });

// --- the leaderboard ----------------------------------------------------------------------------
export class Leaderboard {
  constructor(pool, page = 0) {
    this.pool = POOLS.includes(pool) ? pool : POOLS[0];
    this.page = page;
    this.data = null;
    this.load();
  }
  async load() {
    try { this.data = await api.call("GET", `/api/ratings?pool=${encodeURIComponent(this.pool)}&limit=25&offset=${this.page * 25}`); } catch (e) { this.error = said(e); }
    this.render();
  }
  close() {}
  render() {
    const pick = el("select", { id: "pool", "aria-label": W.t("players.pool"), onchange: (e) => { location.hash = `#/leaderboard/${e.target.value}`; } },
      ...POOLS.map((p) => el("option", { value: p, selected: p === this.pool }, poolName(p))));
    const rows = (this.data ? this.data.players : []).map((e) => el("tr", { class: "leader" },
      el("td", {}, e.place),
      el("td", {}, el("a", { href: `#/player/${e.bot ? `bot:${e.bot}` : e.player.id}` }, who(e))),
      el("td", { class: "num" }, e.rating), el("td", { class: "num" }, `± ${e.uncertainty}`),
      el("td", { class: "num" }, e.games), el("td", { class: "num" }, e.wins)));
    const total = this.data ? this.data.total : 0;
    app().replaceChildren(el("section", { class: "panel players", id: "leaderboard" },
      el("h1", {}, W.t("players.leaderboard")), el("label", {}, W.t("players.pool"), " ", pick),
      this.error ? el("p", { role: "alert" }, this.error) : null,
      rows.length ? el("table", {},
        el("thead", {}, el("tr", {}, ...["place", "name", "rating_h", "uncertainty_h", "games", "wins"].map((k, i) => el("th", { scope: "col", class: i > 1 ? "num" : null }, W.t(`players.${k}`))))),
        el("tbody", {}, ...rows)) : el("p", {}, W.t("players.nobody")),
      el("nav", { class: "pages" },
        this.page > 0 ? el("a", { href: `#/leaderboard/${this.pool}/${this.page - 1}`, class: "button" }, W.t("players.previous")) : null,
        (this.page + 1) * 25 < total ? el("a", { href: `#/leaderboard/${this.pool}/${this.page + 1}`, class: "button" }, W.t("players.next")) : null),
      el("p", { class: "hint" }, W.t("players.how"))));
  }
}

// --- a profile ----------------------------------------------------------------------------------
// A rating's history as a line from where every player starts (1000), one point per rated game (an
// inline SVG, no library).
function chart(games) {
  const history = [{ rating: 1000, start: true }, ...games];
  const w = 560, h = 180, pad = 36;
  const ys = history.map((p) => p.rating);
  const lo = Math.min(...ys, 1000) - 20, hi = Math.max(...ys, 1000) + 20;
  const x = (i) => pad + (history.length > 1 ? (i * (w - 2 * pad)) / (history.length - 1) : (w - 2 * pad) / 2);
  const y = (v) => h - pad + ((lo - v) * (h - 2 * pad)) / (hi - lo);
  const line = history.map((p, i) => `${i ? "L" : "M"}${x(i).toFixed(1)},${y(p.rating).toFixed(1)}`).join(" ");
  return svg("svg", { class: "rating-chart", viewBox: `0 0 ${w} ${h}`, role: "img", "aria-label": W.t("players.chart", { n: history.length }) },
    svg("line", { x1: pad, y1: h - pad, x2: w - pad, y2: h - pad, class: "axis" }),
    svg("line", { x1: pad, y1: pad / 2, x2: pad, y2: h - pad, class: "axis" }),
    svg("text", { x: 4, y: y(hi - 20) + 4, class: "tick" }, Math.round(hi - 20)),
    svg("text", { x: 4, y: y(lo + 20) + 4, class: "tick" }, Math.round(lo + 20)),
    svg("text", { x: w / 2, y: h - 6, class: "tick", "text-anchor": "middle" }, W.t("players.games")),
    svg("path", { d: line, class: "rating-line" }),
    ...history.map((p, i) => (p.start ? null : svg("circle", { cx: x(i), cy: y(p.rating), r: 3.5, class: "rating-dot" }, svg("title", {}, `${p.rating}`)))));
}

// A race's or a power's name in the reader's language, from its edition's catalogues (the words the
// game screen names them with; each edition's fetched once).
const editionWords = {};
async function wordsFor(edition) {
  if (!editionWords[edition]) editionWords[edition] = await api.words(edition);
  return editionWords[edition];
}
function unitIn(cats, uid) {
  const c = (cats && cats[uid]) || {};
  const t = (c[W.current()] || {}).name ?? (c.en || {}).name;
  return t === undefined ? uid : W.fill(t);
}
const percent = (part, whole) => (whole ? Math.round((100 * part) / whole) : 0);

// One of the player's games: the opponents, the edition, the day, how it ended for them (or how far
// it is), and a link to its replay (or to the game while it goes on).
function gameRow(g) {
  const mine = g.my_seats || [];
  const others = g.seats.map((_, i) => i).filter((i) => !mine.includes(i));
  const edition = g.settings?.edition || "warcraft";
  const kind = [W.t(`edition.${edition}`), g.settings?.variant === "team" ? W.t("variant.team") : null].filter(Boolean).join(" · ");
  const when = new Date(g.created * 1000);
  let outcome;
  if (g.status === "over" && g.result) {
    const winners = g.result.winners || [];
    const won = mine.some((i) => winners.includes(i));
    const how = won ? (winners.length > 1 ? "profile.shared" : "profile.won") : "profile.lost";
    const scores = [...g.result.scores.keys()].sort((a, b) => g.result.scores[b] - g.result.scores[a]).map((i) => g.result.scores[i]);
    outcome = el("strong", { class: `result ${won ? "won" : "lost"}` }, `${W.t(how)} (${scores.join("–")})`);
  } else outcome = el("span", { class: "state" }, W.t(g.status === "open" ? "lobby.waiting" : "players.status.playing"));
  const left = mine.some((i) => g.seats[i] && g.seats[i].abandoned);
  const link = g.status === "over"
    ? el("a", { href: `#/replay/${g.game}`, class: "button replay" }, W.t("replay"))
    : el("a", { href: `#/game/${g.game}`, class: "button open-game" }, W.t("open"));
  return el("li", { class: "game-row", dataset: { game: g.game, status: g.status } },
    el("div", { class: "game-what" }, el("strong", {}, g.title || kind), " · ",
      el("span", { class: "players" }, W.t("lobby.vs", { names: others.map((i) => N.playerName(g.seats, i)).join(", ") }))),
    el("div", { class: "game-when" }, el("time", { datetime: when.toISOString() }, when.toLocaleDateString(W.current(), { day: "numeric", month: "short", year: "numeric" })),
      " · ", outcome, left ? ` · ${W.t("profile.left")}` : ""),
    el("div", { class: "buttons" }, link));
}

// Per edition, the races and the powers the player held, with games, wins and the win rate.
function unitsTable(rows, head, cats) {
  return el("table", { class: "units" },
    el("thead", {}, el("tr", {}, el("th", { scope: "col" }, W.t(head)),
      ...["players.games", "players.wins", "profile.win_rate"].map((k) => el("th", { scope: "col", class: "num" }, W.t(k))))),
    el("tbody", {}, ...rows.map((u) => el("tr", { dataset: { unit: u.unit } },
      el("td", {}, unitIn(cats, u.unit)), el("td", { class: "num" }, u.games), el("td", { class: "num" }, u.wins),
      el("td", { class: "num" }, `${percent(u.wins, u.games)}%`)))));
}

export class Profile {
  constructor(id) {
    this.id = id;
    this.games = [];
    this.next = null;
    this.words = {};
    this.load();
  }
  async load() {
    const who = encodeURIComponent(this.id);
    try {
      const [ratings, stats, games] = await Promise.all([
        api.call("GET", `/api/players/${who}/ratings`), api.call("GET", `/api/players/${who}/stats`),
        api.call("GET", `/api/players/${who}/games?limit=10`)]);
      this.data = ratings;
      this.stats = stats;
      this.games = games.games;
      this.next = games.next;
      for (const e of stats.editions) this.words[e.edition] = await wordsFor(e.edition);
    } catch (e) { this.error = said(e); }
    this.render();
  }
  // The next page of games, under those shown.
  async more() {
    try {
      const page = await api.call("GET", `/api/players/${encodeURIComponent(this.id)}/games?limit=10&before=${encodeURIComponent(this.next)}`);
      this.games = [...this.games, ...page.games];
      this.next = page.next;
    } catch (e) { this.error = said(e); }
    this.render();
    document.querySelector("#profile-games .more")?.focus({ preventScroll: true });
  }
  close() {}
  render() {
    const d = this.data;
    const bot = this.id.startsWith("bot:") ? this.id.slice(4) : null;
    const title = bot ? W.t("players.bot", { level: W.t(`level.${bot}`) }) : d && d.name;
    const pools = d ? d.ratings.map((r) => el("section", { class: "pool" },
      el("h2", {}, poolName(r.pool)),
      el("p", { class: "rating-now" }, ratingText(r), " · ", W.t("players.record", { games: r.games, wins: r.wins })),
      r.history.length ? chart(r.history) : null,
      el("ul", { class: "rated-games" }, ...r.history.slice(-10).reverse().map((p) => el("li", {},
        el("a", { href: `#/replay/${p.game}` }, W.t("players.place_n", { place: p.place + 1 })), ` · ${p.rating}`))))) : [];
    const s = this.stats;
    const units = s ? el("section", { class: "units-played", id: "units" },
      el("h2", {}, W.t("profile.units")),
      s.editions.length ? el("p", { class: "hint" }, W.t("profile.units_how", { games: s.games })) : el("p", {}, W.t("profile.no_finished")),
      ...s.editions.map((e) => el("section", { class: "edition-units", dataset: { edition: e.edition } },
        el("h3", {}, `${W.t(`edition.${e.edition}`)} · ${W.t("players.record", { games: e.games, wins: e.wins })}`),
        el("div", { class: "units-tables" }, unitsTable(e.races, "profile.race", this.words[e.edition]), unitsTable(e.powers, "profile.power", this.words[e.edition]))))) : null;
    const games = el("section", { class: "game-list", id: "profile-games" }, el("h2", {}, W.t("profile.games")),
      this.games.length ? el("ul", {}, ...this.games.map(gameRow)) : el("p", {}, W.t("no_games")),
      this.next ? el("button", { type: "button", class: "more", onclick: () => this.more() }, W.t("lobby.more")) : null);
    app().replaceChildren(el("section", { class: "panel players", id: "profile" },
      el("h1", {}, title || W.t("players.profile")),
      this.error ? el("p", { role: "alert" }, this.error) : null,
      d ? el("p", { id: "record" }, W.t("profile.abandon_rate", { played: d.played, abandoned: d.abandoned, percent: percent(d.abandoned, d.played) })) : null,
      ...(pools.length ? pools : [el("p", {}, W.t("players.unrated"))]),
      units, games,
      el("a", { href: "#/leaderboard", class: "button" }, W.t("players.leaderboard"))));
  }
}

// --- quick game (a box in the lobby) ------------------------------------------------------------
export function quickBox(loggedIn) {
  const root = el("section", { class: "panel quick", id: "quick", "aria-labelledby": "quick-title" });
  const say = el("p", { role: "status", "aria-live": "polite", id: "quick-status" });
  let timer = null;
  const wait = (ticket) => {
    clearTimeout(timer);
    if (ticket.status === "seated") { location.hash = `#/game/${ticket.game}`; return; }
    say.textContent = ticket.status === "waiting" ? W.t("players.waiting", { s: Math.round(ticket.waited_s), rating: ticket.rating }) : W.t("players.cancelled");
    if (ticket.status === "waiting") timer = setTimeout(async () => { try { wait(await api.call("GET", `/api/quick/${ticket.ticket}`)); } catch (e) { say.textContent = said(e); } }, 1000);
  };
  // Drawn again when the language switches (the lobby asks: `relabel`), the choices kept; a search
  // under way goes on, its status in the new words from its next second.
  const draw = () => {
    const old = root.querySelector("#quick-form");
    const chosen = old ? [...new FormData(old).entries()] : [];
    if (!loggedIn) {
      root.replaceChildren(el("h2", { id: "quick-title" }, W.t("players.quick")), el("p", {}, W.t("players.quick_login")));
      return;
    }
    const form = quickForm(wait, say);
    for (const [k, v] of chosen) if (form.elements[k]) form.elements[k].value = v;
    root.replaceChildren(el("h2", { id: "quick-title" }, W.t("players.quick")), form, say,
      el("p", {}, el("a", { href: "#/leaderboard" }, W.t("players.leaderboard")), " · ", el("a", { href: "#/tournaments" }, W.t("players.tournaments"))));
  };
  draw();
  root.relabel = draw;
  return root;
}

// The quick game's choices; sending them starts the search (`wait` follows it, `say` tells its refusal).
function quickForm(wait, say) {
  const form = el("form", { id: "quick-form", onsubmit: async (e) => {
    e.preventDefault();
    const f = new FormData(form);
    const [edition, variant] = String(f.get("kind")).split("/");
    const bots = f.get("bots");
    const body = { edition, variant, players: Number(f.get("players")), pace: f.get("pace"), bots_after_s: bots === "never" ? null : Number(bots) };
    try { wait(await api.call("POST", "/api/quick", { body })); } catch (err) { say.textContent = said(err); }
  } },
    el("label", {}, W.t("edition"), " ", el("select", { name: "kind" }, ...["warcraft/standard", "warcraft/team", "classic/standard"].map((k) => el("option", { value: k }, `${W.t(`edition.${k.split("/")[0]}`)} · ${W.t(`variant.${k.split("/")[1]}`)}`)))),
    el("label", {}, W.t("players"), " ", el("select", { name: "players" }, ...[2, 3, 4, 5].map((n) => el("option", { value: n }, n)))),
    el("label", {}, W.t("players.pace"), " ", el("select", { name: "pace" }, ...["turn", "live"].map((p) => el("option", { value: p }, W.t(`players.pace.${p}`))))),
    el("label", {}, W.t("players.bots_after"), " ", el("select", { name: "bots" }, ...["30", "120", "600", "never"].map((s) => el("option", { value: s }, W.t(`players.after.${s}`))))),
    el("button", { type: "submit", class: "primary", id: "quick-go" }, W.t("players.find")));
  return form;
}

// --- tournaments --------------------------------------------------------------------------------
export class Tournaments {
  constructor() { this.load(); }
  async load() {
    try { this.list = (await api.call("GET", "/api/tournaments")).tournaments; } catch (e) { this.error = said(e); this.list = []; }
    this.render();
  }
  close() {}
  render() {
    const form = el("form", { id: "tournament-form", onsubmit: async (e) => {
      e.preventDefault();
      const f = new FormData(form);
      const body = { name: String(f.get("name")).trim(), rounds: Number(f.get("rounds")), table: Number(f.get("table")), pace: f.get("pace"), bots: f.get("bots") === "on" };
      try { const t = await api.call("POST", "/api/tournaments", { body }); location.hash = `#/tournament/${t.tournament}`; } catch (err) { this.error = said(err); this.render(); }
    } },
      el("label", {}, W.t("players.t_name"), " ", el("input", { name: "name", required: true, maxlength: "60" })),
      el("label", {}, W.t("players.rounds"), " ", el("select", { name: "rounds" }, ...[1, 2, 3, 4, 5].map((n) => el("option", { value: n, selected: n === 3 }, n)))),
      el("label", {}, W.t("players.table"), " ", el("select", { name: "table" }, ...[2, 3, 4, 5].map((n) => el("option", { value: n, selected: n === 4 }, n)))),
      el("label", {}, W.t("players.pace"), " ", el("select", { name: "pace" }, ...["turn", "live"].map((p) => el("option", { value: p }, W.t(`players.pace.${p}`))))),
      el("label", {}, el("input", { type: "checkbox", name: "bots", checked: true }), " ", W.t("players.bots_fill")),
      el("button", { type: "submit", class: "primary", id: "tournament-create" }, W.t("players.organise")));
    app().replaceChildren(el("section", { class: "panel players", id: "tournaments" },
      el("h1", {}, W.t("players.tournaments")),
      this.error ? el("p", { role: "alert" }, this.error) : null,
      el("ul", {}, ...this.list.map((t) => el("li", {}, el("a", { href: `#/tournament/${t.tournament}` }, t.name), ` · ${W.t(`players.status.${t.status}`)} · ${W.t("players.round_of", { round: t.round, rounds: t.rounds })}`))),
      el("h2", {}, W.t("players.organise")), form));
  }
}

export class Tournament {
  constructor(id) {
    this.id = id;
    this.load();
    this.timer = setInterval(() => this.load(), 5000); // the standings live
  }
  async load() {
    try { this.t = await api.call("GET", `/api/tournaments/${this.id}`); this.error = null; } catch (e) { this.error = said(e); }
    this.render();
  }
  close() { clearInterval(this.timer); }
  async act(what) {
    try { this.t = await api.call("POST", `/api/tournaments/${this.id}/${what}`); this.error = null; } catch (e) { this.error = said(e); }
    this.render();
  }
  render() {
    const t = this.t;
    if (!t) { app().replaceChildren(el("p", { role: "alert" }, this.error || W.t("players.loading"))); return; }
    const rounds = [...new Set(t.games.map((g) => g.round))];
    app().replaceChildren(el("section", { class: "panel players", id: "tournament" },
      el("h1", {}, t.name),
      el("p", {}, `${poolName(`${t.edition}/${t.variant}/${t.pace}`)} · ${W.t(`players.status.${t.status}`)} · ${W.t("players.round_of", { round: t.round, rounds: t.rounds })}`),
      this.error ? el("p", { role: "alert" }, this.error) : null,
      t.status === "open" ? el("p", {},
        el("button", { type: "button", id: "tournament-join", onclick: () => this.act("join") }, W.t("players.join")), " ",
        el("button", { type: "button", id: "tournament-start", onclick: () => this.act("start") }, W.t("players.start"))) : null,
      el("h2", {}, W.t("players.standings")),
      el("table", { id: "standings" },
        el("thead", {}, el("tr", {}, ...["place", "name", "points", "coins", "buchholz", "games"].map((k, i) => el("th", { scope: "col", class: i > 1 ? "num" : null }, W.t(`players.${k}`))))),
        el("tbody", {}, ...t.standings.map((s) => el("tr", {},
          el("td", {}, s.place), el("td", {}, el("a", { href: `#/player/${s.player.id}` }, s.player.name)),
          el("td", { class: "num" }, s.points), el("td", { class: "num" }, s.coins), el("td", { class: "num" }, s.buchholz), el("td", { class: "num" }, s.games))))),
      ...rounds.map((r) => el("section", { class: "round" }, el("h3", {}, W.t("players.round", { round: r })),
        el("ul", {}, ...t.games.filter((g) => g.round === r).map((g) => el("li", {},
          el("a", { href: g.status === "over" ? `#/replay/${g.game}` : `#/game/${g.game}` }, W.t("players.table_n", { n: g.table + 1 })),
          ` · ${g.players.join(", ")} · ${W.t(`players.status.${g.status}`)}`)))))));
  }
}

// The routes this module answers (app.js asks it first): a screen, or null.
export function screenFor(parts) {
  if (parts[0] === "leaderboard") return new Leaderboard(parts.slice(1, 4).join("/"), Number(parts[4] || 0));
  if (parts[0] === "player" && parts[1]) return new Profile(decodeURIComponent(parts[1]));
  if (parts[0] === "tournaments") return new Tournaments();
  if (parts[0] === "tournament" && parts[1]) return new Tournament(parts[1]);
  return null;
}
