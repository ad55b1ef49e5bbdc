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
// A region's feature in words; `size`: the letter of its board's size icon (the Size feature's).
export const feature = (name, size = "") => text("edition", `feature.${name}`, { size });
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

// --- refusals ------------------------------------------------------------------------------------
// An engine or server refusal (or a "why not" of `explain`) from its reason and params, as
// smallworld/words/why.py tells it, line for line: the words `why.<reason>` of the core, or
// `why.<key>` of the unit or edition for `<unit>.<key>`; parameters shown by their names; the
// section once, as a reference. `names` gives what the catalogues do not hold: `region(ref)` ->
// {n, name} (the board's), `pieces` {kind: unit} (the board's), `natives` (their unit id) and
// `viewer` (the reader's seat).
const join = (items, last = false) => {
  const xs = items.filter((x) => x);
  if (last && xs.length > 1) return text("core", "list.and", { first: xs.slice(0, -1).join(text("core", "list.sep")), last: xs[xs.length - 1] });
  return xs.join(text("core", "list.sep"));
};
const named = (owner, key, fallback) => (has(owner, key) ? text(owner, key) : fallback);
function unitWord(uid, names) {
  if (names.natives && uid === names.natives) return text("edition", "natives");
  return own(catalogues, uid) && has(uid, "name") ? text(uid, "name") : String(uid).replace(/_/g, " ");
}
function regionWord(ref, names) {
  const r = names.region ? names.region(ref) : null;
  return r ? text("core", "region", { n: r.n, name: r.name }) : String(ref);
}
function pieceWord(kind, n, names) {
  const owner = (names.pieces || {})[kind] || "edition";
  return has(owner, `piece.${kind}`) ? text(owner, `piece.${kind}`, { n }) : String(kind).replace(/_/g, " ");
}
const isA = (name, kind) => name === kind || name.endsWith(`_${kind}`);

export function whyParams(raw, names = {}) {
  const out = {};
  for (const [name, value] of Object.entries(raw || {})) {
    if (value === null || value === undefined || name === "why") continue;
    if (isA(name, "region")) out[name] = regionWord(value, names);
    else if (name === "regions") { out[name] = join(value.map((r) => regionWord(r, names)), true); out.regions_any = value.length > 0; }
    else if (isA(name, "seat")) {
      out[name] = value === names.viewer ? text("core", "seat.you") : text("core", "seat.other", { n: value });
      out[`${name}_you`] = value === names.viewer;
    } else if (["unit", "race", "power", "relic"].includes(name)) out[name] = unitWord(value, names);
    else if (name === "piece") out[name] = pieceWord(value, raw.n ?? 1, names);
    else if (name === "pieces") {
      const items = Array.isArray(value) ? value.map((k) => [k, null]) : Object.entries(value);
      out[name] = join(items.map(([k, n]) => (n === null ? pieceWord(k, 1, names) : `${n} ${pieceWord(k, n, names)}`)), true);
      out.pieces_any = items.length > 0;
    } else if (name === "phase") out[name] = named("core", `phase.${value}`, String(value).replace(/_/g, " "));
    else if (name === "terrain") out[name] = named("edition", `terrain.${value}`, value);
    else if (name === "faction") out[name] = named("edition", `faction.${value}`, value);
    else if (name === "option") out[name] = join(String(value).split("+").map((u) => (has(u, "option") ? text(u, "option") : unitWord(u, names))), true);
    else out[name] = value;
  }
  if (typeof (raw || {}).why === "string") {
    const rest = { ...raw };
    delete rest.why;
    out.why = why(raw.why, rest, names);
  }
  return out;
}

function whyKey(reason) {
  const dot = reason.indexOf(".");
  const head = dot < 0 ? "" : reason.slice(0, dot);
  if (dot >= 0 && (head === "edition" || (own(catalogues, head) && !["core", "web"].includes(head)))) return [head, `why.${reason.slice(dot + 1)}`];
  return ["core", `why.${reason}`];
}

// The sentence of a reason (no section).
export function why(reason, params, names = {}) {
  let [owner, key] = whyKey(reason || "refused");
  if (!has(owner, key)) [owner, key] = ["core", "why.refused"];
  return text(owner, key, whyParams(params, names));
}
export const reference = (rule) => (rule ? text("core", "rules.ref", { rule }) : "");
// A "why not" of `explain` (a reason with its section).
export const told = (reason, params, rule, names = {}) => why(reason, params, names) + reference(rule);
// An error's JSON ({code, reason?, params?, rule?}) as a person reads it.
export function refusal(body, names = {}) {
  const code = String((body && body.code) || "error");
  const key = has("core", `error.${code}`) ? `error.${code}` : "error.error";
  const sentence = why(String(body.reason || code), body.params && typeof body.params === "object" ? body.params : {}, names);
  return text("core", key, { message: sentence, ref: reference(body.rule) });
}
