// Wars of the Roses' board for the tutorial (../js/tutorial.js): a step's position as Red
// sees it, drawn with the play page's own parts (the map, the players, the planning chart),
// and the decision of its phase offered: a card to take (WR-7), French Aid (WR-9) or a plan
// to seal (WR-10). The server judges each decision; after an accepted plan the board shows
// what the engine made of the turn (WR-11..WR-17): the troops left and the log of the reveal.

import { Board, PHASE, phaseName, phraseText, pounds, seatWord, t } from "./dom.js";
import { el } from "../js/kit.js";
import { mapParts } from "./map.js";
import { playersPanel, trackPanel } from "./panels.js";
import { Planner } from "./plan.js";
import { linkStylesheet } from "../js/styles.js";

await linkStylesheet("/static/wotr/wotr.css");

const YOU = 0; // the learner is Red

export function createTutorialBoard(act, preview) {
  let container = null;
  let view = null;
  let before = null; // the step's position, while its outcome is shown
  let interactive = false;
  let board = null;
  let labels = [];
  let planner = null;
  const openCards = new Set([YOU]);
  const areasOpen = { value: false };

  function seats() {
    return labels.map((_, seat) => (seat === YOU ? { is_you: true } : { player: t("the tutorial") }));
  }

  // The troops the last reveal left standing (WR-13), for the map.
  function troops(state) {
    const shown = {};
    for (const [card, bySeat] of Object.entries(state.troops_after_combat || {})) {
      shown[card] = Object.entries(bySeat).map(([label, count]) => ({ seat: labels.indexOf(label), count, left: true }));
    }
    return shown;
  }

  function draftPart(state) {
    return el("section", { class: "panel draft", "aria-labelledby": "decision-title" },
      el("h3", { id: "decision-title" }, t("Turn {turn}: draw cards", { turn: state.turn })),
      el("ul", { class: "draft-cards", "aria-label": t("Cards to pick from") }, state.layout.map((card) => el("li", {},
        el("button", { type: "button", class: `draft-card ${board.kind(card)}`, "data-card": card, disabled: !interactive,
          "aria-label": t("Take {card}", { card: board.name(card) }), onclick: () => act({ pick: card }) },
        el("strong", {}, board.name(card)), el("small", {}, board.describe(card, state.turn, state.mercenary_supply)))))));
  }

  function incomePart(state) {
    const income = state.log.filter((event) => event.turn === state.turn && event.phase === PHASE.income);
    return el("section", { class: "panel income", "aria-labelledby": "decision-title" },
      el("h3", { id: "decision-title" }, t("Turn {turn}: income and French Aid", { turn: state.turn })),
      el("ul", {}, income.map((event) => el("li", {}, phraseText(event)))),
      interactive && state.french_aid_offer > 0
        ? el("div", { class: "buttons" },
          el("button", { type: "button", class: "primary", onclick: () => act({ french_aid: true }) },
            t("Take French Aid: {pounds}", { pounds: pounds(state.french_aid_offer) })),
          el("button", { type: "button", onclick: () => act({ french_aid: false }) }, t("Decline")))
        : null);
  }

  // The play page's planning chart: each change is reckoned by the server in the step's
  // position (the cost, the money left, what a shortfall would cancel: WR-11) and sealing
  // sends the plan to the tutorial's judge. In the tutorial the zones a noble may move to
  // are open to attack in the chart at once, so that an attack without the move can be
  // tried, and refused with the rule (WR-10).
  function planningPart(state) {
    const options = state.planning_options;
    const reachable = Object.values(options.noble_moves).flat();
    const widened = (present) => [...new Set([...present, ...reachable])];
    const planning = { ...options, present: widened(options.present), money: state.money[YOU],
      mercenaries: state.mercenaries[YOU] };
    const saveDraft = async (draft) => {
      const answer = await preview(draft);
      if (answer.preview?.present) answer.preview.present = widened(answer.preview.present);
      return answer;
    };
    const api = { saveDraft, act: async (action) => act(action) };
    if (!planner || planner.view !== view) planner = new Planner({ board, api, seat: YOU }, view, planning);
    return planner.element;
  }

  // What the decision set off: the log since the step's position (income, a whole reveal).
  function outcomePart() {
    const events = view.state.log.slice(before ? before.state.log.length : view.state.log.length);
    if (!events.length) return null;
    return el("section", { class: "panel reveal", "aria-labelledby": "outcome-title" },
      el("h3", { id: "outcome-title" }, t("What happened")),
      el("ol", { class: "events" }, events.map((event) => el("li", { "data-phase": event.phase },
        el("small", {}, t("Turn {turn}, {phase}:", { turn: event.turn, phase: phaseName(event.phase) })), " ",
        phraseText(event)))));
  }

  function decisionPart(state) {
    if (!interactive) return outcomePart();
    if (state.phase === PHASE.draw) return draftPart(state);
    if (state.phase === PHASE.income) return incomePart(state);
    if (state.phase === PHASE.planning) return planningPart(state);
    return null;
  }

  function draw() {
    if (!container || !view) return;
    const state = view.state;
    const names = { board, labels, seats: seats() };
    const status = el("p", { class: "wotr-status" }, t("Turn {turn}: {phase}. You play {seat}.",
      { turn: state.turn, phase: phaseName(state.phase), seat: seatWord(labels[YOU]) }));
    container.replaceChildren(...[
      status,
      decisionPart(state),
      el("div", { class: "map-box" }, ...mapParts(board, state, labels, troops(state), areasOpen)),
      playersPanel(names, state, openCards),
      trackPanel(names, state),
    ].filter(Boolean));
  }

  return {
    mount(box) {
      container = box;
      container.classList.add("wotr");
    },
    show(next, canAct) {
      if (!board || next.materials) {
        board = new Board(next.materials.board);
        labels = next.materials.seats;
      }
      before = canAct ? null : (before || view);
      if (canAct) planner = null;
      view = next;
      interactive = canAct;
      draw();
    },
  };
}
