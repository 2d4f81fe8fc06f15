// Power cards drawn in the board's orientation (RK-3): the arrow points the way the crown
// moves on the board, so it turns with the board.

import { t, tn } from "../js/i18n.js";
import { svg } from "../js/kit.js";

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
  const card = document.createElement(button ? "button" : "div");
  card.className = "card";
  card.dataset.card = name;
  if (button) {
    card.type = "button";
    card.dataset.key = `card:${name}`;
    card.setAttribute("aria-pressed", pressed ? "true" : "false");
    card.setAttribute("aria-label", label || name);
  } else {
    card.setAttribute("role", "img");
    card.setAttribute("aria-label", t("card {card}", { card: name }));
  }
  const chevrons = Array.from({ length: distance }, (_, step) => {
    const y = 6 - step * 8;
    return svg("path", { d: `M -8 ${y + 5} L 0 ${y - 3} L 8 ${y + 5}` });
  });
  const arrow = svg("svg", { viewBox: "-20 -20 40 40", class: "card-arrow", "aria-hidden": "true" },
    svg("g", { transform: `rotate(${angle})` }, chevrons));
  const text = document.createElement("span");
  text.className = "card-label";
  text.setAttribute("aria-hidden", "true");
  text.textContent = name;
  card.append(arrow, text);
  return card;
}

export function heroElement(count) {
  const heroes = document.createElement("div");
  heroes.className = "heroes";
  const text = tn("{n} hero card left", "{n} hero cards left", count);
  heroes.title = text;
  heroes.setAttribute("role", "img");
  heroes.setAttribute("aria-label", text);
  for (let i = 0; i < count; i += 1) {
    const hero = document.createElement("span");
    hero.className = "hero";
    hero.setAttribute("aria-hidden", "true");
    hero.textContent = "♞";
    heroes.append(hero);
  }
  if (count === 0) {
    const none = document.createElement("span");
    none.className = "muted";
    none.setAttribute("aria-hidden", "true");
    none.textContent = t("no heroes");
    heroes.append(none);
  }
  return heroes;
}
