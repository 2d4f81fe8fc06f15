// The Rose King on the play page (RK-18..RK-21): choose a card, see its target, confirm;
// Light undo; draw. The page shell (../js/play.js) calls createGameUi and then update(view)
// with every newer view.

import { ApiError, el, scoreText } from "../js/api.js";
import { renderBoard, teamOf } from "./board.js";
import { cardElement, heroElement } from "./cards.js";

export function createGameUi(main, gameApi) {
const gameId = gameApi.gameId;
const TURNED_KEY = `roses-turned-${gameId}`;

let game = null;
let selected = null;
let message = "";
let busy = false;
let confirmingResign = false;
let turned = localStorage.getItem(TURNED_KEY) === "1";

function seatName(seat) {
  return seat.player || (seat.bot ? `${seat.bot} bot` : seat.invited ? `${seat.invited} (invited)` : "open seat");
}

function legal(move) {
  return game.can_act && !game.pending && game.state.legal_moves.includes(move);
}

// A move, "undo" or "end-turn" (RK-19).
async function send(action) {
  if (busy) return;
  busy = true;
  message = "";
  try {
    const view = await gameApi.act(action);
    selected = null;
    show(view);
  } catch (problem) {
    message = problem instanceof ApiError ? problem.message : `Something went wrong: ${problem.message}`;
    if (problem.status === 409 || problem.status === 403) {
      selected = null;
      await gameApi.reload();
    }
    render();
  } finally {
    busy = false;
  }
}

function handPanel(seatIndex) {
  const seat = game.seats[seatIndex];
  const hand = game.state.hands[seatIndex];
  const mine = seat.is_you;
  const isTurn = game.status === "active" && game.turn === seat.label && !game.pending;
  const cards = hand.map((name) => {
    const card = cardElement(name, { turned, button: mine && game.can_act && !game.pending });
    if (name === selected) card.classList.add("selected");
    if (mine && game.can_act && !game.pending) {
      const playable = legal(name) || legal(`${name}h`);
      if (!playable) card.classList.add("unplayable");
      if (legal(`${name}h`)) card.classList.add("needs-hero");
      card.addEventListener("click", () => {
        selected = selected === name ? null : name;
        message = "";
        render();
      });
    }
    return card;
  });
  return el("div", { class: `hand-panel ${teamOf(seat)}${isTurn ? " to-move" : ""}${mine ? " mine" : ""}`, "data-seat": seat.label },
    el("div", { class: "hand-head" },
      el("span", { class: `seat-name ${teamOf(seat)}` }, seat.label),
      el("span", { class: "player-name" }, seatName(seat), mine ? " (you)" : ""),
      isTurn ? el("span", { class: "turn-badge" }, "to move") : null),
    el("div", { class: "hand" }, heroElement(game.state.heroes[seatIndex]), el("div", { class: "cards" }, cards)),
  );
}

function actionPanel() {
  const box = el("div", { class: "panel actions", id: "actions" });
  if (game.status === "finished") return "";
  if (game.pending) {
    box.append(
      el("p", {}, "You played ", el("strong", {}, game.pending), ". Undo it, or end your turn."),
      el("div", { class: "buttons" },
        el("button", { onclick: () => send("undo") }, "Undo"),
        el("button", { class: "primary", onclick: () => send("end-turn") }, "End turn")),
    );
    return box;
  }
  if (!game.can_act) {
    box.append(el("p", { class: "muted" }, game.you === null ? "You are watching this game." : `Waiting for ${game.turn}…`));
    return box;
  }
  if (selected) {
    const target = game.targets[selected];
    if (legal(selected)) {
      box.append(el("p", {}, "Move the crown to ", el("strong", {}, target), " and place a stone."),
        el("button", { class: "primary", onclick: () => send(selected) }, `Play card ${selected}`));
    } else if (legal(`${selected}h`)) {
      const heroes = game.state.heroes[game.you];
      box.append(el("p", {}, `${selected} reaches `, el("strong", {}, target),
        `, an opponent's stone: it can only be played with a hero, who turns that stone. Use one of your ${heroes} hero card${heroes === 1 ? "" : "s"}?`),
        el("button", { class: "primary hero-confirm", onclick: () => send(`${selected}h`) }, `Play ${selected} with a hero`));
    } else {
      box.append(el("p", { class: "muted" }, target ? `${selected} cannot be played: ${target} holds a stone you cannot take.` : `${selected} would take the crown off the board.`));
    }
  } else {
    box.append(el("p", {}, "Your turn: choose a card", legal("draw") ? ", or draw." : "."));
  }
  if (legal("draw")) {
    box.append(el("button", { onclick: () => send("draw") }, game.options.light ? "Draw (cannot be undone)" : "Draw a card"));
  }
  return box;
}

// Resigning ends the game at once (the team loses with its player, RK-16): ask first.
function resignPanel() {
  if (game.status !== "active" || game.you === null) return "";
  if (!confirmingResign) {
    return el("div", { class: "resign" }, el("button", { class: "link", onclick: () => { confirmingResign = true; render(); } }, "Resign…"));
  }
  const team = game.players === 4 ? "Your team loses" : "You lose";
  return el("div", { class: "panel resign confirm", role: "alertdialog", "aria-label": "Resign?" },
    el("p", {}, `Resign this game? ${team} at once.`),
    el("div", { class: "buttons" },
      el("button", { class: "danger", onclick: resign }, "Yes, resign"),
      el("button", { onclick: () => { confirmingResign = false; render(); } }, "Keep playing")));
}

async function resign() {
  confirmingResign = false;
  try {
    await gameApi.resign();
  } catch (problem) {
    message = problem instanceof ApiError ? problem.message : `Something went wrong: ${problem.message}`;
    render();
  }
}

function scoresPanel() {
  const { red, white } = game.state.scores;
  return el("div", { class: "panel scores" },
    el("div", { class: "score red" }, el("span", {}, "Red"), el("strong", { "data-score": "red" }, scoreText(red))),
    el("div", { class: "score white" }, el("span", {}, "White"), el("strong", { "data-score": "white" }, scoreText(white))),
    el("p", { class: "muted small" }, `score (largest territory, stones) · ${game.state.supply} stones left`));
}

function pilesPanel() {
  const state = game.state;
  const top = state.discard_pile.at(-1);
  return el("div", { class: "panel piles" },
    el("div", { class: "pile" }, el("span", { class: "pile-name" }, "Draw pile"), el("strong", { "data-pile": "draw" }, `${state.draw_pile_count} cards`),
      state.draw_pile_cards ? el("div", { class: "pile-cards" }, state.draw_pile_cards.map((c) => cardElement(c, { turned }))) : null),
    el("div", { class: "pile" }, el("span", { class: "pile-name" }, "Discard pile"), el("strong", {}, `${state.discard_pile.length} cards`),
      top ? el("div", { class: "pile-cards" }, cardElement(top, { turned })) : null),
  );
}

// Two columns: in a two-player game each row holds one Red and one White action.
function logPanel() {
  const entries = game.log.map((entry) => el("li", { class: entry.move === "pass" ? "pass" : "" },
    el("span", { class: "ply" }, `${entry.ply + 1}.`), ` ${entry.seat} `,
    entry.move === "pass" ? el("em", {}, "passes") : entry.move === "draw" ? "draws" : el("strong", {}, entry.move)));
  const list = el("ol", { class: "log", id: "log" }, entries);
  return el("details", { class: "panel log-panel", open: true }, el("summary", {}, `Moves (${game.log.length})`), list);
}

function banner() {
  if (game.status !== "finished") {
    const text = game.pending ? "End your turn" : game.can_act ? "Your turn" : `${game.turn} to move`;
    return el("div", { class: `banner${game.can_act ? " yours" : ""}`, id: "status" }, text);
  }
  const { winner, red, white, termination } = game.result;
  const winnerName = winner === "red" ? "Red" : "White";
  const resigned = termination === "resignation" ? `${winner === "red" ? "White" : "Red"} resigned · ` : "";
  const text = winner === "draw" ? "The game is a draw" : `${resigned}${winnerName} wins`;
  const mine = game.you !== null && teamOf(game.seats[game.you]) === winner;
  return el("div", { class: "banner over", id: "status" },
    el("strong", {}, text, mine ? " — well played!" : ""), el("span", {}, ` Red ${red} · White ${white}`),
    el("span", { class: "banner-links" }, el("a", { href: `/games/${gameId}/replay` }, "Replay"),
      el("a", { href: `/games/${gameId}/analysis` }, "Analysis"),
      el("a", { href: `/api/games/${gameId}/record`, download: `roseking-${gameId}.json` }, "Download record")),
    game.you !== null ? gameApi.rematch : "");
}

// White sits at the north edge (RK-1): offer White the board as seen from there.
function turnOffer() {
  const white = game.you !== null && teamOf(game.seats[game.you]) === "white";
  return white ? "You sit north: turn the board" : "Turn the board (view from the north)";
}

function render() {
  if (!game) return;
  const seats = game.seats.map((_, i) => i);
  const whiteSeats = seats.filter((i) => i % 2 === 1);
  const redSeats = seats.filter((i) => i % 2 === 0);
  const [north, south] = turned ? [redSeats, whiteSeats] : [whiteSeats, redSeats];
  const boardBox = el("div", { class: "board-box", id: "board" });
  const target = selected && game.can_act && !game.pending ? game.targets[selected] : null;
  const lastMove = game.state.moves.at(-1);
  renderBoard(boardBox, game.state, {
    turned, target, territories: game.territories, lastSquare: lastMove && lastMove !== "draw" && lastMove !== "pass" ? game.state.crown : null,
  });
  document.title = `${game.can_act ? "Your turn · " : ""}Game ${gameId} — The Rose King`;
  const focused = document.activeElement; // a message being typed keeps the focus
  main.replaceChildren(
    banner(),
    message ? el("p", { class: "error", role: "alert" }, message) : "",
    el("div", { class: "play-grid" },
      el("section", { class: "table" },
        el("div", { class: "hands north" }, north.map(handPanel)),
        boardBox,
        el("div", { class: "hands south" }, south.map(handPanel)),
        el("div", { class: "board-tools" },
          el("button", { class: "link", onclick: () => { turned = !turned; localStorage.setItem(TURNED_KEY, turned ? "1" : "0"); render(); } },
            turned ? "View from the south" : turnOffer()),
          el("span", { class: "muted small" }, game.options.light ? "Light game" : "", game.options.show_draw_pile ? " · open draw pile" : "")),
      ),
      el("aside", { class: "side" }, actionPanel(), resignPanel(), scoresPanel(), pilesPanel(), logPanel(), gameApi.chat),
    ),
  );
  if (focused && gameApi.chat.contains(focused)) focused.focus();
  const log = document.getElementById("log");
  log.scrollTop = log.scrollHeight;
}

function show(view) {
  if (game && view.version < game.version) return; // an older message arrived late
  if (game && view.version !== game.version) {
    if (selected && !(view.can_act && view.state.hands[view.you]?.includes(selected))) selected = null;
  }
  game = view;
  render();
}

return { update: show };
}
