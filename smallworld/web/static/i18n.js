// The engine's message catalogues ({owner: {lang: {id: template}}}) and the client's own (owner
// "web"); templates as smallworld/words describes them: {name} and {flag|first|other}.
export const LANGS = ["en", "pt", "de"];
let catalogues = {};
let lang = localStorage.getItem("sw.lang") || (navigator.language || "en").slice(0, 2);
if (!LANGS.includes(lang)) lang = "en";

export function load(cats) { catalogues = cats; }
export function current() { return lang; }
export function setLang(l) { if (LANGS.includes(l)) { lang = l; localStorage.setItem("sw.lang", l); } }

function split(body) {
  // Split on top-level "|" only: branches may hold nested {...}.
  const out = [];
  let depth = 0, start = 0;
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c === "{") depth++;
    else if (c === "}") depth--;
    else if (c === "|" && depth === 0) { out.push(body.slice(start, i)); start = i + 1; }
  }
  out.push(body.slice(start));
  return out;
}

export function fill(template, params = {}) {
  let out = "";
  let i = 0;
  while (i < template.length) {
    const c = template[i];
    if (c !== "{") { out += c; i++; continue; }
    let depth = 1, j = i + 1;
    while (j < template.length && depth) { if (template[j] === "{") depth++; else if (template[j] === "}") depth--; j++; }
    const body = template.slice(i + 1, j - 1);
    const parts = split(body);
    if (parts.length === 1) {
      out += body in params ? String(params[body]) : `{${body}}`;
    } else {
      const v = params[parts[0]];
      const on = v === 1 || v === true || v === "1";
      out += fill(on ? parts[1] : (parts[2] ?? ""), params);
    }
    i = j;
  }
  return out;
}

export function has(owner, key) {
  const c = catalogues[owner];
  return !!(c && ((c[lang] && key in c[lang]) || (c.en && key in c.en)));
}

export function text(owner, key, params) {
  const c = catalogues[owner] || {};
  const t = (c[lang] && c[lang][key]) ?? (c.en && c.en[key]);
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
