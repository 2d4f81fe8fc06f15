// Replay a Wars of the Roses game decision by decision: the map, the players and what each
// pick, French Aid answer or sealed plan set off (the whole reveal follows the last seal).

import { Board, phaseName, phraseText, t } from "./dom.js";
import { el, replaceKeepingFocus } from "../js/kit.js";
import { mapParts } from "./map.js";
import { linkStylesheet } from "../js/styles.js";
import { logPanel, playersPanel, trackPanel } from "./panels.js";

await linkStylesheet("/static/wotr/wotr.css");

// The page shell (../js/replay.js) hands over the replay: {game, frames}; each frame is a
// view whose log holds only the events of that step. Every redraw keeps the focus on the
// control it was on (the slider, a button).
export async function renderReplay(main, { game, frames }) {
  const response = await fetch(`/api/games/${game.id}/materials`, { credentials: "same-origin", cache: "no-store" });
  const materials = await response.json();
  const board = new Board(materials.board);
  const names = { board, labels: materials.seats, seats: game.seats };
  const logs = [];
  frames.reduce((log, frame) => {
    logs.push([...log, ...frame.state.log]);
    return logs[logs.length - 1];
  }, []);
  let index = frames.length - 1;
  const openCards = new Set();
  const areasOpen = { value: false };
  const last = frames.length - 1;

  const go = (to) => {
    index = Math.max(0, Math.min(last, to));
    render();
  };

  function render() {
    const frame = frames[index];
    const state = { ...frame.state, log: logs[index] };
    const slider = el("input", { type: "range", min: 0, max: last, value: index, "data-key": "slider",
      "aria-label": t("Decision"), "aria-valuetext": t("decision {index} of {count}", { index, count: last }),
      oninput: (event) => go(Number(event.target.value)) });
    const where = index === 0
      ? t("Replay of game {id}: the start · turn {turn}, {phase}", { id: game.id, turn: state.turn, phase: phaseName(state.phase) })
      : t("Replay of game {id}: decision {index} of {count} · turn {turn}, {phase}",
        { id: game.id, index, count: last, turn: state.turn, phase: phaseName(state.phase) });
    replaceKeepingFocus(main, el("div", { class: "wotr replay" },
      el("h1", { class: "sr-only" }, t("Replay of game {id}", { id: game.id })),
      el("p", { class: "wotr-status", role: "status" }, where),
      el("div", { class: "wotr-grid" },
        el("div", { class: "map-box" }, mapParts(board, state, materials.seats, {}, areasOpen)),
        el("div", { class: "wotr-side" },
          el("div", { class: "phase-box" },
            el("section", { class: "panel replay-controls", "aria-label": t("Replay") },
              el("div", { class: "buttons" },
                el("button", { type: "button", "data-key": "first", onclick: () => go(0) }, t("First")),
                el("button", { type: "button", "data-key": "previous", onclick: () => go(index - 1) }, t("Previous")),
                el("button", { type: "button", class: "primary", "data-key": "next", onclick: () => go(index + 1) }, t("Next")),
                el("button", { type: "button", "data-key": "last", onclick: () => go(last) }, t("Last"))),
              slider,
              el("ol", { class: "events" }, frame.state.log.map((event) => el("li", {}, phraseText(event)))),
              el("p", { class: "buttons" },
                el("a", { class: "button", href: `/games/${game.id}` }, t("Game page")),
                game.status === "finished"
                  ? el("a", { class: "button", href: `/games/${game.id}/analysis`, "data-key": "review" }, t("Turn review"))
                  : null,
                game.status === "finished"
                  ? el("a", { class: "button", href: `/api/games/${game.id}/record`, download: `wotr-${game.id}.json` },
                    t("Download the record"))
                  : null))),
          el("div", { class: "side-box" }, playersPanel(names, state, openCards), trackPanel(names, state), logPanel(state))))));
  }
  render();
}
