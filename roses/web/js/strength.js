// A bot's strength (its thinking time per move) in words, as the lobby and the ratings
// show it.

import { t } from "./i18n.js";

export function strengthName(strength) {
  const words = { quick: t("quick"), normal: t("normal"), strong: t("strong") };
  return words[strength] || strength;
}
