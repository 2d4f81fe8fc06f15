// The replay page of any game: fetches the states action by action and hands them to the
// game's own replay view (/static/<game>/replay.js exports renderReplay).

import { api } from "./api.js";
import { el, toSignIn } from "./kit.js";
import { t } from "./i18n.js";

const gameId = Number(location.pathname.split("/")[2]);
const main = document.getElementById("main");

async function start() {
  try {
    await api("/api/me"); // signed in, or to the sign-in page
    const data = await api(`/api/games/${gameId}/replay`);
    const module = await import(`/static/${data.game.game}/replay.js`);
    document.title = t("Replay of game {id} — {game}", { id: gameId, game: t(data.game.title) });
    module.renderReplay(main, data);
  } catch (problem) {
    if (problem.status === 401) toSignIn();
    else main.replaceChildren(el("p", { class: "error" }, problem.message));
  }
}

start();
