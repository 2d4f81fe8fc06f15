// The rating system of a game and variant (the API's `system`) in words, as the leaderboard
// and a player's page show it.

import { t } from "./i18n.js";

// The names of the systems are their authors' names: the same in every language.
export function systemName(system) {
  const names = { glicko2: "Glicko-2", openskill: "Weng-Lin" };
  return names[system] || system;
}

export function systemNote(system) {
  const notes = {
    glicko2: t("Glicko-2: each game a win, draw or loss against the opponent."),
    openskill: t("Weng-Lin (openskill): the whole ranking of a game rated at once. The number shown is 1500 + 42 × (μ − 3σ), a cautious estimate that climbs as the system grows sure of a player."),
  };
  return notes[system] || "";
}
