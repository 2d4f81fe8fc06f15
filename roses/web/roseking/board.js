// The 9 x 9 board (RK-1): files a..i west to east, ranks 1..9 south to north. Turned, it is
// seen from the north, as White sits. Drawn in SVG (hidden from screen readers) under an
// ARIA grid of the same squares: each cell says what is on it, arrow keys walk the grid.

import { t, tn } from "../js/i18n.js";
import { el, svg } from "../js/kit.js";

const FILES = "abcdefghi";
const CELL = 40;
const MARGIN = 22;
const SIZE = CELL * 9 + MARGIN * 2;

function corner(square, turned) {
  const file = FILES.indexOf(square[0]);
  const rank = Number(square[1]) - 1;
  const column = turned ? 8 - file : file;
  const row = turned ? rank : 8 - rank;
  return [MARGIN + column * CELL, MARGIN + row * CELL];
}

// The squares row by row as seen: the top row first, left to right.
function rowsSeen(turned) {
  const rows = [];
  for (let row = 0; row < 9; row += 1) {
    const rank = turned ? row + 1 : 9 - row;
    const files = turned ? [...FILES].reverse() : [...FILES];
    rows.push(files.map((file) => `${file}${rank}`));
  }
  return rows;
}

function drawSun(group, x, y) {
  const cx = x + CELL / 2;
  const cy = y + CELL / 2;
  const sun = svg("g", { class: "sun" });
  group.append(sun);
  for (let i = 0; i < 12; i += 1) {
    const angle = (i * Math.PI) / 6;
    sun.append(svg("line", {
      x1: cx + Math.cos(angle) * 8, y1: cy + Math.sin(angle) * 8,
      x2: cx + Math.cos(angle) * 15, y2: cy + Math.sin(angle) * 15,
    }));
  }
  sun.append(svg("circle", { cx, cy, r: 7 }));
}

function drawCrown(group, x, y) {
  const left = x + 9;
  const base = y + 28;
  const points = [
    [left, base], [left, base - 12], [left + 5.5, base - 6], [left + 11, base - 17],
    [left + 16.5, base - 6], [left + 22, base - 12], [left + 22, base],
  ].map((p) => p.join(",")).join(" ");
  group.append(svg("polygon", { points, class: "crown" }));
}

// What a square holds, in words: "d4, red stone, crown".
export function squareText(square, state, marks = {}) {
  const parts = [square];
  const stone = state.stones[square];
  if (stone) parts.push(stone === "r" ? t("red stone") : t("white stone"));
  if (square === state.crown) parts.push(t("crown"));
  if (!stone && square !== state.crown) parts.push(t("empty"));
  if (marks.territory) parts.push(marks.territory);
  if (square === marks.target) parts.push(t("target of the chosen card"));
  if (marks.last && square === marks.last.to) parts.push(t("last move"));
  return parts.join(", ");
}

function territoryOf(end) {
  const names = {};
  if (!end) return names;
  for (const team of ["red", "white"]) {
    end.territories[team].forEach((group) => {
      const text = team === "red"
        ? tn("red territory of {n} square, {points} point", "red territory of {n} squares, {points} points", group.size, { points: group.points })
        : tn("white territory of {n} square, {points} point", "white territory of {n} squares, {points} points", group.size, { points: group.points });
      for (const square of group.squares) names[square] = text;
    });
  }
  return names;
}

function drawSvg(state, options) {
  const { turned, target, end, last, animate } = options;
  const drawing = svg("svg", { viewBox: `0 0 ${SIZE} ${SIZE}`, class: "board", "aria-hidden": "true", focusable: "false" });
  drawing.append(svg("rect", { x: 0, y: 0, width: SIZE, height: SIZE, rx: 10, class: "board-frame" }));
  const squares = svg("g", {});
  drawing.append(squares);
  for (let rank = 1; rank <= 9; rank += 1) {
    for (const file of FILES) {
      const square = `${file}${rank}`;
      const [x, y] = corner(square, turned);
      const dark = (FILES.indexOf(file) + rank) % 2 === 0;
      squares.append(svg("rect", {
        x, y, width: CELL, height: CELL, class: `square ${dark ? "dark" : "light"}`,
        "data-square": square,
      }));
      if (square === "e5") drawSun(squares, x, y);
    }
  }
  // Coordinates along the edges, in the board's orientation.
  const labels = svg("g", { class: "coords" });
  drawing.append(labels);
  for (let i = 0; i < 9; i += 1) {
    const file = FILES[turned ? 8 - i : i];
    const rank = turned ? i + 1 : 9 - i;
    labels.append(svg("text", { x: MARGIN + i * CELL + CELL / 2, y: SIZE - 6 }, file));
    labels.append(svg("text", { x: MARGIN + i * CELL + CELL / 2, y: 15 }, file));
    labels.append(svg("text", { x: 10, y: MARGIN + i * CELL + CELL / 2 + 4 }, rank));
    labels.append(svg("text", { x: SIZE - 10, y: MARGIN + i * CELL + CELL / 2 + 4 }, rank));
  }
  if (end) {
    const shade = svg("g", { class: "territories" });
    drawing.append(shade);
    for (const team of ["red", "white"]) {
      end.territories[team].forEach((group, index) => {
        for (const square of group.squares) {
          const [x, y] = corner(square, turned);
          shade.append(svg("rect", {
            x: x + 1, y: y + 1, width: CELL - 2, height: CELL - 2,
            class: `territory ${team}${index === 0 ? " largest" : ""}`,
          }));
        }
      });
    }
  }
  if (last && last.to) {
    const [fx, fy] = corner(last.from, turned);
    drawing.append(svg("rect", { x: fx + 3, y: fy + 3, width: CELL - 6, height: CELL - 6, rx: 4, class: "last-from" }));
  }
  const stones = svg("g", {});
  drawing.append(stones);
  for (const [square, colour] of Object.entries(state.stones)) {
    const [x, y] = corner(square, turned);
    const isLast = last && square === last.to;
    const moved = animate && isLast ? (animate.kind === "hero" ? " flipped" : " placed") : "";
    stones.append(svg("circle", {
      cx: x + CELL / 2, cy: y + CELL / 2, r: CELL * 0.38,
      class: `stone ${colour === "r" ? "red" : "white"}${isLast ? " last" : ""}${moved}`,
      "data-stone": square,
    }));
  }
  if (target) {
    const [x, y] = corner(target, turned);
    drawing.append(svg("rect", { x: x + 2, y: y + 2, width: CELL - 4, height: CELL - 4, rx: 5, class: "target" }));
  }
  const [cx, cy] = corner(state.crown, turned);
  const crown = svg("g", { "data-crown": state.crown });
  drawing.append(crown);
  if (animate && animate.to && animate.from !== animate.to) {
    const [ox, oy] = corner(animate.from, turned);
    crown.setAttribute("class", "moving");
    crown.setAttribute("style", `--dx: ${ox - cx}px; --dy: ${oy - cy}px`);
  }
  drawCrown(crown, cx, cy);
  return drawing;
}

// Draws the board into container. options: turned, target (square), end (the view's end:
// territories shaded), last (the last move's entry, marked), animate (an entry to animate),
// focusSquare (the grid's roving cell), onFocusSquare(square) when the player walks it.
export function renderBoard(container, state, options = {}) {
  const { turned = false, onFocusSquare = () => {} } = options;
  container.replaceChildren();
  const box = el("div", { class: "board-wrap" }, drawSvg(state, { ...options, turned }));
  const territory = territoryOf(options.end);
  const rows = rowsSeen(turned);
  const active = rows.flat().includes(options.focusSquare) ? options.focusSquare : state.crown;
  const grid = el("div", { class: "board-grid", role: "grid", "aria-label": t("Board, crown on {square}", { square: state.crown }) },
    rows.map((squares, row) => el("div", { class: "board-row", role: "row" },
      squares.map((square, column) => el("div", {
        class: "board-cell", role: "gridcell", "data-cell": square, "data-row": row, "data-column": column,
        "data-key": `cell:${square}`, tabindex: square === active ? 0 : -1,
      }, el("span", { class: "sr-only" },
        squareText(square, state, { territory: territory[square], target: options.target, last: options.last })))))));
  // Arrow keys move the one tabbable cell (a roving tabindex); Home/End go along the row.
  grid.addEventListener("keydown", (event) => {
    const cell = event.target.closest("[data-cell]");
    if (!cell) return;
    let row = Number(cell.dataset.row);
    let column = Number(cell.dataset.column);
    const moves = {
      ArrowUp: () => { row -= 1; }, ArrowDown: () => { row += 1; },
      ArrowLeft: () => { column -= 1; }, ArrowRight: () => { column += 1; },
      Home: () => { column = 0; }, End: () => { column = 8; },
    };
    if (!moves[event.key]) return;
    event.preventDefault();
    moves[event.key]();
    row = Math.max(0, Math.min(8, row));
    column = Math.max(0, Math.min(8, column));
    const next = grid.querySelector(`[data-row="${row}"][data-column="${column}"]`);
    cell.tabIndex = -1;
    next.tabIndex = 0;
    next.focus();
    onFocusSquare(next.dataset.cell);
  });
  box.append(grid);
  container.append(box);
  return box;
}

// Seats alternate Red, White (and R1, W1, R2, W2 with four players, RK-16).
export function teamOf(seat) {
  return seat.seat % 2 ? "white" : "red";
}
