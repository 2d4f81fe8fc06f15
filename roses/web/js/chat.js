// Talk at a game's table, for any game: the messages (GET /api/games/{id}/chat), a line to
// write (players only; the server says when talk is not allowed, e.g. WotR planning,
// WR-20), a mute per author, and live messages from the game's socket ({type: "chat"}).
// A game's page puts `chat.element` in its side column; it keeps its state across renders.

import { api, ApiError } from "./api.js";
import { el } from "./kit.js";
import { t } from "./i18n.js";

const MESSAGE_CHARS = 500; // the server's limit

export function createChat(gameId, me) {
  const list = el("ol", { class: "chat-list", id: "chat-list", "aria-live": "polite" });
  const error = el("p", { class: "error small", role: "alert", hidden: true });
  const input = el("input", { name: "chat", maxlength: MESSAGE_CHARS, placeholder: t("Say something to the table"), "aria-label": t("Chat message"), autocomplete: "off" });
  const form = el("form", { class: "chat-form", onsubmit: (event) => { event.preventDefault(); send(); } },
    input, el("button", { type: "submit" }, t("Send")));
  const element = el("details", { class: "panel chat-panel", id: "chat", open: true },
    el("summary", {}, t("Table talk")), list, error, form);
  const seen = new Set();

  function showError(problem) {
    error.textContent = problem instanceof ApiError ? problem.message : t("Something went wrong: {problem}", { problem: problem.message });
    error.hidden = false;
  }

  function line(message) {
    const mute = message.player === me ? null : el("button", { class: "link small mute", title: t("Stop seeing what {name} writes", { name: message.player }),
      onclick: () => mutePlayer(message.player) }, t("mute"));
    return el("li", { "data-player": message.player },
      el("strong", {}, message.player), " ", el("span", { class: "chat-text" }, message.text), " ", mute);
  }

  function add(message) {
    if (seen.has(message.id)) return; // the socket and the answer to my own message
    seen.add(message.id);
    list.append(line(message));
    list.scrollTop = list.scrollHeight;
  }

  async function load() {
    try {
      const chat = await api(`/api/games/${gameId}/chat`);
      seen.clear();
      list.replaceChildren();
      chat.messages.forEach(add);
      form.hidden = !chat.may_write;
      if (chat.may_write) error.hidden = true; // e.g. the WR-20 refusal is over
    } catch (problem) {
      showError(problem);
    }
  }

  async function send() {
    const text = input.value.trim();
    if (!text) return;
    error.hidden = true;
    try {
      add(await api(`/api/games/${gameId}/chat`, { method: "POST", body: { text } }));
      input.value = "";
    } catch (problem) {
      showError(problem);
      if (problem.status === 409) form.hidden = true; // not now (e.g. WR-20): see refresh
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
  // refresh: read again whether I may write (the game changed); silenced: I may not now.
  return { element, receive: add, refresh: load, silenced: () => form.hidden };
}
