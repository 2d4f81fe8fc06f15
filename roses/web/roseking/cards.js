// Power cards drawn in the board's orientation (RK-3): the arrow points the way the crown
// moves on the board, so it turns with the board.

const DIRECTIONS = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"];
const SVG = "http://www.w3.org/2000/svg";

export function cardParts(name) {
  const match = /^([NSEW]{1,2})([123])$/.exec(name);
  return { direction: match[1], distance: Number(match[2]) };
}

export function cardElement(name, { turned = false, button = false } = {}) {
  const { direction, distance } = cardParts(name);
  const angle = DIRECTIONS.indexOf(direction) * 45 + (turned ? 180 : 0);
  const card = document.createElement(button ? "button" : "div");
  card.className = "card";
  card.dataset.card = name;
  if (button) card.type = "button";
  card.setAttribute("aria-label", `card ${name}`);
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "-20 -20 40 40");
  svg.setAttribute("class", "card-arrow");
  const arrow = document.createElementNS(SVG, "g");
  arrow.setAttribute("transform", `rotate(${angle})`);
  for (let step = 0; step < distance; step += 1) {
    const chevron = document.createElementNS(SVG, "path");
    const y = 6 - step * 8;
    chevron.setAttribute("d", `M -8 ${y + 5} L 0 ${y - 3} L 8 ${y + 5}`);
    arrow.append(chevron);
  }
  svg.append(arrow);
  const label = document.createElement("span");
  label.className = "card-label";
  label.textContent = name;
  card.append(svg, label);
  return card;
}

export function heroElement(count) {
  const heroes = document.createElement("div");
  heroes.className = "heroes";
  heroes.title = `${count} hero card${count === 1 ? "" : "s"} left`;
  for (let i = 0; i < count; i += 1) {
    const hero = document.createElement("span");
    hero.className = "hero";
    hero.textContent = "♞";
    heroes.append(hero);
  }
  if (count === 0) heroes.append(Object.assign(document.createElement("span"), { className: "muted", textContent: "no heroes" }));
  return heroes;
}
