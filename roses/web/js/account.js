// The account pages that need no sign-in: asking for a link to choose a new password
// (/reset-password), choosing it from that link (/reset-password/<token>), and confirming
// an e-mail address from the link sent there (/confirm-email/<token>).

import { api } from "./api.js";
import { el } from "./kit.js";
import { t } from "./i18n.js";

const main = document.getElementById("main");
const [, page, rawToken] = location.pathname.split("/");
const token = decodeURIComponent(rawToken || "");

function alertBox() {
  return el("p", { class: "error", role: "alert", hidden: true });
}

function say(box, text) {
  box.textContent = text;
  box.hidden = false;
}

function askForLink() {
  const account = el("input", { name: "account", autocomplete: "username", required: true });
  const error = alertBox();
  const panel = el("section", { class: "panel", id: "reset" }, el("h1", {}, t("Forgot your password?")));
  panel.append(
    el("p", {}, t("Give your name or your confirmed e-mail address: a link to choose a new password goes to that address.")),
    el("form", { class: "stack", novalidate: true, onsubmit: async (event) => {
      event.preventDefault();
      error.hidden = true;
      try {
        const answer = await api("/api/accounts/password-reset", { method: "POST", body: { account: account.value.trim() } });
        panel.replaceChildren(el("h1", {}, t("Forgot your password?")),
          el("p", { role: "status" }, answer.detail), el("a", { href: "/" }, t("Back to the sign-in")));
      } catch (problem) {
        say(error, problem.message);
      }
    } },
    el("label", {}, t("Name or e-mail address"), account),
    error,
    el("button", { type: "submit", class: "primary" }, t("Send me a link"))));
  main.replaceChildren(panel);
  account.focus();
}

async function chooseNewPassword() {
  const panel = el("section", { class: "panel", id: "reset" }, el("h1", {}, t("Choose a new password")));
  main.replaceChildren(panel);
  let link;
  try {
    link = await api(`/api/accounts/password-reset/${encodeURIComponent(token)}`);
  } catch (problem) {
    panel.append(el("p", { class: "error", role: "alert" }, problem.message),
      el("a", { href: "/reset-password" }, t("Ask for a new link")));
    return;
  }
  const password = el("input", { name: "new-password", type: "password", autocomplete: "new-password", required: true });
  const error = alertBox();
  panel.append(
    el("p", {}, t("For the account {name}. Every browser signed in to it will be signed out.", { name: link.name })),
    el("form", { class: "stack", novalidate: true, onsubmit: async (event) => {
      event.preventDefault();
      error.hidden = true;
      try {
        await api("/api/accounts/password-reset/complete", { method: "POST", body: { token, password: password.value } });
        panel.replaceChildren(el("h1", {}, t("Choose a new password")),
          el("p", { role: "status" }, t("Your new password is set, and you are signed in.")),
          el("a", { href: "/" }, t("Lobby")));
      } catch (problem) {
        say(error, problem.message);
      }
    } },
    el("input", { name: "username", autocomplete: "username", value: link.name, hidden: true }),
    el("label", {}, t("New password (at least 8 characters)"), password),
    error,
    el("button", { type: "submit", class: "primary" }, t("Set the new password"))));
  password.focus();
}

async function confirmAddress() {
  const panel = el("section", { class: "panel", id: "confirm" }, el("h1", {}, t("Confirm your e-mail address")));
  main.replaceChildren(panel);
  try {
    const answer = await api("/api/email/confirm", { method: "POST", body: { token } });
    panel.append(el("p", { role: "status" }, t("Thank you: {email} is confirmed. The e-mails you chose will go there.", { email: answer.email })),
      el("a", { href: "/settings" }, t("Settings")));
  } catch (problem) {
    panel.append(el("p", { class: "error", role: "alert" }, problem.message), el("a", { href: "/settings" }, t("Settings")));
  }
}

if (page === "confirm-email") confirmAddress();
else if (token) chooseNewPassword();
else askForLink();
