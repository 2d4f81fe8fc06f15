// The analysis page of any game that has one (/games/<id>/analysis): the game's states come
// from its replay, each decision's judgement from /api/games/<id>/analysis, which this page
// starts and polls while it runs. The game's own page draws it:
// /static/<game>/analysis.js exports createAnalysisUi(main, {game, frames, analyse,
// analysePosition}).

import { api } from "./api.js";
import { el, toSignIn } from "./kit.js";
import { t } from "./i18n.js";

const gameId = Number(location.pathname.split("/")[2]);
const main = document.getElementById("main");
const POLL_MS = 700;

let ui = null;
let timer = null;

async function read() {
  return api(`/api/games/${gameId}/analysis`);
}

function follow(analysis) {
  ui.update(analysis);
  clearTimeout(timer);
  if (analysis.running) {
    timer = setTimeout(async () => {
      try {
        follow(await read());
      } catch (problem) {
        ui.problem(problem.message);
      }
    }, POLL_MS);
  }
}

// Asks for the decisions not analysed yet (a cached analysis costs nothing).
async function analyse() {
  try {
    follow(await api(`/api/games/${gameId}/analysis`, { method: "POST" }));
  } catch (problem) {
    ui.problem(problem.message);
  }
}

async function start() {
  try {
    await api("/api/me"); // signed in, or to the sign-in page
    const [replay, analysis] = await Promise.all([api(`/api/games/${gameId}/replay`), read()]);
    const module = await import(`/static/${replay.game.game}/analysis.js`);
    document.title = t("Analysis of game {id} — {title}", { id: gameId, title: replay.game.title });
    // A position analysed at once (a set-up one, or one of the game's: "analyse from here").
    const analysePosition = (position) => api(`/api/analysis/${replay.game.game}/position`, { method: "POST", body: { position } });
    ui = module.createAnalysisUi(main, { game: replay.game, frames: replay.frames, analyse, analysePosition });
    const missing = analysis.decisions.some((decision) => decision === null);
    if (missing && !analysis.running && !analysis.problem) await analyse();
    else follow(analysis);
  } catch (problem) {
    if (problem.status === 401) toSignIn();
    else {
      main.replaceChildren(el("p", { class: "error", role: "alert" }, problem.message),
        el("p", {}, el("a", { href: `/games/${gameId}` }, t("Back to the game"))));
    }
  }
}

start();
