// Signing out. A guest has no password: once signed out nobody can sign in as that guest
// again, so its games are lost. The page says so first and offers to register instead.

import { api } from "./api.js";
import { el } from "./kit.js";
import { t } from "./i18n.js";

async function signOut() {
  await api("/api/accounts/logout", { method: "POST" });
  location.assign("/");
}

function guestWarning(me) {
  const dialog = el("dialog", { class: "panel sign-out-warning", "aria-labelledby": "sign-out-title" },
    el("h2", { id: "sign-out-title" }, t("Sign out and lose your games?")),
    el("p", {}, t("You play as the guest {name}. A guest has no password: once you sign out, nobody can sign in as {name} again, and the games you play as {name} are lost.", { name: me.name })),
    el("p", {}, t("Register first (choose a name and a password) to keep them.")),
    el("div", { class: "buttons" },
      el("a", { class: "button primary", href: "/settings#register" }, t("Register and keep my games")),
      el("button", { type: "button", onclick: signOut }, t("Sign out and lose them")),
      el("button", { type: "button", onclick: () => dialog.close() }, t("Cancel"))));
  dialog.addEventListener("close", () => dialog.remove());
  return dialog;
}

// The header's "Sign out": at once for a registered player, after a warning for a guest.
export function signOutButton(me) {
  return el("button", { class: "link", onclick: () => {
    if (!me.guest) return signOut();
    const dialog = guestWarning(me);
    document.body.append(dialog);
    dialog.showModal();
  } }, t("Sign out"));
}
