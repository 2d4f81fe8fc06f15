// The lobby: sign in, create a game, "My games" (my turn first), open games to join.

import { api, ApiError } from "./api.js";
import { el } from "./kit.js";
import { strengthName } from "./strength.js";
import { accountName } from "./bot_mark.js";
import { t, tn } from "./i18n.js";
import { onLobby } from "./notify.js";
import { drawHeader } from "./header.js";
import { timeLimitField, timeLimitLine } from "./clock.js";
import { pageLocale } from "./dates.js";

const main = document.getElementById("main");

function showError(target, error) {
  target.textContent = error instanceof ApiError ? error.message : t("Something went wrong: {problem}", { problem: error.message });
  target.hidden = false;
}

// Where to go after signing in: a path on this site only. "//other-host/", "/\\other-host"
// and "https://other-host" all resolve to another origin and are refused.
export function sameOriginPath(next, origin = location.origin) {
  if (!next) return null;
  let url;
  try {
    url = new URL(next, origin);
  } catch {
    return null; // not a URL at all
  }
  return url.origin === origin ? url.pathname + url.search + url.hash : null;
}

// Signing in brings the account's language (the server sets it for this browser too).
function afterSignIn(user) {
  const next = sameOriginPath(new URLSearchParams(location.search).get("next"));
  if (next) location.assign(next);
  else if (user && user.language && user.language !== document.documentElement.lang) location.reload();
  else {
    drawHeader(); // now signed in
    start();
  }
}


// "A, B and C": the titles of the games on offer, in the page's language.
function gameTitles(catalog) {
  const list = new Intl.ListFormat(pageLocale(), { type: "conjunction" });
  return list.format(catalog.games.map((game) => t(game.title)));
}

// Every game's rules and tutorial: under the new-game form, and on the front page for a
// visitor who wants to know the games before making an account.
function learnLinks(catalog) {
  return el("nav", { class: "learn small", "aria-label": t("Learn to play") }, t("Learn to play:"), " ",
    catalog.games.flatMap((g, i) => [i ? " · " : "", el("a", { href: `/rules/${g.name}` }, t("Rules of {game}", { game: t(g.title) }))]),
    catalog.games.filter((g) => g.tutorial).flatMap((g) => [" · ", el("a", { href: `/tutorial/${g.name}` }, t("{game} tutorial", { game: t(g.title) }))]));
}

function signInPage(catalog) {
  const error = el("p", { class: "error", role: "alert", hidden: true });
  // No maxlength: a name too long is refused with a sentence, never cut by the browser.
  const name = el("input", { name: "name", autocomplete: "username", required: true, minlength: 2 });
  const password = el("input", { name: "password", type: "password", autocomplete: "current-password", required: true });
  const send = async (path) => {
    error.hidden = true;
    try {
      afterSignIn(await api(path, { method: "POST", body: { name: name.value.trim(), password: password.value } }));
    } catch (problem) {
      showError(error, problem);
    }
  };
  const form = el("form", { class: "panel signin", onsubmit: (event) => { event.preventDefault(); send("/api/accounts/login"); } },
    el("h1", {}, t("Play {games}", { games: gameTitles(catalog) })),
    el("p", { class: "muted" }, t("Board games of crowns and roses, to play with friends at your own pace, live, or against the computer.")),
    el("label", {}, t("Name"), name),
    el("label", {}, t("Password"), password),
    el("p", { class: "small" }, el("a", { href: "/reset-password" }, t("Forgot your password?"))),
    error,
    el("div", { class: "buttons" },
      el("button", { type: "submit", class: "primary" }, t("Sign in")),
      el("button", { type: "button", onclick: () => send("/api/accounts/register") }, t("Create account")),
    ),
    el("p", { class: "guest" },
      el("button", { type: "button", class: "link", onclick: async () => {
        try { afterSignIn(await api("/api/accounts/guest", { method: "POST" })); } catch (problem) { showError(error, problem); }
      } }, t("Or play as a guest")), " ", t("(no account needed)")),
    learnLinks(catalog),
  );
  main.replaceChildren(form);
  name.focus();
}

// A bot as the form offers it: what it is and how well it plays ("Search — strongest"),
// with its rating when it has one at this player count (a bot without strengths).
function botText(bot, ratings) {
  const rating = ratings.get(`${bot.name}:`);
  const text = t("{bot} — {level}", { bot: t(bot.label), level: t(bot.level) });
  return rating === undefined ? text : t("{bot} · rating {rating}", { bot: text, rating: Math.round(rating) });
}

// A strength with the bot's rating at it, if the bot has played rated games at it.
function strengthText(bot, strength, ratings) {
  const rating = ratings.get(`${bot}:${strength}`);
  return rating === undefined ? strengthName(strength) : t("{strength} · rating {rating}", { strength: strengthName(strength), rating: Math.round(rating) });
}

// The bots' ratings of one game and player count, keyed "bot:strength" (none if unread).
async function botRatings(game, players) {
  try {
    const board = await api(`/api/ratings/${game}/${players}p`);
    return new Map(board.players.filter((row) => row.bot).map((row) => [`${row.bot}:${row.strength || ""}`, row.rating]));
  } catch {
    return new Map(); // the form works without them
  }
}

// A seat: me, open, a friend (invited by name), another player invited, or a bot.
function seatRow(index, label, bots, friends, preset) {
  let ratings = new Map();
  const kind = el("select", { name: `seat-${index}`, "aria-label": t("Seat {seat}", { seat: label }) },
    el("option", { value: "me" }, t("Me")),
    el("option", { value: "open" }, t("Open to anyone")),
    friends.length ? el("optgroup", { label: t("Invite a friend") },
      friends.map((friend) => el("option", { value: `friend:${friend}` }, friend))) : null,
    el("option", { value: "invite" }, t("Invite a player…")),
    bots.length ? el("option", { value: "bot" }, t("Computer")) : null,
  );
  kind.value = index === 0 ? "me" : preset && friends.includes(preset) ? `friend:${preset}` : "open";
  const invite = el("input", { name: `invite-${index}`, placeholder: t("player's name"), hidden: true, "aria-label": t("Player invited to seat {seat}", { seat: label }) });
  const bot = el("select", { name: `bot-${index}`, hidden: true, "aria-label": t("Bot in seat {seat}", { seat: label }) },
    bots.map((b) => el("option", { value: b.name }, botText(b, ratings))));
  bot.value = bots.length ? bots[bots.length - 1].name : ""; // the strongest first offered
  const strength = el("select", { name: `strength-${index}`, hidden: true, "aria-label": t("Strength of the bot in seat {seat}", { seat: label }) });
  // Only bots that search have strengths (thinking time per move).
  const fillStrengths = () => {
    const strengths = (bots.find((b) => b.name === bot.value) || { strengths: [] }).strengths;
    strength.replaceChildren(...strengths.map((s) => el("option", { value: s }, strengthText(bot.value, s, ratings))));
    strength.value = strengths[Math.floor(strengths.length / 2)] || "";
    strength.hidden = kind.value !== "bot" || !strengths.length;
  };
  const sync = () => {
    invite.hidden = kind.value !== "invite";
    bot.hidden = kind.value !== "bot";
    fillStrengths();
  };
  kind.addEventListener("change", sync);
  bot.addEventListener("change", fillStrengths);
  sync();
  const row = el("div", { class: "seat-row" }, el("span", { class: "seat-name" }, label), kind, invite, bot, strength);
  // The ratings arrive after the form is drawn: the options' words are written again.
  row.rate = (found) => {
    ratings = found;
    [...bot.options].forEach((option, i) => { option.textContent = botText(bots[i], ratings); });
    [...strength.options].forEach((option) => { option.textContent = strengthText(bot.value, option.value, ratings); });
  };
  row.choice = () => {
    const choice = { kind: kind.value };
    if (kind.value === "invite") choice.name = invite.value.trim();
    if (kind.value.startsWith("friend:")) Object.assign(choice, { kind: "invite", name: kind.value.slice("friend:".length) });
    if (kind.value === "bot") Object.assign(choice, { bot: bot.value }, strength.value ? { strength: strength.value } : {});
    return choice;
  };
  return row;
}

// One form for every game: its player counts, seats, bots and options come from the catalogue.
// friends: their names, offered in each seat; invited: a friend to seat first (?invite=).
function newGameForm(catalog, friends = [], invited = null) {
  const error = el("p", { class: "error", role: "alert", hidden: true });
  const seats = el("div", { class: "seats" });
  const counts = el("div", { class: "choices" });
  const options = el("div", { class: "options" });
  const rated = el("input", { type: "checkbox", name: "rated" });
  const botAccounts = el("input", { type: "checkbox", name: "bot_accounts" });
  const limit = timeLimitField(catalog);
  let game = catalog.games[0];
  let players = game.player_counts[0];
  let rows = [];
  let checks = [];
  const fill = () => {
    const bots = game.bot_list;
    rows = game.seat_labels[players].map((label, i) => seatRow(i, t(label), bots, friends, i === 1 ? invited : null));
    const [asked, count, drawn] = [game.name, players, rows];
    if (bots.length) botRatings(asked, count).then((found) => drawn.forEach((row) => row.rate(found)));
    seats.replaceChildren(...rows);
    checks = game.options.filter((o) => o.players.includes(players)).map((o) => {
      const box = el("input", { type: "checkbox", name: o.name, checked: o.default });
      box.option = o.name;
      return box;
    });
    // An option says in words what it does.
    options.replaceChildren(...checks.map((box) => {
      const option = game.options.find((o) => o.name === box.option);
      return el("label", { class: "check" }, box, t(option.label));
    }));
    counts.replaceChildren(...game.player_counts.map((count) => el("label", { class: "check" },
      el("input", { type: "radio", name: "players", value: count, checked: count === players, onchange: () => { players = count; fill(); } }),
      tn("{n} player", "{n} players", count))));
  };
  const games = catalog.games.length > 1 ? el("div", { class: "choices" }, catalog.games.map((g) => el("label", { class: "check" },
    el("input", { type: "radio", name: "game", value: g.name, checked: g === game, onchange: () => { game = g; players = g.player_counts[0]; fill(); } }),
    t(g.title)))) : "";
  fill();
  return el("form", { class: "panel new-game", onsubmit: async (event) => {
    event.preventDefault();
    error.hidden = true;
    const body = {
      game: game.name, players, seats: rows.map((row) => row.choice()),
      options: Object.fromEntries(checks.map((box) => [box.option, box.checked])),
      rated: rated.checked,
      bot_accounts: botAccounts.checked,
      time_limit: limit.choice(),
    };
    try {
      const created = await api("/api/games", { method: "POST", body });
      location.assign(`/games/${created.id}`);
    } catch (problem) {
      showError(error, problem);
    }
  } },
    el("h2", {}, t("New game")),
    games,
    counts,
    seats,
    options,
    limit.element,
    el("label", { class: "check" }, rated, t("Rated (registered players and bots; guests play casual games)")),
    el("label", { class: "check" }, botAccounts, t("Bot accounts may take seats beside people (programs playing through the API)")),
    error,
    el("button", { type: "submit", class: "primary" }, t("Create game")),
    learnLinks(catalog),
  );
}

// "Red: ann · White: bob": who sits where.
function players(game) {
  return game.seats.flatMap((seat, i) => [i ? el("span", { class: "vs" }, " · ") : null,
    el("span", { class: `who${seat.is_you ? " you" : ""}` }, t("{seat}: {player}", { seat: t(seat.label),
      player: (seat.player && accountName(seat.player, seat.bot_account)) || (seat.bot ? t("{bot} bot", { bot: t(seat.bot_label || seat.bot) }) : seat.invited ? t("{name} (invited)", { name: seat.invited }) : t("open")) }))]);
}

function since(iso) {
  const minutes = Math.round((Date.now() - Date.parse(iso)) / 60000);
  if (minutes < 1) return t("just now");
  if (minutes < 60) return tn("{n} minute", "{n} minutes", minutes);
  const hours = Math.round(minutes / 60);
  return hours < 48 ? tn("{n} hour", "{n} hours", hours) : tn("{n} day", "{n} days", Math.round(hours / 24));
}

function resultText(game) {
  const winners = game.seats.filter((seat) => game.result.ranks[seat.seat] === 0).map((seat) => t(seat.label));
  // The game's own account of the end is written in English; other languages say who won.
  if (game.result.text && document.documentElement.lang === "en") return game.result.text;
  return winners.length === game.seats.length ? t("Draw") : t("{winners} won", { winners: winners.join(" & ") });
}

// A game's options in a word or two each, as its game's catalogue entry names them (the
// shell names no game's options itself).
let catalogue = null;
function optionName(game, name) {
  const option = catalogue?.games.find((g) => g.name === game.game)?.options.find((o) => o.name === name);
  return option ? t(option.short) : name.replaceAll("_", " ");
}

function gameRow(game, action) {
  const options = Object.entries(game.options).filter(([, on]) => on).map(([name]) => optionName(game, name)).join(", ");
  return el("li", { class: "game-row", "data-game": game.id },
    el("div", { class: "game-main" },
      el("a", { href: `/games/${game.id}`, class: "game-title" }, t("{game} · game {id}", { game: t(game.title), id: game.id })),
      el("span", { class: "game-players" }, players(game)),
      options ? el("span", { class: "muted small" }, options) : null,
      timeLimitLine(game)),
    el("div", { class: "game-side" }, action),
  );
}

async function join(game) {
  await api(`/api/games/${game.id}/join`, { method: "POST", body: {} });
  location.assign(`/games/${game.id}`);
}

async function decline(game, target) {
  try {
    await api(`/api/games/${game.id}/decline`, { method: "POST", body: {} });
    await renderGames(target);
  } catch (problem) {
    alert(problem.message);
  }
}

function section(name, title, games, action, empty) {
  return el("section", { class: "panel games", "data-section": name }, el("h2", {}, title),
    games.length ? el("ul", {}, games.map((g) => gameRow(g, action(g)))) : el("p", { class: "muted" }, empty));
}

// Readings may overlap (a change heard while the lists are read): only the newest is drawn.
let readings = 0;
async function renderGames(target) {
  const reading = ++readings;
  const [mine, playing] = await Promise.all([api("/api/games/mine"), api("/api/now-playing")]);
  if (reading !== readings) return;
  const watching = playing.games.filter((g) => g.you === null);
  target.replaceChildren(
    section("Your turn", t("Your turn"), mine.my_turn, (g) => el("a", { class: "button primary", href: `/games/${g.id}` }, t("Play · waiting {time}", { time: since(g.turn_since) })), t("Nobody is waiting for you.")),
    mine.invitations.length ? section("Invitations", t("Invitations"), mine.invitations, (g) => el("span", { class: "buttons" },
      el("button", { class: "primary", onclick: () => join(g) }, t("Join")),
      el("button", { onclick: () => decline(g, target) }, t("Decline"))), "") : "",
    section("Your other games", t("Your other games"), mine.others, (g) => el("span", { class: "muted" }, g.status === "waiting" ? t("waiting for players") : t("{seat} to move", { seat: t(g.turn) })), t("None.")),
    section("Open games", t("Open games"), mine.open, (g) => el("button", { onclick: () => join(g) }, t("Join")), t("No open games. Create one!")),
    section("Finished", t("Finished"), mine.finished, (g) => el("span", { class: "finished-actions" },
      el("span", { class: "result" }, resultText(g)),
      el("a", { href: `/games/${g.id}/replay` }, t("Replay")),
      el("a", { href: `/api/games/${g.id}/record`, download: `${g.game}-${g.id}.json` }, t("Record"))), t("No finished games yet.")),
    section("Being played now", t("Being played now"), watching, (g) => el("a", { class: "button", href: `/games/${g.id}` }, t("Watch")), t("No other games are being played.")),
  );
}

async function lobbyPage() {
  const [catalog, people] = await Promise.all([api("/api/catalog"), api("/api/people")]);
  catalogue = catalog;
  const friends = people.friends.map((friend) => friend.name);
  const invited = new URLSearchParams(location.search).get("invite");
  const games = el("div", { class: "game-lists" });
  main.replaceChildren(el("h1", { class: "sr-only" }, t("Lobby")), el("div", { class: "lobby-grid" }, games, newGameForm(catalog, friends, invited)));
  // Listening before the first reading: a game opened while the lists are read is heard.
  let pending = null;
  onLobby((message) => { // the socket notify.js keeps open for the badge
    // "lobby": one of my games changed; "open-games": someone's open game came or went.
    if (message.type !== "lobby" && message.type !== "open-games") return;
    clearTimeout(pending);
    pending = setTimeout(() => renderGames(games), 150);
  }, (open) => { if (open) renderGames(games); });
  await renderGames(games);
}

async function start() {
  try {
    await api("/api/me"); // signed in: the lobby; else the sign-in form
  } catch (problem) {
    if (problem.status === 401) return signInPage(await api("/api/catalog"));
    main.replaceChildren(el("p", { class: "error" }, problem.message));
    return;
  }
  await lobbyPage();
}

start();
