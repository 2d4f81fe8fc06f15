// The panels beside the map, shared by the play page and the replay: the players (VP,
// money, mercenaries, cards), the turn track with the King's house and the awards, the log.
// ``table``: {board, labels, seats} (seats: the server's seat list); ``state``: a view's table.

import { PHASE, SEAT_COLOURS, h, plural } from "./dom.js";

export const TURNS = 5;

export function seatName(seats, labels, seat) {
  const info = seats[seat];
  const person = info.is_you ? "you" : info.player || (info.bot ? `${info.bot} bot` : "open seat");
  return `${labels[seat]} (${person})`;
}

// ``openCards``: the seats whose card lists are open, kept across redraws.
export function playersPanel({ board, labels, seats }, state, openCards) {
  const rows = labels.map((label, seat) => {
    const cards = Object.entries(state.owner).filter(([, owner]) => owner === seat).map(([card]) => card);
    const money = state.money[seat];
    let doing = "";
    if (state.awaiting.includes(label)) {
      doing = state.phase === PHASE.planning ? "is planning" : "to decide";
    } else if (state.sealed.includes(label)) doing = "has sealed a plan";
    return h("li", { class: `player${seats[seat].is_you ? " you" : ""}`, style: `--seat: ${SEAT_COLOURS[seat]}`,
      "data-seat": seat },
    h("div", { class: "player-head" },
      h("span", { class: "swatch", "aria-hidden": "true" }),
      h("strong", {}, seatName(seats, labels, seat)),
      state.houses[seat] ? h("span", { class: "house" }, state.houses[seat]) : null,
      h("span", { class: "vp" }, `${state.vp[seat]} VP`)),
    h("div", { class: "player-line small" },
      money === null ? "money behind the screen" : plural(money, "pound"),
      state.mercenaries[seat] ? ` · ${plural(state.mercenaries[seat], "mercenary", "mercenaries")}` : "",
      doing ? ` · ${doing}` : ""),
    h("details", { class: "cards", open: openCards.has(seat),
      ontoggle: (event) => (event.target.open ? openCards.add(seat) : openCards.delete(seat)) },
    h("summary", {}, plural(cards.length, "card")),
    h("ul", {}, cards.map((card) => h("li", {}, `${board.name(card)} — ${board.describe(card)}`)))));
  });
  return h("section", { class: "panel players", "aria-label": "Players" }, h("ul", {}, rows));
}

export function trackPanel({ board, labels }, state) {
  const awards = board.data.awards.map((award) => {
    const holder = state.award_holder[award.id];
    const held = holder !== null && holder !== undefined;
    return h("li", { style: held ? `--seat: ${SEAT_COLOURS[holder]}` : "" },
      `${award.name}: ${held ? labels[holder] : "nobody"}`);
  });
  const turns = Array.from({ length: TURNS }, (_, index) => {
    const turn = index + 1;
    const house = state.crowned[index];
    return h("li", { class: turn === state.turn ? "current" : "", "aria-current": turn === state.turn ? "step" : null },
      `Turn ${turn}`, house ? h("small", {}, ` ${house} crowned`) : null);
  });
  const king = [...state.crowned].reverse().find(Boolean);
  return h("section", { class: "panel track", "aria-label": "Turn track and awards" },
    h("ol", { class: "turns" }, turns),
    state.houses.some(Boolean) ? h("p", {}, `King's house: ${king || "none yet"} (WR-15)`) : null,
    h("ul", { class: "awards" }, awards),
    h("p", { class: "small muted" }, `${board.data.calais.name}: a bid in planning, for one turn (WR-11). `,
      `Deck: ${state.deck_size} cards.`));
}

export function logPanel(state) {
  const log = state.log;
  const recent = log.slice(-60);
  const list = h("ol", { class: "wotr-log", start: log.length - recent.length + 1 },
    recent.map((event) => h("li", { "data-phase": event.phase }, h("small", {}, `T${event.turn} ${event.phase}: `), event.text)));
  requestAnimationFrame(() => {
    list.scrollTop = list.scrollHeight;
  });
  return h("section", { class: "panel log-box", "aria-label": "Game log" }, h("h2", {}, "Log"), list);
}
