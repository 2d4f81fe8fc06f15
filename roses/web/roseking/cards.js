// Power cards drawn in the board's orientation (RK-3): the arrow points the way the crown
// moves on the board, so it turns with the board.

import { t, tn } from "../js/i18n.js";
import { el, svg } from "../js/kit.js";

const DIRECTIONS = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"];

// Each language's compass letters as its rulebook prints them on the cards (the Kosmos
// rulebooks: German N, NO, O, SO, S, SW, W, NW; Italian N, NE, E, SE, S, SO, O, NO;
// Portuguese N, NE, L, SE, S, SO, O, NO, in Portugal and in Brazil alike: a page in "pt-BR"
// takes "pt"'s letters). The moves' notation (N2, SE3h) stays the
// engine's: only what a person reads is in their letters.
const COMPASS = {
  de: { NE: "NO", E: "O", SE: "SO" },
  it: { SW: "SO", W: "O", NW: "NO" },
  pt: { E: "L", SW: "SO", W: "O", NW: "NO" },
};

function language() {
  return typeof document === "undefined" ? "en" : (document.documentElement.lang || "en").slice(0, 2);
}

// A card as a person reads it, in the page's language: "NE3" is "NO3" in German.
export function cardName(name, lang = language()) {
  const { direction, distance } = cardParts(name);
  return `${(COMPASS[lang] || {})[direction] || direction}${distance}`;
}

export function cardParts(name) {
  const match = /^([NSEW]{1,2})([123])h?$/.exec(name); // "N2h": the card of a hero play
  return { direction: match[1], distance: Number(match[2]) };
}

// A card; as a button (the player's own hand on their turn) it says whether it is chosen
// (aria-pressed) and, in `label`, whether and how it can be played.
export function cardElement(name, { turned = false, button = false, pressed = false, label = null } = {}) {
  const { direction, distance } = cardParts(name);
  const angle = DIRECTIONS.indexOf(direction) * 45 + (turned ? 180 : 0);
  const chevrons = Array.from({ length: distance }, (_, step) => {
    const y = 6 - step * 8;
    return svg("path", { d: `M -8 ${y + 5} L 0 ${y - 3} L 8 ${y + 5}` });
  });
  const arrow = svg("svg", { viewBox: "-20 -20 40 40", class: "card-arrow", "aria-hidden": "true" },
    svg("g", { transform: `rotate(${angle})` }, chevrons));
  const shown = cardName(name);
  const text = el("span", { class: "card-label", "aria-hidden": "true" }, shown);
  if (!button) return el("div", { class: "card", "data-card": name, role: "img", "aria-label": t("card {card}", { card: shown }) }, arrow, text);
  return el("button", { type: "button", class: "card", "data-card": name, "data-key": `card:${name}`,
    "aria-pressed": pressed ? "true" : "false", "aria-label": label || shown }, arrow, text);
}

export function heroElement(count) {
  const text = tn("{n} hero card left", "{n} hero cards left", count);
  const heroes = Array.from({ length: count }, () => el("span", { class: "hero", "aria-hidden": "true" }, "♞"));
  return el("div", { class: "heroes", title: text, role: "img", "aria-label": text },
    count ? heroes : el("span", { class: "muted", "aria-hidden": "true" }, t("no heroes")));
}
