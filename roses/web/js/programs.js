// The settings page's section for programs: personal API tokens (made with a label and
// scopes, the secret shown once, listed with their last use, revoked) and marking the
// account as a bot account, for good (docs/api.md, "Programs as players").

import { api } from "./api.js";
import { el } from "./kit.js";
import { t } from "./i18n.js";

function alertBox() {
  return el("p", { class: "error", role: "alert", hidden: true });
}

function say(box, text) {
  box.textContent = text;
  box.hidden = false;
}

function when(iso) {
  const format = new Intl.DateTimeFormat(document.documentElement.lang || "en", { dateStyle: "medium", timeStyle: "short" });
  return format.format(new Date(iso));
}

function scopeWords(scopes) {
  return scopes.includes("play") ? t("may play") : t("may only read");
}

function botPart(me) {
  if (me.bot) return el("p", {}, t("This is a bot account: it is listed as a bot and rated on the bots' ladder."));
  const error = alertBox();
  return el("div", { class: "stack" },
    el("p", {}, t("A bot account is a program's: it is listed as a bot everywhere, rated on the bots' ladder, and plays rated games against people only where their creator accepts bot accounts. An account that has played rated games cannot become one. This cannot be undone.")),
    error,
    el("div", { class: "buttons" }, el("button", { type: "button", onclick: async () => {
      if (!confirm(t("Make {name} a bot account for good?", { name: me.name }))) return;
      try {
        await api("/api/accounts/bot", { method: "POST" });
        location.reload();
      } catch (problem) {
        say(error, problem.message);
      }
    } }, t("Make this a bot account"))));
}

export function programsSection(me) {
  const list = el("ul", { class: "tokens" });
  const error = alertBox();
  const shown = el("div", { role: "status" });
  const label = el("input", { name: "token-label", required: true, maxlength: 64 });
  const play = el("input", { name: "token-play", type: "checkbox", checked: true });
  const draw = async () => {
    let tokens;
    try {
      tokens = await api("/api/accounts/tokens");
    } catch (problem) {
      say(error, problem.message);
      return;
    }
    list.replaceChildren(...tokens.map((token) => el("li", { class: "token" },
      el("strong", {}, token.label),
      el("span", { class: "muted small" }, scopeWords(token.scopes)),
      el("span", { class: "muted small" }, token.last_used_at
        ? t("last used {when}", { when: when(token.last_used_at) })
        : t("never used")),
      el("button", { type: "button", onclick: async () => {
        try {
          await api(`/api/accounts/tokens/${token.id}`, { method: "DELETE" });
          await draw();
        } catch (problem) {
          say(error, problem.message);
        }
      } }, t("Revoke")))));
  };
  draw();
  return el("section", { class: "panel", id: "programs" },
    el("h2", {}, t("Programs")),
    botPart(me),
    el("h3", {}, t("API tokens")),
    el("p", {}, t("A program signs in to your account with a token, sent as Authorization: Bearer. A token may read your games and lists, or also play; it never changes your settings.")),
    list,
    el("form", { class: "stack", novalidate: true, onsubmit: async (event) => {
      event.preventDefault();
      error.hidden = true;
      const scopes = play.checked ? ["read", "play"] : ["read"];
      try {
        const made = await api("/api/accounts/tokens", { method: "POST", body: { label: label.value.trim(), scopes } });
        label.value = "";
        shown.replaceChildren(
          el("p", {}, t("Your new token, shown this once: copy it now.")),
          el("code", { class: "token-secret" }, made.token));
        await draw();
      } catch (problem) {
        say(error, problem.message);
      }
    } },
    el("label", {}, t("What the token is for"), label),
    el("label", { class: "check" }, play, t("It may play (create, join and play games)")),
    error,
    el("div", { class: "buttons" }, el("button", { type: "submit" }, t("Make a token"))),
    shown));
}
