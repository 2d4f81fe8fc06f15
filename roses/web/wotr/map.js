// The map of England and Wales (WR-1, WR-5) drawn from the board file's schematic layout:
// zones, the chain of sea zones, every icon in its owner's colour, nobles where they stand,
// ships where they sail, the Captain of Calais and, during a reveal, the troops placed.
// The same table told area by area (areaList) is what a screen reader walks.

import { SEAT_COLOURS, kindName, seatWord, t, tn } from "./dom.js";
import { el, svg } from "../js/kit.js";

const ZONE_FILLS = {
  NM: "#e9e2cf", NE: "#efe6cc", MI: "#e6e9cf", SE: "#efe2d2", WC: "#e4e8d6", WA: "#e8dfd0",
};
const NEUTRAL = "#fbf8f1";

function ownerColour(seat) {
  return seat === null || seat === undefined ? NEUTRAL : SEAT_COLOURS[seat];
}

function textColour(seat) {
  return seat === 1 || seat === null || seat === undefined ? "#2b2420" : "#fff";
}

// One icon's glyph centred on (0, 0): castle a tower, towns circles, port a triangle,
// bishop a mitre (diamond), ship a hull.
function glyph(kind, fill) {
  const stroke = { stroke: "#2b2420", "stroke-width": 2, fill };
  switch (kind) {
    case "castle":
      return svg("path", { d: "M-15 15 V-9 H-10 V-15 H-4 V-9 H4 V-15 H10 V-9 H15 V15 Z", ...stroke });
    case "large_town":
      return svg("circle", { r: 15, ...stroke });
    case "town":
      return svg("circle", { r: 11, ...stroke });
    case "port":
      return svg("path", { d: "M0 -14 L14 12 H-14 Z", ...stroke });
    case "bishop":
      return svg("path", { d: "M0 -15 L12 0 L0 15 L-12 0 Z", ...stroke });
    default:
      return svg("path", { d: "M-16 -2 H16 L10 11 H-10 Z M-1 -2 V-16 L9 -6 H-1", ...stroke });
  }
}

const LETTER = { castle: "C", large_town: "L", town: "T", port: "P", bishop: "B", ship: "S" };

// The key to the icons' letters, drawn under the map.
export function legend() {
  return el("ul", { class: "map-legend", "aria-label": t("Map key") },
    Object.entries(LETTER).map(([kind, letter]) => el("li", {}, el("b", {}, letter), " ", kindName(kind))));
}

// A hover tooltip's text: "York (Large Town): held by Red".
function holderName(labels, seat) {
  return seat === null || seat === undefined ? t("nobody") : seatWord(labels[seat]);
}

function icon(board, labels, id, x, y, seat, troops) {
  const data = board.icons[id];
  const group = svg("g", {
    class: `icon ${data.kind}`, transform: `translate(${x} ${y}) scale(1.45)`, "data-card": id,
    "data-owner": seat ?? "",
  },
  svg("title", {}, t("{name} ({kind}): held by {holder}",
    { name: board.name(id), kind: kindName(data.kind), holder: holderName(labels, seat) })),
  glyph(data.kind, ownerColour(seat)),
  svg("text", { class: "letter", y: 7, fill: textColour(seat) }, LETTER[data.kind]));
  troops.forEach(({ seat: placer, count }, index) => {
    // Beside the glyph, clear of it, one badge per seat.
    group.append(svg("g", { class: "troops", "data-seat": placer, transform: `translate(${26 + index * 22} -16) scale(0.8)` },
      svg("rect", { x: -12, y: -11, width: 24, height: 22, rx: 5, fill: SEAT_COLOURS[placer],
        stroke: "#2b2420" }),
      svg("text", { y: 6, fill: textColour(placer) }, count)));
  });
  return group;
}

const NOBLE_SCALE = 1.2;

// A noble's tile width before scaling: long names fit their tile.
function nobleWidth(data) {
  return Math.max(80, `${data.name} ${data.cp}`.length * 9 + 8);
}

function noble(board, labels, id, x, y, seat) {
  const data = board.nobles[id];
  const label = `${data.name} ${data.cp}`;
  const width = nobleWidth(data);
  return svg("g", { class: "noble", transform: `translate(${x} ${y}) scale(${NOBLE_SCALE})`, "data-card": id,
    "data-owner": seat ?? "" },
    svg("title", {}, t("Noble {name} ({cp} CP): held by {holder}",
      { name: data.name, cp: data.cp, holder: holderName(labels, seat) })),
    svg("rect", { x: -width / 2, y: -14, width, height: 28, rx: 8, fill: ownerColour(seat),
      stroke: "#2b2420", "stroke-width": 2 }),
    svg("text", { y: 6, fill: textColour(seat) }, label));
}

// ``table``: owner, noble_zone, ship_sea, calais from a view's state; ``troops``: Location ->
// [{seat, count, left}] to show on the map (a reveal's troops placed, or ``left`` after the
// battles), or {}; ``labels``: the seat names.
// A picture for the eyes (its tooltips for the mouse): areaList tells the same in words.
export function drawMap(board, table, labels, troops = {}) {
  const layout = board.map;
  const drawing = svg("svg", {
    class: "wotr-map", viewBox: `0 0 ${layout.width} ${layout.height}`, role: "img",
    "aria-label": t("Map of England and Wales; the list of areas below tells what is in each area"),
  });
  drawing.append(svg("rect", { class: "sea", width: layout.width, height: layout.height }));
  const anchors = board.seas.map((sea) => layout.seas[sea]);
  drawing.append(svg("polyline", { class: "sea-chain", points: anchors.map((p) => p.join(",")).join(" ") }));
  for (const [id, shape] of Object.entries(layout.zones)) {
    const zone = board.zones[id];
    drawing.append(svg("polygon", { class: "zone", "data-zone": id, fill: ZONE_FILLS[id] || "#eee",
      points: shape.outline.map((p) => p.join(",")).join(" ") },
    svg("title", {}, tn("{zone}: {n} vote in Parliament; {first} VP for the most control points, {second} VP for the second",
      "{zone}: {n} votes in Parliament; {first} VP for the most control points, {second} VP for the second",
      zone.votes, { zone: zone.name, first: zone.vp[0], second: zone.vp[1] }))));
  }
  for (const [id, shape] of Object.entries(layout.zones)) {
    const zone = board.zones[id];
    const [x, y] = shape.label;
    drawing.append(svg("text", { class: "zone-name", x, y }, zone.name));
    drawing.append(svg("text", { class: "zone-votes", x, y: y + 28 }, // clear of the name above
      tn("{n} vote · {vp} VP", "{n} votes · {vp} VP", zone.votes, { vp: `${zone.vp[0]}/${zone.vp[1]}` })));
  }
  board.seas.forEach((sea) => {
    const [x, y] = layout.seas[sea];
    drawing.append(svg("g", { class: "sea-zone", "data-sea": sea, transform: `translate(${x} ${y})` },
      svg("title", {}, t("{sea}: its ships count for {zone}", { sea: board.seaName(sea), zone: board.zones[board.seaZone[sea]].name })),
      svg("circle", { r: 30 }),
      svg("text", { y: 7, "aria-hidden": "true" }, "≈"))); // a wave: its name is in words, in the title
  });
  const afloat = {}; // ships away from their home sea, per sea zone
  for (const [id, point] of Object.entries(layout.icons)) {
    const data = board.icons[id];
    let [x, y] = point;
    if (data.kind === "ship") {
      const home = board.icons[data.port].sea;
      const sea = table.ship_sea[id];
      if (sea !== home) { // in a row under the sea zone's circle, clear of it
        const index = (afloat[sea] = (afloat[sea] || 0) + 1) - 1;
        [x, y] = layout.seas[sea];
        x += (index % 2 ? 1 : -1) * (30 + 60 * Math.floor(index / 2));
        y += 58;
      }
    }
    drawing.append(icon(board, labels, id, x, y, table.owner[id], troops[id] || []));
  }
  for (const [zone, ids] of Object.entries(standing(table))) {
    // Two columns as far apart as the widest tile needs, rows under one another.
    const [x, y] = layout.zones[zone].nobles;
    const apart = Math.max(...ids.map((id) => nobleWidth(board.nobles[id]))) * NOBLE_SCALE / 2 + 4;
    ids.forEach((id, index) => {
      drawing.append(noble(board, labels, id, x + (index % 2 ? apart : -apart), y + Math.floor(index / 2) * 40,
        table.owner[id]));
    });
  }
  if (table.calais) {
    const [holder, zone] = table.calais;
    const [x, y] = layout.zones[zone].label;
    drawing.append(svg("g", { class: "calais", transform: `translate(${x + 215} ${y - 8})` }, // beside the name
      svg("title", {}, t("The Captain of Calais ({cp} CP) for {seat}", { cp: board.data.calais.cp, seat: seatWord(labels[holder]) })),
      svg("rect", { x: -40, y: -16, width: 80, height: 30, rx: 4, fill: SEAT_COLOURS[holder],
        stroke: "#c9971c", "stroke-width": 4 }),
      svg("text", { y: 6, fill: textColour(holder) }, t("Calais"))));
  }
  return drawing;
}

// The nobles on the board per zone, in name order.
function standing(table) {
  const zones = {};
  for (const [id, zone] of Object.entries(table.noble_zone)) (zones[zone] = zones[zone] || []).push(id);
  for (const ids of Object.values(zones)) ids.sort();
  return zones;
}

// The map area by area, for a screen reader and the keyboard: each zone with its votes and
// VP, every icon and noble in it with who holds it, the ships in its sea zones, the Captain
// of Calais and, during a reveal, the troops placed. ``labels``: the seat names.
export function areaList(board, table, labels, troops = {}) {
  const holder = (card) => holderName(labels, table.owner[card]);
  const placed = (card) => (troops[card] || []).map(({ seat, count, left }) => (left
    ? tn("{seat} has {n} troop left after the battles", "{seat} has {n} troops left after the battles", count,
      { seat: seatWord(labels[seat]) })
    : tn("{seat} places {n} troop", "{seat} places {n} troops", count, { seat: seatWord(labels[seat]) })));
  const line = (text, card, extra = []) => el("li", { "data-card": card, "data-owner": table.owner[card] ?? "" },
    [text, ...extra].join("; "));
  const nobles = standing(table);
  const zones = Object.keys(board.map.zones).map((id) => {
    const zone = board.zones[id];
    const here = [];
    for (const [card, data] of Object.entries(board.icons)) {
      if (data.kind === "ship" || data.zone !== id) continue;
      // A bishop's name says what it is ("Bishop of Durham"): no kind before it.
      const said = data.kind === "bishop"
        ? t("{name}: held by {holder}", { name: board.name(card), holder: holder(card) })
        : t("{kind} {name}: held by {holder}", { kind: kindName(data.kind), name: board.name(card),
          holder: holder(card) });
      here.push(line(said, card, placed(card)));
    }
    for (const card of nobles[id] || []) {
      here.push(line(t("Noble {name} ({cp} CP): held by {holder}", { name: board.nobles[card].name,
        cp: board.nobles[card].cp, holder: holder(card) }), card));
    }
    for (const [card, sea] of Object.entries(table.ship_sea)) {
      if (board.seaZone[sea] !== id) continue;
      here.push(line(t("{name} in {sea}: held by {holder}", { name: board.name(card), sea: board.seaName(sea),
        holder: holder(card) }), card));
    }
    if (table.calais && table.calais[1] === id) {
      here.push(el("li", {}, t("The Captain of Calais ({cp} CP) for {seat}",
        { cp: board.data.calais.cp, seat: seatWord(labels[table.calais[0]]) })));
    }
    return el("li", { class: "area", "data-zone": id },
      el("h3", {}, zone.name),
      el("p", { class: "small" }, tn("{n} vote in Parliament; {first} VP for the most control points, {second} VP for the second",
        "{n} votes in Parliament; {first} VP for the most control points, {second} VP for the second",
        zone.votes, { first: zone.vp[0], second: zone.vp[1] })),
      el("ul", {}, here));
  });
  return el("ul", { class: "areas" }, zones);
}

// The map and, under it, the same table told area by area (closed until opened).
export function mapParts(board, table, labels, troops, open) {
  return [drawMap(board, table, labels, troops), legend(),
    el("details", { class: "panel map-areas", open: open.value,
      ontoggle: (event) => { open.value = event.target.open; } },
    el("summary", { "data-key": "areas" }, el("h2", {}, t("The map, area by area"))),
    areaList(board, table, labels, troops))];
}
