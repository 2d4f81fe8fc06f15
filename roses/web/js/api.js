// Talking to the server: JSON over fetch, live updates over a WebSocket that reconnects,
// and a notice while the server cannot be reached.

import { t } from "./i18n.js";
import { el } from "./kit.js";

export class ApiError extends Error {
  constructor(status, detail) {
    super(detail);
    this.status = status;
  }
}

// Whether the server can be reached, shown at the top of every page: a sentence while the
// connection is lost (requests fail, a socket closed), another for a moment once it is back.
let offline = false;
let backTimer = null;

function connectionNotice() {
  let notice = document.getElementById("connection");
  if (!notice) {
    notice = el("p", { id: "connection", class: "connection", role: "status", hidden: true });
    const header = document.querySelector("body > header");
    if (header) header.after(notice);
    else document.body.prepend(notice);
  }
  return notice;
}

// While offline, ask the server now and then whether it answers again (the sockets
// reconnect on their own; a page without one learns it here).
function probe() {
  if (!offline) return;
  fetch("/static/rose.svg", { method: "HEAD", cache: "no-store" })
    .then(connectionBack, () => setTimeout(probe, 3000));
}

// reason: the server's sentence, when it closed the socket itself (too many sockets, say).
export function connectionLost(reason = "") {
  if (!offline) setTimeout(probe, 3000);
  offline = true;
  clearTimeout(backTimer);
  document.body.classList.add("offline");
  const notice = connectionNotice();
  notice.textContent = reason || t("The connection was lost; reconnecting…");
  notice.hidden = false;
}

export function connectionBack() {
  if (!offline) return;
  offline = false;
  document.body.classList.remove("offline");
  const notice = connectionNotice();
  notice.textContent = t("Back online.");
  backTimer = setTimeout(() => { notice.hidden = true; }, 4000);
}

export async function api(path, { method = "GET", body } = {}) {
  let response;
  try {
    response = await fetch(path, {
      method,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: "same-origin",
    });
  } catch {
    // The browser's own words ("Failed to fetch", "NetworkError ...") mean nothing to people.
    connectionLost();
    throw new ApiError(0, t("The connection was lost; reconnecting…"));
  }
  connectionBack();
  if (response.status === 204) return null;
  let data;
  try {
    data = await response.json();
  } catch {
    data = {};
  }
  if (!response.ok) throw new ApiError(response.status, data.detail || t("The server could not answer ({status}).", { status: response.status }));
  return data;
}

// Calls onMessage for every message; reconnects after a drop (a server restart, a phone
// waking up). A game's socket says which version the page has (currentVersion), and the
// server sends the state on (re)connection only if it is newer. Returns { send(message) },
// which is false when the socket is not open (the caller then uses HTTP).
export function liveSocket(path, onMessage, onStatus = () => {}, currentVersion = () => null) {
  let delay = 500;
  let socket = null;
  const connect = () => {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const version = currentVersion();
    const query = version === null || version === undefined ? "" : `?version=${version}`;
    socket = new WebSocket(`${scheme}://${location.host}${path}${query}`);
    socket.onopen = () => {
      delay = 500;
      connectionBack();
      onStatus(true);
    };
    socket.onmessage = (event) => onMessage(JSON.parse(event.data));
    socket.onclose = (event) => {
      onStatus(false);
      if (event.code === 4401 || event.code === 4403 || event.code === 4404) return;
      // 4429: this account or address has too many sockets open; try again slowly.
      if (event.code === 4429) delay = 8000;
      connectionLost(event.code === 4429 ? event.reason : "");
      setTimeout(connect, delay);
      delay = Math.min(delay * 2, 8000);
    };
  };
  connect();
  return {
    send(message) {
      if (socket.readyState !== WebSocket.OPEN) return false;
      socket.send(JSON.stringify(message));
      return true;
    },
  };
}
