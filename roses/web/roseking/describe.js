// The Rose King in words, for the log, the announcements and the end of a game: one place
// for every sentence the play and replay pages say about moves and results.

import { t } from "../js/i18n.js";
import { cardName } from "./cards.js";

// Seats alternate Red, White (R1, W1, R2, W2 with four players, RK-16).
export function seatText(index, seats) {
  const red = index % 2 === 0;
  if (seats === 2) return red ? t("Red") : t("White");
  const n = Math.floor(index / 2) + 1;
  return red ? t("Red {n}", { n }) : t("White {n}", { n });
}

export function teamText(team) {
  return team === "red" ? t("Red") : t("White");
}

// A log entry's move alone: "NE3 → h8", "W1 + hero: flips d4", "draws SE2", "passes".
export function moveText(entry) {
  if (entry.kind === "play") return t("{card} → {square}", { card: cardName(entry.card), square: entry.to });
  if (entry.kind === "hero") return t("{card} + hero: flips {square}", { card: cardName(entry.card), square: entry.flipped });
  if (entry.kind === "draw") return entry.drew ? t("draws {card}", { card: cardName(entry.drew) }) : t("draws a card");
  return t("passes");
}

// The whole move as a sentence, for the screen reader and the replay's position line.
export function moveSentence(entry, seats) {
  const seat = seatText(entry.seat_index, seats);
  if (entry.kind === "play") return t("{seat} plays {card}: the crown moves to {square}.", { seat, card: cardName(entry.card), square: entry.to });
  if (entry.kind === "hero") return t("{seat} plays {card} with a hero and flips the stone on {square}.", { seat, card: cardName(entry.card), square: entry.flipped });
  if (entry.kind === "draw") return entry.drew ? t("{seat} draws {card}.", { seat, card: cardName(entry.drew) }) : t("{seat} draws a card.", { seat });
  return t("{seat} cannot move and passes.", { seat });
}

export function scoreText(score) {
  // RK-21: score with the tie-breaks in parentheses, e.g. "69 (8, 11)".
  return t("{score} ({largest}, {stones})", score);
}

// Why the game ended (RK-12, RK-13, RK-17) or how (resignation, time).
export function reasonText(end, result) {
  if (end) {
    if (end.reason === "last-stone") return t("The last stone was placed.");
    return t("Nobody can move any more.");
  }
  const loser = result.winner === "red" ? t("White") : t("Red");
  if (result.termination === "resignation") return t("{team} resigned.", { team: loser });
  if (result.termination === "time") return t("{team} ran out of time.", { team: loser });
  return "";
}

// "You won" / "You lost" / "Your team won" ... from the viewer's seat; null for a spectator.
export function resultText(outcome, players) {
  const team = players === 4;
  if (outcome === "won") return team ? t("Your team won.") : t("You won.");
  if (outcome === "lost") return team ? t("Your team lost.") : t("You lost.");
  if (outcome === "draw") return t("The game is a draw.");
  return null;
}

export function winnerText(winner) {
  if (winner === "draw") return t("The game is a draw.");
  return winner === "red" ? t("Red wins.") : t("White wins.");
}

// RK-15: which comparison decided.
export function decidedText(end) {
  if (end.decided_by === "largest") return t("The scores are equal: the larger territory decides.");
  if (end.decided_by === "stones") return t("Scores and largest territories are equal: more stones decide.");
  if (end.decided_by === "draw") return t("Score, largest territory and stones are all equal.");
  return "";
}

// RK-14: "7 × 7 + 2 × (4 × 4) + 1 × 1 = 83": territories of one size counted together.
export function territorySum(groups, total) {
  if (!groups.length) return t("no stones: 0");
  const counts = new Map();
  for (const group of groups) counts.set(group.size, (counts.get(group.size) || 0) + 1);
  const terms = [...counts].map(([n, count]) => (count === 1 ? t("{n} × {n}", { n }) : t("{count} × ({n} × {n})", { count, n })));
  return t("{terms} = {total}", { terms: terms.join(" + "), total });
}
