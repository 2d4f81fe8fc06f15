// Power cards drawn in the board's orientation (RK-3): the arrow points the way the crown
// moves on the board, so it turns with the board.

import { t, tn } from "../js/i18n.js";
import { el, svg } from "../js/kit.js";

const DIRECTIONS = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"];

export function cardParts(name) {
  const match = /^([NSEW]{1,2})([123])$/.exec(name);
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
  const text = el("span", { class: "card-label", "aria-hidden": "true" }, name);
  if (!button) return el("div", { class: "card", "data-card": name, role: "img", "aria-label": t("card {card}", { card: name }) }, arrow, text);
  return el("button", { type: "button", class: "card", "data-card": name, "data-key": `card:${name}`,
    "aria-pressed": pressed ? "true" : "false", "aria-label": label || name }, arrow, text);
}

export function heroElement(count) {
  const text = tn("{n} hero card left", "{n} hero cards left", count);
  const heroes = Array.from({ length: count }, () => el("span", { class: "hero", "aria-hidden": "true" }, "♞"));
  return el("div", { class: "heroes", title: text, role: "img", "aria-label": text },
    count ? heroes : el("span", { class: "muted", "aria-hidden": "true" }, t("no heroes")));
}
