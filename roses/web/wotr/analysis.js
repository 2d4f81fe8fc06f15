// The turn review of a finished Wars of the Roses game (/games/<id>/analysis): for each turn
// and seat, the plan made (public since its reveal, WR-10) beside the plan the search bot
// would have made from that seat's view then (WR-20), each with the VP the same search
// expected from it. The reviews come from the server (GET /api/games/<id>/analysis), one
// per revealed plan, turn by turn and seat by seat; the shell (../js/analysis.js) starts
// and polls them.

import { Board, seatWord, t, tn } from "./dom.js";
import { el, replaceKeepingFocus } from "../js/kit.js";
import { linkStylesheet } from "../js/styles.js";
import { describeOrders } from "./plan.js";
import { pageLocale } from "../js/dates.js";
import { seatName } from "./panels.js";

await Promise.all([linkStylesheet("/static/wotr/wotr.css"), linkStylesheet("/static/wotr/analysis.css")]);

// Below this many VP apart, two plans are worth about the same to a short search.
const ABOUT_THE_SAME = 0.5;

const number = new Intl.NumberFormat(pageLocale(),
  { minimumFractionDigits: 1, maximumFractionDigits: 1 });
const signed = new Intl.NumberFormat(pageLocale(),
  { minimumFractionDigits: 1, maximumFractionDigits: 1, signDisplay: "always" });

function planLines(board, orders) {
  const lines = describeOrders(board, orders);
  return lines.length ? lines : [t("Nothing: an empty plan (it costs nothing).")];
}

// One plan and what the search expected from it.
function planBlock(board, review, which) {
  const valued = review[which];
  const title = which === "made" ? t("The plan made") : t("The search's plan");
  return el("div", { class: `review-plan ${which}`, "data-plan": which },
    el("h4", {}, title),
    el("ul", { class: "plan-lines" }, planLines(board, valued.orders).map((line) => el("li", {}, line))),
    el("p", { class: "review-values" },
      el("span", {}, t("After this turn: {vp} VP ({gain})",
        { vp: number.format(valued.vp), gain: signed.format(valued.vp - review.vp_before) })),
      el("span", {}, t("By the end, the search's estimate: {vp} VP", { vp: number.format(valued.prospects) }))));
}

// In words, how the two plans compare by the search's estimate for the end of the game.
function verdict(review) {
  if (review.same) return t("The search would have made the same plan.");
  const gap = review.search.prospects - review.made.prospects;
  if (Math.abs(gap) < ABOUT_THE_SAME) return t("The search valued both plans about the same.");
  if (gap > 0) return t("The search expected {vp} VP more from its own plan.", { vp: number.format(gap) });
  return t("The search expected {vp} VP more from the plan made than from its own.", { vp: number.format(-gap) });
}

function gapOf(review) {
  return review.same ? 0 : review.search.prospects - review.made.prospects;
}

// The page: {game} from the replay (its envelope); the board from the game's materials.
export function createAnalysisUi(main, { game, analyse }) {
  const labels = game.seats.map((seat) => seat.label);
  const who = (label) => seatName(game.seats, labels, labels.indexOf(label));
  let board = null;
  let reviews = [];
  let turn = 1;

  document.title = t("Turn review of game {id} — {title}", { id: game.id, title: game.title });
  const status = el("p", { id: "analysis-status", role: "status" });
  const progress = el("progress", { max: 1, value: 0, "aria-label": t("Plans reviewed") });
  const again = el("button", { type: "button", hidden: true, onclick: () => { again.hidden = true; analyse(); } },
    t("Review the plans left"));
  const problemLine = el("p", { class: "error", role: "alert", hidden: true });
  const overview = el("div", { class: "review-overview" });
  const turns = el("div", { class: "buttons review-turns", role: "group", "aria-label": t("Turn") });
  const seats = el("div", { class: "review-seats", id: "review-turn" });

  function turnsReviewed() {
    return [...new Set(reviews.filter(Boolean).map((review) => review.turn))].sort((a, b) => a - b);
  }

  // A table of every seat and turn: how many VP the search's plan was worth beyond the
  // plan made, by its estimate for the end (0 where they are the same).
  function overviewTable() {
    const columns = turnsReviewed();
    if (!columns.length) return [];
    const rows = labels.map((label) => el("tr", {},
      el("th", { scope: "row" }, seatWord(label)),
      ...columns.map((column) => {
        const review = reviews.find((r) => r && r.turn === column && r.seat === label);
        if (!review) return el("td", { class: "muted" }, "…");
        return el("td", { class: review.same ? "same" : "" }, review.same ? "=" : signed.format(gapOf(review)));
      })));
    return [el("table", { class: "review-table" },
      el("caption", {}, t("VP the search's plan was worth beyond the plan made, by turn (= the same plan)")),
      el("thead", {}, el("tr", {}, el("th", { scope: "col" }, t("Player")),
        ...columns.map((column) => el("th", { scope: "col" }, t("Turn {turn}", { turn: column }))))),
      el("tbody", {}, rows))];
  }

  function show() {
    const available = turnsReviewed();
    if (available.length && !available.includes(turn)) turn = available[0];
    replaceKeepingFocus(turns, ...available.map((shown) => el("button", {
      type: "button", "data-key": `turn-${shown}`, "aria-pressed": String(shown === turn),
      class: shown === turn ? "primary" : "", onclick: () => { turn = shown; show(); },
    }, t("Turn {turn}", { turn: shown }))));
    overview.replaceChildren(...overviewTable());
    if (!board) return;
    const ofTurn = reviews.filter((review) => review && review.turn === turn);
    seats.replaceChildren(
      el("h2", {}, t("Turn {turn}", { turn })),
      ...ofTurn.map((review) => el("section", { class: "panel review-seat", "data-seat": review.seat },
        el("h3", {}, who(review.seat)),
        el("p", { class: "muted" }, t("{vp} VP before this turn · the search weighed {n} plans of this player",
          { vp: review.vp_before, n: review.candidates })),
        el("div", { class: "review-pair" }, planBlock(board, review, "made"), planBlock(board, review, "search")),
        el("p", { class: "review-verdict" }, el("strong", {}, verdict(review))))));
  }

  function update(analysis) {
    reviews = analysis.decisions;
    const total = reviews.length;
    const done = reviews.filter((review) => review !== null).length;
    progress.max = Math.max(1, total);
    progress.value = done;
    progress.hidden = done === total;
    if (total === 0) status.textContent = t("No plan was revealed in this game: there is nothing to review.");
    else if (done === total) {
      status.textContent = tn("All {n} plan reviewed, {seconds} s each.", "All {n} plans reviewed, {seconds} s each.",
        total, { seconds: analysis.seconds });
    } else status.textContent = t("{done} of {total} plans reviewed.", { done, total });
    again.hidden = analysis.running || done === total;
    problemLine.hidden = !analysis.problem;
    problemLine.textContent = analysis.problem || "";
    show();
  }

  function problem(text) {
    problemLine.hidden = false;
    problemLine.textContent = text;
    again.hidden = false;
  }

  const result = game.result;
  const scores = result?.vp
    ? labels.map((label, seat) => t("{player}: {vp} VP", { player: seatWord(label), vp: result.vp[seat] })).join(" · ")
    : "";
  main.replaceChildren(el("div", { class: "wotr wotr-review" },
    el("div", { class: "banner" }, el("h1", { class: "banner-title" }, t("Turn review of game {id}", { id: game.id })),
      el("span", {}, scores),
      el("span", { class: "banner-links" }, el("a", { href: `/games/${game.id}` }, t("Game page")),
        el("a", { href: `/games/${game.id}/replay` }, t("Replay")))),
    el("div", { class: "panel review-intro" },
      el("p", {}, t("For each turn and each player: the plan made, and the plan the search bot would have made from that player's view at that moment (their own money, and only what was public of the others).")),
      el("p", {}, t("One search values both plans against what it expected the others to plan: the VP after the turn's Parliament, and its estimate of the VP by the end of the game (VP, money and what the turn's Parliament would give again). A short search: read the figures as a guide, not a verdict.")),
      status, progress, again, problemLine, overview),
    turns, seats));

  fetch(`/api/games/${game.id}/materials`, { credentials: "same-origin", cache: "no-store" })
    .then((response) => response.json())
    .then((materials) => {
      board = new Board(materials.board);
      show();
    })
    .catch(() => problem(t("The map could not be loaded: reload the page.")));

  return { update, problem };
}
