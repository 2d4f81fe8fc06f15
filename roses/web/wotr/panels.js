// The panels beside the map, shared by the play page and the replay: the players (VP,
// money, mercenaries, cards), the turn track with the King's house and the awards, the log.
// ``table``: {board, labels, seats} (seats: the server's seat list); ``state``: a view's table.

import { PHASE, SEAT_COLOURS, phaseName, phraseText, pounds, seatWord, t, tn } from "./dom.js";
import { el } from "../js/kit.js";

export const TURNS = 5;

export function seatName(seats, labels, seat) {
  const info = seats[seat];
  const label = seatWord(labels[seat]);
  if (info.is_you) return t("{seat} (you)", { seat: label });
  if (info.player) return t("{seat} ({player})", { seat: label, player: info.player });
  if (info.bot) return t("{seat} ({bot} bot)", { seat: label, bot: t(info.bot_label || info.bot) });
  return t("{seat} (open seat)", { seat: label });
}

// ``openCards``: the seats whose card lists are open, kept across redraws.
export function playersPanel({ board, labels, seats }, state, openCards) {
  const rows = labels.map((label, seat) => {
    const cards = Object.entries(state.owner).filter(([, owner]) => owner === seat).map(([card]) => card);
    const money = state.money[seat];
    // WR-20: money and mercenary tokens lie on the Planning chart, behind the same screen.
    const facts = [money === null ? t("money and mercenaries behind the screen") : pounds(money)];
    if (state.mercenaries[seat]) {
      facts.push(tn("{n} mercenary", "{n} mercenaries", state.mercenaries[seat]));
    }
    if (state.awaiting.includes(label)) {
      facts.push(state.phase === PHASE.planning ? t("is planning") : t("to decide"));
    } else if (state.sealed.includes(label)) facts.push(t("has sealed a plan"));
    return el("li", { class: `player${seats[seat].is_you ? " you" : ""}`, style: `--seat: ${SEAT_COLOURS[seat]}`,
      "data-seat": seat },
    el("div", { class: "player-head" },
      el("span", { class: "swatch", "aria-hidden": "true" }),
      el("strong", {}, seatName(seats, labels, seat)),
      state.houses[seat] ? el("span", { class: "house" }, state.houses[seat]) : null,
      el("span", { class: "vp" }, t("{vp} VP", { vp: state.vp[seat] }))),
    el("div", { class: "player-line small" }, facts.join(" · ")),
    el("details", { class: "cards", open: openCards.has(seat),
      ontoggle: (event) => (event.target.open ? openCards.add(seat) : openCards.delete(seat)) },
    el("summary", { "data-key": `cards-${seat}` }, tn("{n} card", "{n} cards", cards.length)),
    el("ul", {}, cards.map((card) => el("li", {}, t("{name}: {what}", { name: board.name(card), what: board.describe(card) }))))));
  });
  return el("section", { class: "panel players", "aria-labelledby": "players-title" },
    el("h2", { id: "players-title" }, t("Players")), el("ul", {}, rows));
}

export function trackPanel({ board, labels }, state) {
  const awards = board.data.awards.map((award) => {
    const holder = state.award_holder[award.id];
    const held = holder !== null && holder !== undefined;
    return el("li", { style: held ? `--seat: ${SEAT_COLOURS[holder]}` : "" },
      t("{award}: {holder}", { award: t(award.name), holder: held ? seatWord(labels[holder]) : t("nobody") }));
  });
  const turns = Array.from({ length: TURNS }, (_, index) => {
    const turn = index + 1;
    const house = state.crowned[index];
    const current = turn === state.turn;
    return el("li", { class: current ? "current" : "", "aria-current": current ? "step" : null },
      house ? t("Turn {turn}: {house} crowned", { turn, house }) : t("Turn {turn}", { turn }));
  });
  const king = [...state.crowned].reverse().find(Boolean);
  return el("section", { class: "panel track", "aria-labelledby": "track-title" },
    el("h2", { id: "track-title" }, t("Turns and awards")),
    el("ol", { class: "turns" }, turns),
    state.houses.some(Boolean)
      ? el("p", {}, king ? t("King's house: {house}", { house: king }) : t("King's house: none yet"))
      : null,
    el("ul", { class: "awards" }, awards),
    el("p", { class: "small muted" },
      t("{calais}: the highest bid in planning wins it for one turn.", { calais: t(board.data.calais.name) }), " ",
      tn("Deck: {n} card.", "Deck: {n} cards.", state.deck_size)));
}

// The log scrolls on its own: it takes the keyboard focus so that it can be scrolled.
export function logPanel(state) {
  const log = state.log;
  const recent = log.slice(-60);
  const list = el("ol", { class: "wotr-log", start: log.length - recent.length + 1, tabindex: 0,
    "aria-labelledby": "log-title", "data-key": "log" },
  recent.map((event) => el("li", { "data-phase": event.phase },
    el("small", {}, t("Turn {turn}, {phase}:", { turn: event.turn, phase: phaseName(event.phase) })), " ", phraseText(event))));
  requestAnimationFrame(() => {
    list.scrollTop = list.scrollHeight;
  });
  return el("section", { class: "panel log-box", "aria-labelledby": "log-title" },
    el("h2", { id: "log-title" }, t("Log")), list);
}
