// The lobby: sign in, create a game, "My games" (my turn first), open games to join.

import { api, ApiError, el, liveSocket } from "./api.js";

const main = document.getElementById("main");
const account = document.getElementById("account");
const SEAT_LABELS = { 2: ["Red", "White"], 4: ["Red 1", "White 1", "Red 2", "White 2"] };

function showError(target, error) {
  target.textContent = error instanceof ApiError ? error.message : `Something went wrong: ${error.message}`;
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

function afterSignIn() {
  const next = sameOriginPath(new URLSearchParams(location.search).get("next"));
  if (next) location.assign(next);
  else start();
}

function signInPage() {
  account.replaceChildren();
  const error = el("p", { class: "error", role: "alert", hidden: true });
  const name = el("input", { name: "name", autocomplete: "username", required: true, minlength: 2, maxlength: 24 });
  const password = el("input", { name: "password", type: "password", autocomplete: "current-password", required: true });
  const send = async (path) => {
    error.hidden = true;
    try {
      await api(path, { method: "POST", body: { name: name.value.trim(), password: password.value } });
      afterSignIn();
    } catch (problem) {
      showError(error, problem);
    }
  };
  const form = el("form", { class: "panel signin", onsubmit: (event) => { event.preventDefault(); send("/api/accounts/login"); } },
    el("h1", {}, "Play The Rose King"),
    el("p", { class: "muted" }, "Two players (or two teams of two) fight for England with power cards, heroes and the crown. Play with friends at your own pace, live, or against the computer."),
    el("label", {}, "Name", name),
    el("label", {}, "Password", password),
    error,
    el("div", { class: "buttons" },
      el("button", { type: "submit", class: "primary" }, "Sign in"),
      el("button", { type: "button", onclick: () => send("/api/accounts/register") }, "Create account"),
    ),
    el("p", { class: "guest" }, "Or ",
      el("button", { type: "button", class: "link", onclick: async () => {
        try { await api("/api/accounts/guest", { method: "POST" }); afterSignIn(); } catch (problem) { showError(error, problem); }
      } }, "play as a guest"), " — no account needed."),
  );
  main.replaceChildren(form);
  name.focus();
}

function seatRow(index, players, bots, strengths) {
  const label = SEAT_LABELS[players][index];
  const kind = el("select", { name: `seat-${index}`, "aria-label": `${label} seat` },
    el("option", { value: "me" }, "Me"),
    el("option", { value: "open" }, "Open to anyone"),
    el("option", { value: "invite" }, "Invite a player…"),
    el("option", { value: "bot" }, "Computer"),
  );
  kind.value = index === 0 ? "me" : "open";
  const invite = el("input", { name: `invite-${index}`, placeholder: "player's name", hidden: true, "aria-label": `${label} invited player` });
  const bot = el("select", { name: `bot-${index}`, hidden: true, "aria-label": `${label} bot` }, bots.map((b) => el("option", { value: b }, b)));
  const strength = el("select", { name: `strength-${index}`, hidden: true, "aria-label": `${label} strength` },
    strengths.map((s) => el("option", { value: s }, s)));
  strength.value = strengths[Math.floor(strengths.length / 2)];
  const sync = () => {
    invite.hidden = kind.value !== "invite";
    bot.hidden = strength.hidden = kind.value !== "bot";
  };
  kind.addEventListener("change", sync);
  const team = index % 2 === 0 ? "red" : "white";
  const row = el("div", { class: "seat-row" }, el("span", { class: `seat-name ${team}` }, label), kind, invite, bot, strength);
  row.choice = () => {
    const choice = { kind: kind.value };
    if (kind.value === "invite") choice.name = invite.value.trim();
    if (kind.value === "bot") Object.assign(choice, { bot: bot.value, strength: strength.value });
    return choice;
  };
  return row;
}

function newGameForm(bots) {
  const error = el("p", { class: "error", role: "alert", hidden: true });
  const seats = el("div", { class: "seats" });
  let players = 2;
  let rows = [];
  const randomStart = el("input", { type: "checkbox", name: "random_start" });
  const randomLabel = el("label", { class: "check" }, randomStart, "Random start player (RK-7)");
  const fillSeats = () => {
    rows = SEAT_LABELS[players].map((_, i) => seatRow(i, players, bots.bots, bots.strengths));
    seats.replaceChildren(...rows);
    randomLabel.hidden = players === 4;
  };
  const playerChoice = (count, text) => el("label", { class: "check" },
    el("input", { type: "radio", name: "players", value: count, checked: count === 2, onchange: () => { players = count; fillSeats(); } }), text);
  const light = el("input", { type: "checkbox", name: "light" });
  const showPile = el("input", { type: "checkbox", name: "show_draw_pile" });
  fillSeats();
  return el("form", { class: "panel new-game", onsubmit: async (event) => {
    event.preventDefault();
    error.hidden = true;
    const body = {
      players, light: light.checked, show_draw_pile: showPile.checked,
      random_start: players === 2 && randomStart.checked, seats: rows.map((row) => row.choice()),
    };
    try {
      const game = await api("/api/games", { method: "POST", body });
      location.assign(`/games/${game.id}`);
    } catch (problem) {
      showError(error, problem);
    }
  } },
    el("h2", {}, "New game"),
    el("div", { class: "choices" }, playerChoice(2, "2 players"), playerChoice(4, "4 players, teams (RK-16)")),
    seats,
    el("div", { class: "options" },
      randomLabel,
      el("label", { class: "check" }, light, "Light: undo a play until “End turn” (RK-19)"),
      el("label", { class: "check" }, showPile, "Show the draw pile's cards (RK-20)"),
    ),
    error,
    el("button", { type: "submit", class: "primary" }, "Create game"),
  );
}

// "Red & partner vs White & partner": partners sit opposite (RK-16).
function players(game) {
  const who = (seat) => el("span", { class: `who ${seat.team}${seat.is_you ? " you" : ""}` },
    seat.player || (seat.bot ? `${seat.bot} bot` : seat.invited ? `${seat.invited} (invited)` : "open"));
  const team = (name) => game.seats.filter((seat) => seat.team === name).map(who)
    .flatMap((part, i) => (i ? [el("span", { class: "vs" }, " & "), part] : [part]));
  return [...team("red"), el("span", { class: "vs" }, " vs "), ...team("white")];
}

function since(iso) {
  const minutes = Math.round((Date.now() - Date.parse(iso)) / 60000);
  if (minutes < 1) return "just now";
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.round(minutes / 60);
  return hours < 48 ? `${hours} h` : `${Math.round(hours / 24)} days`;
}

function resultText(game) {
  const result = game.result;
  const winner = result.winner === "draw" ? "Draw" : `${result.winner === "red" ? "Red" : "White"} won`;
  return `${winner} · Red ${result.red} · White ${result.white}`;
}

function gameRow(game, action) {
  const options = [game.players === 4 ? "teams" : null, game.variant === "random-start" ? "random start" : null,
    game.light ? "light" : null, game.show_draw_pile ? "open pile" : null].filter(Boolean).join(", ");
  return el("li", { class: "game-row", "data-game": game.id },
    el("div", { class: "game-main" },
      el("a", { href: `/games/${game.id}`, class: "game-title" }, `Game ${game.id}`),
      el("span", { class: "game-players" }, players(game)),
      options ? el("span", { class: "muted small" }, options) : null),
    el("div", { class: "game-side" }, action),
  );
}

async function join(game) {
  await api(`/api/games/${game.id}/join`, { method: "POST", body: {} });
  location.assign(`/games/${game.id}`);
}

function section(title, games, action, empty) {
  return el("section", { class: "panel games" }, el("h2", {}, title),
    games.length ? el("ul", {}, games.map((g) => gameRow(g, action(g)))) : el("p", { class: "muted" }, empty));
}

async function renderGames(target) {
  const mine = await api("/api/games/mine");
  target.replaceChildren(
    section("Your turn", mine.my_turn, (g) => el("a", { class: "button primary", href: `/games/${g.id}` }, `Play · waiting ${since(g.turn_since)}`), "Nobody is waiting for you."),
    mine.invitations.length ? section("Invitations", mine.invitations, (g) => el("button", { class: "primary", onclick: () => join(g) }, "Join"), "") : "",
    section("Your other games", mine.others, (g) => el("span", { class: "muted" }, g.status === "waiting" ? "waiting for players" : `${g.turn} to move`), "None."),
    section("Open games", mine.open, (g) => el("button", { onclick: () => join(g) }, "Join"), "No open games. Create one!"),
    section("Finished", mine.finished, (g) => el("span", { class: "finished-actions" },
      el("span", { class: "result" }, resultText(g)),
      el("a", { href: `/games/${g.id}/replay` }, "Replay"),
      el("a", { href: `/api/games/${g.id}/record`, download: `rose-king-${g.id}.json` }, "Record")), "No finished games yet."),
  );
}

async function lobbyPage(me) {
  account.replaceChildren(
    el("span", { class: "me" }, me.guest ? `${me.name} (guest)` : me.name),
    el("button", { class: "link", onclick: async () => { await api("/api/accounts/logout", { method: "POST" }); location.assign("/"); } }, "Sign out"),
  );
  const bots = await api("/api/bots");
  const games = el("div", { class: "game-lists" });
  main.replaceChildren(el("div", { class: "lobby-grid" }, games, newGameForm(bots)));
  await renderGames(games);
  let pending = null;
  liveSocket("/api/lobby/ws", (message) => {
    if (message.type !== "lobby") return;
    clearTimeout(pending);
    pending = setTimeout(() => renderGames(games), 150);
  }, (open) => { if (open) renderGames(games); });
}

async function start() {
  let me;
  try {
    me = await api("/api/me");
  } catch (problem) {
    if (problem.status === 401) return signInPage();
    main.replaceChildren(el("p", { class: "error" }, `The server cannot be reached: ${problem.message}`));
    return;
  }
  await lobbyPage(me);
}

start();
