// Talk at a game's table, for any game: the messages (GET /api/games/{id}/chat), and what I
// may write now, as the server says: free text, or only courtesy phrases (buttons, sent as a
// phrase's key and shown to each reader in their language, where the game's rules forbid
// the players to discuss it), or nothing. Spectators write in their own room,
// which the players read once the game is over. A mute per author, and live messages from
// the game's socket ({type: "chat"}). A game's page puts `chat.element` in its side column;
// it keeps its state across renders.

import { api, ApiError } from "./api.js";
import { el } from "./kit.js";
import { t } from "./i18n.js";

const MESSAGE_CHARS = 500; // the server's limit

export function createChat(gameId, me) {
  const list = el("ol", { class: "chat-list", id: "chat-list", "aria-live": "polite" });
  const error = el("p", { class: "error small", role: "alert", hidden: true });
  const hint = el("p", { class: "muted small chat-hint", hidden: true });
  const input = el("input", { name: "chat", maxlength: MESSAGE_CHARS, placeholder: t("Say something to the table"), "aria-label": t("Chat message"), autocomplete: "off" });
  const form = el("form", { class: "chat-form", onsubmit: (event) => { event.preventDefault(); send({ text: input.value.trim() }); } },
    input, el("button", { type: "submit" }, t("Send")));
  const phrases = el("div", { class: "chat-phrases", role: "group", "aria-label": t("Courtesy phrases"), hidden: true });
  const element = el("details", { class: "panel chat-panel", id: "chat", open: true },
    el("summary", {}, t("Table talk")), list, error, hint, phrases, form);
  const seen = new Set();
  let talk = "free";

  function showError(problem) {
    error.textContent = problem instanceof ApiError ? problem.message : t("Something went wrong: {problem}", { problem: problem.message });
    error.hidden = false;
  }

  function line(message) {
    const mute = message.player === me ? null : el("button", { class: "link small mute", title: t("Stop seeing what {name} writes", { name: message.player }),
      onclick: () => mutePlayer(message.player) }, t("mute"));
    const spectator = message.room === "spectators";
    return el("li", { "data-player": message.player, "data-room": message.room, class: spectator ? "chat-spectator" : null },
      el("strong", {}, message.player), spectator ? el("span", { class: "muted small" }, ` (${t("spectator")})`) : null, " ",
      el("span", { class: message.phrase ? "chat-text chat-phrase" : "chat-text", "data-phrase": message.phrase || null }, message.text), " ", mute);
  }

  function add(message) {
    if (seen.has(message.id)) return; // the socket and the answer to my own message
    seen.add(message.id);
    list.append(line(message));
    list.scrollTop = list.scrollHeight;
  }

  function show(chat) {
    talk = chat.talk;
    const spectating = chat.room === "spectators";
    input.placeholder = spectating ? t("Say something to the other spectators") : t("Say something to the table");
    form.hidden = talk !== "free";
    phrases.hidden = talk !== "courtesy";
    phrases.replaceChildren(...chat.phrases.map((phrase) => el("button", { type: "button", class: "chat-phrase-button", "data-phrase": phrase.key,
      onclick: () => send({ phrase: phrase.key }) }, phrase.text)));
    const says = spectating && chat.may_write ? t("Spectators talk among themselves: the players read it once the game is over.") : chat.refusal;
    hint.textContent = says || "";
    hint.hidden = !says;
    if (chat.may_write) error.hidden = true; // e.g. the game is over: free talk again
  }

  async function load() {
    try {
      const chat = await api(`/api/games/${gameId}/chat`);
      seen.clear();
      list.replaceChildren();
      chat.messages.forEach(add);
      show(chat);
    } catch (problem) {
      showError(problem);
    }
  }

  async function send(body) {
    if (body.text === "") return;
    error.hidden = true;
    try {
      add(await api(`/api/games/${gameId}/chat`, { method: "POST", body }));
      if (body.text !== undefined) input.value = "";
    } catch (problem) {
      showError(problem);
      if (problem.status === 409) load(); // not now: read again what I may write
    }
  }

  async function mutePlayer(name) {
    try {
      await api(`/api/chat/mutes/${encodeURIComponent(name)}`, { method: "PUT" });
      await load();
    } catch (problem) {
      showError(problem);
    }
  }

  load();
  // refresh: read again what I may write (the game changed); silenced: I may not write
  // freely now, so each change of the game may change it.
  return { element, receive: add, refresh: load, silenced: () => talk !== "free" };
}
