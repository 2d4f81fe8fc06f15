// The settings page's "Away from the site": which news comes by push message and webhook,
// this browser's push subscription (through the service worker, install.js), and the
// account's webhook, whose signing secret is shown once, when it is set.

import { api, ApiError } from "./api.js";
import { el } from "./kit.js";
import { t } from "./i18n.js";
import { serviceWorker } from "./install.js";

const KINDS = [
  ["turn", () => t("When a game becomes your turn")],
  ["deadline", () => t("When your time in a correspondence game runs short")],
  ["tournament", () => t("When a round of a tournament you play starts")],
  ["challenge", () => t("When a friend invites you to a game")],
];

function problemText(problem) {
  return problem instanceof ApiError ? problem.message : t("Something went wrong: {problem}", { problem: problem.message });
}

// The key as the Push API takes it: bytes, from the server's base64url.
function keyBytes(base64url) {
  const text = atob(base64url.replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(text, (c) => c.charCodeAt(0));
}

async function currentSubscription() {
  const registration = await serviceWorker;
  if (!registration || !("pushManager" in registration)) return { registration: null, subscription: null };
  return { registration, subscription: await registration.pushManager.getSubscription() };
}

function pushControls(reach, note) {
  const state = el("p", { class: "muted", "aria-live": "polite" });
  const toggle = el("button", { type: "button", hidden: true });
  const draw = async () => {
    const { registration, subscription } = await currentSubscription();
    if (!registration || !("Notification" in window)) {
      state.textContent = t("This browser cannot receive push messages.");
      toggle.hidden = true;
      return;
    }
    if (Notification.permission === "denied") {
      state.textContent = t("This browser blocks notifications from this site: allow them in its site settings first.");
      toggle.hidden = true;
      return;
    }
    state.textContent = subscription
      ? t("This browser receives your push messages, even with no page of the site open.")
      : t("This browser receives no push messages.");
    toggle.textContent = subscription ? t("Stop push messages on this browser") : t("Receive push messages on this browser");
    toggle.hidden = false;
  };
  toggle.addEventListener("click", async () => {
    note.hidden = true;
    try {
      const { registration, subscription } = await currentSubscription();
      if (subscription) {
        await api("/api/push/unsubscribe", { method: "POST", body: { endpoint: subscription.endpoint } });
        await subscription.unsubscribe();
      } else if (await Notification.requestPermission() === "granted") {
        const made = await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(reach.public_key) });
        await api("/api/push/subscriptions", { method: "POST", body: made.toJSON() });
      }
    } catch (problem) {
      note.textContent = problemText(problem);
      note.hidden = false;
    }
    await draw();
  });
  draw();
  return [state, toggle];
}

function kindChoices(reach, note) {
  const boxes = KINDS.map(([kind]) => el("input", { type: "checkbox", name: `reach-${kind}`, checked: reach[kind] }));
  const save = async () => {
    note.hidden = true;
    const body = Object.fromEntries(KINDS.map(([kind], i) => [kind, boxes[i].checked]));
    try {
      Object.assign(reach, await api("/api/settings/reach", { method: "PUT", body }));
    } catch (problem) {
      note.textContent = problemText(problem);
      note.hidden = false;
    }
  };
  return el("fieldset", { class: "stack" },
    el("legend", {}, t("Tell me away from the site")),
    ...KINDS.map(([, label], i) => {
      boxes[i].addEventListener("change", save);
      return el("label", { class: "check" }, boxes[i], label());
    }));
}

function webhookForm(reach) {
  const error = el("p", { class: "error", role: "alert", hidden: true });
  const shown = el("div", { "aria-live": "polite" });
  const url = el("input", { type: "url", name: "webhook", value: reach.webhook_url || "", maxlength: 500, placeholder: "https://" });
  const remove = el("button", { type: "button", hidden: !reach.webhook_url, onclick: async () => {
    error.hidden = true;
    try {
      Object.assign(reach, await api("/api/settings/webhook", { method: "DELETE" }));
      url.value = "";
      remove.hidden = true;
      shown.replaceChildren(el("p", { class: "muted" }, t("The webhook is removed.")));
    } catch (problem) {
      error.textContent = problemText(problem);
      error.hidden = false;
    }
  } }, t("Remove the webhook"));
  return el("form", { class: "stack", novalidate: true, onsubmit: async (event) => {
    event.preventDefault();
    error.hidden = true;
    try {
      const hook = await api("/api/settings/webhook", { method: "PUT", body: { url: url.value.trim() } });
      reach.webhook_url = hook.url;
      remove.hidden = false;
      shown.replaceChildren(
        el("p", {}, t("Saved. Each message is signed with this secret (the X-Roses-Signature header): copy it now, it is shown only once.")),
        el("code", { class: "secret" }, hook.secret));
    } catch (problem) {
      error.textContent = problemText(problem);
      error.hidden = false;
    }
  } },
  el("label", {}, t("Webhook address (a Discord or Slack channel's, or your own)"), url),
  error,
  el("div", { class: "buttons" }, el("button", { type: "submit" }, t("Use this webhook")), remove),
  shown);
}

export async function reachSection() {
  const reach = await api("/api/settings/reach");
  const note = el("p", { class: "error", role: "alert", hidden: true });
  return el("section", { class: "panel", id: "reach" },
    el("h2", {}, t("Away from the site")),
    el("p", { class: "muted small" }, t("Push messages and the webhook tell only what you tick, once per game and turn, and not of a turn you have already seen here.")),
    kindChoices(reach, note),
    el("h3", {}, t("Push messages")),
    ...pushControls(reach, note),
    note,
    el("h3", {}, t("Webhook")),
    webhookForm(reach));
}
