// Talking to the server: JSON over fetch, live updates over a WebSocket that reconnects.

export class ApiError extends Error {
  constructor(status, detail) {
    super(detail);
    this.status = status;
  }
}

export async function api(path, { method = "GET", body } = {}) {
  const response = await fetch(path, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: "same-origin",
  });
  if (response.status === 204) return null;
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = { detail: response.statusText };
  }
  if (!response.ok) throw new ApiError(response.status, data.detail || response.statusText);
  return data;
}

// Calls onMessage for every message; reconnects after a drop (a server restart, a phone
// waking up). A game's socket says which version the page has (currentVersion), and the
// server sends the state on (re)connection only if it is newer.
export function liveSocket(path, onMessage, onStatus = () => {}, currentVersion = () => null) {
  let delay = 500;
  const connect = () => {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const version = currentVersion();
    const query = version === null || version === undefined ? "" : `?version=${version}`;
    const socket = new WebSocket(`${scheme}://${location.host}${path}${query}`);
    socket.onopen = () => {
      delay = 500;
      onStatus(true);
    };
    socket.onmessage = (event) => onMessage(JSON.parse(event.data));
    socket.onclose = (event) => {
      onStatus(false);
      if (event.code === 4401 || event.code === 4403 || event.code === 4404) return;
      setTimeout(connect, delay);
      delay = Math.min(delay * 2, 8000);
    };
  };
  connect();
}

export function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key === "class") node.className = value;
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

export function scoreText(score) {
  // RK-21: score with the tie-breaks in parentheses, e.g. "69 (8, 11)".
  return `${score.score} (${score.largest}, ${score.stones})`;
}
