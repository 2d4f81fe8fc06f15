// The tutorial page of any game (/tutorial/<game>): the steps' texts and positions come
// from /api/tutorials/<game>; each move the learner makes is judged by the server, which
// answers with the position after it or a hint. The board is the game's own:
// /static/<game>/tutorial.js exports createTutorialBoard(act, preview); ``preview(draft)``
// asks the server to reckon a draft in the step's position (a plan's cost), for a game
// whose steps have drafts.

import { api, ApiError } from "./api.js";
import { el } from "./kit.js";
import { t } from "./i18n.js";

const game = location.pathname.split("/")[2];
const main = document.getElementById("main");

let tutorial = null;
let board = null;
let index = 0;
let solved = false;
let busy = false;

// The texts are Markdown the server rendered from the game's own files (no raw HTML).
function prose(html, attributes = {}) {
  const box = el("div", { class: "prose", ...attributes });
  box.innerHTML = html;
  return box;
}

function progress() {
  return el("ol", { class: "tutorial-steps", "aria-label": t("Steps") },
    tutorial.steps.map((step, i) => el("li", {
      class: i < index || (i === index && solved) ? "done" : "",
      "aria-current": i === index ? "step" : null,
    }, step.title)));
}

function message(kind, html) {
  const box = document.getElementById("tutorial-message");
  box.className = `tutorial-message ${kind}`;
  box.replaceChildren(prose(html));
  box.scrollIntoView({ block: "nearest" }); // on a phone the text is below the board
}

async function act(move) {
  if (busy || solved) return;
  busy = true;
  try {
    const answer = await api(`/api/tutorials/${game}/steps/${index}?lang=${tutorial.language}`, { method: "POST", body: { move } });
    if (answer.accepted) {
      solved = true;
      render(answer.view);
      message("done", answer.message);
      document.getElementById("tutorial-next").focus();
    } else {
      message("hint", answer.message); // the position is unchanged, the focus stays where it was
    }
  } catch (problem) {
    const text = problem instanceof ApiError ? problem.message : t("Something went wrong: {problem}", { problem: problem.message });
    document.getElementById("tutorial-message").replaceChildren(el("p", { class: "error" }, text));
  } finally {
    busy = false;
  }
}

function preview(draft) {
  return api(`/api/tutorials/${game}/steps/${index}/preview`, { method: "POST", body: { draft } });
}

function next() {
  index += 1;
  solved = false;
  if (index >= tutorial.steps.length) finish();
  else render(tutorial.steps[index].view);
}

function render(view) {
  const step = tutorial.steps[index];
  history.replaceState(null, "", `#step-${index + 1}`); // a reload (a new language) comes back here
  const last = index === tutorial.steps.length - 1;
  const boardBox = el("section", { class: "tutorial-board", "aria-label": t("Board") });
  main.replaceChildren(
    el("h1", {}, tutorial.title),
    progress(),
    el("div", { class: "tutorial-grid" },
      boardBox,
      el("section", { class: "panel tutorial-text", "aria-labelledby": "step-title" },
        el("p", { class: "muted small" }, t("Step {n} of {total}", { n: index + 1, total: tutorial.steps.length })),
        el("h2", { id: "step-title" }, step.title),
        prose(step.task),
        el("div", { id: "tutorial-message", class: "tutorial-message", role: "status", "aria-live": "polite" }),
        solved ? el("button", { class: "primary", id: "tutorial-next", onclick: next }, last ? t("Finish") : t("Next step")) : null)),
  );
  board.mount(boardBox);
  board.show(view, !solved);
}

function finish() {
  main.replaceChildren(
    el("h1", {}, tutorial.title),
    progress(),
    el("section", { class: "panel tutorial-summary" },
      el("h2", {}, t("Tutorial complete")),
      prose(tutorial.summary),
      el("p", { class: "buttons" },
        el("a", { class: "button primary", href: "/" }, t("Play against a bot")),
        el("a", { class: "button", href: `/rules/${game}` }, t("Read the rules")),
        el("button", { onclick: () => { index = 0; solved = false; render(tutorial.steps[0].view); } }, t("Start again")))),
  );
  history.replaceState(null, "", location.pathname);
}

async function start() {
  try {
    tutorial = await api(`/api/tutorials/${game}?lang=${document.documentElement.lang}`);
    const module = await import(`/static/${game}/tutorial.js`);
    board = module.createTutorialBoard(act, preview);
  } catch (problem) {
    const text = problem instanceof ApiError ? problem.message : t("Something went wrong: {problem}", { problem: problem.message });
    main.replaceChildren(el("p", { class: "error" }, text), el("a", { href: "/" }, t("Back to the lobby")));
    return;
  }
  document.title = `${tutorial.title} — roses`;
  const resumed = Number(/^#step-(\d+)$/.exec(location.hash)?.[1]);
  if (resumed >= 1 && resumed <= tutorial.steps.length) {
    index = resumed - 1;
    render(tutorial.steps[index].view);
    return;
  }
  main.replaceChildren(
    el("h1", {}, tutorial.title),
    prose(tutorial.intro, { class: "prose tutorial-intro" }),
    el("button", { class: "primary", onclick: () => render(tutorial.steps[0].view) }, t("Start the tutorial")),
  );
}

start();
