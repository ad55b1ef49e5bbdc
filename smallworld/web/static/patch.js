// Updating the game screen in place (docs/web.md "One socket"): the screen is described anew after
// each update (app.js builds it), and `patch` makes the page match it while touching only what
// differs, as chessground's `set` does: a region, a player's row or a log line that did not change
// is left alone (its focus, hover and open details with it); one that did is replaced.
//
// The page's containers are patched child by child: the game's root, the board and its layers,
// and the panels named in IN_PLACE (the players, the log, the status...). Any other element that
// differs is replaced whole, and so is any element with listeners (app.js's `h` marks them with
// `__on`): its listeners come with the new one, so a kept element's listeners are never stale
// except where the element is unchanged. Listeners on kept elements must read what they need when
// they run (or from the element's attributes), not from what was drawn.

const IN_PLACE = new Set(["game", "board", "players", "log", "status", "rounds", "scoring", "playback"]);
const CONTAINER_CLASSES = ["board-wrap", "side"];

function isRoot(e) {
  return IN_PLACE.has(e.id) || CONTAINER_CLASSES.some((c) => e.classList.contains(c));
}

// What identifies a child among its siblings: its id, its region, side or a player's seat.
function key(n) {
  if (n.nodeType !== 1) return null;
  if (n.id) return `#${n.id}`;
  const d = n.dataset || {};
  if (d.region) return `r:${d.region}`;
  if (d.marksOf) return `m:${d.marksOf}`;
  if (d.side) return `s:${d.side}`;
  if (n.tagName === "LI" && d.seat !== undefined) return `p:${d.seat}`;
  return null;
}

const sig = (n) => (n.nodeType === 1 ? n.outerHTML : `${n.nodeType}:${n.data}`);

function syncAttributes(old, neu) {
  for (const a of [...old.attributes]) {
    if (!neu.hasAttribute(a.name) && !(a.name === "open" && old.tagName === "DETAILS")) old.removeAttribute(a.name);
  }
  for (const a of [...neu.attributes]) if (old.getAttribute(a.name) !== a.value) old.setAttribute(a.name, a.value);
}

// Make `old` (in the page) look like `neu`; the node that is in the page afterwards.
// An element made with listeners by app.js's `h` (`__closure`), or holding one (`__holds`), is never
// kept merely because it looks the same: its listeners hold the values it was drawn with (a "+"
// button's count), so the new one, or the new one's children, take its place.
const fresh = (n) => Boolean(n.__closure || n.__holds);

export function patch(old, neu, inside = false) {
  if (old.isEqualNode(neu) && !fresh(neu)) return old;
  if (old.nodeType !== neu.nodeType || old.nodeName !== neu.nodeName || key(old) !== key(neu)) {
    old.replaceWith(neu);
    return neu;
  }
  if (old.nodeType === 3 || old.nodeType === 8) {
    old.data = neu.data;
    return old;
  }
  const deep = !old.__on && !neu.__on && (inside || isRoot(neu) || neu instanceof SVGElement);
  if (!deep) {
    old.replaceWith(neu);
    return neu;
  }
  syncAttributes(old, neu);
  patchChildren(old, neu, true);
  return old;
}

function patchChildren(old, neu, inside) {
  const olds = [...old.childNodes];
  const news = [...neu.childNodes];
  const keyed = new Map();
  const free = [];
  for (const o of olds) {
    const k = key(o);
    if (k && !keyed.has(k)) keyed.set(k, o);
    else free.push(o);
  }
  // Unkeyed children: first the ones that did not change at all (a log line that moved down),
  // then, in order, one of the same kind to patch.
  const exact = new Map();
  for (const o of free) {
    const s = sig(o);
    if (!exact.has(s)) exact.set(s, []);
    exact.get(s).push(o);
  }
  const used = new Set();
  const match = news.map((n) => {
    const k = key(n);
    if (k) {
      const o = keyed.get(k);
      if (o) { keyed.delete(k); used.add(o); }
      return o || null;
    }
    const same = fresh(n) ? null : exact.get(sig(n));
    while (same && same.length) {
      const o = same.shift();
      if (!used.has(o)) { used.add(o); return o; }
    }
    return undefined; // decided below
  });
  let next = 0;
  news.forEach((n, i) => {
    if (match[i] !== undefined) return;
    let j = next;
    while (j < free.length && (used.has(free[j]) || free[j].nodeName !== n.nodeName)) j++;
    if (j < free.length) {
      used.add(free[j]);
      next = j + 1;
      match[i] = free[j];
    } else match[i] = null;
  });
  for (const o of olds) if (!used.has(o)) o.remove();
  news.forEach((n, i) => {
    const o = match[i];
    const node = o ? patch(o, n, inside) : n;
    const at = old.childNodes[i];
    if (at !== node) old.insertBefore(node, at || null);
  });
}

// Put `neu` (a screen's root) into `parent`: patched into the root there when it is the same
// screen (same id), else in its place.
export function show(parent, neu) {
  const cur = parent.firstElementChild;
  if (cur && parent.childNodes.length === 1 && cur.id && cur.id === neu.id) return patch(cur, neu);
  parent.replaceChildren(neu);
  return neu;
}
