// Replay a Wars of the Roses game decision by decision: the map, the players and what each
// pick, French Aid answer or sealed plan set off (the whole reveal follows the last seal).

import { Board, h } from "./dom.js";
import { drawMap, legend } from "./map.js";
import { logPanel, playersPanel, trackPanel } from "./panels.js";

function loadStyle() {
  if (document.getElementById("wotr-css")) return;
  document.head.append(h("link", { id: "wotr-css", rel: "stylesheet", href: "/static/wotr/wotr.css" }));
}

// The page shell (../js/replay.js) hands over the replay: {game, frames}; each frame is a
// view whose log holds only the events of that step.
export async function renderReplay(main, { game, frames }) {
  loadStyle();
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

  const go = (to) => {
    index = Math.max(0, Math.min(frames.length - 1, to));
    render();
  };

  function render() {
    const frame = frames[index];
    const state = { ...frame.state, log: logs[index] };
    const slider = h("input", { type: "range", min: 0, max: frames.length - 1, value: index,
      "aria-label": "Decision", oninput: (event) => go(Number(event.target.value)) });
    main.replaceChildren(h("div", { class: "wotr replay" },
      h("p", { class: "wotr-status", "aria-live": "polite" },
        `Replay of game ${game.id}: ${index === 0 ? "the start" : `decision ${index} of ${frames.length - 1}`}`,
        ` · turn ${state.turn}, ${state.phase}`),
      h("div", { class: "wotr-grid" },
        h("div", { class: "map-box" }, drawMap(board, state), legend()),
        h("div", { class: "wotr-side" },
          h("div", { class: "phase-box" },
            h("section", { class: "panel replay-controls", "aria-label": "Replay" },
              h("div", { class: "buttons" },
                h("button", { type: "button", onclick: () => go(0) }, "First"),
                h("button", { type: "button", onclick: () => go(index - 1) }, "Previous"),
                h("button", { type: "button", class: "primary", onclick: () => go(index + 1) }, "Next"),
                h("button", { type: "button", onclick: () => go(frames.length - 1) }, "Last")),
              slider,
              h("ol", { class: "events" }, frame.state.log.map((event) => h("li", {}, event.text))),
              h("p", { class: "buttons" },
                h("a", { class: "button", href: `/games/${game.id}` }, "Game page"),
                game.status === "finished"
                  ? h("a", { class: "button", href: `/api/games/${game.id}/record`, download: `wotr-${game.id}.json` },
                    "Download the record")
                  : null))),
          h("div", { class: "side-box" }, playersPanel(names, state, openCards), trackPanel(names, state), logPanel(state))))));
  }
  render();
}
