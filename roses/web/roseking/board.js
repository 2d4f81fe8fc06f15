// The 9 x 9 board in SVG (RK-1): files a..i west to east, ranks 1..9 south to north.
// Turned, it is seen from the north, as White sits.

const SVG = "http://www.w3.org/2000/svg";
const FILES = "abcdefghi";
const CELL = 40;
const MARGIN = 22;
const SIZE = CELL * 9 + MARGIN * 2;

function node(tag, attributes = {}, parent = null) {
  const element = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, value);
  if (parent) parent.append(element);
  return element;
}

function corner(square, turned) {
  const file = FILES.indexOf(square[0]);
  const rank = Number(square[1]) - 1;
  const column = turned ? 8 - file : file;
  const row = turned ? rank : 8 - rank;
  return [MARGIN + column * CELL, MARGIN + row * CELL];
}

function drawSun(group, x, y) {
  const cx = x + CELL / 2;
  const cy = y + CELL / 2;
  const sun = node("g", { class: "sun" }, group);
  for (let i = 0; i < 12; i += 1) {
    const angle = (i * Math.PI) / 6;
    node("line", {
      x1: cx + Math.cos(angle) * 8, y1: cy + Math.sin(angle) * 8,
      x2: cx + Math.cos(angle) * 15, y2: cy + Math.sin(angle) * 15,
    }, sun);
  }
  node("circle", { cx, cy, r: 7 }, sun);
}

function drawCrown(group, x, y) {
  const left = x + 9;
  const base = y + 28;
  const points = [
    [left, base], [left, base - 12], [left + 5.5, base - 6], [left + 11, base - 17],
    [left + 16.5, base - 6], [left + 22, base - 12], [left + 22, base],
  ].map((p) => p.join(",")).join(" ");
  node("polygon", { points, class: "crown" }, group);
}

export function renderBoard(container, state, options = {}) {
  const { turned = false, target = null, territories = null, lastSquare = null } = options;
  container.replaceChildren();
  const svg = node("svg", {
    viewBox: `0 0 ${SIZE} ${SIZE}`, class: "board", role: "img",
    "aria-label": `board, crown on ${state.crown}`,
  });
  node("rect", { x: 0, y: 0, width: SIZE, height: SIZE, rx: 10, class: "board-frame" }, svg);
  const squares = node("g", {}, svg);
  for (let rank = 1; rank <= 9; rank += 1) {
    for (const file of FILES) {
      const square = `${file}${rank}`;
      const [x, y] = corner(square, turned);
      const dark = (FILES.indexOf(file) + rank) % 2 === 0;
      node("rect", {
        x, y, width: CELL, height: CELL, class: `square ${dark ? "dark" : "light"}`,
        "data-square": square,
      }, squares);
      if (square === "e5") drawSun(squares, x, y);
    }
  }
  // Coordinates along the edges, in the board's orientation.
  const labels = node("g", { class: "coords" }, svg);
  for (let i = 0; i < 9; i += 1) {
    const file = FILES[turned ? 8 - i : i];
    const rank = turned ? i + 1 : 9 - i;
    node("text", { x: MARGIN + i * CELL + CELL / 2, y: SIZE - 6 }, labels).textContent = file;
    node("text", { x: MARGIN + i * CELL + CELL / 2, y: 15 }, labels).textContent = file;
    node("text", { x: 10, y: MARGIN + i * CELL + CELL / 2 + 4 }, labels).textContent = rank;
    node("text", { x: SIZE - 10, y: MARGIN + i * CELL + CELL / 2 + 4 }, labels).textContent = rank;
  }
  if (territories) {
    const shade = node("g", { class: "territories" }, svg);
    for (const team of ["red", "white"]) {
      territories[team].forEach((group, index) => {
        for (const square of group) {
          const [x, y] = corner(square, turned);
          node("rect", {
            x: x + 1, y: y + 1, width: CELL - 2, height: CELL - 2,
            class: `territory ${team}${index === 0 ? " largest" : ""}`,
          }, shade);
        }
      });
    }
  }
  const stones = node("g", {}, svg);
  for (const [square, colour] of Object.entries(state.stones)) {
    const [x, y] = corner(square, turned);
    node("circle", {
      cx: x + CELL / 2, cy: y + CELL / 2, r: CELL * 0.38,
      class: `stone ${colour === "r" ? "red" : "white"}${square === lastSquare ? " last" : ""}`,
      "data-stone": square,
    }, stones);
  }
  if (target) {
    const [x, y] = corner(target, turned);
    node("rect", { x: x + 2, y: y + 2, width: CELL - 4, height: CELL - 4, rx: 5, class: "target" }, svg);
  }
  const [cx, cy] = corner(state.crown, turned);
  drawCrown(node("g", { "data-crown": state.crown }, svg), cx, cy);
  container.append(svg);
  return svg;
}

// Seats alternate Red, White (and R1, W1, R2, W2 with four players, RK-16).
export function teamOf(seat) {
  return seat.seat % 2 ? "white" : "red";
}
