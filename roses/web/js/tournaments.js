// The tournaments: those open for entries, running and finished (each start in the
// reader's own time zone), and the form that organises one. The games and their bots come
// from /api/catalog: this page names none.

import { api, ApiError } from "./api.js";
import { el } from "./kit.js";
import { t, tn } from "./i18n.js";
import { onLobby } from "./notify.js";
import { strengthName } from "./strength.js";
import { termsText, timeLimitField } from "./clock.js";
import { FORMAT_NAMES, STATUS_NAMES, gameTitle, localMoment } from "./tournament_words.js";

const main = document.getElementById("main");

function line(catalog, tournament) {
  return el("li", { class: "tournament-line" },
    el("a", { href: `/tournaments/${tournament.id}` }, tournament.name), " ",
    el("span", { class: "muted small" }, t("{format} of {game}, {n} a table", {
      format: FORMAT_NAMES[tournament.format](), game: gameTitle(catalog, tournament.game), n: tournament.players_per_table,
    })), " · ",
    el("span", { class: "small" }, termsText({ rated: tournament.rated, clock: tournament.time_control })), " · ",
    el("span", { class: "small" }, tournament.status === "open"
      ? t("Starts {when}", { when: localMoment(tournament.starts_at) })
      : STATUS_NAMES[tournament.status]()), " · ",
    el("span", { class: "small" }, tn("{n} entrant", "{n} entrants", tournament.entered)));
}

function section(catalog, title, tournaments, empty) {
  return el("section", { class: "panel" }, el("h2", {}, title),
    tournaments.length ? el("ul", { class: "tournament-list" }, tournaments.map((x) => line(catalog, x))) : el("p", { class: "muted" }, empty));
}

// A local date and time for <input type="datetime-local">, an hour from now.
function inAnHour() {
  const soon = new Date(Date.now() + 3600_000);
  soon.setSeconds(0, 0);
  return new Date(soon.getTime() - soon.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
}

// A label for its input by id: a select's options are no part of its name.
function field(label, input) {
  input.id = input.id || `tournament-${input.name}`;
  return el("div", { class: "field" }, el("label", { for: input.id }, label), " ", input);
}

function numberOrNull(input) {
  return input.value === "" ? null : Number(input.value);
}

function createForm(catalog) {
  const error = el("p", { class: "error", role: "alert", hidden: true });
  const name = el("input", { name: "name", required: true, maxlength: 80, value: t("Tournament") });
  const format = el("select", { name: "format" }, Object.entries(FORMAT_NAMES).map(([key, label]) => el("option", { value: key }, label())));
  const game = el("select", { name: "game" }, catalog.games.map((g) => el("option", { value: g.name }, t(g.title))));
  const players = el("select", { name: "players" });
  const limit = timeLimitField(catalog);
  const limitSelect = limit.element.querySelector("select");
  limitSelect.value = limitSelect.querySelector("option[value^='live:']")?.value || limitSelect.value;
  const vacation = el("input", { type: "checkbox", name: "vacation", checked: true });
  const rated = el("input", { type: "checkbox", name: "rated" });
  // Empty: as many as the format needs (pools: until everyone could have met everyone).
  const rounds = el("input", { type: "number", name: "rounds", min: 1, max: 30, value: 3 });
  const lateJoin = el("input", { type: "number", name: "late_join_until_round", min: 1, max: 30, value: 1 });
  const minutes = el("input", { type: "number", name: "minutes", min: 5, max: 1440, value: 60 });
  const points = el("input", { name: "points", placeholder: "3, 2, 1, 0" });
  const smaller = el("input", { type: "checkbox", name: "smaller_tables", checked: true });
  const final = el("input", { type: "checkbox", name: "final" });
  const startsAt = el("input", { type: "datetime-local", name: "starts_at", required: true, value: inAnHour() });
  const minRating = el("input", { type: "number", name: "min_rating", min: 0, max: 4000 });
  const maxRating = el("input", { type: "number", name: "max_rating", min: 0, max: 4000 });
  const minGames = el("input", { type: "number", name: "min_games", min: 0, max: 1000, value: 0 });
  const friendsOnly = el("input", { type: "checkbox", name: "friends_only" });
  const invited = el("input", { name: "invited", placeholder: t("names, separated by commas") });
  const bots = el("fieldset", { class: "bots" });
  const roundsField = field(t("Rounds"), rounds);
  const minutesField = field(t("Minutes"), minutes);
  const poolFields = el("div", { class: "pool-fields" }, field(t("Points per place (empty: the usual)"), points),
    field(t("Tables of one fewer when the numbers do not fill them"), smaller), field(t("A final among the best"), final));

  const chosenGame = () => catalog.games.find((g) => g.name === game.value);
  const redraw = () => {
    const counts = chosenGame().player_counts.filter((n) => (format.value === "pools" ? n >= 3 : n === 2));
    players.replaceChildren(...counts.map((n) => el("option", { value: n }, tn("{n} player a table", "{n} players a table", n))));
    // A ladder of strengths: each bot of the game at each of its strengths, weakest first.
    const ladder = (chosenGame().bot_list || []).flatMap((bot) => (chosenGame().bots[bot.name] || []).length
      ? chosenGame().bots[bot.name].map((strength) => ({ bot: bot.name, strength, label: t("{bot} bot ({strength})", { bot: t(bot.label), strength: strengthName(strength) }) }))
      : [{ bot: bot.name, strength: null, label: t("{bot} bot", { bot: t(bot.label) }) }]);
    bots.replaceChildren(el("legend", {}, t("Bots entered as players")), ...ladder.map((entry) => el("label", { class: "bot-choice" },
      el("input", { type: "checkbox", "data-bot": entry.bot, "data-strength": entry.strength || "" }), " ", entry.label)));
    roundsField.hidden = format.value === "arena";
    minutesField.hidden = format.value !== "arena";
    poolFields.hidden = format.value !== "pools";
  };
  format.addEventListener("change", redraw);
  game.addEventListener("change", redraw);
  redraw();

  const submit = async (event) => {
    event.preventDefault();
    error.hidden = true;
    const names = invited.value.split(",").map((x) => x.trim()).filter(Boolean);
    const body = {
      name: name.value,
      format: format.value,
      game: game.value,
      players: Number(players.value),
      time_limit: limit.choice(),
      vacation: vacation.checked,
      rated: rated.checked,
      rounds: format.value === "arena" ? null : numberOrNull(rounds),
      late_join_until_round: Number(lateJoin.value || 1),
      starts_at: new Date(startsAt.value).toISOString(),
      minutes: format.value === "arena" ? numberOrNull(minutes) : null,
      ...(format.value === "pools" ? {
        points: points.value.trim() ? points.value.split(",").map((x) => Number(x.trim())) : null,
        smaller_tables: smaller.checked,
        final: final.checked,
      } : {}),
      conditions: {
        min_rating: numberOrNull(minRating), max_rating: numberOrNull(maxRating), min_games: Number(minGames.value || 0),
        friends_only: friendsOnly.checked, invited: names.length ? names : null,
      },
      bots: [...bots.querySelectorAll("input:checked")].map((box) => ({ bot: box.dataset.bot, strength: box.dataset.strength || null })),
    };
    try {
      const made = await api("/api/tournaments", { method: "POST", body });
      location.assign(`/tournaments/${made.id}`);
    } catch (problem) {
      error.textContent = problem instanceof ApiError ? problem.message : t("Something went wrong: {problem}", { problem: problem.message });
      error.hidden = false;
    }
  };
  return el("details", { class: "panel new-tournament" }, el("summary", {}, t("Organise a tournament")),
    el("form", { class: "tournament-form", onsubmit: submit },
      field(t("Name"), name), field(t("Format"), format), field(t("Game"), game), field(t("Table"), players),
      limit.element, field(t("Vacation pauses correspondence clocks"), vacation), field(t("Rated"), rated),
      roundsField, minutesField, poolFields, field(t("Entries until round"), lateJoin), field(t("Starts at (your time)"), startsAt),
      el("fieldset", {}, el("legend", {}, t("Who may enter")),
        field(t("Lowest rating"), minRating), field(t("Highest rating"), maxRating), field(t("Finished games at least"), minGames),
        field(t("Friends of mine only"), friendsOnly), field(t("By invitation only"), invited)),
      bots, error, el("button", { type: "submit" }, t("Create the tournament"))));
}

async function start() {
  const [catalog, lists] = await Promise.all([api("/api/catalog"), api("/api/tournaments")]);
  main.replaceChildren(el("h1", {}, t("Tournaments")), createForm(catalog),
    section(catalog, t("Open for entries"), lists.open, t("No tournament is taking entries now.")),
    section(catalog, t("Under way"), lists.running, t("No tournament is under way.")),
    section(catalog, t("Finished"), lists.finished, t("No tournament has finished yet.")));
}

let timer = null;
onLobby((message) => {
  if (message.type !== "tournament" || document.querySelector(".new-tournament[open]")) return;
  clearTimeout(timer);
  timer = setTimeout(() => start().catch(() => {}), 200);
});

start().catch((problem) => main.replaceChildren(el("p", { class: "error" }, problem.message)));
