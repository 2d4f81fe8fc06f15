// Small helpers shared by the Wars of the Roses page: seat colours, board lookups, the names
// of phases and icons in the reader's language.

import { t, tn } from "../js/i18n.js";

export { t, tn };

export const SEAT_COLOURS = ["#b3262e", "#d4a017", "#2e7d32", "#1f5fa8"];
// The engine's phase names (the views' ``phase``), to compare with; phaseName() shows them.
export const PHASE = {
  draw: "draw cards", income: "income", planning: "planning", deployment: "deployment",
  bribery: "bribery", combat: "combat", parliament: "parliament", over: "game over",
};

export function kindName(kind) {
  const names = {
    castle: t("Royal Castle"), large_town: t("Large Town"), town: t("Town"), port: t("Port"),
    bishop: t("Bishop"), ship: t("Ship"), noble: t("Noble"), mercenary: t("Mercenaries"),
  };
  return names[kind] || kind;
}

// A seat's name in the reader's language: the game names its seats in English (the views,
// the materials); the page translates them where it shows them.
export function seatWord(label) {
  const words = { Red: t("Red"), Yellow: t("Yellow"), Green: t("Green"), Blue: t("Blue") };
  return words[label] || label;
}

// Seat names as a list: "Red, Yellow".
export function seatWords(labels) {
  return labels.map(seatWord).join(", ");
}

// The engine's sentences (its log, a sealed plan's cancelled parts) in the reader's
// language: an English template and its values (roses/wotr/text.py). Texts among the values
// are translated where the catalogue has them (a seat's colour, an award, "nobody"); a
// place's name stays; a list is joined with commas; a count takes its plural form.
export function phraseText(phrase) {
  const params = Object.fromEntries(Object.entries(phrase.params).map(([name, value]) => [name, valueText(value)]));
  if (phrase.plural === undefined) return t(phrase.template, params);
  return tn(phrase.template, phrase.plural, phrase.params.n, params);
}

// A refusal of the engine as a player reads it: "(WR-10)" is for the readers of the rules
// file and the code, not a word of the game.
export function faultText(fault) {
  return phraseText(fault).replace(/\s*\(WR-\d+\)|,\s*WR-\d+(?=\))/g, "");
}

function valueText(value) {
  if (Array.isArray(value)) return value.map(valueText).join(", ");
  if (typeof value === "string") return t(value);
  if (value !== null && typeof value === "object") return phraseText(value);
  return value;
}

export function phaseName(phase) {
  const names = {
    "turn order": t("turn order"), "draw cards": t("draw cards"), income: t("income"),
    planning: t("planning"), deployment: t("deployment"), bribery: t("bribery"),
    combat: t("combat"), parliament: t("parliament"), "game over": t("game over"),
  };
  return names[phase] || phase;
}

// The board data file's JSON with lookup tables (the file leaves default values out).
export class Board {
  constructor(data) {
    this.data = data;
    this.zones = Object.fromEntries(data.zones.map((zone) => [zone.id, zone]));
    this.seas = data.seas.map((sea) => sea.id);
    this.seaZone = Object.fromEntries(data.seas.map((sea) => [sea.id, sea.zone]));
    this.icons = Object.fromEntries(
      data.icons.map((icon) => [icon.id, { income: 0, cathedral: false, ...icon }]),
    );
    this.nobles = Object.fromEntries(data.nobles.map((noble) => [noble.id, noble]));
    this.map = data.map;
  }

  kind(card) {
    if (this.icons[card]) return this.icons[card].kind;
    return this.nobles[card] ? "noble" : "mercenary";
  }

  name(card) {
    // A noble's name is a proper name; a bishop's, a ship's or an award's is translated.
    if (this.icons[card]) return t(this.icons[card].name);
    return this.nobles[card]?.name || t("Mercenaries");
  }

  // A sea zone in words, as the engine says it (BoardData.sea_name): "the sea off Wales";
  // a zone with two seas has a west one and an east one, along the chain (WR-5).
  seaName(sea) {
    const zone = this.zones[this.seaZone[sea]];
    const seas = this.seas.filter((other) => this.seaZone[other] === zone.id);
    if (seas.length === 1) return t("the sea off {zone}", { zone: zone.name });
    return seas.indexOf(sea) === 0
      ? t("the west sea off {zone}", { zone: zone.name })
      : t("the east sea off {zone}", { zone: zone.name });
  }

  // A Location's garrison (WR-13): the troops its owner's cube is worth when attacked.
  garrison(card) {
    return this.data.garrisons[this.icons[card].kind];
  }

  // WR-8: what a Mercenary card picked now gives: this turn's number on the troops chart,
  // as many as the supply still holds; the tokens may be used this turn or kept.
  mercenariesNow(turn, supply) {
    return Math.min(this.data.troops.mercenaries_per_card[turn - 1], supply);
  }

  isLocation(card) {
    return ["castle", "large_town", "town", "port"].includes(this.icons[card]?.kind);
  }

  // What a card is, in a few words: "Large Town, Northern England, income 4"; a Mercenary
  // card's needs the turn and the mercenaries left in the supply.
  describe(card, turn = 1, supply = 0) {
    const noble = this.nobles[card];
    if (noble) return t("Noble of {cp} CP, home {zone}", { cp: noble.cp, zone: this.zones[noble.home].name });
    const icon = this.icons[card];
    if (!icon) {
      const now = this.mercenariesNow(turn, supply);
      return tn("{n} mercenary now (troops chart, turn {turn}), to use this turn or keep; {supply} left in the supply",
        "{n} mercenaries now (troops chart, turn {turn}), to use this turn or keep; {supply} left in the supply",
        now, { turn, supply });
    }
    const facts = { kind: kindName(icon.kind), zone: this.zones[icon.zone].name, income: icon.income };
    if (icon.income && icon.cathedral) return t("{kind}, {zone}, income {income}, cathedral", facts);
    if (icon.income) return t("{kind}, {zone}, income {income}", facts);
    if (icon.cathedral) return t("{kind}, {zone}, cathedral", facts);
    return t("{kind}, {zone}", facts);
  }
}

export function pounds(n) {
  return tn("{n} pound", "{n} pounds", n);
}
