// Replay a game move by move (every state as my seat may see it; all of it once finished):
// the board with the move marked, the move list (each move a button to jump to it) and,
// at the end, the territories shaded and scored (RK-14, RK-15).

import { el, focusedKey, keyed } from "../js/kit.js";
import { t, tn } from "../js/i18n.js";
import { renderBoard, teamOf } from "./board.js";
import { cardElement, heroElement } from "./cards.js";
import {
  decidedText, moveSentence, moveText, reasonText, scoreText, seatText, teamText, territorySum,
  winnerText,
} from "./describe.js";
import { linkStylesheet } from "../js/styles.js";

await linkStylesheet("/static/roseking/roseking.css");

// The page shell (../js/replay.js) hands over the replay: { game, frames }.
export function renderReplay(main, data) {
const { game, frames } = data;
const gameId = game.id;
let index = 0;
let turned = localStorage.getItem(`roses-turned-${gameId}`) === "1";
let focusSquare = null;
const announcer = el("div", { class: "sr-only", id: "announcer", role: "status", "aria-live": "polite" });
const content = el("div", { class: `rk-replay${game.players === 4 ? " four" : ""}` });
main.replaceChildren(announcer, content);

function seatName(seat) {
  return seat.player || (seat.bot ? t("{bot} bot", { bot: t(seat.bot_label || seat.bot) }) : t("open seat"));
}

function hands(frame, team) {
  return game.seats.filter((seat) => teamOf(seat) === team).map((seat) => el("div", { class: `hand-panel ${teamOf(seat)}` },
    el("div", { class: "hand-head" }, el("span", { class: `seat-name ${teamOf(seat)}` }, seatText(seat.seat, game.players)),
      el("span", { class: "player-name" }, seatName(seat))),
    el("div", { class: "hand" }, heroElement(frame.heroes[seat.seat]),
      el("div", { class: "cards", role: "group", "aria-label": t("Hand of {seat}", { seat: seatText(seat.seat, game.players) }) },
        frame.hands[seat.seat].map((card) => cardElement(card, { turned })))),
  ));
}

function positionText() {
  if (index === 0) return t("Start of the game");
  return t("Move {n} of {total}: {move}", { n: index, total: frames.length - 1, move: moveSentence(frames[index].last_move, game.players) });
}

function go(to, key = null) {
  const next = Math.max(0, Math.min(frames.length - 1, to));
  const changed = next !== index;
  index = next;
  render(key);
  if (changed) {
    announcer.textContent = "";
    setTimeout(() => { announcer.textContent = positionText(); }, 30);
  }
}

function resultLine() {
  const result = game.result;
  if (!result) return t("in progress");
  const winner = winnerText(result.winner);
  return t("{winner} Red {red} · White {white}", { winner, red: result.red, white: result.white });
}

function endPanel(end) {
  return el("section", { class: "panel end-panel", id: "end", "aria-labelledby": "end-title" },
    el("h2", { id: "end-title" }, winnerText(end.winner)),
    el("p", {}, reasonText(end, game.result)),
    el("table", { class: "territory-table" },
      el("thead", {}, el("tr", {}, el("th", { scope: "col" }, t("Team")), el("th", { scope: "col" }, t("Territories")),
        el("th", { scope: "col" }, t("Score (largest, stones)")))),
      el("tbody", {}, ["red", "white"].map((team) => el("tr", { class: team },
        el("th", { scope: "row" }, teamText(team)),
        el("td", {}, territorySum(end.territories[team], end.scores[team].score)),
        el("td", { "data-final": team }, scoreText(end.scores[team])))))),
    decidedText(end) ? el("p", { class: "muted" }, decidedText(end)) : "");
}

function moveList() {
  return el("section", { class: "panel log-panel", "aria-labelledby": "log-title" },
    el("h2", { id: "log-title" }, t("Moves ({n})", { n: frames.length - 1 })),
    el("ol", { class: "log", id: "log" }, frames.slice(1).map((frame, i) => {
      const entry = frame.last_move;
      const current = i + 1 === index;
      return el("li", { class: `log-${entry.kind}${current ? " current" : ""}` },
        el("button", { type: "button", class: "log-move", "data-key": `ply:${i}`, "aria-current": current ? "step" : null, onclick: () => go(i + 1, `ply:${i}`) },
          el("span", { class: "ply" }, `${i + 1}.`), " ",
          el("span", { class: `seat ${entry.team}` }, seatText(entry.seat_index, game.players)), " ",
          el("span", { class: "move" }, moveText(entry))));
    })));
}

function control(key, text, onclick, attributes = {}) {
  return el("button", { type: "button", "data-key": key, onclick, ...attributes }, text);
}

function render(key = null) {
  const focusKey = key || focusedKey(content);
  const frame = frames[index];
  const board = el("div", { class: "board-box", id: "board" });
  renderBoard(board, frame, { turned, last: frame.last_move, end: frame.end, focusSquare, onFocusSquare: (square) => { focusSquare = square; } });
  const [north, south] = turned ? ["red", "white"] : ["white", "red"];
  const slider = el("input", { type: "range", min: 0, max: frames.length - 1, value: index, "aria-label": t("Position in the game"), "data-key": "slider", oninput: (e) => go(Number(e.target.value), "slider") });
  content.replaceChildren(
    el("div", { class: "banner" }, el("h1", { class: "replay-title" }, t("Replay of game {id}", { id: gameId })),
      el("span", {}, resultLine()),
      el("span", { class: "banner-links" }, el("a", { href: `/games/${gameId}` }, t("Game page")),
        el("a", { href: `/games/${gameId}/analysis` }, t("Analysis")),
        game.result ? el("a", { href: `/api/games/${gameId}/record`, download: `roseking-${gameId}.json` }, t("Download record")) : null)),
    frame.end ? endPanel(frame.end) : "",
    el("div", { class: "play-grid" },
      el("section", { class: "table", "aria-label": t("Table") }, el("div", { class: "hands north" }, hands(frame, north)), board,
        el("div", { class: "hands south" }, hands(frame, south))),
      el("aside", { class: "side", "aria-label": t("Replay") },
        el("div", { class: "panel replay-controls" },
          el("p", { id: "replay-position" }, positionText()),
          slider,
          el("div", { class: "buttons" },
            control("first", "«", () => go(0, "first"), { "aria-label": t("First position") }),
            control("previous", "◀", () => go(index - 1, "previous"), { "aria-label": t("Previous move") }),
            control("next", "▶", () => go(index + 1, "next"), { "aria-label": t("Next move"), class: "primary" }),
            control("last", "»", () => go(frames.length - 1, "last"), { "aria-label": t("Last position") }),
            control("turn", t("Turn board"), () => { turned = !turned; render("turn"); }, { class: "link" })),
          el("p", { class: "muted small" }, t("Left and right arrow keys step through the moves."))),
        el("div", { class: "panel scores" },
          el("div", { class: "score red" }, el("span", {}, t("Red")), el("strong", {}, scoreText(frame.scores.red))),
          el("div", { class: "score white" }, el("span", {}, t("White")), el("strong", {}, scoreText(frame.scores.white))),
          el("p", { class: "muted small" }, t("draw pile {draw} · discard {discard} · {stones}", {
            draw: frame.draw_pile_count, discard: frame.discard_pile.length,
            stones: tn("{n} stone left", "{n} stones left", frame.supply),
          })))),
      el("aside", { class: "side side-log", "aria-label": t("Moves") }, moveList())),
  );
  if (focusKey) keyed(content, focusKey)?.focus({ preventScroll: true });
  const current = content.querySelector("#log .current");
  if (current) current.scrollIntoView({ block: "nearest" });
}

// Arrow keys step through the moves, except where they already mean something (the board
// grid, the slider, a field).
document.addEventListener("keydown", (event) => {
  if (event.target.closest && event.target.closest("[role=grid], input, select, textarea")) return;
  if (event.key === "ArrowRight") go(index + 1);
  if (event.key === "ArrowLeft") go(index - 1);
});

go(0);
}
