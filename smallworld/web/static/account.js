// The account of this browser (docs/server.md, Accounts): sign up, log in, log out, as a small box
// the lobby shows. A logged-in browser's session is an HttpOnly cookie the page never reads; the
// page only learns who is logged in (GET /api/account) and sends the session's CSRF token with its
// posts (api.js reads it from the cookie `sw_csrf`).
import * as api from "./api.js";
import * as W from "./i18n.js";
import { h as el } from "./app.js";

let known = null; // {player: {id, name}, account, csrf} of the session, or null: not logged in

export const current = () => known;
export const loggedIn = () => known !== null && known.account === true;

// Who this browser is logged in as (null: nobody). A player token of this browser is not asked:
// the box is about the session.
export async function refresh() {
  try { known = await api.call("GET", "/api/account"); } catch { known = null; }
  return known;
}

// The box: "Logged in as NAME · Log out", or the form to log in or sign up. `changed()` is called
// once the account changes (the lobby reloads its lists).
export function box(changed) {
  const root = el("section", { class: "panel account", id: "account", "aria-labelledby": "account-title" });
  const say = el("p", { class: "account-error", role: "alert", "aria-live": "polite" });
  const fail = (e) => { say.textContent = e && e.body && e.body.code ? W.refusal(e.body) : W.t("account.failed"); };
  // The daily e-mail (docs/players.md): an address and the opt-in, in the reader's language.
  const digestForm = () => {
    const email = el("input", { id: "digest-email", type: "email", autocomplete: "email", maxlength: "254", value: known.email || "" });
    const on = el("input", { type: "checkbox", id: "digest-on", checked: Boolean(known.digest) });
    const said = el("p", { id: "digest-said", role: "status" });
    const save = async () => {
      const body = { email: email.value.trim() || null, digest: on.checked, lang: W.current() };
      try { await api.call("POST", "/api/account/email", { body }); } catch (e) { said.textContent = ""; fail(e); return; }
      known = { ...known, ...body };
      say.textContent = "";
      said.textContent = body.digest ? W.t("account.digest_saved", { email: body.email }) : W.t("account.digest_off");
    };
    return el("details", { class: "digest", id: "digest", open: Boolean(known.digest) || undefined },
      el("summary", {}, W.t("account.digest_title")),
      el("form", { id: "digest-form", onsubmit: (e) => { e.preventDefault(); save(); } },
        el("label", { for: "digest-email" }, W.t("account.email")), email,
        el("label", { class: "digest-choice" }, on, " ", W.t("account.digest_on")),
        el("button", { type: "submit", id: "digest-save" }, W.t("account.save"))),
      said);
  };
  let drawnAs; // the account the box was last drawn for: a redraw for the same one would wipe typing
  const draw = () => {
    say.textContent = "";
    drawnAs = loggedIn() ? known.player.id : null;
    if (loggedIn()) {
      root.replaceChildren(
        el("h2", { id: "account-title" }, W.t("account.title")),
        el("p", { id: "account-name" }, W.t("account.as", { name: known.player.name }), " · ",
          el("a", { href: `#/player/${known.player.id}`, id: "my-profile" }, W.t("profile.my_profile"))),
        el("button", { type: "button", id: "log-out", onclick: async () => {
          try { await api.call("POST", "/api/session/logout"); } catch (e) { fail(e); return; }
          known = null; draw(); changed();
        } }, W.t("account.log_out")), digestForm(), say);
      return;
    }
    const name = el("input", { id: "account-user", name: "username", autocomplete: "username", required: true, maxlength: "40" });
    const pw = el("input", { id: "account-password", name: "password", type: "password", autocomplete: "current-password", required: true, minlength: "8" });
    const send = async (path, claim) => {
      try {
        // Signing up with this browser's anonymous player makes it the account (its games stay).
        known = await api.call("POST", path, { body: { name: name.value.trim(), password: pw.value }, token: claim ? api.playerToken() : undefined });
        if (!claim) api.forgetPlayer(); // another account's games are not this browser's player's
        api.rememberName(known.player.name);
      } catch (e) { fail(e); return; }
      draw(); changed();
    };
    root.replaceChildren(
      el("h2", { id: "account-title" }, W.t("account.title")),
      el("form", { id: "account-form", onsubmit: (e) => { e.preventDefault(); send("/api/session", false); } },
        el("label", { for: "account-user" }, W.t("account.name")), name,
        el("label", { for: "account-password" }, W.t("account.password")), pw,
        el("div", { class: "account-buttons" },
          el("button", { type: "submit", id: "log-in", class: "primary" }, W.t("account.log_in")),
          el("button", { type: "button", id: "sign-up", onclick: () => { if (name.reportValidity() && pw.reportValidity()) send("/api/accounts", true); } }, W.t("account.sign_up")))),
      el("p", { class: "hint" }, W.t("account.why")), say);
  };
  draw();
  // A language switched (the lobby asks): the box again in the new words, what was typed kept.
  root.relabel = () => {
    const typed = [...root.querySelectorAll("input[id]")].map((i) => [i.id, i.type === "checkbox" ? i.checked : i.value]);
    const open = root.querySelector("details")?.open;
    draw();
    for (const [id, v] of typed) {
      const i = root.querySelector(`#${id}`);
      if (i && i.type === "checkbox") i.checked = v; else if (i) i.value = v;
    }
    const details = root.querySelector("details");
    if (details && open !== undefined) details.open = open;
  };
  // The session is learnt after the box is shown: redraw only if it is another account (a redraw of
  // the same form would replace the inputs someone may already be typing into).
  refresh().then(() => { if ((loggedIn() ? known.player.id : null) !== drawnAs) draw(); });
  return root;
}
