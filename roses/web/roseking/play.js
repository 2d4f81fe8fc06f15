// The Rose King on the play page (RK-18..RK-21): choose a card, see its target, confirm;
// Light undo; draw. The page shell (../js/play.js) calls createGameUi and then update(view)
// with every newer view. Every control carries a data-key, so that after any re-render
// (an action, an opponent's move) the focus returns to the control the player was on; an
// aria-live region says each move, whose turn it is and how the game ended. "Look back"
// steps through the game so far as this seat saw it (GET /replay) and returns to the game.

import { api, ApiError } from "../js/api.js";
import { el, focusedKey, keyed } from "../js/kit.js";
import { t, tn } from "../js/i18n.js";
import { renderBoard, teamOf } from "./board.js";
import { cardElement, cardName, heroElement } from "./cards.js";
import {
  decidedText, moveSentence, moveText, reasonText, resultText, scoreText, seatText, teamText,
  territorySum, winnerText,
} from "./describe.js";
import { linkStylesheet } from "../js/styles.js";

await linkStylesheet("/static/roseking/roseking.css");

export function createGameUi(main, gameApi) {
const gameId = gameApi.gameId;
const TURNED_KEY = `roses-turned-${gameId}`;

let game = null;
let selected = null;
let message = "";
let busy = false;
let confirmingResign = false;
let turned = localStorage.getItem(TURNED_KEY) === "1";
let focusSquare = null; // the board grid's roving cell
let focusNext = null; // a data-key to focus after the next render (else: where focus was)
let animate = null; // the entry to animate on the next render (an opponent's or a bot's)
let lookback = null; // { frames, index } while looking back through the game so far
let backToHand = false; // after a move: to the hand as soon as it is the player's turn again

const announcer = el("div", { class: "sr-only", id: "announcer", role: "status", "aria-live": "polite" });
const content = el("div", { class: "rk rk-play" });
main.replaceChildren(announcer, content);

let said = []; // texts to announce together (a move's answer and the socket's news)
function announce(text) {
  if (!text) return;
  said.push(text);
  if (said.length > 1) return;
  announcer.textContent = "";
  // A fresh text after a tick: screen readers then read it even if it is unchanged.
  setTimeout(() => { announcer.textContent = said.join(" "); said = []; }, 30);
}

function me() {
  return game.you === null ? null : game.seats[game.you];
}

function seatName(seat) {
  if (seat.player) return seat.player;
  if (seat.bot) return t("{bot} bot", { bot: t(seat.bot_label || seat.bot) });
  if (seat.invited) return t("{name} (invited)", { name: seat.invited });
  return t("open seat");
}

function legal(move) {
  return game.can_act && !game.pending && game.state.legal_moves.includes(move);
}

function playable(card) {
  return legal(card) || legal(`${card}h`);
}

// A move, "undo" or "end-turn" (RK-19). Afterwards the focus goes back to the hand.
async function send(action) {
  if (busy) return;
  busy = true;
  message = "";
  // RK-19: a Light play waits for "End turn"; anything else hands the turn on. Known now:
  // the opponent's reply may arrive over the socket before this answer.
  const waits = game.options.light && !["draw", "end-turn", "undo"].includes(action);
  backToHand = !waits;
  try {
    const view = await gameApi.act(action);
    selected = null;
    focusNext = waits ? "pending" : "hand";
    show(view);
  } catch (problem) {
    message = problem instanceof ApiError ? problem.message : t("Something went wrong: {error}", { error: problem.message });
    if (problem.status === 409 || problem.status === 403) {
      selected = null;
      await gameApi.reload();
    }
    render();
  } finally {
    busy = false;
  }
}

function choose(name) {
  selected = selected === name ? null : name;
  message = "";
  if (selected && playable(selected)) focusNext = "confirm";
  render();
  if (selected) announce(choiceText(selected));
}

// What a card in my hand does now, for its button's name (RK-18, RK-10).
function cardLabel(name) {
  const target = game.targets[name];
  if (legal(name)) return t("{card}: the crown moves to {square}", { card: cardName(name), square: target });
  if (legal(`${name}h`)) return t("{card}: only with a hero, flips the stone on {square}", { card: cardName(name), square: target });
  return target ? t("{card}: not playable, {square} holds a stone", { card: cardName(name), square: target })
    : t("{card}: not playable, it would take the crown off the board", { card: cardName(name) });
}

function choiceText(name) {
  const target = game.targets[name];
  if (legal(name)) return t("Move the crown to {square} and place a stone.", { square: target });
  if (legal(`${name}h`)) {
    const heroes = game.state.heroes[game.you];
    return tn(
      "{card} reaches {square}, an opponent's stone: it can only be played with a hero, who turns that stone. Use one of your {n} hero card?",
      "{card} reaches {square}, an opponent's stone: it can only be played with a hero, who turns that stone. Use one of your {n} hero cards?",
      heroes, { card: cardName(name), square: target });
  }
  return target ? t("{card} cannot be played: {square} holds a stone you cannot take.", { card: cardName(name), square: target })
    : t("{card} would take the crown off the board.", { card: cardName(name) });
}

// The hand of one seat; the player's own hand on their turn is a group of card buttons
// with one tab stop (arrow keys move between the cards).
function handPanel(seatIndex, frame = null) {
  const seat = game.seats[seatIndex];
  const hand = (frame || game.state).hands[seatIndex];
  const heroes = (frame || game.state).heroes[seatIndex];
  const mine = seat.is_you;
  const active = !frame && mine && game.can_act && !game.pending;
  const isTurn = !frame && game.status === "active" && game.turn === seat.label && !game.pending;
  const stop = active ? (hand.includes(selected) ? selected : hand.find(playable) || hand[0]) : null;
  const cards = hand.map((name) => {
    const card = cardElement(name, { turned, button: active, pressed: name === selected, label: active ? cardLabel(name) : null });
    if (name === selected) card.classList.add("selected");
    if (active) {
      card.tabIndex = name === stop ? 0 : -1;
      if (!playable(name)) card.classList.add("unplayable");
      if (legal(`${name}h`)) card.classList.add("needs-hero");
      card.addEventListener("click", () => choose(name));
    }
    return card;
  });
  const label = mine ? t("Your hand") : t("Hand of {seat}", { seat: seatText(seatIndex, game.players) });
  const group = el("div", { class: "cards", role: "group", "aria-label": label }, cards);
  if (active) group.addEventListener("keydown", walkCards);
  return el("div", { class: `hand-panel ${teamOf(seat)}${isTurn ? " to-move" : ""}${mine ? " mine" : ""}`, "data-seat": seat.label },
    el("div", { class: "hand-head" },
      el("span", { class: `seat-name ${teamOf(seat)}` }, seatText(seatIndex, game.players)),
      el("span", { class: "player-name" }, mine ? t("{name} (you)", { name: seatName(seat) }) : seatName(seat)),
      isTurn ? el("span", { class: "turn-badge" }, t("to move")) : null),
    el("div", { class: "hand" }, heroElement(heroes), group),
  );
}

function walkCards(event) {
  const step = { ArrowLeft: -1, ArrowUp: -1, ArrowRight: 1, ArrowDown: 1 }[event.key];
  if (!step && event.key !== "Home" && event.key !== "End") return;
  const cards = [...event.currentTarget.querySelectorAll("button.card")];
  const at = cards.indexOf(document.activeElement);
  if (at < 0) return;
  event.preventDefault();
  let next = step ? (at + step + cards.length) % cards.length : event.key === "Home" ? 0 : cards.length - 1;
  cards[at].tabIndex = -1;
  cards[next].tabIndex = 0;
  cards[next].focus();
}

function button(key, text, onclick, attributes = {}) {
  return el("button", { type: "button", "data-key": key, onclick, ...attributes }, text);
}

function actionPanel() {
  if (lookback) return lookbackPanel();
  if (game.status === "finished") return "";
  const box = el("div", { class: "panel actions", id: "actions" });
  if (game.pending) {
    box.append(
      el("p", {}, t("You played {card}. Undo it, or end your turn.", { card: cardName(game.pending) })),
      el("div", { class: "buttons" },
        button("undo", t("Undo"), () => send("undo")),
        button("end-turn", t("End turn"), () => send("end-turn"), { class: "primary" })),
    );
    return box;
  }
  if (!game.can_act) {
    box.append(el("p", { class: "muted" }, game.you === null ? t("You are watching this game.") : t("Waiting for {seat}…", { seat: seatText(game.to_act[0], game.players) })));
    return box;
  }
  if (selected) {
    box.append(el("p", {}, choiceText(selected)));
    if (legal(selected)) {
      box.append(button("confirm", t("Play card {card}", { card: cardName(selected) }), () => send(selected), { class: "primary" }));
    } else if (legal(`${selected}h`)) {
      box.append(button("confirm", t("Play {card} with a hero", { card: cardName(selected) }), () => send(`${selected}h`), { class: "primary hero-confirm" }));
    }
  } else {
    box.append(el("p", {}, legal("draw") ? t("Your turn: choose a card, or draw.") : t("Your turn: choose a card.")));
  }
  if (legal("draw")) {
    box.append(button("draw", game.options.light ? t("Draw (cannot be undone)") : t("Draw a card"), () => send("draw"), { "aria-keyshortcuts": "D" }));
  }
  box.append(el("p", { class: "muted small keys" }, t("Keys: arrows pick a card, Enter chooses it and Enter again plays it; D draws; Esc lets go of the card.")));
  return box;
}

// Resigning ends the game at once (the team loses with its player, RK-16): ask first.
function resignPanel() {
  if (game.status !== "active" || game.you === null || lookback) return "";
  if (!confirmingResign) {
    return el("div", { class: "resign" }, button("resign", t("Resign…"), () => { confirmingResign = true; focusNext = "resign-no"; render(); }, { class: "link" }));
  }
  return el("div", { class: "panel resign confirm", role: "alertdialog", "aria-label": t("Resign?") },
    el("p", {}, game.players === 4 ? t("Resign this game? Your team loses at once.") : t("Resign this game? You lose at once.")),
    el("div", { class: "buttons" },
      button("resign-yes", t("Yes, resign"), resign, { class: "danger" }),
      button("resign-no", t("Keep playing"), () => { confirmingResign = false; focusNext = "resign"; render(); })));
}

async function resign() {
  confirmingResign = false;
  focusNext = "status";
  try {
    await gameApi.resign();
  } catch (problem) {
    message = problem instanceof ApiError ? problem.message : t("Something went wrong: {error}", { error: problem.message });
    render();
  }
}

function scoresPanel(state) {
  const { red, white } = state.scores;
  return el("div", { class: "panel scores" },
    el("div", { class: "score red" }, el("span", {}, t("Red")), el("strong", { "data-score": "red" }, scoreText(red))),
    el("div", { class: "score white" }, el("span", {}, t("White")), el("strong", { "data-score": "white" }, scoreText(white))),
    el("p", { class: "muted small" }, tn("score (largest territory, stones) · {n} stone left", "score (largest territory, stones) · {n} stones left", state.supply)));
}

function pilesPanel(state) {
  const top = state.discard_pile.at(-1);
  return el("div", { class: "panel piles" },
    el("div", { class: "pile" }, el("span", { class: "pile-name" }, t("Draw pile")),
      el("strong", { "data-pile": "draw" }, tn("{n} card", "{n} cards", state.draw_pile_count)),
      state.draw_pile_cards ? el("div", { class: "pile-cards" }, state.draw_pile_cards.map((c) => cardElement(c, { turned }))) : null),
    el("div", { class: "pile" }, el("span", { class: "pile-name" }, t("Discard pile")),
      el("strong", {}, tn("{n} card", "{n} cards", state.discard_pile.length)),
      top ? el("div", { class: "pile-cards" }, cardElement(top, { turned })) : null),
  );
}

// Each move in words; a move opens the look-back at the position after it.
function logPanel() {
  const current = lookback ? lookback.index - 1 : null;
  const entries = game.log.map((entry) => el("li", { class: `log-${entry.kind}${entry.ply === current ? " current" : ""}` },
    button(`ply:${entry.ply}`, [
      el("span", { class: "ply" }, `${entry.ply + 1}.`), " ",
      el("span", { class: `seat ${entry.team}` }, seatText(entry.seat_index, game.players)), " ",
      el("span", { class: "move" }, moveText(entry)),
    ], () => openLookback(entry.ply + 1), {
      class: "log-move", "aria-current": entry.ply === current ? "step" : null,
      title: t("Look back at the game after this move"),
    })));
  return el("section", { class: "panel log-panel", "aria-labelledby": "log-title" },
    el("h2", { id: "log-title" }, t("Moves ({n})", { n: game.log.length })),
    el("ol", { class: "log", id: "log" }, entries));
}

// The viewer's result: from the view's end, or, for a game resigned or lost on time, from
// the result and the viewer's team; null for a spectator.
function myOutcome() {
  if (game.end) return game.end.result;
  const mine = me();
  if (!mine) return null;
  const winner = game.result.winner;
  return winner === "draw" ? "draw" : winner === teamOf(mine) ? "won" : "lost";
}

// How the game ended (RK-12, RK-13/RK-17), each territory's points (RK-14), the tie-break
// (RK-15); only for a game played to its end.
function endPanel() {
  const end = game.end;
  if (!end) return "";
  const rows = ["red", "white"].map((team) => el("tr", { class: team },
    el("th", { scope: "row" }, teamText(team)),
    el("td", {}, territorySum(end.territories[team], end.scores[team].score)),
    el("td", { "data-final": team }, scoreText(end.scores[team]))));
  return el("section", { class: "panel end-panel", id: "end", "aria-labelledby": "end-title" },
    el("h2", { id: "end-title" }, t("How the game ended")),
    el("p", { class: "end-reason" }, reasonText(end, game.result)),
    el("table", { class: "territory-table" },
      el("thead", {}, el("tr", {}, el("th", { scope: "col" }, t("Team")), el("th", { scope: "col" }, t("Territories")),
        el("th", { scope: "col" }, t("Score (largest, stones)")))),
      el("tbody", {}, rows)),
    decidedText(end) ? el("p", { class: "muted" }, decidedText(end)) : "");
}

// Who won and how, the scores (RK-21), the replay, the record and the rematch.
function finishedBanner() {
  const result = game.result;
  const loser = result.winner === "red" ? t("White") : t("Red");
  const winner = teamText(result.winner);
  let how = winnerText(result.winner);
  if (result.termination === "resignation") how = t("{loser} resigned · {winner} wins", { loser, winner });
  else if (result.termination === "time") how = t("{loser} ran out of time · {winner} wins", { loser, winner });
  const headline = resultText(myOutcome(), game.players);
  return el("div", { class: "banner over", id: "status", tabindex: "-1", "data-key": "status" },
    headline ? el("strong", { class: "headline" }, headline) : "",
    el("span", {}, how),
    el("span", {}, t("Red {red} · White {white}", { red: result.red, white: result.white })),
    el("span", { class: "banner-links" }, el("a", { href: `/games/${gameId}/replay`, "data-key": "replay" }, t("Replay")),
      el("a", { href: `/games/${gameId}/analysis`, "data-key": "analysis" }, t("Analysis")),
      el("a", { href: `/api/games/${gameId}/record`, download: `roseking-${gameId}.json` }, t("Download record"))),
    game.you !== null ? gameApi.rematch : "");
}

function banner() {
  if (game.status === "finished") return finishedBanner();
  let text;
  if (game.pending) text = t("End your turn");
  else if (game.can_act) text = t("Your turn");
  else text = t("{seat} to move", { seat: seatText(game.to_act[0], game.players) });
  return el("div", { class: `banner${game.can_act ? " yours" : ""}`, id: "status", tabindex: "-1", "data-key": "status" }, text);
}

// White sits at the north edge (RK-1): offer White the board as seen from there.
function turnLabel() {
  if (turned) return t("View from the south");
  const white = me() && teamOf(me()) === "white";
  return white ? t("You sit north: turn the board") : t("Turn the board (view from the north)");
}

// -- looking back ---------------------------------------------------------------------

async function openLookback(index = null) {
  try {
    const data = await api(`/api/games/${gameId}/replay`);
    const frames = data.frames;
    const at = index === null ? frames.length - 2 : index;
    lookback = { frames, index: Math.max(0, Math.min(frames.length - 1, at)) };
    focusNext = index === null ? "lb-prev" : `ply:${index - 1}`;
    render();
    announce(lookbackText());
  } catch (problem) {
    message = problem instanceof ApiError ? problem.message : t("Something went wrong: {error}", { error: problem.message });
    render();
  }
}

function stepTo(index) {
  lookback.index = Math.max(0, Math.min(lookback.frames.length - 1, index));
  render();
  announce(lookbackText());
}

function closeLookback() {
  lookback = null;
  focusNext = "lookback";
  render();
  announce(t("Back to the game."));
}

function lookbackText() {
  const { frames, index } = lookback;
  if (index === 0) return t("Start of the game");
  return t("Move {n} of {total}: {move}", { n: index, total: frames.length - 1, move: moveSentence(frames[index].last_move, game.players) });
}

function lookbackPanel() {
  const { frames, index } = lookback;
  return el("section", { class: "panel actions lookback", id: "actions", "aria-labelledby": "lookback-title" },
    el("h2", { id: "lookback-title" }, t("Looking back")),
    el("p", { id: "lookback-position" }, lookbackText()),
    el("div", { class: "buttons" },
      button("lb-first", "«", () => stepTo(0), { "aria-label": t("First position"), disabled: index === 0 }),
      button("lb-prev", "◀", () => stepTo(index - 1), { "aria-label": t("Previous move"), disabled: index === 0 }),
      button("lb-next", "▶", () => stepTo(index + 1), { "aria-label": t("Next move"), disabled: index === frames.length - 1 }),
      button("lb-last", "»", () => stepTo(frames.length - 1), { "aria-label": t("Last position seen"), disabled: index === frames.length - 1 }),
      button("lb-live", t("Back to the game"), closeLookback, { class: "primary" })),
    game.log.length > frames.length - 1 ? el("p", { class: "muted small" }, t("New moves were made since: go back to the game to see them.")) : "");
}

// -- the page -------------------------------------------------------------------------

function render() {
  if (!game) return;
  const frame = lookback ? lookback.frames[lookback.index] : null;
  const state = frame || game.state;
  const seats = game.seats.map((_, i) => i);
  const whiteSeats = seats.filter((i) => i % 2 === 1);
  const redSeats = seats.filter((i) => i % 2 === 0);
  const [north, south] = turned ? [redSeats, whiteSeats] : [whiteSeats, redSeats];
  const boardBox = el("div", { class: "board-box", id: "board" });
  const target = !frame && selected && game.can_act && !game.pending ? game.targets[selected] : null;
  const lastMove = frame ? frame.last_move : game.last_move;
  renderBoard(boardBox, state, {
    turned, target, last: lastMove, animate: frame ? null : animate,
    end: frame ? frame.end : game.end, focusSquare, onFocusSquare: (square) => { focusSquare = square; },
  });
  animate = null;
  document.title = game.can_act ? t("Your turn · Game {id} — The Rose King", { id: gameId }) : t("Game {id} — The Rose King", { id: gameId });
  const active = document.activeElement;
  const inChat = active && gameApi.chat.contains(active);
  const key = focusNext || focusedKey(content);
  focusNext = null;
  content.classList.toggle("looking-back", Boolean(lookback));
  content.classList.toggle("four", game.players === 4);
  content.replaceChildren(
    el("h1", { class: "sr-only" }, t("Game {id} — The Rose King", { id: gameId })),
    banner(),
    message ? el("p", { class: "error", role: "alert" }, message) : "",
    game.status === "finished" && !lookback ? endPanel() : "",
    el("div", { class: "play-grid" },
      el("section", { class: "table", "aria-label": t("Table") },
        el("div", { class: "hands north" }, north.map((i) => handPanel(i, frame))),
        boardBox,
        el("div", { class: "hands south" }, south.map((i) => handPanel(i, frame))),
        el("div", { class: "board-tools" },
          button("turn", turnLabel(), () => { turned = !turned; localStorage.setItem(TURNED_KEY, turned ? "1" : "0"); render(); }, { class: "link" }),
          !lookback && game.log.length ? button("lookback", t("Look back"), () => openLookback(), { class: "link" }) : "",
          el("span", { class: "muted small" }, [game.options.light ? t("Light game") : "", game.options.show_draw_pile ? t("open draw pile") : ""].filter(Boolean).join(" · ")))),
      el("aside", { class: "side", "aria-label": t("Game") }, actionPanel(), resignPanel(), scoresPanel(state), pilesPanel(state)),
      el("aside", { class: "side side-log", "aria-label": t("Moves and talk") }, logPanel(), gameApi.chat),
    ),
  );
  if (inChat) active.focus();
  else if (key) restoreFocus(key);
  const log = document.getElementById("log");
  const current = log.querySelector(".current");
  if (current) current.scrollIntoView({ block: "nearest" });
  else log.scrollTop = log.scrollHeight;
}

// Back to the control the player was on; if it is gone, to the sensible next one: the
// hand (once it is the player's turn again after their move), else the status line.
function restoreFocus(key) {
  const find = (k) => keyed(content, k);
  // An empty hand leaves only the draw (RK-9).
  const inHand = content.querySelector('.hand-panel.mine button.card[tabindex="0"]') || find("draw");
  let target = key === "pending" ? find("end-turn") : key === "hand" ? null : find(key);
  // The control used for the move is gone, or only the status line has the focus.
  const lost = !target || key === "status" || key === "confirm" || key === "draw";
  if (backToHand && inHand && lost) target = inHand;
  if (!target && key.startsWith("lb-")) target = find("lb-live");
  target = target || inHand || find("status");
  if (target === inHand) backToHand = false;
  // Scrolled to only if out of sight; the status line never pulls the page to its top.
  target.focus({ preventScroll: target.dataset.key === "status" });
}

// What changed since the last view, for the screen reader: each new move, then the turn.
function changes(before, view) {
  const parts = [];
  const from = before ? before.log.length : view.log.length;
  for (const entry of view.log.slice(from)) parts.push(moveSentence(entry, view.players));
  if (view.status === "finished" && (!before || before.status !== "finished")) {
    const outcome = myOutcome();
    parts.push(t("Game over."), reasonText(view.end, view.result), resultText(outcome, view.players) || winnerText(view.result.winner),
      t("Red {red} · White {white}", { red: view.result.red, white: view.result.white }));
  } else if (view.pending && (!before || !before.pending)) {
    parts.push(t("You played {card}. Undo it, or end your turn.", { card: cardName(view.pending) }));
  } else if (before && view.status === "active" && (parts.length || before.status !== "active")) {
    parts.push(view.can_act ? t("Your turn.") : t("{seat} to move.", { seat: seatText(view.to_act[0], view.players) }));
  }
  return parts.filter(Boolean).join(" ");
}

function show(view) {
  if (game && view.version < game.version) return; // an older message arrived late
  const before = game;
  if (before && view.version !== before.version) {
    if (selected && !(view.can_act && view.state.hands[view.you]?.includes(selected))) selected = null;
    const last = view.last_move;
    const fresh = last && last.to && (view.log.length > before.log.length) && last.seat_index !== view.you;
    if (fresh) animate = last; // an opponent's or a bot's move: shown moving, briefly
  }
  game = view;
  render();
  if (before) announce(changes(before, view));
}

// D draws, Escape lets go of the chosen card (not while typing in the chat).
document.addEventListener("keydown", (event) => {
  if (!game || event.ctrlKey || event.metaKey || event.altKey) return;
  if (event.target.closest && event.target.closest("input, textarea, select, [contenteditable]")) return;
  if ((event.key === "d" || event.key === "D") && !lookback && legal("draw")) {
    event.preventDefault();
    send("draw");
  } else if (event.key === "Escape" && selected && !lookback) {
    event.preventDefault();
    focusNext = `card:${selected}`;
    selected = null;
    render();
  } else if (event.key === "Escape" && lookback) {
    event.preventDefault();
    closeLookback();
  }
});

return { update: show };
}
