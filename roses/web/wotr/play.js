// Wars of the Roses in the browser: the page of an active or finished game, built into the
// generic shell's container. The shell calls ``update(view)`` with every newer view; this
// page draws the map, the players and each phase as a person plays it (WR-6..WR-18).

import { Board, PHASE, SEAT_COLOURS, h, plural } from "./dom.js";
import { drawMap, legend } from "./map.js";
import { TURNS, logPanel, playersPanel, seatName, trackPanel } from "./panels.js";
import { Planner, describeOrders } from "./plan.js";

const REVEALED = [PHASE.deployment, PHASE.bribery, PHASE.combat, PHASE.parliament];

function loadStyle() {
  if (document.getElementById("wotr-css")) return;
  document.head.append(h("link", { id: "wotr-css", rel: "stylesheet", href: "/static/wotr/wotr.css" }));
}

export function createGameUi(container, api) {
  loadStyle();
  const ui = new WotrUi(container, api);
  return { update: (view) => ui.update(view) };
}

class WotrUi {
  constructor(container, api) {
    this.api = api;
    this.board = null;
    this.view = null;
    this.planner = null;
    this.reveal = null; // {before, steps, index} while a reveal is shown step by step
    this.selected = null; // the card chosen in the draft, before "Take"
    this.message = "";
    this.busy = false;
    this.openCards = new Set(); // the seats whose card lists are open
    this.status = h("p", { class: "wotr-status", "aria-live": "polite", role: "status" });
    this.mapBox = h("div", { class: "map-box" });
    this.phaseBox = h("div", { class: "phase-box" });
    this.sideBox = h("div", { class: "side-box" });
    this.resignBox = h("div", { class: "resign-box" });
    this.confirmingResign = false;
    // The shell's table talk is placed once: redraws never take its input's focus away.
    this.root = h("div", { class: "wotr" }, this.status,
      h("div", { class: "wotr-grid" }, this.mapBox,
        h("div", { class: "wotr-side" }, this.phaseBox, this.sideBox, this.resignBox, api.chat || null)));
    container.replaceChildren(this.root);
    this.ready = api.materials().then((materials) => {
      this.board = new Board(materials.board);
      this.labels = materials.seats;
    });
  }

  async update(view) {
    await this.ready;
    const before = this.view;
    this.view = view;
    if (before && before.state.phase === PHASE.planning && view.state.phase !== PHASE.planning
        && view.state.log.length > before.state.log.length) {
      this.startReveal(before, view);
    }
    if (!view.state.layout.includes(this.selected)) this.selected = null;
    this.render();
  }

  seatIndex(label) {
    return this.labels.indexOf(label);
  }

  who(seat) {
    return seatName(this.view.seats, this.labels, seat);
  }

  // One action at a time: a second click while the first is on its way does nothing.
  async act(action) {
    if (this.busy) return;
    this.busy = true;
    this.message = "";
    try {
      await this.api.act(action);
    } catch (problem) {
      this.message = problem.message;
      this.render();
    } finally {
      this.busy = false;
    }
  }

  // -- the reveal: deployment, bribery, combat and Parliament one step at a time ----------

  startReveal(before, after) {
    const events = after.state.log.slice(before.state.log.length);
    const steps = REVEALED.map((phase) => ({ phase, events: events.filter((e) => e.phase === phase
      && e.turn === before.state.turn) })).filter((step) => step.events.length);
    const rest = events.filter((e) => !(REVEALED.includes(e.phase) && e.turn === before.state.turn));
    if (rest.length) steps.push({ phase: "next", events: rest });
    this.reveal = { before, after, steps, index: 0, turn: before.state.turn };
  }

  revealTable() {
    const { before, after, steps, index } = this.reveal;
    const phase = steps[index].phase;
    // The Captain of Calais is in play from deployment to Parliament (WR-11).
    const calais = phase === "next" ? null : after.state.revealed_calais;
    const prior = { ...before.state, calais };
    const now = { ...after.state, calais };
    const revealed = now.revealed;
    const troops = {};
    if (phase !== PHASE.parliament && phase !== "next") {
      for (const [label, orders] of Object.entries(revealed)) {
        const places = new Set([...Object.keys(orders.troops || {}), ...Object.keys(orders.mercenaries || {})]);
        for (const card of places) {
          const count = (orders.troops?.[card] || 0) + (orders.mercenaries?.[card] || 0);
          (troops[card] = troops[card] || []).push({ seat: this.seatIndex(label), count });
        }
      }
    }
    if (phase === PHASE.deployment || phase === PHASE.bribery) {
      const moved = { ...prior, noble_zone: { ...prior.noble_zone }, ship_sea: { ...prior.ship_sea } };
      for (const orders of Object.values(revealed)) {
        Object.assign(moved.noble_zone, orders.noble_moves || {});
        Object.assign(moved.ship_sea, orders.ship_moves || {});
      }
      if (phase === PHASE.bribery) {
        // Bribes move only Personalities (WR-12), battles only Locations (WR-13): after
        // bribery the Personalities have their new owners and the Locations their old.
        moved.owner = Object.fromEntries(Object.keys({ ...prior.owner, ...now.owner })
          .map((card) => [card, this.board.isLocation(card) ? prior.owner[card] : now.owner[card]])
          .filter(([, owner]) => owner !== undefined));
      }
      return { table: moved, troops };
    }
    return { table: now, troops };
  }

  // What the side panels show during the reveal: the scores and awards from before
  // Parliament until its step, and the log up to the step shown.
  revealShown() {
    const { before, after, steps, index } = this.reveal;
    const scored = steps.slice(0, index + 1).some((step) => step.phase === PHASE.parliament);
    const known = before.state.log.length + steps.slice(0, index + 1)
      .reduce((sum, step) => sum + step.events.length, 0);
    const base = scored ? after.state : { ...before.state, money: after.state.money };
    return { ...base, awaiting: [], sealed: [], log: after.state.log.slice(0, known) };
  }

  revealPanel() {
    const { steps, index, turn } = this.reveal;
    const step = steps[index];
    const last = index === steps.length - 1;
    const title = step.phase === "next" ? `Then: turn ${Math.min(turn + 1, TURNS)}` : step.phase;
    const next = () => {
      if (last) this.reveal = null;
      else this.reveal.index += 1;
      this.render();
      this.phaseBox.querySelector("h2")?.focus();
    };
    const plans = index === 0 ? Object.entries(this.reveal.after.state.revealed).map(([label, orders]) => {
      const lines = describeOrders(this.board, orders);
      return h("li", {}, h("strong", { style: `color: ${SEAT_COLOURS[this.seatIndex(label)]}` }, label),
        `: ${lines.length ? lines.join("; ") : "no orders"}.`);
    }) : [];
    return h("section", { class: "panel reveal", "aria-labelledby": "reveal-title", "data-step": step.phase,
      "data-turn": turn },
      h("h2", { id: "reveal-title", tabindex: -1 },
        `Turn ${turn} revealed — ${title} (${index + 1} of ${steps.length})`),
      plans.length ? h("ul", { class: "plans" }, plans) : null,
      h("ol", { class: "events" }, step.events.map((event) => h("li", {}, event.text))),
      h("div", { class: "buttons" },
        h("button", { type: "button", class: "primary", onclick: next },
          last ? "Back to the game" : `Next: ${steps[index + 1].phase === "next" ? "the next turn" : steps[index + 1].phase}`),
        last ? null : h("button", { type: "button", onclick: () => {
          this.reveal = null;
          this.render();
        } }, "Skip the reveal")));
  }

  // -- drawing ------------------------------------------------------------------------------

  render() {
    if (!this.view || !this.board) return;
    const view = this.view;
    const state = view.state;
    let table = state;
    let troops = {};
    if (this.reveal) ({ table, troops } = this.revealTable());
    let shown = this.reveal ? this.revealShown() : state;
    if (view.status === "finished") shown = { ...shown, awaiting: [], sealed: [] }; // e.g. resigned
    this.mapBox.replaceChildren(drawMap(this.board, table, troops), legend());
    this.status.textContent = this.statusText();
    let panel;
    if (view.status === "finished" && state.phase !== PHASE.over) panel = this.resignedPanel();
    else if (this.reveal) panel = this.revealPanel();
    else if (state.phase === PHASE.draw) panel = this.draftPanel();
    else if (state.phase === PHASE.income) panel = this.incomePanel();
    else if (state.phase === PHASE.planning) panel = this.planningPanel();
    else panel = this.endPanel();
    const error = this.message ? h("p", { class: "error", role: "alert" }, this.message) : null;
    const parts = [error, panel].filter(Boolean);
    const kept = [...this.phaseBox.children];
    if (parts.length !== kept.length || parts.some((part, index) => part !== kept[index])) {
      // Keyboard focus stays in the panel: on the same card, or on its first button.
      const focused = this.phaseBox.contains(document.activeElement) ? document.activeElement : null;
      this.phaseBox.replaceChildren(...parts);
      if (focused) {
        const card = focused.getAttribute("data-card");
        const same = card && this.phaseBox.querySelector(`button[data-card="${card}"]`);
        (same || this.phaseBox.querySelector("button") || this.phaseBox.querySelector("h2"))?.focus();
      }
    }
    this.root.classList.toggle("over", view.status === "finished" && !this.reveal);
    this.resignBox.replaceChildren(...this.resignControls());
    const names = { board: this.board, labels: this.labels, seats: this.view.seats };
    this.sideBox.replaceChildren(playersPanel(names, shown, this.openCards), trackPanel(names, shown),
      logPanel(shown));
  }

  statusText() {
    const view = this.view;
    const state = view.state;
    if (this.reveal) return `Turn ${this.reveal.turn}: the plans are revealed.`;
    if (view.status === "finished") {
      const resigned = view.result.resigned ? `${view.result.resigned} resigned; ` : "";
      return `The game is over: ${resigned}${view.result.winners.join(" and ")} wins.`;
    }
    const waiting = state.awaiting.join(", ");
    if (state.phase === PHASE.draw) {
      return view.can_act ? "Your pick: choose a card." : `Waiting for ${waiting} to pick a card.`;
    }
    if (state.phase === PHASE.income) {
      return view.can_act ? "French Aid is offered to you." : `Waiting for ${waiting} to answer French Aid.`;
    }
    if (state.phase === PHASE.planning) {
      if (view.can_act) return "Plan your turn, then seal your plan.";
      return `Waiting for ${waiting} to seal a plan.`;
    }
    return "";
  }

  draftPanel() {
    const view = this.view;
    const state = view.state;
    const snake = state.turn === 1;
    const mine = view.can_act;
    const cards = state.layout.map((card) => {
      const chosen = this.selected === card;
      const content = [h("strong", {}, this.board.name(card)), h("small", {}, this.board.describe(card))];
      if (!mine) return h("li", { class: `draft-card ${this.board.kind(card)}`, "data-card": card }, ...content);
      return h("li", {}, h("button", { type: "button", class: `draft-card ${this.board.kind(card)}${chosen ? " selected" : ""}`,
        "data-card": card, "aria-pressed": chosen ? "true" : "false", onclick: () => {
          this.selected = chosen ? null : card;
          this.render();
        } }, ...content));
    });
    const upcoming = state.picks.map((label, index) => h("li", { class: index === 0 ? "now" : "",
      style: `--seat: ${SEAT_COLOURS[this.seatIndex(label)]}` }, label));
    return h("section", { class: "panel draft", "aria-labelledby": "draft-title" },
      h("h2", { id: "draft-title", tabindex: -1 }, `Turn ${state.turn}: draw cards`),
      h("p", { class: "muted" }, `${snake ? "Snake" : "Straight"} order (WR-7). `,
        `${plural(state.picks.length, "pick")} left; the cards nobody takes leave the game.`),
      h("ol", { class: "pick-order", "aria-label": "Who picks next" }, upcoming),
      h("ul", { class: "draft-cards" }, cards),
      mine ? h("div", { class: "buttons take" }, h("button", { type: "button", class: "primary",
        disabled: !this.selected, onclick: () => this.act({ pick: this.selected }) },
      this.selected ? `Take ${this.board.name(this.selected)}` : "Choose a card")) : null);
  }

  incomePanel() {
    const view = this.view;
    const state = view.state;
    const income = state.log.filter((e) => e.turn === state.turn && e.phase === PHASE.income);
    return h("section", { class: "panel income", "aria-labelledby": "income-title" },
      h("h2", { id: "income-title", tabindex: -1 }, `Turn ${state.turn}: income and French Aid`),
      h("ul", {}, income.map((event) => h("li", {}, event.text))),
      view.can_act && state.french_aid_offer > 0
        ? h("div", {},
          h("p", {}, `French Aid (WR-9): once per game, the leader's score minus yours, at most 25 pounds.`),
          h("div", { class: "buttons" },
            h("button", { type: "button", class: "primary", onclick: () => this.act({ french_aid: true }) },
              `Take French Aid: ${state.french_aid_offer} pounds`),
            h("button", { type: "button", onclick: () => this.act({ french_aid: false }) }, "Decline")))
        : h("p", { class: "muted" }, `${state.awaiting.join(", ")} may take French Aid.`));
  }

  planningPanel() {
    const view = this.view;
    const state = view.state;
    const others = state.order.filter((label) => label !== state.viewer).map((label) => {
      const sealed = state.sealed.includes(label);
      return h("li", { class: sealed ? "sealed" : "planning" },
        `${this.who(this.seatIndex(label))} ${sealed ? "has sealed a plan" : "is planning"}`);
    });
    const status = h("ul", { class: "plan-status" }, others);
    if (view.you === null || !state.planning_options) {
      this.planner = null;
      return h("div", {}, h("h2", { tabindex: -1 }, `Turn ${state.turn}: planning`),
        h("section", { class: "panel others", "aria-label": "Other players" }, status));
    }
    const planning = { ...state.planning_options, money: state.money[view.you],
      mercenaries: state.mercenaries[view.you], pay_order: view.pay_order };
    if (!this.planner || this.planner.turn !== state.turn) {
      this.planner = new Planner({ board: this.board, api: this.api, seat: view.you }, view, planning);
      this.others = h("section", { class: "panel others", "aria-label": "Other players" });
      this.planningBox = h("div", { class: "planning-box" }, this.planner.element, this.others);
    } else {
      this.planner.update(view, planning);
    }
    this.others.replaceChildren(status);
    return this.planningBox; // the same element: the player's typing is never interrupted
  }

  // WR-18: the final standings, winner first, with what the tie-breaks compared.
  endPanel() {
    const view = this.view;
    const state = view.state;
    const fourPlayers = state.houses.some(Boolean);
    const sources = ["zones", "king", "awards", "calais", "trade", "church"];
    const letters = { castle: "C", large_town: "L", bishop: "B", town: "T", port: "P", ship: "S" };
    const rows = state.outcome.standings.map((row, index) => {
      const seat = row.seat;
      const place = (view.result?.ranks?.[seat] ?? index) + 1;
      return h("tr", { "data-seat": seat }, h("td", {}, place), h("th", { scope: "row" }, this.who(seat)),
        h("td", {}, row.vp),
        fourPlayers ? h("td", {}, `${state.houses[seat]}, ${plural(row.crowns, "crown")}`) : null,
        h("td", {}, row.nobles.join(", ") || "none"),
        h("td", { class: "icons" }, Object.entries(letters).map(([kind, letter]) => `${letter}${row.icons[kind]}`).join(" ")),
        h("td", { class: "sources" }, sources.map((source) => `${source} ${state.vp_by_source[seat][source]}`).join(", ")));
    });
    const titles = ["Place", "Player", "VP", fourPlayers ? "House, crowns" : null, "Nobles (CP)",
      "Icons (C L B T P S)", "VP by source"].filter(Boolean);
    return h("section", { class: "panel end", "aria-labelledby": "end-title" },
      h("h2", { id: "end-title", tabindex: -1 }, "The game is over"),
      h("table", { class: "final" },
        h("thead", {}, h("tr", {}, titles.map((title) => h("th", { scope: "col",
          class: title === "VP by source" ? "sources" : null }, title)))),
        h("tbody", {}, rows)),
      h("p", { class: "muted" }, "Equal VP are settled by WR-18: the crowns won by one's house, then the ",
        "highest noble, the next noble, …, then the most royal castles, large towns and so on."),
      this.afterTheGame());
  }

  // A game ended by a resignation (the table as it was): the resigner ranks last.
  resignedPanel() {
    const result = this.view.result;
    return h("section", { class: "panel end", "aria-labelledby": "end-title" },
      h("h2", { id: "end-title", tabindex: -1 }, "The game is over"),
      h("p", {}, `${result.resigned} resigned. The others rank by their VP at that moment.`),
      h("ol", { class: "final-ranking" }, result.ranking.map((label) => {
        const seat = this.seatIndex(label);
        return h("li", { "data-seat": seat }, `${this.who(seat)}: ${result.vp[seat]} VP`);
      })),
      this.afterTheGame());
  }

  afterTheGame() {
    const view = this.view;
    return h("p", { class: "buttons" },
      h("a", { class: "button", href: `/games/${view.id}/replay` }, "Replay the game"),
      h("a", { class: "button", href: `/api/games/${view.id}/record`, download: `wotr-${view.id}.json` },
        "Download the record"),
      view.you !== null && this.api.rematch ? this.api.rematch : null);
  }

  // Resigning ends the game at once for everyone: ask first.
  resignControls() {
    const view = this.view;
    if (view.status !== "active" || view.you === null || !this.api.resign) return [];
    if (!this.confirmingResign) {
      return [h("button", { type: "button", class: "link", onclick: () => {
        this.confirmingResign = true;
        this.render();
      } }, "Resign…")];
    }
    return [h("div", { class: "panel resign confirm", role: "alertdialog", "aria-label": "Resign?" },
      h("p", {}, "Resign this game? It ends at once, and you rank last."),
      h("div", { class: "buttons" },
        h("button", { type: "button", class: "danger", onclick: () => this.resign() }, "Yes, resign"),
        h("button", { type: "button", onclick: () => {
          this.confirmingResign = false;
          this.render();
        } }, "Keep playing")))];
  }

  async resign() {
    this.confirmingResign = false;
    try {
      await this.api.resign();
    } catch (problem) {
      this.message = problem.message;
      this.render();
    }
  }

}
