// The rematch offer of a finished game, for any game: offer or accept, whom it waits for,
// and the new game once everyone accepted (the seats rotated by one): the players who
// watch the finished game are taken there. Live from
// the game's socket ({type: "rematch"}). A game's end banner shows `rematch.element`.

import { api } from "./api.js";
import { el } from "./kit.js";
import { t } from "./i18n.js";

export function createRematch(gameId, me) {
  const element = el("span", { class: "rematch", id: "rematch" });
  let offer = null;

  function render() {
    if (!offer) return element.replaceChildren();
    if (offer.rematch) {
      return element.replaceChildren(el("a", { class: "button primary", href: `/games/${offer.rematch}` }, t("Play the rematch")));
    }
    const mine = offer.accepted.includes(me);
    const label = offer.accepted.length ? t("Accept the rematch") : t("Offer a rematch");
    element.replaceChildren(
      mine ? "" : el("button", { class: "primary", onclick: vote }, label),
      offer.accepted.length ? el("span", { class: "muted small" }, " ", t("Rematch wanted by {players}; waiting for {waiting}.", { players: offer.accepted.join(", "), waiting: offer.waiting_for.join(", ") })) : "",
    );
  }

  async function vote() {
    try {
      receive(await api(`/api/games/${gameId}/rematch`, { method: "POST", body: {} }));
    } catch (problem) {
      element.replaceChildren(el("span", { class: "error" }, problem.message));
    }
  }

  // Everyone accepted while this page was open: the players go to the new game together.
  function receive(next) {
    const startedNow = offer !== null && !offer.rematch && next && next.rematch;
    offer = next;
    render();
    if (startedNow && next.accepted.includes(me)) location.assign(`/games/${next.rematch}`);
  }

  async function load() {
    receive(await api(`/api/games/${gameId}/rematch`));
  }

  return { element, receive, load };
}
