// The account's settings page: a guest keeps its games by choosing a name and password;
// how I am told that a game waits for me (browser notifications, a sound, e-mails, to an
// address confirmed from the link sent there); push messages and a webhook (reach.js); my
// vacation (vacation.js); a registered account's password, sessions, data and deletion
// (account_settings.js), its programs' API tokens and the bot mark (programs.js).

import { api, ApiError } from "./api.js";
import { el, toSignIn } from "./kit.js";
import { t } from "./i18n.js";
import { chime, useSettings } from "./notify.js";
import { vacationSection } from "./vacation.js";
import { reachSection } from "./reach.js";
import { dataSection, deleteSection, passwordSection, sessionsSection } from "./account_settings.js";
import { programsSection } from "./programs.js";

const main = document.getElementById("main");

function problemText(problem) {
  return problem instanceof ApiError ? problem.message : t("Something went wrong: {problem}", { problem: problem.message });
}

function alertBox() {
  return el("p", { class: "error", role: "alert", hidden: true });
}

function say(box, text) {
  box.textContent = text;
  box.hidden = false;
}

// A guest chooses a name and password: the same account, every game kept.
function registerSection(me) {
  if (!me.guest) {
    return el("section", { class: "panel", id: "register" }, el("h2", {}, t("Account")),
      el("p", {}, t("Signed in as {name}.", { name: me.name })));
  }
  const error = alertBox();
  // No maxlength: a name too long is refused with a sentence, never cut by the browser.
  const name = el("input", { name: "name", autocomplete: "username", required: true, minlength: 2 });
  const password = el("input", { name: "new-password", type: "password", autocomplete: "new-password", required: true, minlength: 8 });
  return el("section", { class: "panel", id: "register" },
    el("h2", {}, t("Keep your games")),
    el("p", {}, t("You play as the guest {name}. A guest cannot sign in again once signed out: choose a name and a password to keep this account, every game in it, and to play rated games.", { name: me.name })),
    // The server's refusal says what is wrong, in the page's language: no browser bubbles.
    el("form", { class: "stack", novalidate: true, onsubmit: async (event) => {
      event.preventDefault();
      error.hidden = true;
      try {
        await api("/api/accounts/upgrade", { method: "POST", body: { name: name.value.trim(), password: password.value } });
        location.reload();
      } catch (problem) {
        say(error, problemText(problem));
      }
    } },
    el("label", {}, t("Name"), name),
    el("label", {}, t("Password (at least 8 characters)"), password),
    error,
    el("button", { type: "submit", class: "primary" }, t("Register and keep my games"))));
}

// Browser notifications: permission is asked only when the person presses the button.
function browserControls(settings, save) {
  const state = el("p", { class: "muted", "aria-live": "polite" });
  const toggle = el("button", { type: "button" });
  const supported = "Notification" in window;
  const draw = () => {
    if (!supported) {
      state.textContent = t("This browser cannot show notifications.");
      toggle.hidden = true;
      return;
    }
    const blocked = Notification.permission === "denied";
    const on = settings.browser && Notification.permission === "granted";
    state.textContent = blocked
      ? t("This browser blocks notifications from this site: allow them in its site settings first.")
      : on ? t("A notification appears when a game becomes your turn while you look at another page.")
        : t("Notifications are off.");
    toggle.textContent = on ? t("Turn off notifications") : t("Turn on notifications");
    toggle.disabled = blocked && !on;
  };
  toggle.addEventListener("click", async () => {
    const wanted = !(settings.browser && Notification.permission === "granted");
    if (wanted && Notification.permission !== "granted") await Notification.requestPermission();
    if (!wanted || Notification.permission === "granted") await save({ browser: wanted });
    draw();
  });
  draw();
  return [state, toggle];
}

function notificationsSection(settings, save) {
  const sound = el("input", { type: "checkbox", name: "sound", checked: settings.sound,
    onchange: () => save({ sound: sound.checked }) });
  return el("section", { class: "panel", id: "turns" },
    el("h2", {}, t("When it is your turn")),
    el("h3", {}, t("Browser notifications")),
    ...browserControls(settings, save),
    el("h3", {}, t("Sound")),
    el("div", { class: "buttons" },
      el("label", { class: "check" }, sound, t("Play a sound when a game becomes your turn")),
      el("button", { type: "button", onclick: chime }, t("Try the sound"))));
}

// Whether the address is confirmed: no e-mail goes to it before.
function confirmation(settings) {
  const box = el("div", { class: "confirmation", "aria-live": "polite" });
  const draw = () => {
    if (!settings.email) box.replaceChildren();
    else if (settings.email_confirmed) box.replaceChildren(el("p", { class: "muted small" }, t("This address is confirmed.")));
    else {
      const note = el("p", { class: "muted small" });
      box.replaceChildren(
        el("p", {}, t("Not confirmed yet: open the link sent to {email}. Until then no e-mail goes there.", { email: settings.email })),
        el("button", { type: "button", onclick: async () => {
          try {
            note.textContent = (await api("/api/settings/notifications/confirmation", { method: "POST" })).detail;
          } catch (problem) {
            note.textContent = problemText(problem);
          }
        } }, t("Send the link again")),
        note);
    }
  };
  draw();
  settings.redrawConfirmation = draw;
  return box;
}

function emailSection(settings, save) {
  if (!settings.email_available) {
    return el("section", { class: "panel", id: "email" }, el("h2", {}, t("E-mail")),
      el("p", { class: "muted" }, t("This server sends no e-mail: it has no mail server set up.")));
  }
  const done = el("p", { class: "muted", "aria-live": "polite" });
  const error = alertBox();
  const address = el("input", { type: "email", name: "email", autocomplete: "email", value: settings.email || "", maxlength: 254 });
  const digest = el("input", { type: "checkbox", name: "digest", checked: settings.digest });
  const deadline = el("input", { type: "checkbox", name: "deadline_warning", checked: settings.deadline_warning });
  return el("section", { class: "panel", id: "email" },
    el("h2", {}, t("E-mail")),
    el("form", { class: "stack", novalidate: true, onsubmit: async (event) => {
      event.preventDefault();
      done.textContent = "";
      if (await save({ email: address.value.trim() || null, digest: digest.checked, deadline_warning: deadline.checked }, error)) {
        done.textContent = t("Saved.");
        settings.redrawConfirmation();
      }
    } },
    el("label", {}, t("E-mail address"), address),
    confirmation(settings),
    el("label", { class: "check" }, digest, t("A daily e-mail listing the games waiting for your move (none when nothing waits)")),
    el("label", { class: "check" }, deadline, t("An e-mail when your time in a correspondence game runs short")),
    el("p", { class: "muted small" }, t("Every e-mail has a link that stops it.")),
    error,
    el("div", { class: "buttons" }, el("button", { type: "submit", class: "primary" }, t("Save")), done)));
}

async function start() {
  let me;
  try {
    me = await api("/api/me");
  } catch (problem) {
    if (problem.status === 401) toSignIn();
    else main.replaceChildren(el("p", { class: "error" }, problemText(problem)));
    return;
  }
  const settings = await api("/api/settings/notifications");
  const error = alertBox();
  // Every change sends all the settings; a refusal says why and changes nothing.
  const save = async (changes, box = error) => {
    box.hidden = true;
    const { email_available, email_confirmed, redrawConfirmation, ...current } = settings;
    try {
      // One object, changed in place: every section reads the saved settings.
      Object.assign(settings, await api("/api/settings/notifications", { method: "PUT", body: { ...current, ...changes } }));
      useSettings(settings);
      return true;
    } catch (problem) {
      say(box, problemText(problem));
      return false;
    }
  };
  main.replaceChildren(el("div", { class: "settings-page" },
    el("h1", {}, t("Settings")),
    error,
    registerSection(me),
    notificationsSection(settings, save),
    emailSection(settings, save),
    await reachSection(),
    await vacationSection(me),
    ...(me.guest ? [] : [passwordSection(me), sessionsSection(), programsSection(me), dataSection(), deleteSection(me)])));
  if (location.hash === "#register") document.getElementById("register")?.scrollIntoView();
}

start();
