// Learning the game in the client (issue 28, item 3): the rules page of an edition (#/rules/EDITION)
// and the rules cards of Artifacts and Legendary Places (the region panel and the board's tooltip).
// Every word comes from the catalogues: the units' names and cards (smallworld/words and each
// edition's), the turn's steps from the client's own (`rules.*` of words.json). Which units an
// edition has, with their numbers and sections, comes from the server (`api.rules`: `GET /api/rules`).
import * as api from "./api.js";
import * as W from "./i18n.js";
import { h } from "./app.js"; // the one element maker (its listeners survive in-place updates)


// Each edition's units (ids, numbers, sections), fetched once.
const unitsOf = {};
async function units(edition) {
  if (!unitsOf[edition]) unitsOf[edition] = await api.rules(edition);
  return unitsOf[edition];
}

// The group of a marker ("artifact" or "place") once an edition's units are known; the page asks
// for them when it opens a game (`preload`), so a card drawn later knows its group.
const groupOf = {};
export async function preload(edition) {
  try {
    const u = await units(edition || "warcraft");
    for (const a of u.artifacts) groupOf[a.id] = "artifact";
    for (const p of u.places) groupOf[p.id] = "place";
  } catch { /* the cards then show no group */ }
}

// The rules card of a marker on the board (`{id, face_up}` of the view's `markers`): its name, its
// group and its card in the reader's language; a face-down marker is explained as such (§10.1).
export function markerCard(mk) {
  if (!mk.face_up || !mk.id) {
    return h("div", { class: "rules-card marker-card", dataset: { marker: "hidden" } },
      h("strong", {}, W.t("rules.face_down")), h("p", {}, W.t("rules.face_down.text"), W.reference("§10.1")));
  }
  const group = groupOf[mk.id];
  return h("div", { class: "rules-card marker-card", dataset: { marker: mk.id, group } },
    h("strong", {}, W.unitName(mk.id)), group ? h("span", { class: "group" }, ` · ${W.t(`rules.${group}`)}`) : null,
    h("p", {}, W.card(mk.id)));
}

// The markers of a region, each with its card (null when it holds none).
export function markerCards(markers) {
  if (!markers || !markers.length) return null;
  return h("div", { class: "marker-cards", id: "marker-cards" },
    h("h3", {}, W.t("rules.markers")), ...markers.map(markerCard));
}

// The rules page's sections of the turn, with the sections of warcraft-rules.md they sum up (the
// classic edition's own rulebook numbers differently: its page shows no section for them).
const STEPS = [["pick", "§6.3"], ["start", "§6.16"], ["conquer", "§6.5–§6.9"], ["final", "§6.10"],
  ["redeploy", "§6.12"], ["score", "§6.14"], ["end", "§7"]];
const EDITIONS = ["warcraft", "classic"];

export class RulesPage {
  // `app`: the page's main element; `back`: the game to go back to, if the page was opened from one.
  constructor(app, edition, back, useWords) {
    this.app = app;
    this.edition = EDITIONS.includes(edition) ? edition : "warcraft";
    this.back = back;
    this.useWords = useWords;
    this.start();
  }
  async start() {
    try {
      await this.useWords(this.edition);
      this.data = await units(this.edition);
    } catch (e) { this.app.replaceChildren(h("p", { class: "error" }, e.message)); return; }
    this.render();
  }
  close() {}
  render() {
    if (!this.data) return;
    const d = this.data;
    const ref = (s) => (this.edition === "warcraft" && s ? W.reference(s) : "");
    const faces = d.die.join(", ");
    const step = ([id, section]) => h("li", { dataset: { step: id } },
      h("strong", {}, W.t(`rules.step.${id}`)), ref(section), h("p", {}, W.t(`rules.step.${id}.text`, { faces })));
    const card = (u, extra) => h("li", { class: "rules-card", dataset: { unit: u.id } },
      h("strong", {}, W.unitName(u.id)), extra ? h("span", { class: "numbers" }, ` · ${extra}`) : null, ref(u.section),
      h("p", {}, W.card(u.id)));
    const race = (u) => card(u, [W.t("rules.tokens", { n: u.tokens }), u.faction ? W.faction(u.faction) : null].filter(Boolean).join(" · "));
    const power = (u) => card(u, W.t("rules.tokens", { n: u.tokens }));
    const section = (id, title, items) => (items.length ? h("section", { class: "panel", id }, h("h2", {}, title), h("ul", { class: "cards-list" }, ...items)) : null);
    const byName = (list) => [...list].sort((a, b) => W.unitName(a.id).localeCompare(W.unitName(b.id), W.current()));
    this.app.replaceChildren(h("div", { class: "rules-page", id: "rules", dataset: { edition: this.edition } },
      h("nav", { class: "buttons rules-nav" },
        h("a", { class: "button", id: "rules-back", href: this.back ? `#/game/${this.back}` : "#/" }, this.back ? W.t("rules.back_game") : W.t("rules.back")),
        ...EDITIONS.map((e) => h("a", { class: `button${e === this.edition ? " primary" : ""}`, href: `#/rules/${e}${this.back ? `/${this.back}` : ""}`, dataset: { edition: e } }, W.t(`edition.${e}`)))),
      h("h1", {}, W.t("rules.title", { edition: W.t(`edition.${this.edition}`) })),
      h("p", {}, W.t("rules.intro")),
      h("section", { class: "panel", id: "rules-turn" }, h("h2", {}, W.t("rules.turn")), h("ol", { class: "steps" }, ...STEPS.map(step)),
        h("p", { id: "rules-rounds" }, `${W.t("rules.rounds")}: `, Object.entries(d.rounds).map(([players, rounds]) => W.t("rules.rounds.item", { players, rounds })).join(" · "))),
      section("rules-races", W.t("rules.races"), byName(d.races).map(race)),
      section("rules-powers", W.t("rules.powers"), byName(d.powers).map(power)),
      section("rules-artifacts", W.t("rules.artifacts"), byName(d.artifacts).map((u) => card(u))),
      section("rules-places", W.t("rules.places"), byName(d.places).map((u) => card(u)))));
  }
}

// The top bar's link to the rules page of the edition shown; from a game (#/game/ID) or a rules page
// opened from one, the page's way back leads to that game.
export function rulesTop(edition) {
  const a = document.getElementById("rules-link");
  if (!a) return;
  const parts = location.hash.replace(/^#\/?/, "").split("/").filter(Boolean);
  const back = parts[0] === "game" ? parts[1] : parts[0] === "rules" ? parts[2] : null;
  a.href = `#/rules/${edition || "warcraft"}${back ? `/${back}` : ""}`;
  a.textContent = W.t("rules");
}
