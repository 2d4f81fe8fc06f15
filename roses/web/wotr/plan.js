// The planning chart (WR-10) as a form: Calais bid, ship and noble moves, troops and
// mercenaries per Location, white and black bribe cubes, kept as a private draft on the
// server and sealed with a button. Each saved draft is answered with the engine's preview
// of it: the running cost, the money left and what a shortfall would cancel (WR-11), and
// where the player is present to attack (WR-10). Nothing of it is sent anywhere else before
// it is sealed (WR-20).

import { SEAT_COLOURS, kindName, faultText, phraseText, pounds, t, tn } from "./dom.js";
import { el, focusedKey, keyed, replaceKeepingFocus } from "../js/kit.js";

const SAVE_DELAY_MS = 400;

function emptyOrders() {
  return { calais: { bid: 0, zone: null }, noble_moves: {}, ship_moves: {}, troops: {},
    mercenaries: {}, bribes: {} };
}

// The engine's JSON form of a plan: empty parts left out.
function ordersJson(plan) {
  const orders = {};
  if (plan.calais.bid > 0) orders.calais = { bid: plan.calais.bid, zone: plan.calais.zone };
  for (const part of ["noble_moves", "ship_moves", "troops", "mercenaries", "bribes"]) {
    const entries = Object.entries(plan[part]).filter(([, value]) => value);
    if (entries.length) orders[part] = Object.fromEntries(entries);
  }
  return orders;
}

function planFromJson(orders) {
  const plan = emptyOrders();
  if (orders.calais) plan.calais = { ...orders.calais };
  for (const part of ["noble_moves", "ship_moves", "troops", "mercenaries", "bribes"]) {
    Object.assign(plan[part], orders[part] || {});
  }
  return plan;
}

// A whole-number field; ``onChange(number)`` returns the number it accepts (at most ``max``).
// ``shown``: a shorter visible label (e.g. "troops" in a row that names its Location).
function numberField(label, value, max, onChange, shown = label) {
  const input = el("input", { type: "number", min: 0, max, step: 1, value, inputmode: "numeric",
    "aria-label": shown === label ? null : label,
    "data-key": `number ${label}` }); // the focus finds it again after a redraw
  input.addEventListener("input", () => {
    const wanted = Math.max(0, Math.floor(Number(input.value) || 0));
    const accepted = onChange(Math.min(max, wanted));
    if (accepted !== wanted && input.value !== "") input.value = accepted;
  });
  return el("label", { class: "field" }, el("span", { "aria-hidden": shown === label ? null : "true" }, shown), input);
}

function total(counts) {
  return Object.values(counts).reduce((sum, n) => sum + n, 0);
}

export class Planner {
  // ``context``: {board, api, seat}; ``planning``: the engine's planning options with the
  // player's money and mercenaries (see play.js). ``api.saveDraft`` answers {preview}.
  constructor(context, view, planning) {
    this.context = context;
    this.turn = view.state.turn;
    const saved = view.draft && view.draft.turn === this.turn ? view.draft.orders : {};
    this.plan = planFromJson(saved);
    this.timer = null;
    this.saves = 0; // drafts sent: only the newest one's preview is shown
    this.preview = null; // the server's preview of the draft (WR-10, WR-11)
    this.busy = false;
    this.element = el("section", { class: "panel planning", "aria-labelledby": "plan-title" });
    this.summary = el("div", { class: "plan-summary", "aria-live": "polite" });
    this.error = el("p", { class: "error", role: "alert", hidden: true });
    this.update(view, planning);
  }

  // Rebuilt only when the plan's situation changes, never under the player's typing.
  update(view, planning) {
    this.view = view;
    this.planning = planning;
    const key = JSON.stringify([view.state.my_orders, view.state.can_unseal, planning]);
    if (key !== this.key) this.render();
    this.key = key;
  }

  changed() {
    this.summary.setAttribute("aria-busy", "true"); // until the server has reckoned it
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.save(), SAVE_DELAY_MS);
  }

  // Keeps the draft on the server, which answers with the engine's preview of it. Offline,
  // the last preview stays (the page's connection notice says why) until the next change.
  async save() {
    this.timer = null;
    const asked = ++this.saves;
    const answer = await this.context.api.saveDraft({ turn: this.turn, orders: ordersJson(this.plan) })
      .catch(() => null);
    if (asked !== this.saves) return;
    if (answer) this.preview = answer.preview;
    this.showPreview();
  }

  async seal() {
    if (this.timer) {
      clearTimeout(this.timer);
      await this.save();
    }
    await this.send({ orders: ordersJson(this.plan) });
  }

  // One action at a time; the server's sentence shown when it refuses (e.g. WR-10 faults).
  async send(action) {
    if (this.busy) return;
    this.busy = true;
    this.error.hidden = true;
    try {
      await this.context.api.act(action);
    } catch (problem) {
      this.error.textContent = problem.message;
      this.error.hidden = false;
    } finally {
      this.busy = false;
    }
  }

  // The focus stays on the control it was on; if that is gone (sealed, taken back), on the
  // panel's heading, which says what the panel is now.
  render() {
    const { board } = this.context;
    const state = this.view.state;
    const sealed = state.my_orders !== null;
    const heading = el("h2", { id: "plan-title", tabindex: -1 }, t("Turn {turn}: your plan", { turn: state.turn }));
    const kept = replaceKeepingFocus(this.element, heading,
      sealed ? this.sealedPart(board, state) : this.form(board, state), this.error);
    if (kept === false) heading.focus();
    if (!sealed) this.save(); // the preview of the plan as it stands
  }

  sealedPart(board, state) {
    const lines = describeOrders(board, state.my_orders);
    const preview = state.my_preview;
    return el("div", { class: "sealed" },
      el("p", {}, t("Your plan is sealed. It is revealed when every player has sealed theirs.")),
      el("ul", {}, lines.length ? lines.map((line) => el("li", {}, line)) : el("li", {}, t("No orders."))),
      costLine(preview.cost, preview.money, preview.left),
      preview.cancelled.length
        ? el("p", { class: "shortfall" }, t("Short by {short}: deployment will cancel {cancelled}.",
          { short: preview.short, cancelled: preview.cancelled.map((charge) => phraseText(charge.phrase)).join(", ") }))
        : null,
      preview.if_captain.length
        ? el("p", { class: "if-captain" }, t("The attacks on {places} stand only if you win the Captain of Calais; otherwise they are cancelled at no cost.",
          { places: preview.if_captain.map((card) => board.name(card)).join(", ") }))
        : null,
      state.can_unseal
        ? el("button", { type: "button", onclick: () => this.send({ unseal: true }) }, t("Withdraw the plan to change it"))
        : null);
  }

  form(board, state) {
    const planning = this.planning;
    const plan = this.plan;
    const form = el("form", { class: "plan-form", "aria-labelledby": "plan-title", onsubmit: (event) => {
      event.preventDefault();
      this.seal();
    } });

    const zoneSelect = el("select", { name: "calais-zone" },
      planning.calais_zones.map((zone) => el("option", { value: zone,
        selected: plan.calais.zone === zone }, board.zones[zone].name)));
    if (!plan.calais.zone) plan.calais.zone = planning.calais_zones[0];
    zoneSelect.addEventListener("change", () => {
      plan.calais.zone = zoneSelect.value;
      this.troops.replaceWith(this.troopsPart(board, state));
      this.changed();
    });
    form.append(el("fieldset", {}, el("legend", {}, t("Captain of Calais")),
      el("div", { class: "row" },
        numberField(t("Calais bid (pounds)"), plan.calais.bid, planning.money, (bid) => {
          const before = plan.calais.bid;
          plan.calais.bid = bid;
          if (Boolean(before) !== Boolean(bid)) this.troops.replaceWith(this.troopsPart(board, state));
          this.changed();
          return bid;
        }),
        el("label", { class: "field" }, el("span", {}, t("Calais lands in")), zoneSelect))));

    // ``verb(name)``: the menu's name for a screen reader, e.g. "Move Percy".
    const moves = (title, verb, part, choices, here, place) => {
      const ids = Object.keys(choices);
      if (!ids.length) return null;
      return el("fieldset", {}, el("legend", {}, title), ids.map((id) => {
        const select = el("select", { name: `${part}-${id}`, "aria-label": verb(board.name(id)) },
          el("option", { value: "" }, t("stays in {place}", { place: here(id) })),
          choices[id].map((to) => el("option", { value: to, selected: plan[part][id] === to },
            t("to {place}", { place: place(to) }))));
        select.addEventListener("change", () => {
          if (select.value) plan[part][id] = select.value;
          else delete plan[part][id];
          this.changed();
        });
        return el("label", { class: "field" }, el("span", {}, board.name(id)), select);
      }));
    };
    form.append(...[
      moves(t("Noble moves (one adjacent zone)"), (name) => t("Move {name}", { name }), "noble_moves",
        planning.noble_moves, (id) => board.zones[state.noble_zone[id]].name, (zone) => board.zones[zone].name),
      moves(t("Ship moves (up to two sea zones)"), (name) => t("Sail {name}", { name }), "ship_moves",
        planning.ship_moves, (id) => board.seaName(state.ship_sea[id]), (sea) => board.seaName(sea)),
    ].filter(Boolean));

    form.append(this.troopsPart(board, state), this.bribesPart(board),
      el("div", { class: "plan-footer" }, this.summary,
        el("button", { type: "submit", class: "primary" }, t("Seal plan"))));
    this.showPreview();
    return form;
  }

  // WR-10: troops on own Locations defend; on an opponent's they attack, where the player is
  // present: the zones of the server's last preview (with the nobles' moves then planned),
  // or where the plan's Calais bid lands: those attacks stand only if the bid wins (WR-11).
  troopsPart(board, state) {
    const planning = this.planning;
    const plan = this.plan;
    this.troopsPresence = this.present().join();
    const present = new Set(this.present());
    const captain = plan.calais.bid > 0 && !present.has(plan.calais.zone) ? plan.calais.zone : null;
    if (captain) present.add(captain);
    const seat = this.context.seat;
    const rows = [];
    for (const [card, owner] of Object.entries(state.owner)) {
      if (!board.isLocation(card)) continue;
      const zone = board.icons[card].zone;
      if (owner !== seat && !present.has(zone)) continue;
      rows.push({ card, owner, zone, role: owner === seat ? "defend" : "attack" });
    }
    rows.sort((a, b) => (a.role === b.role ? a.card.localeCompare(b.card) : a.role === "defend" ? -1 : 1));
    // Troops where the player is no longer present (a noble's move undone) leave the plan,
    // once the server has said where the plan is present (a reloaded plan keeps them).
    const shown = new Set(rows.map((row) => row.card));
    let dropped = false;
    for (const part of this.preview?.present ? [plan.troops, plan.mercenaries] : []) {
      for (const card of Object.keys(part)) {
        if (shown.has(card)) continue;
        delete part[card];
        dropped = true;
      }
    }
    if (dropped) this.changed();
    const mercenaries = planning.mercenaries;
    const limits = { cost: planning.troop_cost, max: planning.troops_max, held: mercenaries };
    this.troops = el("fieldset", { class: "troops" },
      el("legend", {}, mercenaries
        ? tn("Troops ({n} pound each, at most {max}) and mercenaries ({held} held, free)",
          "Troops ({n} pounds each, at most {max}) and mercenaries ({held} held, free)", limits.cost, limits)
        : tn("Troops ({n} pound each, at most {max})", "Troops ({n} pounds each, at most {max})", limits.cost, limits)),
      rows.length ? null : el("p", { class: "muted" }, t("You hold no Location and are present nowhere to attack.")),
      rows.map(({ card, owner, zone, role }) => el("div", { class: `troop-row ${role}`, "data-card": card },
        el("span", { class: "who", style: `--seat: ${SEAT_COLOURS[owner]}` },
          role === "defend" ? t("Defend {place}", { place: board.name(card) }) : t("Attack {place}", { place: board.name(card) }),
          " ", el("small", {}, t("{kind}, {zone}, garrison {garrison}", { kind: kindName(board.kind(card)),
            zone: board.zones[zone].name, garrison: board.garrison(card) })),
          role === "attack" && zone === captain
            ? el("small", { class: "if-captain" }, t("only if you win the Captain of Calais; otherwise cancelled at no cost"))
            : null),
        numberField(t("Troops on {place}", { place: board.name(card) }), plan.troops[card] || 0, planning.troops_max,
          (count) => {
            plan.troops[card] = 0;
            plan.troops[card] = Math.min(count, planning.troops_max - total(plan.troops));
            this.changed();
            return plan.troops[card];
          }, t("troops")),
        mercenaries ? numberField(t("Mercenaries on {place}", { place: board.name(card) }), plan.mercenaries[card] || 0,
          mercenaries, (count) => {
            plan.mercenaries[card] = 0;
            plan.mercenaries[card] = Math.min(count, mercenaries - total(plan.mercenaries));
            this.changed();
            return plan.mercenaries[card];
          }, t("mercenaries")) : null)));
    return this.troops;
  }

  bribesPart(board) {
    const planning = this.planning;
    const plan = this.plan;
    const costs = planning.cube_costs;
    const colourOf = (card) => (card in costs.white ? "white" : "black");
    const byName = (a, b) => board.name(a).localeCompare(board.name(b));
    const cards = [...Object.keys(costs.white).sort(byName), ...Object.keys(costs.black).sort(byName)];
    const boxes = cards.map((card) => {
      const colour = colourOf(card);
      const box = el("input", { type: "checkbox", name: `bribe-${card}`, checked: plan.bribes[card] === colour });
      box.addEventListener("change", () => {
        if (box.checked) plan.bribes[card] = colour;
        else delete plan.bribes[card];
        this.changed();
      });
      const name = board.name(card);
      return el("label", { class: `check bribe ${colour}` }, box,
        colour === "white" ? t("White cube on your {name}", { name }) : t("Black cube on {name}", { name }),
        " ", el("small", {}, pounds(costs[colour][card])));
    });
    return el("fieldset", { class: "bribes" },
      el("legend", {}, t("Bribes: white cubes guard your own Personalities, black cubes take others'")),
      boxes.length ? boxes : el("p", { class: "muted" }, t("Nobody holds a Personality yet.")));
  }

  present() {
    return this.preview?.present || this.planning.present;
  }

  // The server's preview: the cost line and what a shortfall would cancel; the troops part
  // drawn again when the zones where the player is present have changed (a noble's move).
  showPreview() {
    const preview = this.preview;
    this.summary.removeAttribute("aria-busy");
    if (this.troops && this.element.contains(this.troops) && this.troopsPresence !== this.present().join()) {
      const key = focusedKey(this.troops);
      const before = this.troops;
      before.replaceWith(this.troopsPart(this.context.board, this.view.state));
      if (key !== null) keyed(this.troops, key)?.focus({ preventScroll: true });
    }
    if (!preview) {
      this.summary.replaceChildren();
      return;
    }
    if (preview.problem) {
      this.summary.replaceChildren(el("p", { class: "error" }, `${preview.problem.field}: ${preview.problem.message}`));
      return;
    }
    this.summary.replaceChildren(...[
      costLine(preview.cost, preview.money, preview.left),
      preview.cancelled.length
        ? el("p", { class: "shortfall" }, t("Short by {short}: deployment would cancel {cancelled}.",
          { short: preview.short, cancelled: preview.cancelled.map((charge) => phraseText(charge.phrase)).join(", ") }))
        : null,
      // What the game would refuse the plan for, in the reader's language (a sea in words).
      preview.faults.length
        ? el("ul", { class: "faults error" }, preview.faults.map((fault) => el("li", { "data-field": fault.field }, faultText(fault))))
        : null,
    ].filter(Boolean));
  }
}

// "Cost 11 pounds · money 20 · left 9".
function costLine(cost, money, left) {
  return el("p", {}, el("strong", {}, tn("Cost {n} pound", "Cost {n} pounds", cost)), " · ",
    t("money {money} · left {left}", { money, left }));
}

// A plan in words, for the sealed plan and the reveal.
export function describeOrders(board, orders) {
  const lines = [];
  if (orders.calais) {
    lines.push(t("Bids {bid} for Calais in {zone}", { bid: orders.calais.bid, zone: board.zones[orders.calais.zone]?.name }));
  }
  for (const [noble, zone] of Object.entries(orders.noble_moves || {})) {
    lines.push(t("Moves {name} to {zone}", { name: board.name(noble), zone: board.zones[zone].name }));
  }
  for (const [ship, sea] of Object.entries(orders.ship_moves || {})) {
    lines.push(t("Sails {name} to {sea}", { name: board.name(ship), sea: board.seaName(sea) }));
  }
  const places = new Set([...Object.keys(orders.troops || {}), ...Object.keys(orders.mercenaries || {})]);
  for (const card of places) {
    const place = board.name(card);
    const troops = orders.troops?.[card] || 0;
    const mercenaries = orders.mercenaries?.[card] || 0;
    if (troops && mercenaries) {
      lines.push(t("{troops} and {mercenaries} on {place}", { place,
        troops: tn("{n} troop", "{n} troops", troops),
        mercenaries: tn("{n} mercenary", "{n} mercenaries", mercenaries) }));
    } else if (troops) lines.push(tn("{n} troop on {place}", "{n} troops on {place}", troops, { place }));
    else lines.push(tn("{n} mercenary on {place}", "{n} mercenaries on {place}", mercenaries, { place }));
  }
  for (const [card, colour] of Object.entries(orders.bribes || {})) {
    const name = board.name(card);
    lines.push(colour === "white" ? t("A white cube on {name}", { name }) : t("A black cube on {name}", { name }));
  }
  return lines;
}
