// Small helpers shared by the Wars of the Roses page: elements, seat colours, board lookups.

const SVG_NS = "http://www.w3.org/2000/svg";
export const SEAT_COLOURS = ["#b3262e", "#d4a017", "#2e7d32", "#1f5fa8"];
export const KIND_NAMES = {
  castle: "Royal Castle", large_town: "Large Town", town: "Town", port: "Port",
  bishop: "Bishop", ship: "Ship", noble: "Noble", mercenary: "Mercenaries",
};
export const PHASE = {
  draw: "draw cards", income: "income", planning: "planning", deployment: "deployment",
  bribery: "bribery", combat: "combat", parliament: "parliament", over: "game over",
};

// h("button", {class: "x", onclick: f}, "text", child): an element; null children are skipped.
export function h(tag, attributes = {}, ...children) {
  return build(document.createElement(tag), attributes, children);
}

export function s(tag, attributes = {}, ...children) {
  return build(document.createElementNS(SVG_NS, tag), attributes, children);
}

function build(node, attributes, children) {
  for (const [key, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key === "class") node.setAttribute("class", value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

export function plural(count, one, many = `${one}s`) {
  return `${count} ${count === 1 ? one : many}`;
}

// The board data file's JSON with lookup tables (the file leaves default values out).
export class Board {
  constructor(data) {
    this.data = data;
    this.zones = Object.fromEntries(data.zones.map((zone) => [zone.id, zone]));
    this.seas = data.seas.map((sea) => sea.id);
    this.seaZone = Object.fromEntries(data.seas.map((sea) => [sea.id, sea.zone]));
    this.icons = Object.fromEntries(
      data.icons.map((icon) => [icon.id, { income: 0, cathedral: false, ...icon }]),
    );
    this.nobles = Object.fromEntries(data.nobles.map((noble) => [noble.id, noble]));
    this.map = data.map;
  }

  kind(card) {
    if (this.icons[card]) return this.icons[card].kind;
    return this.nobles[card] ? "noble" : "mercenary";
  }

  name(card) {
    return this.icons[card]?.name || this.nobles[card]?.name || "Mercenaries";
  }

  isLocation(card) {
    return ["castle", "large_town", "town", "port"].includes(this.icons[card]?.kind);
  }

  // What a card is, in a few words: "Large Town, Northern England, 4 pounds".
  describe(card) {
    const noble = this.nobles[card];
    if (noble) return `Noble ${noble.cp} CP, home ${this.zones[noble.home].name}`;
    const icon = this.icons[card];
    if (!icon) return "troops for this turn";
    const parts = [KIND_NAMES[icon.kind], this.zones[icon.zone].name];
    if (icon.income) parts.push(`income ${icon.income}`);
    if (icon.cathedral) parts.push("cathedral");
    return parts.join(", ");
  }
}
