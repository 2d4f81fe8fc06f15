// Games waiting for me, on every page: a badge in the header and a count in front of the
// page title ("(2) Lobby — roses"), kept live by my lobby socket (a message whenever one of
// my games changes; no polling). When a game becomes my turn and I am not looking at it: a
// browser notification and a sound, each if my settings (the /settings page) ask for it.
// Warnings that a game's time runs short arrive on the same socket and show in the page,
// and so do private messages from friends (a note linking to the people page).

import { api, liveSocket } from "./api.js";
import { el } from "./kit.js";
import { t, tn } from "./i18n.js";
import { pageLocale } from "./dates.js";

const slot = document.getElementById("notify");
const listeners = new Set();
let started = false;
let waiting = null; // the ids of the games waiting for me; null until first read
let count = 0;
let settings = { browser: false, sound: false };

// Pages set their own titles (a game's name, say): the count goes in front of whatever they set.
function titleWithCount() {
  const bare = document.title.replace(/^\(\d+\) /, "");
  const wanted = count ? `(${count}) ${bare}` : bare;
  if (document.title !== wanted) document.title = wanted;
}

function drawBadge() {
  if (!slot) return;
  const label = tn("{n} game is waiting for you", "{n} games are waiting for you", count);
  slot.replaceChildren(
    el("a", { class: "badge", href: "/", hidden: count === 0, title: label, "aria-label": label, "data-count": count }, String(count)),
  );
}

// Two short notes, made by WebAudio: no sound file to fetch.
let audio = null;
export function chime() {
  audio = audio || new AudioContext();
  const start = audio.currentTime + 0.02;
  [660, 880].forEach((frequency, i) => {
    const at = start + i * 0.16;
    const tone = audio.createOscillator();
    const volume = audio.createGain();
    tone.type = "sine";
    tone.frequency.value = frequency;
    volume.gain.setValueAtTime(0.0001, at);
    volume.gain.exponentialRampToValueAtTime(0.25, at + 0.02);
    volume.gain.exponentialRampToValueAtTime(0.0001, at + 0.4);
    tone.connect(volume).connect(audio.destination);
    tone.start(at);
    tone.stop(at + 0.45);
  });
}

function lookingAt(gameId) {
  return location.pathname === `/games/${gameId}` && document.visibilityState === "visible";
}

function yourTurn(game) {
  if (lookingAt(game.id)) return;
  if (settings.browser && "Notification" in window && Notification.permission === "granted") {
    const note = new Notification(t("Your move: {title}", { title: game.title }), {
      body: t("Game {number} is waiting for you.", { number: game.id }),
      tag: `roses-game-${game.id}`,
      icon: "/static/rose.svg",
    });
    note.onclick = () => {
      window.focus();
      location.assign(`/games/${game.id}`);
    };
  }
  if (settings.sound) chime();
}

// The badge counts my turns and the invitations I have not answered; a turn that is new
// since the last reading is announced.
function update(games, invitations) {
  const before = waiting;
  waiting = new Set(games.map((game) => game.id));
  count = games.length + invitations.length;
  drawBadge();
  titleWithCount();
  if (before) games.filter((game) => !before.has(game.id)).forEach(yourTurn);
}

// One reading at a time; a change during a reading is read again after it.
let reading = null;
let readAgain = false;
async function refresh() {
  if (reading) {
    readAgain = true;
    return;
  }
  reading = (async () => {
    do {
      readAgain = false;
      const answer = await api("/api/notifications/waiting");
      update(answer.games, answer.invitations || []);
    } while (readAgain);
  })();
  try {
    await reading;
  } catch {
    // signed out, or the server is restarting: the socket's reconnection reads again
  } finally {
    reading = null;
  }
}

// A game's time runs short (the 80% warning): said in the page until dismissed.
function deadlineWarning(message) {
  if (lookingAt(message.game_id)) return;
  const box = el("div", { class: "deadline-warning", role: "alert" },
    el("a", { href: `/games/${message.game_id}` },
      t("Your time in game {number} is running out: move before {deadline}.", {
        number: message.game_id, deadline: new Date(message.deadline).toLocaleString(pageLocale()),
      })),
    el("button", { class: "link", onclick: () => box.remove() }, t("Dismiss")));
  document.body.prepend(box);
}

// A friend's message, said in any page but the people page (which shows it itself).
let me = null;
function messageNote(message) {
  if (location.pathname === "/people" || message.message.from === me) return;
  document.querySelector(".message-note")?.remove();
  const from = message.message.from;
  const box = el("div", { class: "message-note panel", role: "status" },
    el("a", { href: `/people?with=${encodeURIComponent(from)}` }, t("A message from {name}: {text}", { name: from, text: message.message.text })),
    " ", el("button", { class: "link", onclick: () => box.remove() }, t("Dismiss")));
  document.body.append(box);
}

let timer = null;
function hear(message) {
  listeners.forEach((listener) => listener.message(message));
  if (message.type === "lobby") {
    clearTimeout(timer);
    timer = setTimeout(refresh, 100); // several changes at once: one reading
  } else if (message.type === "deadline") {
    deadlineWarning(message);
  } else if (message.type === "hello") {
    me = message.user;
  } else if (message.type === "message") {
    messageNote(message);
  }
}

// Starts once, for a signed-in person: the badge, the title and the socket.
export async function startNotifications() {
  if (started) return;
  started = true;
  try {
    settings = await api("/api/settings/notifications");
  } catch {
    started = false; // signed out: nothing waits for anyone
    return;
  }
  new MutationObserver(titleWithCount).observe(document.querySelector("title"), { childList: true, characterData: true, subtree: true });
  liveSocket("/api/lobby/ws", hear, (open) => {
    if (open) refresh();
    listeners.forEach((listener) => listener.status(open));
  });
}

// The lobby listens to the same socket rather than opening a second one.
export function onLobby(message, status = () => {}) {
  listeners.add({ message, status });
  startNotifications();
}

// The settings page changed them: they apply at once.
export function useSettings(changed) {
  settings = changed;
}

startNotifications();
