// Resigning a game (issue 29, item 5; docs/players.md, "Leaving"): the player of a seat in a game
// under way leaves it for good, after a confirm step; a bot plays the seat to the end, the seat
// cannot be taken back, and the player's profile counts the game as abandoned. The server's leave
// (`POST /api/games/{id}/seats/{seat}/leave`) does it; this browser then forgets the seat's token and
// shows the game as a spectator does, with a line that says what happened.
//
// The game screen (app.js) calls `panel(screen, st, key)` in its render: nothing else of the
// screen knows about resigning.
import * as api from "./api.js";
import * as W from "./i18n.js";
import { h } from "./app.js";

const resignedKey = (gameId) => `sw.resigned.${gameId}`;

async function resign(screen, key) {
  screen.resignAsk = null;
  try {
    await api.call("POST", `/api/games/${screen.id}/seats/${Number(key)}/leave`, { token: screen.tokens[key] || undefined });
  } catch (e) {
    screen.message = { error: true, text: `${W.t("error")}: ${e && e.body && e.body.code ? W.refusal(e.body) : e.message}` };
    screen.render();
    return;
  }
  api.forgetSeat(screen.id, key);
  localStorage.setItem(resignedKey(screen.id), "1");
  // The screen again, from the start: without the seat, this browser watches the game.
  window.dispatchEvent(new HashChangeEvent("hashchange"));
}

// The confirm step, in view (above the chat that covers the foot of the side column) and focused on
// "keep playing", the choice that changes nothing.
function ask(screen, key) {
  screen.resignAsk = key;
  screen.render();
  document.getElementById("resign-no")?.focus({ preventScroll: true });
  document.getElementById("resign")?.scrollIntoView({ block: "center" });
}

// The "Resign" button of the seat shown (a game under way), its confirm step, or, once resigned,
// the line that says a bot plays the seat.
export function panel(screen, st, key) {
  const v = st.view;
  if (key === "spectator") {
    if (!localStorage.getItem(resignedKey(screen.id))) return null;
    return h("section", { class: "panel resign", id: "resign" }, h("p", { id: "resigned" }, W.t("resign.done")));
  }
  if (screen.info.status !== "playing" || v.result) return null;
  if (screen.resignAsk !== key) {
    return h("section", { class: "panel resign", id: "resign" },
      h("button", { type: "button", id: "resign-button", onclick: () => ask(screen, key) }, W.t("resign.button")));
  }
  return h("section", { class: "panel resign", id: "resign", role: "alertdialog", "aria-labelledby": "resign-ask" },
    h("p", { id: "resign-ask" }, W.t("resign.confirm")),
    h("div", { class: "buttons" },
      h("button", { type: "button", id: "resign-yes", class: "danger", onclick: () => resign(screen, key) }, W.t("resign.yes")),
      h("button", { type: "button", id: "resign-no", onclick: () => { screen.resignAsk = null; screen.render(); } }, W.t("resign.no"))));
}
