// Replay a game move by move (every state as my seat may see it; all of it once finished).

import { el, scoreText } from "../js/api.js";
import { renderBoard, teamOf } from "./board.js";
import { cardElement, heroElement } from "./cards.js";

// The page shell (../js/replay.js) hands over the replay: { game, frames }.
export function renderReplay(main, data) {
const { game, frames } = data;
const gameId = game.id;
let index = 0;
let turned = localStorage.getItem(`roses-turned-${gameId}`) === "1";

function hands(frame, team) {
  return game.seats.filter((seat) => teamOf(seat) === team).map((seat) => el("div", { class: `hand-panel ${teamOf(seat)}` },
    el("div", { class: "hand-head" }, el("span", { class: `seat-name ${teamOf(seat)}` }, seat.label),
      el("span", { class: "player-name" }, seat.player || `${seat.bot} bot`)),
    el("div", { class: "hand" }, heroElement(frame.heroes[seat.seat]),
      el("div", { class: "cards" }, frame.hands[seat.seat].map((card) => cardElement(card, { turned })))),
  ));
}

// RK-23 seat names: r, w; or r1, w1, r2, w2 (turn order R1, W1, R2, W2).
function seatIndex(name) {
  const team = name[0] === "r" ? 0 : 1;
  return name.length > 1 ? (Number(name[1]) - 1) * 2 + team : team;
}

function go(to) {
  index = Math.max(0, Math.min(frames.length - 1, to));
  render();
}

function render() {
  const frame = frames[index];
  const board = el("div", { class: "board-box", id: "board" });
  renderBoard(board, frame, { turned });
  const move = index > 0 ? frame.moves[index - 1] : null;
  const mover = index > 0 ? game.seats[seatIndex(frames[index - 1].turn)].label : null;
  const [north, south] = turned ? ["red", "white"] : ["white", "red"];
  const slider = el("input", { type: "range", min: 0, max: frames.length - 1, value: index, "aria-label": "move", oninput: (e) => go(Number(e.target.value)) });
  main.replaceChildren(
    el("div", { class: "banner" }, el("strong", {}, `Replay of game ${gameId}`),
      game.result ? el("span", {}, ` · ${game.result.winner === "draw" ? "a draw" : `${game.result.winner === "red" ? "Red" : "White"} won`} · Red ${game.result.red} · White ${game.result.white}`) : " · in progress",
      el("span", { class: "banner-links" }, el("a", { href: `/games/${gameId}` }, "Game page"),
        el("a", { href: `/games/${gameId}/analysis` }, "Analysis"),
        game.result ? el("a", { href: `/api/games/${gameId}/record`, download: `roseking-${gameId}.json` }, "Download record") : null)),
    el("div", { class: "play-grid" },
      el("section", { class: "table" }, el("div", { class: "hands north" }, hands(frame, north)), board,
        el("div", { class: "hands south" }, hands(frame, south))),
      el("aside", { class: "side" },
        el("div", { class: "panel replay-controls" },
          el("p", { id: "replay-position" }, index === 0 ? "Start of the game" : `Move ${index} of ${frames.length - 1}: ${mover} `,
            move === "draw" ? "draws" : move === "pass" ? "passes" : move ? el("strong", {}, move) : null),
          slider,
          el("div", { class: "buttons" },
            el("button", { onclick: () => go(0), "aria-label": "first" }, "«"),
            el("button", { onclick: () => go(index - 1), "aria-label": "previous" }, "◀"),
            el("button", { onclick: () => go(index + 1), "aria-label": "next", class: "primary" }, "▶"),
            el("button", { onclick: () => go(frames.length - 1), "aria-label": "last" }, "»"),
            el("button", { class: "link", onclick: () => { turned = !turned; render(); } }, "Turn board"))),
        el("div", { class: "panel scores" },
          el("div", { class: "score red" }, el("span", {}, "Red"), el("strong", {}, scoreText(frame.scores.red))),
          el("div", { class: "score white" }, el("span", {}, "White"), el("strong", {}, scoreText(frame.scores.white))),
          el("p", { class: "muted small" }, `draw pile ${frame.draw_pile_count} · discard ${frame.discard_pile.length} · ${frame.supply} stones left`)),
      )),
  );
}

document.addEventListener("keydown", (event) => {
  if (event.key === "ArrowRight") go(index + 1);
  if (event.key === "ArrowLeft") go(index - 1);
});

go(0);
}
