// The settings page's account sections for a registered account: the password changed,
// the browsers signed in (signed out one by one or everywhere), one's data downloaded,
// and the account deleted.

import { api } from "./api.js";
import { el } from "./kit.js";
import { t } from "./i18n.js";
import { pageLocale } from "./dates.js";

function alertBox() {
  return el("p", { class: "error", role: "alert", hidden: true });
}

function say(box, text) {
  box.textContent = text;
  box.hidden = false;
}

function when(iso) {
  const format = new Intl.DateTimeFormat(pageLocale(), { dateStyle: "medium", timeStyle: "short" });
  return format.format(new Date(iso));
}

export function passwordSection(me) {
  const current = el("input", { name: "current-password", type: "password", autocomplete: "current-password", required: true });
  const fresh = el("input", { name: "new-password", type: "password", autocomplete: "new-password", required: true });
  const error = alertBox();
  const done = el("p", { class: "muted", role: "status" });
  return el("section", { class: "panel", id: "password" },
    el("h2", {}, t("Password")),
    el("form", { class: "stack", novalidate: true, onsubmit: async (event) => {
      event.preventDefault();
      error.hidden = true;
      done.textContent = "";
      try {
        await api("/api/accounts/password", { method: "POST", body: { current: current.value, new: fresh.value } });
        current.value = fresh.value = "";
        done.textContent = t("Your password is changed. Every other browser signed in to your account is signed out.");
      } catch (problem) {
        say(error, problem.message);
      }
    } },
    el("input", { name: "username", autocomplete: "username", value: me.name, hidden: true }),
    el("label", {}, t("Current password"), current),
    el("label", {}, t("New password (at least 8 characters)"), fresh),
    error,
    el("div", { class: "buttons" }, el("button", { type: "submit", class: "primary" }, t("Change the password")), done)));
}

export function sessionsSection() {
  const list = el("ul", { class: "sessions" });
  const error = alertBox();
  const draw = async () => {
    let sessions;
    try {
      sessions = await api("/api/accounts/sessions");
    } catch (problem) {
      say(error, problem.message);
      return;
    }
    list.replaceChildren(...sessions.map((session) => el("li", { class: "session" },
      el("span", {}, session.browser || t("An unknown browser")),
      el("span", { class: "muted small" }, t("signed in {when}", { when: when(session.created_at) })),
      session.current
        ? el("strong", {}, t("this browser"))
        : el("button", { type: "button", onclick: async () => {
          try {
            await api(`/api/accounts/sessions/${session.id}`, { method: "DELETE" });
            await draw();
          } catch (problem) {
            say(error, problem.message);
          }
        } }, t("Sign out")))));
  };
  draw();
  return el("section", { class: "panel", id: "sessions" },
    el("h2", {}, t("Where you are signed in")),
    list,
    error,
    el("button", { type: "button", onclick: async () => {
      try {
        await api("/api/accounts/sessions", { method: "DELETE" });
        location.assign("/");
      } catch (problem) {
        say(error, problem.message);
      }
    } }, t("Sign out everywhere")));
}

export function dataSection() {
  return el("section", { class: "panel", id: "data" },
    el("h2", {}, t("Your data")),
    el("p", {}, t("Everything this site keeps of your account: your settings, sessions, games, chat messages and ratings, as a JSON file.")),
    el("a", { class: "button", href: "/api/accounts/data", download: "" }, t("Download my data")));
}

export function deleteSection(me) {
  const password = el("input", { name: "delete-password", type: "password", autocomplete: "current-password", required: true });
  const error = alertBox();
  return el("section", { class: "panel", id: "delete" },
    el("h2", {}, t("Delete the account")),
    el("p", {}, t("Your settings, sessions, chat messages and ratings are deleted. Your finished games stay, your seat shown as a deleted player. This cannot be undone.")),
    el("form", { class: "stack", novalidate: true, onsubmit: async (event) => {
      event.preventDefault();
      error.hidden = true;
      if (!confirm(t("Delete the account {name} for good?", { name: me.name }))) return;
      try {
        await api("/api/accounts/delete", { method: "POST", body: { password: password.value } });
        location.assign("/");
      } catch (problem) {
        say(error, problem.message);
      }
    } },
    el("label", {}, t("Your password"), password),
    error,
    el("div", { class: "buttons" }, el("button", { type: "submit", class: "danger" }, t("Delete my account")))));
}
