// Wars of the Roses in the browser: the page of an active or finished game, built into the
// generic shell's container. The shell calls ``update(view)`` with every newer view; this
// page draws the map, the players and each phase as a person plays it (WR-6..WR-18).
// For the keyboard and screen readers: what happens is announced (a live region), the map
// is also told area by area, and every redraw keeps the focus where the player is.

import { Board, PHASE, SEAT_COLOURS, phaseName, phraseText, pounds, seatWord, seatWords, t, tn } from "./dom.js";
import { el, replaceKeepingFocus } from "../js/kit.js";
import { mapParts } from "./map.js";
import { linkStylesheet } from "../js/styles.js";
import { TURNS, logPanel, playersPanel, seatName, trackPanel } from "./panels.js";
import { Planner, describeOrders } from "./plan.js";

const REVEALED = [PHASE.deployment, PHASE.bribery, PHASE.combat, PHASE.parliament];
const ANNOUNCED = 4; // the news kept in the live region

await linkStylesheet("/static/wotr/wotr.css");

export function createGameUi(container, api) {
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
    this.areasOpen = { value: false };
    this.title = el("h1", { class: "sr-only" });
    this.status = el("p", { class: "wotr-status", role: "status" });
    // What just happened, for a screen reader: moves, seals, each step of a reveal.
    this.announcer = el("div", { class: "sr-only", id: "wotr-announcements", "aria-live": "polite" });
    this.mapBox = el("div", { class: "map-box" });
    this.phaseBox = el("div", { class: "phase-box" });
    this.sideBox = el("div", { class: "side-box" });
    this.resignBox = el("div", { class: "resign-box" });
    this.confirmingResign = false;
    // The shell's table talk is placed once: redraws never take its input's focus away.
    this.root = el("div", { class: "wotr" }, this.title, this.status, this.announcer,
      el("div", { class: "wotr-grid" }, this.mapBox,
        el("div", { class: "wotr-side" }, this.phaseBox, this.sideBox, this.resignBox, api.chat || null)));
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
      this.announceStep();
    } else if (before) {
      this.announceChanges(before.state, view.state);
    }
    if (!view.state.layout.includes(this.selected)) this.selected = null;
    this.render();
  }

  // Each news is added (a screen reader reads what is added); the last few are kept.
  announce(lines) {
    if (!lines.length) return;
    this.announcer.append(el("div", {}, lines.map((line) => el("p", {}, line))));
    while (this.announcer.childElementCount > ANNOUNCED) this.announcer.firstElementChild.remove();
  }

  // New log lines (picks, French Aid, income; plans sealed and taken back, as the seat
  // list shows them: WR-20) since the last view.
  announceChanges(before, now) {
    this.announce(now.log.slice(before.log.length).map(phraseText));
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
    // The troops as the engine resolved them (WR-11, WR-13): placed after shortfalls and
    // cancellations through deployment and bribery, what is left once the battles are over.
    const troops = {};
    const left = phase === PHASE.combat;
    if (phase !== PHASE.parliament && phase !== "next") {
      const record = left ? now.troops_after_combat : now.troops_placed;
      for (const [card, bySeat] of Object.entries(record)) {
        troops[card] = Object.entries(bySeat).map(([label, count]) => ({ seat: this.seatIndex(label), count, left }));
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

  stepTitle(phase) {
    return phase === "next"
      ? t("Then: turn {turn}", { turn: Math.min(this.reveal.turn + 1, TURNS) })
      : phaseName(phase);
  }

  // The reveal's step now shown, told: its name and its events.
  announceStep() {
    const { steps, index, turn } = this.reveal;
    const step = steps[index];
    this.announce([t("Turn {turn} revealed: {step} ({index} of {count})",
      { turn, step: this.stepTitle(step.phase), index: index + 1, count: steps.length }),
    ...step.events.map(phraseText)]);
  }

  revealPanel() {
    const { steps, index, turn } = this.reveal;
    const step = steps[index];
    const last = index === steps.length - 1;
    const next = () => {
      if (last) this.reveal = null;
      else this.reveal.index += 1;
      if (this.reveal) this.announceStep();
      this.render();
    };
    const plans = index === 0 ? Object.entries(this.reveal.after.state.revealed).map(([label, orders]) => {
      const lines = describeOrders(this.board, orders);
      return el("li", { style: `--seat: ${SEAT_COLOURS[this.seatIndex(label)]}` }, el("strong", {}, seatWord(label)), ": ",
        lines.length ? lines.join("; ") : t("no orders"));
    }) : [];
    let nextLabel = t("Back to the game");
    if (!last) {
      nextLabel = steps[index + 1].phase === "next"
        ? t("Next: the next turn")
        : t("Next: {step}", { step: phaseName(steps[index + 1].phase) });
    }
    return el("section", { class: "panel reveal", "aria-labelledby": "reveal-title", "data-step": step.phase,
      "data-turn": turn },
      el("h2", { id: "reveal-title", tabindex: -1 }, t("Turn {turn} revealed: {step} ({index} of {count})",
        { turn, step: this.stepTitle(step.phase), index: index + 1, count: steps.length })),
      plans.length ? el("ul", { class: "plans" }, plans) : null,
      el("ol", { class: "events" }, step.events.map((event) => el("li", {}, phraseText(event)))),
      el("div", { class: "buttons" },
        el("button", { type: "button", class: "primary", "data-key": "reveal-next", onclick: next }, nextLabel),
        last ? null : el("button", { type: "button", onclick: () => {
          this.reveal = null;
          this.render();
        } }, t("Skip the reveal"))));
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
    this.title.textContent = t("Wars of the Roses, game {id}", { id: view.id });
    replaceKeepingFocus(this.mapBox, ...mapParts(this.board, table, this.labels, troops, this.areasOpen));
    this.status.textContent = this.statusText();
    let panel;
    if (view.status === "finished" && state.phase !== PHASE.over) panel = this.resignedPanel();
    else if (this.reveal) panel = this.revealPanel();
    else if (state.phase === PHASE.draw) panel = this.draftPanel();
    else if (state.phase === PHASE.income) panel = this.incomePanel();
    else if (state.phase === PHASE.planning) panel = this.planningPanel();
    else panel = this.endPanel();
    const error = this.message ? el("p", { class: "error", role: "alert" }, this.message) : null;
    const parts = [error, panel].filter(Boolean);
    const kept = [...this.phaseBox.children];
    if (parts.length !== kept.length || parts.some((part, index) => part !== kept[index])) {
      // The focus stays on the same control; if it is gone (a card taken, a step read),
      // on the panel's first button, else its heading: where the next key press is needed.
      if (replaceKeepingFocus(this.phaseBox, ...parts) === false) {
        (this.phaseBox.querySelector("button:not([disabled])") || this.phaseBox.querySelector("h2"))?.focus();
      }
    }
    this.root.classList.toggle("over", view.status === "finished" && !this.reveal);
    replaceKeepingFocus(this.resignBox, ...this.resignControls());
    const names = { board: this.board, labels: this.labels, seats: this.view.seats };
    replaceKeepingFocus(this.sideBox, playersPanel(names, shown, this.openCards), trackPanel(names, shown),
      logPanel(shown));
  }

  statusText() {
    const view = this.view;
    const state = view.state;
    if (this.reveal) return t("Turn {turn}: the plans are revealed.", { turn: this.reveal.turn });
    if (view.status === "finished") {
      const winners = seatWords(view.result.winners);
      if (view.result.resigned) {
        return t("The game is over: {player} resigned; {winners} wins.", { player: seatWord(view.result.resigned), winners });
      }
      return t("The game is over: {winners} wins.", { winners });
    }
    const waiting = seatWords(state.awaiting);
    if (state.phase === PHASE.draw) {
      return view.can_act ? t("Your pick: choose a card.") : t("Waiting for {players} to pick a card.", { players: waiting });
    }
    if (state.phase === PHASE.income) {
      return view.can_act
        ? t("French Aid is offered to you.")
        : t("Waiting for {players} to answer French Aid.", { players: waiting });
    }
    if (state.phase === PHASE.planning) {
      if (view.can_act) return t("Plan your turn, then seal your plan.");
      return t("Waiting for {players} to seal a plan.", { players: waiting });
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
      const content = [el("strong", {}, this.board.name(card)), el("small", {}, this.board.describe(card, state.turn, state.mercenary_supply))];
      if (!mine) return el("li", { class: `draft-card ${this.board.kind(card)}`, "data-card": card }, ...content);
      return el("li", {}, el("button", { type: "button", class: `draft-card ${this.board.kind(card)}${chosen ? " selected" : ""}`,
        "data-card": card, "data-key": `card-${card}`, "aria-pressed": chosen ? "true" : "false", onclick: () => {
          this.selected = chosen ? null : card;
          this.render();
        } }, ...content));
    });
    const upcoming = state.picks.map((label, index) => el("li", { class: index === 0 ? "now" : "",
      style: `--seat: ${SEAT_COLOURS[this.seatIndex(label)]}` }, seatWord(label)));
    const picks = state.picks.length;
    return el("section", { class: "panel draft", "aria-labelledby": "draft-title" },
      el("h2", { id: "draft-title", tabindex: -1 }, t("Turn {turn}: draw cards", { turn: state.turn })),
      el("p", { class: "muted" }, snake
        ? tn("Snake order. {n} pick left; the cards nobody takes leave the game.",
          "Snake order. {n} picks left; the cards nobody takes leave the game.", picks)
        : tn("Straight order. {n} pick left; the cards nobody takes leave the game.",
          "Straight order. {n} picks left; the cards nobody takes leave the game.", picks)),
      el("ol", { class: "pick-order", "aria-label": t("Who picks next") }, upcoming),
      el("ul", { class: "draft-cards", "aria-label": mine ? t("Cards to pick from") : t("Cards laid out") }, cards),
      mine ? el("div", { class: "buttons take" }, el("button", { type: "button", class: "primary", "data-key": "take",
        disabled: !this.selected, onclick: () => this.act({ pick: this.selected }) },
      this.selected ? t("Take {card}", { card: this.board.name(this.selected) }) : t("Choose a card"))) : null);
  }

  incomePanel() {
    const view = this.view;
    const state = view.state;
    const income = state.log.filter((e) => e.turn === state.turn && e.phase === PHASE.income);
    return el("section", { class: "panel income", "aria-labelledby": "income-title" },
      el("h2", { id: "income-title", tabindex: -1 }, t("Turn {turn}: income and French Aid", { turn: state.turn })),
      el("ul", {}, income.map((event) => el("li", {}, phraseText(event)))),
      view.can_act && state.french_aid_offer > 0
        ? el("div", {},
          el("p", {}, t("French Aid: once per game, the leader's score minus yours, at most 25 pounds.")),
          el("div", { class: "buttons" },
            el("button", { type: "button", class: "primary", onclick: () => this.act({ french_aid: true }) },
              t("Take French Aid: {pounds}", { pounds: pounds(state.french_aid_offer) })),
            el("button", { type: "button", onclick: () => this.act({ french_aid: false }) }, t("Decline"))))
        : el("p", { class: "muted" }, t("{players} may take French Aid.", { players: seatWords(state.awaiting) })));
  }

  planningPanel() {
    const view = this.view;
    const state = view.state;
    const others = state.order.filter((label) => label !== state.viewer).map((label) => {
      const sealed = state.sealed.includes(label);
      const player = this.who(this.seatIndex(label));
      return el("li", { class: sealed ? "sealed" : "planning" },
        sealed ? t("{player} has sealed a plan", { player }) : t("{player} is planning", { player }));
    });
    const status = el("ul", { class: "plan-status" }, others);
    if (view.you === null || !state.planning_options) {
      this.planner = null;
      return el("div", {}, el("h2", { tabindex: -1 }, t("Turn {turn}: planning", { turn: state.turn })),
        el("section", { class: "panel others", "aria-label": t("Other players") }, status));
    }
    const planning = { ...state.planning_options, money: state.money[view.you],
      mercenaries: state.mercenaries[view.you] };
    if (!this.planner || this.planner.turn !== state.turn) {
      this.planner = new Planner({ board: this.board, api: this.api, seat: view.you }, view, planning);
      this.others = el("section", { class: "panel others", "aria-label": t("Other players") });
      this.planningBox = el("div", { class: "planning-box" }, this.planner.element, this.others);
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
    const sources = {
      zones: t("zones"), king: t("king"), awards: t("awards"), calais: t("Calais"), trade: t("trade"),
      church: t("church"),
    };
    const letters = { castle: "C", large_town: "L", bishop: "B", town: "T", port: "P", ship: "S" };
    const titles = [[t("Place")], [t("Player")], [t("VP")], fourPlayers ? [t("House, crowns")] : null,
      [t("Nobles (CP)")], [t("Icons (C L B T P S)")], [t("VP by source"), "sources"]].filter(Boolean);
    // On a phone each row is a card whose cells name their column (data-label, wotr.css).
    const cell = (column, content, kind = null) => el("td", { "data-label": column, class: kind }, content);
    const rows = state.outcome.standings.map((row, index) => {
      const seat = row.seat;
      const place = (view.result?.ranks?.[seat] ?? index) + 1;
      return el("tr", { "data-seat": seat }, cell(t("Place"), place), el("th", { scope: "row" }, this.who(seat)),
        cell(t("VP"), row.vp),
        fourPlayers
          ? cell(t("House, crowns"), tn("{house}, {n} crown", "{house}, {n} crowns", row.crowns, { house: state.houses[seat] }))
          : null,
        cell(t("Nobles (CP)"), row.nobles.join(", ") || t("none")),
        cell(t("Icons (C L B T P S)"), Object.entries(letters).map(([kind, letter]) => `${letter}${row.icons[kind]}`)
          .join(" "), "icons"),
        cell(t("VP by source"), Object.entries(sources).map(([source, name]) =>
          t("{source} {vp}", { source: name, vp: state.vp_by_source[seat][source] })).join(", "), "sources"));
    });
    return el("section", { class: "panel end", "aria-labelledby": "end-title" },
      el("h2", { id: "end-title", tabindex: -1 }, t("The game is over")),
      el("table", { class: "final" },
        el("thead", {}, el("tr", {}, titles.map(([title, kind]) => el("th", { scope: "col", class: kind || null }, title)))),
        el("tbody", {}, rows)),
      el("p", { class: "muted" }, t("Equal VP are settled by the crowns won by one's house, then the highest noble, the next noble, and so on, then the most royal castles, large towns and so on.")),
      this.afterTheGame());
  }

  // A game ended by a resignation (the table as it was): the resigner ranks last.
  resignedPanel() {
    const result = this.view.result;
    return el("section", { class: "panel end", "aria-labelledby": "end-title" },
      el("h2", { id: "end-title", tabindex: -1 }, t("The game is over")),
      el("p", {}, t("{player} resigned. The others rank by their VP at that moment.", { player: seatWord(result.resigned) })),
      el("ol", { class: "final-ranking" }, result.ranking.map((label) => {
        const seat = this.seatIndex(label);
        return el("li", { "data-seat": seat }, t("{player}: {vp} VP", { player: this.who(seat), vp: result.vp[seat] }));
      })),
      this.afterTheGame());
  }

  afterTheGame() {
    const view = this.view;
    return el("p", { class: "buttons" },
      el("a", { class: "button", href: `/games/${view.id}/replay` }, t("Replay the game")),
      view.status === "finished"
        ? el("a", { class: "button", href: `/games/${view.id}/analysis`, "data-key": "review" }, t("Turn review"))
        : null,
      el("a", { class: "button", href: `/api/games/${view.id}/record`, download: `wotr-${view.id}.json` },
        t("Download the record")),
      view.you !== null && this.api.rematch ? this.api.rematch : null);
  }

  // Resigning ends the game at once for everyone: ask first. The focus follows the question.
  resignControls() {
    const view = this.view;
    if (view.status !== "active" || view.you === null || !this.api.resign) return [];
    const ask = (confirming, focus) => {
      this.confirmingResign = confirming;
      this.render();
      this.resignBox.querySelector(focus)?.focus();
    };
    if (!this.confirmingResign) {
      return [el("button", { type: "button", class: "link", "data-key": "resign",
        onclick: () => ask(true, "button[data-key=keep]") }, t("Resign…"))];
    }
    return [el("div", { class: "panel resign confirm", role: "alertdialog", "aria-labelledby": "resign-question" },
      el("p", { id: "resign-question" }, t("Resign this game? It ends at once, and you rank last.")),
      el("div", { class: "buttons" },
        el("button", { type: "button", class: "danger", onclick: () => this.resign() }, t("Yes, resign")),
        el("button", { type: "button", "data-key": "keep", onclick: () => ask(false, "button[data-key=resign]") },
          t("Keep playing"))))];
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
