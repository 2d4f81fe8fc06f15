// The one header of every page (roses/web/page.html loads it everywhere, the rules pages
// too): who is signed in, the lobby, the ratings, the tournaments, the settings and signing out; for a
// visitor, the way to sign in. Pages add nothing to it, so that it reads the same on each.

import { api } from "./api.js";
import { el } from "./kit.js";
import { t } from "./i18n.js";
import { signOutButton } from "./guest.js";

const slot = document.getElementById("account");

// On a phone the links fold into a menu under the player's name, so that the header stays
// one row and the game below it keeps the screen.
const PHONE = typeof matchMedia === "undefined" ? null : matchMedia("(max-width: 480px)");

// The header's links for ``me`` (null: nobody is signed in).
export function headerLinks(me, path = location.pathname) {
  if (!me) {
    return path === "/" ? [] : [el("a", { href: `/?next=${encodeURIComponent(path)}` }, t("Sign in"))];
  }
  const links = el("div", { class: "account-links" }, ...accountLinks(me, path));
  const menu = el("details", { class: "account-menu" },
    el("summary", {}, el("span", { class: "visually-hidden" }, t("Menu")), " ", me.name), links);
  const fold = () => { menu.open = !PHONE?.matches; };
  fold();
  PHONE?.addEventListener("change", fold);
  return [menu];
}

function accountLinks(me, path) {
  const here = (href) => (path === href ? "page" : null);
  return [
    el("a", { class: "me", href: `/players/${encodeURIComponent(me.name)}`, "aria-current": here(`/players/${encodeURIComponent(me.name)}`) },
      me.guest ? t("{name} (guest)", { name: me.name }) : me.name),
    el("a", { href: "/", "aria-current": here("/") }, t("Lobby")),
    el("a", { href: "/ratings", "aria-current": here("/ratings") }, t("Ratings")),
    el("a", { class: "tournaments-link", href: "/tournaments", "aria-current": here("/tournaments") }, t("Tournaments")),
    el("a", { class: "people-link", href: "/people", "aria-current": here("/people") }, t("People")),
    el("a", { class: "settings-link", href: "/settings", "aria-current": here("/settings") }, t("Settings")),
    signOutButton(me), // a guest is warned that its games will be lost
  ];
}

export async function drawHeader() {
  if (!slot) return;
  // Signed out, or the server is away: the visitor's header.
  const me = await api("/api/me").catch(() => null);
  slot.replaceChildren(...headerLinks(me));
}

if (slot) drawHeader();
