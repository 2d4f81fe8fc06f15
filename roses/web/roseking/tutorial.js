// The Rose King's board for the tutorial (../js/tutorial.js): the position of a step as Red
// sees it, Red's cards to choose from, and every kind of move (RK-8..RK-11) offered, so
// that a wrong one can be tried and explained. The server judges each move.

import { el } from "../js/kit.js";
import { scoreText } from "./describe.js";
import { t, tn } from "../js/i18n.js";
import { renderBoard } from "./board.js";
import { cardElement, cardName, heroElement } from "./cards.js";
import { linkStylesheet } from "../js/styles.js";

await linkStylesheet("/static/roseking/roseking.css");

export function createTutorialBoard(act) {
  let container = null;
  let view = null;
  let interactive = false;
  let selected = null;

  function hand(seat) {
    const mine = seat === 0;
    const cards = view.state.hands[seat].map((name) => {
      const button = mine && interactive;
      const card = cardElement(name, { button, pressed: name === selected, label: t("Choose card {card}", { card: cardName(name) }) });
      if (name === selected) card.classList.add("selected");
      if (button) card.addEventListener("click", () => { selected = selected === name ? null : name; draw(); });
      return card;
    });
    return el("div", { class: `hand-panel ${mine ? "red mine" : "white"}` },
      el("div", { class: "hand-head" },
        el("span", { class: `seat-name ${mine ? "red" : "white"}` }, mine ? t("Red (you)") : t("White"))),
      el("div", { class: "hand" }, heroElement(view.state.heroes[seat]), el("div", { class: "cards" }, cards)));
  }

  function actions() {
    if (!interactive) return null;
    const heroes = view.state.heroes[0];
    return el("div", { class: "tutorial-actions buttons", id: "actions" },
      selected ? el("button", { class: "primary", onclick: () => act(selected) }, t("Play {card}", { card: cardName(selected) })) : null,
      selected && heroes ? el("button", { onclick: () => act(`${selected}h`) }, t("Play {card} with a hero", { card: cardName(selected) })) : null,
      el("button", { onclick: () => act("draw") }, t("Draw a card")),
      el("button", { onclick: () => act("pass") }, t("Pass")));
  }

  function scores() {
    const { red, white } = view.state.scores;
    return el("p", { class: "tutorial-scores" },
      el("span", { class: "score red" }, t("Red {score}", { score: scoreText(red) })), " · ",
      el("span", { class: "score white" }, t("White {score}", { score: scoreText(white) })), " · ",
      el("span", { class: "muted" }, tn("score (largest territory, stones) · {n} stone left", "score (largest territory, stones) · {n} stones left", view.state.supply)));
  }

  function draw() {
    if (!container) return;
    const boardBox = el("div", { class: "board-box", id: "board" });
    const target = selected && interactive ? view.targets[selected] : null;
    renderBoard(boardBox, view.state, { target, end: view.end, last: view.last_move });
    container.replaceChildren(...[hand(1), boardBox, hand(0), actions(), scores()].filter(Boolean));
  }

  return {
    mount(box) {
      container = box;
    },
    show(next, canAct) {
      if (next !== view) selected = null;
      view = next;
      interactive = canAct;
      draw();
    },
  };
}
