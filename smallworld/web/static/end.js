// The end screen of a game (the game screen's panel once `view.result` is set): the verdict for the
// reader ("You won!", "You lost", a shared victory, a faction's win; who won, for a spectator), the
// final coins of every seat (revealed: coins are secret until the end), the faction scores and the
// tie-break as the engine gives them (`result`), each seat's coins by round as a chart and where
// its coins came from (the server's `scores`, docs/server.md "Lists"), and the way to the replay.
import * as api from "./api.js";
import * as W from "./i18n.js";
import * as N from "./names.js";
import { h } from "./app.js";
import { lineChart, swatch } from "./chart.js";

// The breakdown's rows in this order (a unit's rows by the unit's name within its item).
const ITEMS = ["start", "active_regions", "declined_regions", "unit", "unit_declined", "faction_bonus", "gain", "combos", "payments", "other"];

export function itemLabel(it) {
  if (it.unit) return W.t(`end.item.${it.item}`, { name: W.unitName(it.unit) });
  return W.t(`end.item.${it.item}`);
}

// What the game's end means to the reader: `{key, won}` (null `won`: the reader holds no seat of its
// own, or every seat, as on a hot-seat screen shared by all the players).
function verdict(res, v, held, names) {
  const winners = res.winners || [];
  const n = res.scores.length;
  if (held.length === 1 || (held.length > 1 && held.length < n)) {
    if (res.winning_factions && v.factions) {
      const won = res.winning_factions.includes(v.factions[held[0]]);
      return { text: W.t(won ? "end.team_won" : "end.team_lost"), won };
    }
    const won = held.some((i) => winners.includes(i));
    return { text: W.t(won ? (winners.length > 1 ? "end.shared" : "end.won") : "end.lost"), won };
  }
  return { text: W.t("end.winner", { names: winners.map(names).join(", ") }), won: null };
}

// The chart of coins by round, with its legend naming each player in its seat colour.
function chartBox(screen, data, order) {
  const seats = screen.info.seats;
  const series = order.map((i) => ({ key: i, label: N.playerName(seats, i), colour: N.seatColour(i), values: data.rounds.map((r) => r[i]) }));
  const xLabels = data.rounds.map((_, r) => (r === 0 ? W.t("end.chart_start") : String(r)));
  const svg = lineChart({ series, xLabels, xTitle: W.t("end.chart_x"), yTitle: W.t("end.chart_y"), title: W.t("end.chart") });
  return h("div", { class: "chart", id: "score-chart" }, h("h3", {}, W.t("end.chart")),
    h("ul", { class: "chart-legend" }, ...order.map((i, k) => h("li", { dataset: { seat: i } }, swatch(k, N.seatColour(i)), " ", screen.who(i)))),
    svg);
}

// Where each seat's coins came from: one row per item, one column per seat, the total last.
function breakdownBox(screen, data, order, viewer) {
  const rows = new Map(); // "item|unit" -> {item, unit, coins: {seat: n}}
  order.forEach((seat) => {
    for (const it of data.breakdown[seat]) {
      const key = `${it.item}|${it.unit || ""}`;
      if (!rows.has(key)) rows.set(key, { item: it.item, unit: it.unit, coins: {} });
      rows.get(key).coins[seat] = it.coins;
    }
  });
  const sorted = [...rows.values()].sort((a, b) => ITEMS.indexOf(a.item) - ITEMS.indexOf(b.item)
    || itemLabel(a).localeCompare(itemLabel(b), W.current()));
  return h("div", { class: "breakdown", id: "breakdown", tabindex: 0, role: "region", "aria-labelledby": "breakdown-title" }, h("h3", { id: "breakdown-title" }, W.t("end.breakdown")),
    h("table", {},
      h("thead", {}, h("tr", {}, h("th", {}, ""), ...order.map((i) => h("th", { class: "num", scope: "col", dataset: { seat: i } }, screen.who(i, viewer))))),
      h("tbody", {}, ...sorted.map((r) => h("tr", { dataset: { item: r.item, unit: r.unit } },
        h("th", { scope: "row" }, itemLabel(r)),
        ...order.map((i) => h("td", { class: "num", dataset: { seat: i } }, i in r.coins ? String(r.coins[i]) : "")))),
      h("tr", { class: "total" }, h("td", {}, W.t("end.total")),
        ...order.map((i) => h("td", { class: "num", dataset: { seat: i } }, String(data.scores[i])))))));
}

// The end screen's panel (null while the game goes on). The chart and the breakdown come from the
// server once (`screen.ending`), the panel drawn again when they arrive.
export function endPanel(screen, st) {
  const res = st.view.result;
  if (!res) return null;
  const v = st.view;
  if (!screen.ending) {
    screen.ending = { data: null };
    api.scores(screen.id).then((data) => { screen.ending.data = data; screen.render(); }, () => { screen.ending.failed = true; });
  }
  const order = [...res.scores.keys()].sort((a, b) => res.scores[b] - res.scores[a]);
  const held = screen.heldSeats();
  const said = verdict(res, v, held, (i) => N.playerName(screen.info.seats, i));
  const data = screen.ending.data;
  return h("section", { class: "panel result", id: "end-screen" }, h("h2", {}, W.t("game_over")),
    h("p", { class: `verdict${said.won === true ? " won" : said.won === false ? " lost" : ""}`, id: "verdict", dataset: { won: said.won === null ? "" : said.won ? "yes" : "no" } },
      h("strong", {}, said.text)),
    h("table", { class: "final" }, h("thead", {}, h("tr", {}, h("th", {}, W.t("players")), v.factions ? h("th", {}, W.t("team_factions")) : null, h("th", { class: "num" }, W.t("end.coins")))),
      h("tbody", {}, ...order.map((i) => h("tr", { class: res.winners.includes(i) ? "winner" : "", dataset: { seat: i } },
        h("td", {}, res.winners.includes(i) ? "★ " : "", screen.who(i, v.viewer)),
        v.factions ? h("td", {}, W.faction(v.factions[i])) : null,
        h("td", { class: "score" }, res.scores[i]))))),
    res.factions ? h("div", { id: "faction-scores" }, `${W.t("team_factions")}: `,
      ...Object.entries(res.factions).flatMap(([f, s], i) => [i ? " · " : "",
        h("span", { class: "faction-score", dataset: { faction: f, score: s } }, `${W.faction(f)} ${s}`)]),
      res.winning_factions ? ` — ${W.t("winners")}: ${res.winning_factions.map((f) => W.faction(f)).join(", ")}` : "") : null,
    tieBreakBox(screen, res.tie_break, v),
    h("div", { id: "winners" }, `${W.t("winners")}: `, ...res.winners.flatMap((i, k) => [k ? ", " : "", screen.who(i, v.viewer)])),
    data ? chartBox(screen, data, order) : null,
    data ? breakdownBox(screen, data, order, v.viewer) : null,
    h("a", { class: "button", id: "open-replay", href: `#/replay/${screen.id}` }, W.t("replay")));
}

// The engine's tie-break figures (result.tie_break, only when the top score ties): §7 the race
// tokens on the boards of each tied seat, §11.4 the best individual score of each tied faction.
function tieBreakBox(screen, tie, v) {
  if (!tie) return null;
  const name = (e) => ("seat" in e ? screen.who(e.seat, v.viewer) : W.faction(e.faction));
  return h("div", { id: "tiebreak", dataset: { by: tie.by, rule: tie.rule, shared: tie.shared ? "yes" : "no" } },
    W.t(`tiebreak.${tie.by}`, { rule: tie.rule }), tie.by === "none" ? "" : ":",
    h("ul", {}, ...tie.tied.map((e) => h("li", { dataset: { seat: e.seat, faction: e.faction, value: e.value } },
      name(e), "value" in e ? `: ${e.value}` : ""))),
    tie.shared ? h("div", { class: "shared" }, W.t("tiebreak.shared")) : null);
}
