// My people: friends (we follow each other) and their presence, whom I follow and who
// follows me, private messages between friends, my block list and my mutes at the table.
// The lists are read again whenever my lobby socket (kept by notify.js) hears of a change:
// a message, a follow, a friend arriving or leaving.

import { api, ApiError } from "./api.js";
import { el, replaceKeepingFocus, toSignIn } from "./kit.js";
import { t, tn } from "./i18n.js";
import { onLobby } from "./notify.js";
import { pageLocale } from "./dates.js";

const main = document.getElementById("main");
const name = (n) => encodeURIComponent(n);

const STATUS_WORDS = {
  online: () => t("online"),
  playing: () => t("playing"),
  away: () => t("away"),
  offline: () => t("offline"),
};

let me = null;
let talkingTo = null; // the friend whose conversation is open
const error = el("p", { class: "error", role: "alert", hidden: true });
const lists = el("div", { class: "people-lists" });
const conversation = el("section", { class: "panel conversation", id: "conversation", "aria-live": "polite" });

function problemText(problem) {
  return problem instanceof ApiError ? problem.message : t("Something went wrong: {problem}", { problem: problem.message });
}

// Every change goes through here: a refusal says why in the page and changes nothing.
async function change(path, method) {
  error.hidden = true;
  try {
    await api(path, { method });
    await refresh();
  } catch (problem) {
    error.textContent = problemText(problem);
    error.hidden = false;
  }
}

const follow = (who) => change(`/api/people/follows/${name(who)}`, "PUT");
const unfollow = (who) => change(`/api/people/follows/${name(who)}`, "DELETE");
const block = (who) => {
  if (talkingTo === who) talkingTo = null;
  return change(`/api/people/blocks/${name(who)}`, "PUT");
};
const unblock = (who) => change(`/api/people/blocks/${name(who)}`, "DELETE");
const unmute = (who) => change(`/api/chat/mutes/${name(who)}`, "DELETE");

function playerLink(who) {
  return el("a", { class: "person-name", href: `/players/${name(who)}` }, who);
}

function button(label, onclick, attributes = {}) {
  return el("button", { type: "button", onclick, ...attributes }, label);
}

function presence(friend) {
  const word = el("span", { class: `presence ${friend.status}` }, STATUS_WORDS[friend.status]());
  const games = friend.games.map((game) => el("a", { href: `/games/${game.id}` },
    t("{title}, game {number}", { title: game.title, number: game.id })));
  return el("span", { class: "presence-line" }, word, ...games);
}

function friendRow(friend) {
  const unread = friend.unread
    ? el("span", { class: "unread", title: tn("{n} unread message", "{n} unread messages", friend.unread) }, String(friend.unread))
    : null;
  return el("li", { class: "person", "data-name": friend.name },
    el("span", { class: "person-head" }, playerLink(friend.name), presence(friend), unread),
    el("span", { class: "buttons" },
      button(t("Message"), () => openConversation(friend.name), { class: "primary", "data-key": `message-${friend.name}` }),
      el("a", { class: "button", href: `/?invite=${name(friend.name)}` }, t("Invite to a game")),
      button(t("Unfollow"), () => unfollow(friend.name), { "data-key": `unfollow-${friend.name}` }),
      button(t("Block"), () => block(friend.name), { "data-key": `block-${friend.name}` })));
}

function personRow(who, ...actions) {
  return el("li", { class: "person", "data-name": who },
    el("span", { class: "person-head" }, playerLink(who)), el("span", { class: "buttons" }, ...actions));
}

function list(title, id, items, empty) {
  return el("section", { class: "panel", id },
    el("h2", {}, title),
    items.length ? el("ul", { class: "people-list" }, items) : el("p", { class: "muted" }, empty));
}

// A name typed in: follow or block someone not in any list yet. Each form is made once and
// moved into every redraw, so a name half typed survives a refresh heard from the socket.
function nameForm(id, label, action, submit) {
  const input = el("input", { name: id, required: true, minlength: 2, maxlength: 24, "aria-label": label, placeholder: t("player's name") });
  return el("form", { class: "chat-form", novalidate: true, onsubmit: async (event) => {
    event.preventDefault();
    const who = input.value.trim();
    if (!who) return;
    await action(who);
    if (error.hidden) input.value = "";
  } }, input, el("button", { type: "submit" }, submit));
}

const followForm = nameForm("follow-name", t("Name of the player to follow"), follow, t("Follow"));
const blockForm = nameForm("block-name", t("Name of the player to block"), block, t("Block"));

function draw(people) {
  const friendNames = new Set(people.friends.map((f) => f.name));
  replaceKeepingFocus(lists,
    list(t("Friends"), "friends", people.friends.map(friendRow),
      t("No friends yet. Follow a player: once they follow you back, you are friends.")),
    el("section", { class: "panel", id: "follow" }, el("h2", {}, t("Follow a player")),
      followForm),
    list(t("You follow"), "following", people.following.filter((p) => !friendNames.has(p.name)).map((p) =>
      personRow(p.name, button(t("Unfollow"), () => unfollow(p.name), { "data-key": `unfollow-${p.name}` }),
        button(t("Block"), () => block(p.name), { "data-key": `block-${p.name}` }))),
    t("Nobody who has not followed you back.")),
    list(t("Follow you"), "followers", people.followers.filter((p) => !friendNames.has(p.name)).map((p) =>
      personRow(p.name, button(t("Follow back"), () => follow(p.name), { class: "primary", "data-key": `follow-${p.name}` }),
        button(t("Block"), () => block(p.name), { "data-key": `block-${p.name}` }))),
    t("Nobody you do not follow back.")),
    el("section", { class: "panel", id: "blocked" }, el("h2", {}, t("Blocked")),
      el("p", { class: "muted small" }, t("You and a player you block do not see each other's open games or table talk, cannot invite each other, join each other's games or write to each other. They are not told.")),
      people.blocked.length ? el("ul", { class: "people-list" }, people.blocked.map((who) =>
        personRow(who, button(t("Unblock"), () => unblock(who), { "data-key": `unblock-${who}` })))) : el("p", { class: "muted" }, t("Nobody.")),
      blockForm),
    list(t("Muted at the table"), "muted", people.muted.map((who) =>
      personRow(who, button(t("Unmute"), () => unmute(who), { "data-key": `unmute-${who}` }))),
    t("Nobody.")));
  if (talkingTo && !friendNames.has(talkingTo)) talkingTo = null;
}

function messageItem(message) {
  const at = new Date(message.at).toLocaleTimeString(pageLocale(), { hour: "2-digit", minute: "2-digit" });
  return el("li", { class: message.from === me.name ? "mine" : "theirs" },
    el("strong", {}, message.from), " ", el("span", { class: "muted small" }, at), " ", el("span", { class: "chat-text" }, message.text));
}

async function drawConversation() {
  if (!talkingTo) {
    conversation.replaceChildren(el("h2", {}, t("Messages")),
      el("p", { class: "muted" }, t("Choose a friend's “Message” to write to them.")));
    return;
  }
  const who = talkingTo;
  const talk = await api(`/api/people/messages/${name(who)}`);
  if (who !== talkingTo) return;
  const problem = el("p", { class: "error", role: "alert", hidden: true });
  const text = el("input", { name: "message", maxlength: 500, autocomplete: "off", "aria-label": t("Message to {name}", { name: who }), disabled: !talk.may_write });
  const messages = el("ul", { class: "chat-list" }, talk.messages.map(messageItem));
  replaceKeepingFocus(conversation, ...[
    el("h2", {}, t("Messages with {name}", { name: who })),
    talk.messages.length ? messages : el("p", { class: "muted" }, t("No messages yet.")),
    talk.why_not ? el("p", { class: "muted why-not" }, talk.why_not) : null,
    el("form", { class: "chat-form", novalidate: true, onsubmit: async (event) => {
      event.preventDefault();
      problem.hidden = true;
      try {
        await api(`/api/people/messages/${name(who)}`, { method: "POST", body: { text: text.value } });
        text.value = "";
        await drawConversation();
        conversation.querySelector("input[name=message]")?.focus();
      } catch (refusal) {
        problem.textContent = problemText(refusal);
        problem.hidden = false;
      }
    } }, text, el("button", { type: "submit", class: "primary", disabled: !talk.may_write }, t("Send"))),
    problem].filter(Boolean));
  messages.scrollTop = messages.scrollHeight;
}

function openConversation(who) {
  talkingTo = who;
  drawConversation().then(() => {
    // On a phone the conversation is below the lists: bring it into sight.
    conversation.scrollIntoView({ block: "nearest" });
    conversation.querySelector("input[name=message]")?.focus();
    refresh(); // its messages are read now
  });
}

let readings = 0;
async function refresh() {
  const reading = ++readings;
  const people = await api("/api/people");
  if (reading === readings) draw(people);
}

async function start() {
  try {
    me = await api("/api/me");
  } catch (problem) {
    if (problem.status === 401) toSignIn();
    else main.replaceChildren(el("p", { class: "error" }, problemText(problem)));
    return;
  }
  main.replaceChildren(el("div", { class: "people-page" }, el("h1", {}, t("People")), error,
    el("div", { class: "people-grid" }, lists, conversation)));
  const wanted = new URLSearchParams(location.search).get("with");
  if (wanted) talkingTo = wanted;
  let pending = null;
  onLobby((message) => {
    if (message.type === "message" && talkingTo && [message.message.from, message.message.to].includes(talkingTo)) {
      drawConversation();
    }
    if (!["people", "presence", "message"].includes(message.type)) return;
    clearTimeout(pending);
    pending = setTimeout(refresh, 100);
  }, (open) => { if (open) refresh(); });
  await Promise.all([refresh(), drawConversation()]);
}

start();
