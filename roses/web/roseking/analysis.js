// The analysis of a Rose King game: each move with its judgement (symbol and word), the
// mover's chance of winning before (with the best move) and after (with the move played),
// the best move, "exact" where the search reached the end of every line; a graph of Red's
// chance over the game; the board at the chosen move. The numbers come from the server
// (GET /api/games/<id>/analysis), each judged from what the mover could see (RK-20).

import { el, svg } from "../js/kit.js";
import { t, tn } from "../js/i18n.js";
import { linkStylesheet } from "../js/styles.js";
import { renderBoard, teamOf } from "./board.js";
import { cardElement, cardName, heroElement } from "./cards.js";

const GRAPH = { width: 360, height: 150, pad: 10 };
// Chess annotation symbols; a forced move (the only legal one) gets the empty box.
const SYMBOLS = { best: "!", good: "✓", inaccuracy: "?!", mistake: "?", blunder: "??", forced: "□" };

// The Rose King's own stylesheet (the board, the cards), as the play and replay pages link
// it, and this page's.
await Promise.all([linkStylesheet("/static/roseking/roseking.css"), linkStylesheet("/static/roseking/analysis.css")]);

export function judgementText(name) {
  switch (name) {
    case "best": return t("best");
    case "good": return t("good");
    case "inaccuracy": return t("inaccuracy");
    case "mistake": return t("mistake");
    case "blunder": return t("blunder");
    case "forced": return t("forced");
    default: return name;
  }
}

function teamName(team) {
  return team === "red" ? t("Red") : t("White");
}

function moveName(move) {
  if (move === "draw") return t("draw");
  if (move === "pass") return t("pass");
  return move.endsWith("h") ? t("{card} with a hero", { card: cardName(move) }) : cardName(move);
}

// "White drew a card", "Red played NE3": the move as a sentence, not the engine's word.
function playedText(side, move) {
  if (move === "draw") return t("{side} drew a card", { side });
  if (move === "pass") return t("{side} could not move and passed", { side });
  return t("{side} played {move}", { side, move: moveName(move) });
}

export function percent(win) {
  return t("{percent}%", { percent: Math.round(win * 100) });
}

// Red's chance of winning at each position: before the first move, then after each move
// (null where that move is not analysed yet).
export function redChances(decisions) {
  if (decisions.length === 0) return [];
  return [decisions[0]?.red_win_before ?? null, ...decisions.map((d) => d?.red_win_after ?? null)];
}

// A move judged best (it lost less than half a percent) or forced is shown as the best one
// played; the other moves of its position are listed under "Every move from here".
function asGoodAsBest(decision) {
  return decision.best_move === decision.move || decision.judgement === "best" || decision.judgement === "forced";
}

// The graph: Red's chance from 100% (top) to 0% (bottom), one point per position; the
// position shown is marked. Clicking anywhere picks the nearest position (the move list
// offers the same by keyboard).
function drawGraph(chances, index, pick) {
  const { width, height, pad } = GRAPH;
  const last = Math.max(1, chances.length - 1);
  const x = (i) => pad + ((width - 2 * pad) * i) / last;
  const y = (win) => pad + (height - 2 * pad) * (1 - win);
  const shown = chances[index];
  const label = shown === null || shown === undefined
    ? t("Red's chance of winning over the game")
    : t("Red's chance of winning over the game; at the position shown: {percent}", { percent: percent(shown) });
  const graph = svg("svg", { viewBox: `0 0 ${width} ${height}`, class: "analysis-graph", role: "img", "aria-label": label });
  graph.append(svg("rect", { x: pad, y: pad, width: width - 2 * pad, height: (height - 2 * pad) / 2, class: "graph-red" }));
  graph.append(svg("rect", { x: pad, y: height / 2, width: width - 2 * pad, height: (height - 2 * pad) / 2, class: "graph-white" }));
  graph.append(svg("line", { x1: pad, x2: width - pad, y1: height / 2, y2: height / 2, class: "graph-middle" }));
  let path = "";
  chances.forEach((win, i) => {
    if (win === null) return;
    path += `${path && chances[i - 1] !== null ? "L" : "M"}${x(i).toFixed(1)},${y(win).toFixed(1)} `;
  });
  graph.append(svg("path", { d: path.trim(), class: "graph-line" }));
  graph.append(svg("line", { x1: x(index), x2: x(index), y1: pad, y2: height - pad, class: "graph-current" }));
  chances.forEach((win, i) => {
    if (win === null) return;
    graph.append(svg("circle", { cx: x(i), cy: y(win), r: i === index ? 5 : 2.5, class: i === index ? "graph-point current" : "graph-point", "data-position": i }));
  });
  graph.addEventListener("click", (event) => {
    const box = graph.getBoundingClientRect();
    const at = ((event.clientX - box.left) / box.width) * width;
    pick(Math.max(0, Math.min(chances.length - 1, Math.round(((at - pad) / (width - 2 * pad)) * last))));
  });
  return graph;
}

function countsText(decisions, team) {
  const mine = decisions.filter((d) => d && d.team === team);
  const count = (name) => mine.filter((d) => d.judgement === name).length;
  return [
    tn("{n} inaccuracy", "{n} inaccuracies", count("inaccuracy")),
    tn("{n} mistake", "{n} mistakes", count("mistake")),
    tn("{n} blunder", "{n} blunders", count("blunder")),
  ].join(" · ");
}

// A position's analysis (POST /api/analysis/roseking/position): every move, best first.
function positionList(answer) {
  const { analysis, seconds } = answer;
  return [
    el("p", {}, t("{side} to move, searched {seconds} s: the chance of winning after each move.", { side: teamName(analysis.team), seconds }),
      " ", analysis.exact ? el("span", { class: "exact" }, t("exact")) : el("span", { class: "muted" }, tn("an estimate, {n} move ahead", "an estimate, {n} moves ahead", analysis.depth))),
    el("ol", { class: "from-here-moves" }, analysis.moves.map((option) => el("li", {}, el("strong", {}, moveName(option.move)), " ", percent(option.win)))),
  ];
}

// The page: {game, frames} from the replay (frames[i] is the state after i moves),
// analyse() to ask for the moves not analysed yet and analysePosition(position) for one
// position at once. Returns {update(analysis), problem(text)}.
export function createAnalysisUi(main, { game, frames, analyse, analysePosition }) {
  const total = frames.length - 1;
  let decisions = Array(total).fill(null);
  let index = total; // the position shown: after the last move
  let turned = localStorage.getItem(`roses-turned-${game.id}`) === "1";

  const status = el("p", { id: "analysis-status", role: "status" });
  const progress = el("progress", { max: Math.max(1, total), value: 0, "aria-label": t("Moves analysed") });
  const again = el("button", { type: "button", hidden: true, onclick: () => { again.hidden = true; analyse(); } }, t("Analyse the moves left"));
  const problemLine = el("p", { class: "error", role: "alert", hidden: true });
  const graphBox = el("div", { class: "graph-box" });
  const boardBox = el("div", { class: "board-box", id: "board" });
  const north = el("div", { class: "hands north" });
  const south = el("div", { class: "hands south" });
  const caption = el("div", { id: "analysis-position", class: "panel analysis-position" });
  const summary = el("div", { class: "analysis-summary" });
  const fromHere = el("div", { id: "from-here" });
  const deeper = el("div", { id: "from-here-deeper", "aria-live": "polite" });
  let deeperAt = null; // the position the deeper search is for
  const hereButton = el("button", { type: "button", onclick: () => searchHere() }, t("Analyse from here"));
  const setUpText = el("textarea", { id: "set-up-position", rows: 3, spellcheck: "false" });
  const setUpResult = el("div", { id: "set-up-result", "aria-live": "polite" });
  const setUpForm = el("form", { class: "set-up", onsubmit: (event) => { event.preventDefault(); searchSetUp(); } },
    el("label", { for: "set-up-position" }, t("A position in the notation of the rules, or a view (JSON)")), setUpText,
    el("button", { type: "submit" }, t("Analyse this position")), setUpResult);
  const rows = [];
  const body = el("tbody", {});
  for (let ply = 0; ply < total; ply += 1) {
    const cells = { judgement: el("td", { class: "judgement" }), chance: el("td", { class: "chance" }), best: el("td", { class: "best" }) };
    const button = el("button", { type: "button", class: "link move-button", onclick: () => go(ply + 1) }, moveName(frames[ply + 1].moves[ply]));
    const row = el("tr", { "data-ply": ply },
      el("td", { class: "number" }, ply + 1),
      el("td", {}, teamName(frames[ply].turn_team)),
      el("td", {}, button), cells.judgement, cells.chance, cells.best);
    rows.push({ row, button, cells });
    body.append(row);
  }
  const table = el("table", { class: "analysis-moves" },
    el("caption", { class: "sr-only" }, t("Each move judged")),
    el("thead", {}, el("tr", {},
      el("th", { scope: "col" }, t("No.")), el("th", { scope: "col" }, t("Side")), el("th", { scope: "col" }, t("Move")),
      el("th", { scope: "col" }, t("Judgement")), el("th", { scope: "col" }, t("Chance before → after")),
      el("th", { scope: "col" }, t("Best move")))),
    body);

  function hands(frame, team) {
    return game.seats.filter((seat) => teamOf(seat) === team).map((seat) => el("div", { class: `hand-panel ${team}` },
      el("div", { class: "hand-head" }, el("span", { class: `seat-name ${team}` }, seat.label),
        el("span", { class: "player-name" }, seat.player || t("{bot} bot", { bot: t(seat.bot_label || seat.bot) }))),
      el("div", { class: "hand" }, heroElement(frame.heroes[seat.seat]),
        el("div", { class: "cards" }, frame.hands[seat.seat].map((card) => cardElement(card, { turned }))))));
  }

  function describe() {
    if (index === 0) return [el("p", {}, el("strong", {}, t("Start of the game")))];
    const ply = index - 1;
    const d = decisions[ply];
    const side = teamName(frames[ply].turn_team);
    const played = playedText(side, frames[index].moves[ply]);
    const lines = [el("p", {}, el("strong", {}, t("Move {n} of {total}: {move}", { n: index, total, move: played })))];
    if (!d) {
      lines.push(el("p", { class: "muted" }, t("Not analysed yet.")));
      return lines;
    }
    lines.push(el("p", { class: `judged ${d.judgement}` }, el("span", { class: "symbol", "aria-hidden": "true" }, SYMBOLS[d.judgement]), " ",
      t("Judgement: {judgement}", { judgement: judgementText(d.judgement) })));
    lines.push(el("p", {}, t("{side}'s chance of winning: {before} with the best move, {after} with the move played.", {
      side, before: percent(d.win_before), after: percent(d.win_after) })));
    if (!asGoodAsBest(d)) {
      lines.push(el("p", {}, t("The best move was {best}: it would have kept {percent}.", { best: moveName(d.best_move), percent: percent(d.win_before) })));
    }
    lines.push(el("p", { class: "muted small" }, d.exact
      ? t("Exact: the search reached the end of every line.")
      : tn("An estimate: searched {n} move ahead.", "An estimate: searched {n} moves ahead.", d.depth)));
    return lines;
  }

  // Every legal move from the position shown, with the mover's chance after it: what the
  // player could have done here (the decision made from this position holds them all).
  function movesFromHere() {
    if (index === total) return [el("p", { class: "muted" }, t("The game is over: there is no move from here."))];
    const d = decisions[index];
    if (!d || !d.moves) return [el("p", { class: "muted" }, t("Not analysed yet."))];
    return [
      el("p", {}, t("{side} to move: the chance of winning after each move.", { side: teamName(d.team) })),
      el("ol", { class: "from-here-moves" }, d.moves.map((option) => el("li", { class: option.move === d.move ? "played" : "" },
        el("strong", {}, moveName(option.move)), " ", percent(option.win),
        option.move === d.move ? el("span", { class: "muted" }, " ", t("(played in the game)")) : ""))),
    ];
  }

  async function run(box, position) {
    box.replaceChildren(el("p", { class: "muted" }, t("Searching…")));
    try {
      box.replaceChildren(...positionList(await analysePosition(position)));
    } catch (failure) {
      box.replaceChildren(el("p", { class: "error", role: "alert" }, failure.message));
    }
  }

  // The position shown, searched longer than the game's analysis did (every move from it).
  function searchHere() {
    deeperAt = index;
    run(deeper, frames[index]);
  }

  function searchSetUp() {
    const text = setUpText.value.trim();
    if (!text) {
      setUpResult.replaceChildren(el("p", { class: "error", role: "alert" }, t("Write a position first.")));
      return;
    }
    let position = text;
    if (text.startsWith("{")) {
      try {
        position = JSON.parse(text);
      } catch {
        setUpResult.replaceChildren(el("p", { class: "error", role: "alert" }, t("The view is not valid JSON.")));
        return;
      }
    }
    run(setUpResult, position);
  }

  function showPosition() {
    const frame = frames[index];
    renderBoard(boardBox, frame, { turned });
    const [top, bottom] = turned ? ["red", "white"] : ["white", "red"];
    north.replaceChildren(...hands(frame, top));
    south.replaceChildren(...hands(frame, bottom));
    caption.replaceChildren(...describe());
    fromHere.replaceChildren(...movesFromHere());
    hereButton.hidden = index === total;
    if (deeperAt !== index) {
      deeperAt = null;
      deeper.replaceChildren();
    }
    graphBox.replaceChildren(drawGraph(redChances(decisions), index, go));
    rows.forEach(({ row, button }, ply) => {
      const current = ply === index - 1;
      row.classList.toggle("current", current);
      if (current) button.setAttribute("aria-current", "true");
      else button.removeAttribute("aria-current");
    });
  }

  function go(to) {
    index = Math.max(0, Math.min(total, to));
    showPosition();
    if (index > 0) rows[index - 1].row.scrollIntoView({ block: "nearest" });
  }

  function fillRows(running) {
    rows.forEach(({ cells }, ply) => {
      const d = decisions[ply];
      if (!d) {
        cells.judgement.replaceChildren(el("span", { class: "muted" }, running ? t("analysing…") : t("not analysed")));
        cells.chance.replaceChildren();
        cells.best.replaceChildren();
        return;
      }
      cells.judgement.className = `judgement ${d.judgement}`;
      cells.judgement.replaceChildren(el("span", { class: "symbol", "aria-hidden": "true" }, SYMBOLS[d.judgement]), " ", judgementText(d.judgement),
        ...(d.exact ? [el("span", { class: "exact" }, t("exact"))] : []));
      cells.chance.replaceChildren(t("{before} → {after}", { before: percent(d.win_before), after: percent(d.win_after) }));
      const asGood = asGoodAsBest(d);
      cells.best.replaceChildren(asGood ? el("span", { class: "muted" }, t("played")) : t("{move} ({percent})", { move: moveName(d.best_move), percent: percent(d.win_before) }));
    });
  }

  function update(analysis) {
    decisions = analysis.decisions.slice(0, total);
    while (decisions.length < total) decisions.push(null);
    const done = decisions.filter((d) => d !== null).length;
    progress.value = done;
    progress.hidden = done === total;
    status.textContent = done === total
      ? tn("All {n} move analysed, {seconds} s each.", "All {n} moves analysed, {seconds} s each.", total, { seconds: analysis.seconds })
      : tn("{done} of {n} move analysed.", "{done} of {n} moves analysed.", total, { done });
    again.hidden = analysis.running || done === total;
    problemLine.hidden = !analysis.problem;
    problemLine.textContent = analysis.problem || "";
    summary.replaceChildren(
      el("p", {}, el("span", { class: "seat-name red" }, t("Red")), " ", countsText(decisions, "red")),
      el("p", {}, el("span", { class: "seat-name white" }, t("White")), " ", countsText(decisions, "white")));
    fillRows(analysis.running);
    showPosition();
  }

  function problem(text) {
    problemLine.hidden = false;
    problemLine.textContent = text;
    again.hidden = false;
  }

  const result = game.result;
  main.replaceChildren(
    el("div", { class: "banner" }, el("h1", { class: "banner-title" }, t("Analysis of game {id}", { id: game.id })),
      result ? el("span", {}, result.text) : el("span", {}, t("in progress: the moves made so far")),
      el("span", { class: "banner-links" }, el("a", { href: `/games/${game.id}` }, t("Game page")),
        el("a", { href: `/games/${game.id}/replay` }, t("Replay")))),
    el("div", { class: "play-grid analysis-grid" },
      el("section", { class: "table", "aria-label": t("The position") }, north, boardBox, south),
      el("aside", { class: "side" },
        el("div", { class: "panel analysis-progress" }, status, progress, again, problemLine),
        caption,
        el("div", { class: "panel buttons analysis-nav" },
          el("button", { type: "button", onclick: () => go(0), "aria-label": t("first") }, "«"),
          el("button", { type: "button", onclick: () => go(index - 1), "aria-label": t("previous") }, "◀"),
          el("button", { type: "button", onclick: () => go(index + 1), "aria-label": t("next"), class: "primary" }, "▶"),
          el("button", { type: "button", onclick: () => go(total), "aria-label": t("last") }, "»"),
          el("button", { type: "button", class: "link", onclick: () => { turned = !turned; showPosition(); } }, t("Turn board"))),
        el("div", { class: "panel" }, el("h2", {}, t("Red's chance of winning")), graphBox, summary),
        el("div", { class: "panel" }, el("h2", {}, t("Every move from here")), fromHere, hereButton, deeper),
        el("div", { class: "panel" }, el("h2", {}, t("Analyse a position")), setUpForm),
        el("div", { class: "panel moves-panel" }, el("h2", {}, t("Moves")), table))),
  );

  document.addEventListener("keydown", (event) => {
    if (event.target.closest && event.target.closest("input, textarea, select, [role=grid]")) return;
    if (event.key === "ArrowRight") go(index + 1);
    if (event.key === "ArrowLeft") go(index - 1);
  });

  return { update, problem };
}
