// The play page of any game: signs in, keeps the view current (HTTP, then the game's
// WebSocket in version order), shows a game waiting for players, and hands an active or
// finished game to that game's own UI: /static/<game>/play.js exports createGameUi.

import { api, ApiError, liveSocket } from "./api.js";
import { el, toSignIn } from "./kit.js";
import { createChat } from "./chat.js";
import { createRematch } from "./rematch.js";
import { createClock, termsText } from "./clock.js";
import { t } from "./i18n.js";
import { accountName } from "./bot_mark.js";

const gameId = Number(location.pathname.split("/")[2]);
const main = document.getElementById("main");

let view = null;
let loading = null;
let message = "";
let myName = null;
let chat = null; // the table talk and the rematch offer, kept across views
let rematch = null;
let clock = null; // the time limit, above the game (clock.js)
const terms = el("p", { class: "game-terms muted small", id: "game-terms" }); // rated or casual, and the time limit
// While a bot decides (a search may take seconds): said, so that nobody waits in silence.
const thinking = el("p", { class: "bot-thinking", id: "bot-thinking", role: "status", hidden: true });

// How far down the page a game starts (the header, its terms, a live clock): a game's
// stylesheet sizes its board or map with it (--above), so that what is above the game
// makes the board smaller rather than push the player's hand and buttons below the window.
function measureAbove() {
  const top = main.getBoundingClientRect().top + window.scrollY;
  document.documentElement.style.setProperty("--above", `${Math.max(0, Math.round(top))}px`);
}
new ResizeObserver(measureAbove).observe(document.body);

function showThinking() {
  const bots = view.status === "active" ? view.to_act.map((seat) => view.seats[seat]).filter((seat) => seat.bot) : [];
  thinking.hidden = bots.length === 0;
  thinking.textContent = bots.length
    ? t("{bot} is thinking…", { bot: bots.map((seat) => t("{seat} ({bot} bot)", { seat: t(seat.label), bot: t(seat.bot_label || seat.bot) })).join(", ") })
    : "";
}
let live = null; // the game's socket: moves go there while it is open
let nextMoveId = 1;
const unanswered = new Map(); // a move sent on the socket, by its id: { resolve, reject }

// A move goes on the game's socket when it is open (no request per move), else as a POST.
// The socket answers after the view of the new version, so the view shown is then that one.
function act(action) {
  const id = nextMoveId++;
  if (live && live.send({ type: "move", move: action, version: view.version, id })) {
    return new Promise((resolve, reject) => unanswered.set(id, { resolve, reject }));
  }
  return api(`/api/games/${gameId}/moves`, { method: "POST", body: { move: action, version: view.version } });
}

// The socket's answer to a move: an ack, or the refusal with the same status and sentence
// as the POST's.
function answered(reply) {
  const waiting = unanswered.get(reply.id);
  if (!waiting) return;
  unanswered.delete(reply.id);
  if (reply.type === "ack") waiting.resolve(view);
  else waiting.reject(new ApiError(reply.status, reply.detail));
}

// The socket closed before answering: the move may or may not have been taken; the view
// sent on reconnection tells.
function unansweredLost() {
  for (const waiting of unanswered.values()) waiting.reject(new ApiError(0, t("The connection was lost; reconnecting…")));
  unanswered.clear();
}

async function lobbyAction(action) {
  message = "";
  try {
    show(await api(`/api/games/${gameId}/${action}`, { method: "POST", body: {} }));
  } catch (problem) {
    message = problem.message;
    renderWaiting();
  }
}

function seatName(seat) {
  return (seat.player && accountName(seat.player, seat.bot_account)) || (seat.bot ? t("{bot} bot", { bot: t(seat.bot_label || seat.bot) }) : seat.invited ? t("{name} (invited)", { name: seat.invited }) : t("open seat"));
}

// A game nobody has started playing: who sits where, join or cancel.
function renderWaiting() {
  const cancelled = view.status === "cancelled";
  const free = view.seats.some((s) => !s.player && !s.bot);
  const box = el("div", { class: "panel actions", id: "actions" });
  if (!cancelled) {
    box.append(el("p", {}, t("Waiting for players to take their seats.")));
    if (view.you === null && free) box.append(el("button", { class: "primary", onclick: () => lobbyAction("join") }, t("Take a seat")));
    if (view.created_by_you) box.append(el("button", { onclick: () => lobbyAction("cancel") }, t("Cancel this game")));
    else if (view.you !== null) box.append(el("button", { onclick: () => lobbyAction("leave") }, t("Leave this game")));
    if (view.you === null && view.seats.some((s) => s.invited === myName)) {
      box.append(el("button", { onclick: () => lobbyAction("decline") }, t("Decline the invitation")));
    }
  }
  main.replaceChildren(
    el("div", { class: "banner", id: "status" }, cancelled ? t("This game was cancelled") : t("Waiting for players")),
    message ? el("p", { class: "error", role: "alert" }, message) : "",
    el("div", { class: "waiting" },
      el("section", { class: "panel" }, el("h1", {}, t("{game} · game {id}", { game: t(view.title), id: gameId })),
        el("ul", { class: "seat-list" }, view.seats.map((seat) => el("li", {},
          el("strong", {}, t(seat.label)), " ", seat.is_you ? t("{name} (you)", { name: seatName(seat) }) : seatName(seat))))),
      box),
  );
  document.title = t("Game {id} — {game}", { id: gameId, game: t(view.title) });
}

async function gameUi() {
  if (!loading) {
    const gameApi = {
      gameId,
      act,
      saveDraft: (draft) => api(`/api/games/${gameId}/draft`, { method: "PUT", body: { draft } }),
      materials: () => api(`/api/games/${gameId}/materials`),
      reload: async () => show(await api(`/api/games/${gameId}`)),
      resign: async () => show(await api(`/api/games/${gameId}/resign`, { method: "POST", body: {} })),
      chat: chat.element,
      rematch: rematch.element,
    };
    loading = import(`/static/${view.game}/play.js`).then((module) => module.createGameUi(main, gameApi));
  }
  return loading;
}

// A player's page in sight tells the server the newest version it shows: no push or
// webhook then tells them of a turn they have seen (notify/reach.py).
let reportedSeen = -1;
function reportSeen() {
  if (!view || view.you === null || !live || document.visibilityState !== "visible") return;
  if (view.version > reportedSeen && live.send({ type: "seen", version: view.version })) reportedSeen = view.version;
}
document.addEventListener("visibilitychange", reportSeen);

// Views arrive from HTTP answers and the socket; only a newer version replaces the shown one.
async function show(next) {
  if (view && next.version < view.version) return;
  const before = view && view.status;
  view = next;
  reportSeen();
  terms.textContent = termsText(view);
  terms.dataset.rated = view.rated ? "rated" : "casual";
  showThinking();
  clock.update(view);
  // Who may talk changes with the status, and for a silenced player with the game (WR-20).
  if (before && (before !== view.status || (view.you !== null && chat.silenced()))) chat.refresh();
  if (view.status === "finished" && before !== "finished" && view.you !== null) rematch.load();
  if (view.status === "waiting" || view.status === "cancelled") {
    renderWaiting();
    return;
  }
  const current = view;
  const gameUiReady = await gameUi();
  if (current === view) gameUiReady.update(view);
}

// A player who has finished no game of this kind yet is offered its tutorial, if the
// catalogue says it has one; a failed look-up offers nothing (the rules link stays).
async function offerTutorial(game, name) {
  try {
    const [catalog, profile] = await Promise.all([api("/api/catalog"), api(`/api/players/${encodeURIComponent(name)}`)]);
    const module = catalog.games.find((entry) => entry.name === game);
    if (!module?.tutorial || profile.record.some((entry) => entry.game === game && entry.played > 0)) return;
    terms.parentElement.append(el("a", { href: `/tutorial/${game}`, class: "first-game small" },
      t("New to {game}? Try the tutorial", { game: t(module.title) })));
  } catch {
    // nothing to offer
  }
}

async function start() {
  let me;
  try {
    me = await api("/api/me");
  } catch (problem) {
    if (problem.status === 401) toSignIn();
    else main.replaceChildren(el("p", { class: "error" }, problem.message));
    return;
  }
  myName = me.name;
  chat = createChat(gameId, me.name);
  rematch = createRematch(gameId, me.name);
  clock = createClock(gameId, show);
  main.before(el("div", { class: "game-meta" }, terms, thinking), clock.element);
  try {
    await show(await api(`/api/games/${gameId}`));
    terms.after(el("a", { class: "small", href: `/rules/${view.game}` }, t("Rules")));
    offerTutorial(view.game, me.name);
  } catch (problem) {
    const text = problem instanceof ApiError ? problem.message : t("Something went wrong: {problem}", { problem: problem.message });
    main.replaceChildren(el("p", { class: "error" }, text), el("a", { href: "/" }, t("Back to the lobby")));
    return;
  }
  live = liveSocket(`/api/games/${gameId}/ws`, (data) => {
    if (data.type === "game") show(data.game);
    else if (data.type === "ack" || data.type === "error") answered(data);
    else if (data.type === "chat") chat.receive(data.message);
    else if (data.type === "rematch") rematch.receive(data.rematch);
  }, (open) => {
    document.body.classList.toggle("offline", !open);
    if (!open) unansweredLost();
    else setTimeout(reportSeen); // once the socket is set
  }, () => view && view.version);
}

start();
