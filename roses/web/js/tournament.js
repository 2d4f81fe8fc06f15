// One tournament: its terms, its start in the reader's time zone, entering and withdrawing,
// the standings with their tie-breaks, and the pairings round by round (each table's game
// and how it ended). Redrawn whenever the lobby socket says the tournament changed.

import { api, ApiError } from "./api.js";
import { el } from "./kit.js";
import { t, tn } from "./i18n.js";
import { onLobby } from "./notify.js";
import { strengthName } from "./strength.js";
import { termsText } from "./clock.js";
import { FORMAT_NAMES, STATUS_NAMES, gameTitle, localMoment } from "./tournament_words.js";

const main = document.getElementById("main");
const id = Number(location.pathname.split("/").pop());

const TIE_BREAKS = {
  buchholz: () => t("Buchholz"),
  sonneborn_berger: () => t("Sonneborn-Berger"),
  wins: () => t("Wins"),
  opponents_points: () => t("Opponents' points"),
  final: () => t("Final"),
  performance: () => t("Performance"),
};

function tieBreakName(name) {
  return TIE_BREAKS[name] ? TIE_BREAKS[name]() : name;
}

function number(value) {
  return Number.isInteger(value) ? String(value) : value.toLocaleString(document.documentElement.lang, { maximumFractionDigits: 2 });
}

function conditionLines(c) {
  return [
    c.min_rating !== null ? t("Rating at least {n}", { n: c.min_rating }) : null,
    c.max_rating !== null ? t("Rating at most {n}", { n: c.max_rating }) : null,
    c.min_games ? tn("At least {n} finished game", "At least {n} finished games", c.min_games) : null,
    c.friends_only ? t("The organiser's friends only") : null,
    c.invitation ? t("By invitation only") : null,
  ].filter(Boolean);
}

function actions(tournament, error, refresh) {
  const act = (path) => async () => {
    error.hidden = true;
    try {
      await api(`/api/tournaments/${id}/${path}`, { method: "POST" });
      await refresh();
    } catch (problem) {
      error.textContent = problem instanceof ApiError ? problem.message : problem.message;
      error.hidden = false;
    }
  };
  const you = tournament.you;
  const over = tournament.status === "finished" || tournament.status === "cancelled";
  if (over) return null;
  const startNow = you.organiser && tournament.status === "open"
    ? el("button", { class: "start-now", onclick: act("start") }, t("Start now")) : null;
  if (you.entered) return el("p", { class: "actions" }, el("button", { class: "withdraw", onclick: act("withdraw") }, t("Withdraw")), " ", startNow);
  if (you.withdrawn) return el("p", { class: "muted" }, t("You withdrew from this tournament."));
  return el("p", { class: "actions" }, el("button", { class: "join", onclick: act("join"), disabled: !you.may_enter }, t("Enter")), " ", startNow);
}

// Each entrant's name as the page shows it: a bot in words, as the new-game form names it.
function entrantNames(tournament, catalog) {
  const game = catalog.games.find((g) => g.name === tournament.game);
  const labels = Object.fromEntries((game?.bot_list || []).map((b) => [b.name, b.label]));
  const shown = (e) => {
    if (!e.bot_name) return e.name;
    const bot = t(labels[e.bot_name] || e.bot_name);
    return e.strength ? t("{bot} bot ({strength})", { bot, strength: strengthName(e.strength) }) : t("{bot} bot", { bot });
  };
  return Object.fromEntries(tournament.entrants.map((e) => [e.player, shown(e)]));
}

function standingsTable(tournament, names) {
  const rows = tournament.standings;
  if (!rows.length) return el("p", { class: "muted" }, t("Nobody has entered yet."));
  const breaks = rows[0].tie_breaks.map((b) => b.name);
  return el("div", { class: "table-scroll" }, el("table", { class: "leaderboard standings" },
    el("thead", {}, el("tr", {}, el("th", {}, "#"), el("th", {}, t("Player")), el("th", {}, t("Points")),
      breaks.map((name) => el("th", {}, tieBreakName(name))), el("th", {}, t("Games")), el("th", {}, t("Won · drawn · lost")))),
    el("tbody", {}, rows.map((row) => el("tr", { class: row.player === tournament.you.player ? "you" : null },
      el("td", {}, row.rank), el("td", {}, names[row.player] ?? row.name, row.withdrawn ? el("span", { class: "muted" }, " ", t("(withdrawn)")) : null),
      el("td", {}, number(row.points)), row.tie_breaks.map((b) => el("td", {}, number(b.value))),
      el("td", {}, row.games), el("td", {}, `${row.wins} · ${row.draws} · ${row.losses}`))))));
}

// "Anna (1) – Ben (2)": each seat with its place once the game is over.
function tableLine(table, names) {
  const seats = table.seats.map((player, seat) => (table.ranks ? t("{name} ({place})", { name: names[player], place: table.ranks[seat] + 1 }) : names[player]));
  const label = seats.join(" – ");
  return el("li", {}, table.game_id ? el("a", { href: `/games/${table.game_id}` }, label) : label, " ",
    el("span", { class: "muted small" }, table.ranks ? t("over") : t("being played")));
}

function pairings(tournament, names) {
  if (!tournament.pairings.length) return el("p", { class: "muted" }, t("No round has started yet."));
  return [...tournament.pairings].reverse().map((round) => el("section", { class: "round" },
    el("h3", {}, t("Round {n}", { n: round.round })),
    el("ul", { class: "pairings" }, round.tables.map((table) => tableLine(table, names))),
    round.byes.length ? el("p", { class: "small" }, t("Bye: {names}", { names: round.byes.map((p) => names[p]).join(", ") })) : null));
}

async function draw() {
  const [catalog, tournament] = await Promise.all([api("/api/catalog"), api(`/api/tournaments/${id}`)]);
  document.title = `${tournament.name} — roses`;
  const error = el("p", { class: "error", role: "alert", hidden: true });
  const rounds = tournament.rounds ? t("Round {n} of {total}", { n: tournament.round, total: tournament.rounds }) : t("Round {n}", { n: tournament.round });
  const conditions = conditionLines(tournament.conditions);
  const names = entrantNames(tournament, catalog);
  main.replaceChildren(
    el("section", { class: "panel tournament", "data-version": tournament.version },
      el("h1", {}, tournament.name),
      el("p", {}, t("{format} of {game}, {n} a table", { format: FORMAT_NAMES[tournament.format](), game: gameTitle(catalog, tournament.game), n: tournament.players_per_table })),
      el("p", { class: "small" }, termsText({ rated: tournament.rated, clock: tournament.time_control })),
      el("p", { class: "status" }, el("strong", {}, STATUS_NAMES[tournament.status]()), " · ",
        tournament.status === "open" ? t("Starts {when}", { when: localMoment(tournament.starts_at) }) : rounds),
      el("p", { class: "small starts" }, t("Start: {when}", { when: localMoment(tournament.starts_at) }),
        tournament.ends_at ? [" · ", t("End: {when}", { when: localMoment(tournament.ends_at) })] : null),
      tournament.organiser ? el("p", { class: "small" }, t("Organised by {name}", { name: tournament.organiser })) : null,
      conditions.length ? el("ul", { class: "small conditions" }, conditions.map((c) => el("li", {}, c))) : null,
      tournament.you.barred_until ? el("p", { class: "error" }, t("A tournament game of yours ran out of time: you may enter tournaments again from {date}.", { date: localMoment(tournament.you.barred_until) })) : null,
      actions(tournament, error, draw), error),
    el("section", { class: "panel" }, el("h2", {}, t("Standings")), standingsTable(tournament, names)),
    el("section", { class: "panel" }, el("h2", {}, t("Pairings")), pairings(tournament, names)));
}

let timer = null;
onLobby((message) => {
  if (message.type !== "tournament" || message.tournament_id !== id) return;
  clearTimeout(timer);
  timer = setTimeout(() => draw().catch(() => {}), 100);
});

draw().catch((problem) => main.replaceChildren(el("p", { class: "error" }, problem.message)));
