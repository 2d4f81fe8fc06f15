// The leaderboard: people and bots (per strength) by rating, per game and variant (Glicko-2
// for a duel, Weng-Lin for more than two: the API's `system`).
import { api } from "./api.js";
import { el } from "./kit.js";
import { systemNote } from "./rating-system.js";
import { strengthName } from "./strength.js";
import { t } from "./i18n.js";
import { accountName } from "./bot_mark.js";

const main = document.getElementById("main");

// A bot by what it is ("Search bot (strong)"), its game's catalogue giving the words.
export function who(row, botLabels = {}) {
  const bot = t(botLabels[row.bot] || row.bot || "");
  return row.player
    ? el("a", { href: `/players/${encodeURIComponent(row.player)}` }, accountName(row.player, row.bot_account))
    : row.strength ? t("{bot} bot ({strength})", { bot, strength: strengthName(row.strength) }) : t("{bot} bot", { bot });
}

function variants(catalog) {
  return catalog.games.flatMap((game) => game.player_counts.map((count) => ({
    game: game.name, variant: `${count}p`, bots: Object.fromEntries((game.bot_list || []).map((b) => [b.name, b.label])), label: t("{game}, {n} players", { game: t(game.title), n: count }),
  })));
}

async function show(choice, list, ladder) {
  const board = await api(`/api/ratings/${choice.game}/${choice.variant}?ladder=${ladder}`);
  const note = el("p", { class: "muted rating-system" }, systemNote(board.system));
  list.replaceChildren(note, board.players.length === 0
    ? el("p", { class: "muted" }, t("Nobody has played a rated game of this yet."))
    : el("table", { class: "leaderboard" },
      el("thead", {}, el("tr", {}, el("th", {}, "#"), el("th", {}, t("Player")), el("th", {}, t("Rating")), el("th", {}, "±"), el("th", {}, t("Games")))),
      el("tbody", {}, board.players.map((row, i) => el("tr", {},
        el("td", {}, i + 1), el("td", {}, who(row, choice.bots)), el("td", {}, Math.round(row.rating)),
        el("td", {}, Math.round(row.deviation)), el("td", {}, row.games))))));
}

async function start() {
  const catalog = await api("/api/catalog");
  const choices = variants(catalog);
  const params = new URLSearchParams(location.search);
  const first = choices.find((c) => c.game === params.get("game") && c.variant === params.get("variant")) || choices[0];
  const list = el("div", { class: "board" });
  // People and bots apart (bot accounts beside the server's bots), or everyone together.
  const ladders = [["all", t("Everyone")], ["people", t("People")], ["bots", t("Bots")]];
  const ladder = el("select", { "aria-label": t("Ladder"), onchange: () => redraw() },
    ladders.map(([value, label]) => el("option", { value, selected: value === params.get("ladder") }, label)));
  const picker = el("select", { "aria-label": t("Game"), onchange: () => redraw() },
    choices.map((c) => el("option", { selected: c === first }, c.label)));
  const redraw = () => show(choices[picker.selectedIndex], list, ladder.value);
  main.replaceChildren(el("section", { class: "panel" }, el("h1", {}, t("Ratings")), picker, ladder, list));
  await redraw();
}

start().catch((problem) => main.replaceChildren(el("p", { class: "error" }, problem.message)));
