// What the tournament pages say alike: the formats' and states' names, a start time in the
// reader's own time zone, a game's title from the catalogue.

import { t } from "./i18n.js";
import { formatMoment } from "./dates.js";

export const FORMAT_NAMES = {
  swiss: () => t("Swiss"),
  pools: () => t("Round-robin pools"),
  arena: () => t("Arena"),
};

export const STATUS_NAMES = {
  open: () => t("Open for entries"),
  running: () => t("Under way"),
  finished: () => t("Finished"),
  cancelled: () => t("Cancelled"),
};

// A moment in the reader's time zone, saying which: "Sat, 28 Nov, 14:00 CET".
export function localMoment(iso) {
  return formatMoment(iso, { weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit", timeZoneName: "short" });
}

export function gameTitle(catalog, name) {
  const game = catalog.games.find((g) => g.name === name);
  return game ? t(game.title) : name;
}
