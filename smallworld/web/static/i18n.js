// The engine's message catalogues ({owner: {lang: {id: template}}}) and the client's own (owner
// "web"); templates as smallworld/words describes them (`fill` below).
export const LANGS = ["en", "pt", "de"];
let catalogues = {};
let lang = localStorage.getItem("sw.lang") || (navigator.language || "en").slice(0, 2);
if (!LANGS.includes(lang)) lang = "en";

export function load(cats) { catalogues = cats; }
export function current() { return lang; }
export function setLang(l) { if (LANGS.includes(l)) { lang = l; localStorage.setItem("sw.lang", l); } }

// A template, parsed once: text pieces, {name, source} and {name, first, other, source} (the
// branches are node lists). This is the parser of smallworld/words/__init__.py, line for line; the
// cases of tests/templates.json run against both and must give the same text.
const NAME = /[a-z_][a-z0-9_]*/y;
const ESCAPABLE = "\\{}|"; // `\{` `\}` `\|` `\\`: the character itself
const parsed = new Map();

function parse(t, i, stops) {
  const nodes = [];
  let buf = "";
  while (i < t.length) {
    const c = t[i];
    if (c === "\\" && i + 1 < t.length && ESCAPABLE.includes(t[i + 1])) { buf += t[i + 1]; i += 2; continue; }
    if (stops.includes(c)) break;
    if (c === "{") {
      const [node, j] = field(t, i);
      if (node !== null) {
        if (buf) { nodes.push(buf); buf = ""; }
        nodes.push(node);
        i = j;
        continue;
      }
    }
    buf += c;
    i++;
  }
  if (buf) nodes.push(buf);
  return [nodes, i];
}

function field(t, i) {
  // `{name}` or `{name|first|other}` at t[i] (branches may hold fields), else [null, i].
  NAME.lastIndex = i + 1;
  const m = NAME.exec(t);
  if (m === null) return [null, i];
  const name = m[0], j = i + 1 + name.length;
  if (t[j] === "}") return [{ name, source: t.slice(i, j + 1) }, j + 1];
  if (t[j] === "|") {
    const [first, k] = parse(t, j + 1, "|}");
    if (t[k] === "|") {
      const [other, end] = parse(t, k + 1, "|}");
      if (t[end] === "}") return [{ name, first, other, source: t.slice(i, end + 1) }, end + 1];
    }
  }
  return [null, i];
}

// Own keys only: `{constructor}` or a message id "constructor" is not Object's.
const own = (o, k) => o !== null && typeof o === "object" && Object.prototype.hasOwnProperty.call(o, k);
// A missing or null parameter: the field stays visible as written.
const given = (params, name) => own(params, name) && params[name] !== null && params[name] !== undefined;
// A selector's first branch: the parameter is 1, true or the text "1".
const first = (v) => v === 1 || v === true || v === "1";

function render(nodes, params) {
  let out = "";
  for (const node of nodes) {
    if (typeof node === "string") out += node;
    else if (!given(params, node.name)) out += node.source;
    else if (node.first === undefined) out += String(params[node.name]);
    else out += render(first(params[node.name]) ? node.first : node.other, params);
  }
  return out;
}

// Templates as smallworld/words describes them: `{name}`, `{flag|first|other}` (nested), escapes
// `\{` `\}` `\|` `\\`; a missing or null parameter leaves its `{...}` visible.
export function fill(template, params = {}) {
  let nodes = parsed.get(template);
  if (nodes === undefined) { nodes = parse(template, 0, "")[0]; parsed.set(template, nodes); }
  return render(nodes, params ?? {});
}

// The message in the current language, else in English, else undefined (as Words.template does).
function template(owner, key) {
  const c = own(catalogues, owner) ? catalogues[owner] : {};
  for (const l of [lang, "en"]) if (own(c, l) && own(c[l], key)) return c[l][key];
  return undefined;
}

export function has(owner, key) { return template(owner, key) !== undefined; }

export function text(owner, key, params) {
  const t = template(owner, key);
  return t === undefined ? `${owner}.${key}` : fill(t, params);
}

export const t = (key, params) => text("web", key, params);
export const unitName = (uid) => (uid ? text(uid, "name") : "");
export const card = (uid) => (uid ? text(uid, "card") : "");
export const terrain = (name) => text("edition", `terrain.${name}`);
export const feature = (name) => text("edition", `feature.${name}`, { size: "" });
export const phase = (name) => text("core", `phase.${name}`);
export const faction = (name) => text("edition", `faction.${name}`);
export function seatName(seat, viewer) {
  if (seat === null || seat === undefined) return text("core", "seat.nobody");
  return seat === viewer ? text("core", "seat.you") : text("core", "seat.other", { n: seat + 1 });
}
export function piece(owner, kind, n = 1) {
  if (owner && has(owner, `piece.${kind}`)) return text(owner, `piece.${kind}`, { n });
  if (has("edition", `piece.${kind}`)) return text("edition", `piece.${kind}`, { n });
  return kind.replace(/_/g, " ");
}
// A text sent by the server in every language ({en, pt, de}).
export const pick = (texts) => (texts ? texts[lang] ?? texts.en : "");
