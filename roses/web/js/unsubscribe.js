// The page an e-mail's unsubscribe link opens: it says which e-mails the link stops and
// stops them at a press of the button (opening the link alone changes nothing, so that a
// mail program that fetches links to look at them unsubscribes nobody). No sign-in needed.

import { api } from "./api.js";
import { el } from "./kit.js";
import { t } from "./i18n.js";

const main = document.getElementById("main");
const token = decodeURIComponent(location.pathname.split("/")[2] || "");

function what(kind) {
  return kind === "digest"
    ? t("the daily e-mail of the games waiting for your move")
    : t("the e-mails warning that your time in a game runs short");
}

function done(kind) {
  return el("p", { role: "status" }, t("Done: you will get no more of {what}. You can turn them on again in your settings.", { what: what(kind) }), " ",
    el("a", { href: "/settings" }, t("Settings")));
}

async function start() {
  let found;
  try {
    found = await api(`/api/unsubscribe/${encodeURIComponent(token)}`);
  } catch (problem) {
    main.replaceChildren(el("section", { class: "panel" }, el("h1", {}, t("Unsubscribe")),
      el("p", { class: "error", role: "alert" }, problem.message)));
    return;
  }
  const panel = el("section", { class: "panel unsubscribe" }, el("h1", {}, t("Unsubscribe")));
  if (!found.subscribed) {
    panel.append(el("p", {}, t("You get none of {what} already.", { what: what(found.kind) })));
  } else {
    const error = el("p", { class: "error", role: "alert", hidden: true });
    panel.append(
      el("p", {}, t("Stop {what}?", { what: what(found.kind) })),
      error,
      el("button", { class: "primary", onclick: async () => {
        try {
          const answer = await api("/api/unsubscribe", { method: "POST", body: { token } });
          panel.replaceChildren(el("h1", {}, t("Unsubscribe")), done(answer.kind));
        } catch (problem) {
          error.textContent = problem.message;
          error.hidden = false;
        }
      } }, t("Unsubscribe")));
  }
  main.replaceChildren(panel);
}

start();
