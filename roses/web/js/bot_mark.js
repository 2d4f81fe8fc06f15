// A bot account's name, marked as lichess marks them ("BOT name"): a program plays there.
import { t } from "./i18n.js";

export function accountName(name, isBot) {
  return isBot ? t("BOT {name}", { name }) : name;
}
