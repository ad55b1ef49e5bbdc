// The first-game tutorial (issue 28, item 3): lessons that are casual games against a greedy bot,
// each started from a position shipped with the package (smallworld/web/tutorial/*.json, served by
// `GET /api/tutorial`; docs/server.md, Games from a position), with a hint for each step of the
// turn in the reader's language (the `tutorial.*` words of words.json). The lessons page is
// #/tutorial; a lesson's game is an ordinary game screen with the hint box on top of its side column.
import * as api from "./api.js";
import * as W from "./i18n.js";
import { h } from "./app.js"; // the one element maker (its listeners survive in-place updates)


let lessons = null; // [{lesson, hints, position}], fetched once
async function loadLessons() {
  if (!lessons) lessons = await api.tutorial();
  return lessons;
}

// Which lesson a game of this browser is (kept with the game's seats, so a reload keeps the hints).
const lessonKey = (gameId) => `sw.tutorial.${gameId}`;
const doneKey = (gameId) => `sw.tutorial.done.${gameId}`;

async function startLesson(i) {
  const all = await loadLessons();
  const lesson = all[i];
  await api.ensurePlayer(api.playerName() || "Player");
  const r = await api.createGame({
    players: 2, title: W.t(`tutorial.${lesson.lesson}.title`),
    seats: [{ kind: "creator" }, { kind: "bot", level: "greedy" }], position: lesson.position,
  });
  localStorage.setItem(lessonKey(r.game), String(i));
  location.hash = `#/game/${r.game}`;
}

export class TutorialPage {
  constructor(app, useWords) {
    this.app = app;
    this.useWords = useWords;
    this.start();
  }
  async start() {
    try {
      await this.useWords("warcraft");
      this.lessons = await loadLessons();
    } catch (e) { this.app.replaceChildren(h("p", { class: "error" }, e.message)); return; }
    this.render();
  }
  close() {}
  render() {
    if (!this.lessons) return;
    this.app.replaceChildren(h("div", { class: "rules-page tutorial", id: "tutorial" },
      h("nav", { class: "buttons rules-nav" }, h("a", { class: "button", href: "#/" }, W.t("rules.back")),
        h("a", { class: "button", href: "#/rules/warcraft" }, W.t("rules"))),
      h("h1", {}, W.t("tutorial")), h("p", {}, W.t("tutorial.intro")),
      h("ol", { class: "lessons" }, ...this.lessons.map((l, i) => h("li", { class: "panel lesson", dataset: { lesson: l.lesson } },
        h("h2", {}, `${W.t("tutorial.lesson", { n: i + 1 })}: ${W.t(`tutorial.${l.lesson}.title`)}`),
        h("button", { class: "primary start-lesson", dataset: { lesson: l.lesson }, onclick: (e) => {
          e.target.disabled = true;
          startLesson(i).catch((err) => { e.target.disabled = false; alert(err.message); });
        } }, W.t("tutorial.start")))))));
  }
}

// The lobby's way in.
export const tutorialLink = () => h("a", { class: "button primary", id: "tutorial-link", href: "#/tutorial" }, W.t("tutorial"));

// The hint box of a lesson's game, put on top of `root`'s side column (nothing for other games):
// the hint of the step the player is at, a word while the bot plays, and once the player's turn of
// the lesson is over, what it taught and the way to the next lesson.
export function attachHint(root, gameId, st) {
  const i = localStorage.getItem(lessonKey(gameId));
  if (i === null || !lessons || !lessons[+i] || !st || !st.view) return;
  const lesson = lessons[+i];
  const v = st.view;
  const me = v.viewer;
  // The lesson is the player's turn at its position: over once another seat's turn shows, or a later
  // round (the bot's whole turn may come in one update).
  const round = (lesson.position.position || {}).round || 1;
  if (v.phase === "over" || v.turn_seat !== me || v.round > round) localStorage.setItem(doneKey(gameId), "1");
  const done = localStorage.getItem(doneKey(gameId)) === "1";
  let box;
  if (done) {
    const next = lessons[+i + 1];
    box = h("section", { class: "panel tutorial-hint done", id: "tutorial-hint", dataset: { lesson: lesson.lesson, step: "done" } },
      h("h2", {}, W.t("tutorial.finished")), h("p", {}, W.t(lesson.hints.done)),
      h("div", { class: "buttons" },
        next ? h("button", { class: "primary", id: "next-lesson", onclick: () => startLesson(+i + 1) }, W.t("tutorial.next")) : null,
        h("a", { class: "button", href: "#/tutorial" }, W.t("tutorial.all"))));
  } else {
    const mine = st.legal && st.legal.length > 0;
    // A step the lesson has no hint for (a race's or power's own decision, §6.13): the general one.
    const key = mine ? lesson.hints[v.phase] || "tutorial.other" : null;
    box = h("section", { class: "panel tutorial-hint", id: "tutorial-hint", dataset: { lesson: lesson.lesson, step: mine ? v.phase : "wait" } },
      h("h2", {}, `${W.t("tutorial.hint")} · ${W.t(`tutorial.${lesson.lesson}.title`)}`),
      h("p", {}, key ? W.t(key) : W.t("tutorial.wait")));
  }
  root.querySelector("aside.side")?.prepend(box);
}

// The lessons are fetched with the words of a lesson's game (the hint box needs them at once).
export async function preload(gameId) {
  if (localStorage.getItem(lessonKey(gameId)) === null) return;
  try { await loadLessons(); } catch { /* no hints then */ }
}
