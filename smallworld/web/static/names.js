// One name per player, wherever the page names one (docs/web.md, "Players' names"): the name the
// seat chose; a bot by its level in the reader's language ("Greedy bot"), unless it was given a name
// of its own; a seat nobody has taken yet as open or invited; seats that would share a name told
// apart by their seat number, counted from 1 ("Greedy bot 2"). A seat is shown with its colour dot
// (the colour of its stacks on the board, with the same number).
//
// The server's texts (the log, the decisions, the prompt, the scoring, the replay) name a seat by a
// mark, `⟦seat N⟧` (N counted from 0), or `⟦seat N|You⟧` for the reader's own seat with the word to
// show (smallworld/web/payload.py); `plain` and `rich` write each mark as the same name.
import * as W from "./i18n.js";
import { SEAT_COLOURS } from "./board.js";

export const seatColour = (i) => SEAT_COLOURS[i % SEAT_COLOURS.length];

// A bot's level: the server's `bot`, else read from the name the server gives a bot ("greedy bot").
function level(s) {
  if (s.bot) return s.bot;
  const m = /^(\w+) bot$/.exec(s.name || "");
  return m ? m[1] : null;
}

// The name of seat `i` before any number that tells it apart.
function baseName(seats, i) {
  const s = seats[i];
  const n = i + 1;
  if (!s) return W.t("seat", { n });
  if (s.kind === "bot") {
    const l = level(s);
    if (s.name && s.name !== `${l} bot`) return s.name; // a name of its own
    if (l && W.has("web", `names.bot.${l}`)) return W.t(`names.bot.${l}`);
    return W.t("names.bot", { level: l || "?" });
  }
  if (s.joined === false) return W.t(s.open ? "names.open" : "names.invited", { n });
  return s.name || W.t("seat", { n });
}

// The player of seat `i` (0-based) among `seats` (the server's summary seats).
export function playerName(seats, i) {
  const all = seats || [];
  const name = baseName(all, i);
  const shared = all.some((_, j) => j !== i && baseName(all, j) === name);
  return shared ? W.t("names.numbered", { name, n: i + 1 }) : name;
}

// The seat's colour dot with its number, drawn by the style sheet (`data-n`), so that the text
// of a line is its words alone ("Greedy bot 2 scores 3 coins"); hidden from screen readers.
export function dot(i) {
  const e = document.createElement("span");
  e.className = "seat-dot";
  e.style.background = seatColour(i);
  e.setAttribute("aria-hidden", "true");
  e.dataset.n = i + 1;
  return e;
}

// The dot and the name (or `label`: the name with "(you)", "You"...).
export function tag(seats, i, label) {
  const e = document.createElement("span");
  e.className = "who";
  e.dataset.seat = i;
  e.append(dot(i), label ?? playerName(seats, i));
  return e;
}

// A mark as the server writes one, for the page's own sentences ("Waiting for {who}").
export const mark = (i) => `⟦seat ${i}⟧`;
const MARK = /⟦seat (\d+)(?:\|([^⟧]*))?⟧/g;

// A text with its marks as names: for a tooltip, an aria-label, a notification.
export function plain(text, seats) {
  return String(text ?? "").replace(MARK, (_, n, word) => word ?? playerName(seats, +n));
}

// A text with its marks as dots and names: nodes to append.
export function rich(text, seats) {
  const s = String(text ?? "");
  const out = [];
  let at = 0;
  for (const m of s.matchAll(MARK)) {
    if (m.index > at) out.push(s.slice(at, m.index));
    out.push(tag(seats, +m[1], m[2] ?? undefined));
    at = m.index + m[0].length;
  }
  if (at < s.length) out.push(s.slice(at));
  return out;
}
