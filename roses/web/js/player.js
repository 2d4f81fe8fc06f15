// A player's page: ratings with their history, games played and won, recent games.
import { api } from "./api.js";
import { el, svg } from "./kit.js";
import { t, tn } from "./i18n.js";
import { systemName } from "./rating-system.js";

const main = document.getElementById("main");
// The rating after each rated game, with its deviation as a band.
export function historyPlot(points, width = 320, height = 120) {
  const plot = svg("svg", { class: "rating-history", viewBox: `0 0 ${width} ${height}`, width, height, role: "img" });
  plot.setAttribute("aria-label", t("Rating history: {ratings}", { ratings: points.map((p) => Math.round(p.rating)).join(", ") }));
  const all = [{ rating: 1500, deviation: 350 }, ...points];
  const low = Math.min(...all.map((p) => p.rating - p.deviation));
  const high = Math.max(...all.map((p) => p.rating + p.deviation));
  const x = (i) => 8 + (i * (width - 16)) / Math.max(all.length - 1, 1);
  const y = (r) => height - 8 - ((r - low) * (height - 16)) / Math.max(high - low, 1);
  const band = [...all.map((p, i) => `${x(i)},${y(p.rating + p.deviation)}`),
    ...all.map((p, i) => `${x(i)},${y(p.rating - p.deviation)}`).reverse()].join(" ");
  plot.append(svg("polygon", { points: band, class: "deviation" }),
    svg("polyline", { points: all.map((p, i) => `${x(i)},${y(p.rating)}`).join(" "), class: "rating" }));
  return plot;
}

// A variant ("<game> 2p") in words: the game's title (``titles``, from the catalogue) and
// its number of players.
function variantName(titles, game, variant) {
  return t("{game}, {n} players", { game: titles[game] ? t(titles[game]) : game, n: parseInt(variant, 10) });
}

function statusText(status) {
  const words = { waiting: t("waiting for players"), active: t("being played"), finished: t("finished"), cancelled: t("cancelled") };
  return words[status] || status;
}

function ratings(profile, titles) {
  if (profile.ratings.length === 0) {
    return el("p", { class: "muted" }, profile.guest ? t("Guests are never rated.") : t("No rated games yet."));
  }
  return profile.ratings.map((r) => el("div", { class: "rating" },
    el("h2", {}, el("a", { href: `/ratings?game=${r.game}&variant=${r.variant}` }, variantName(titles, r.game, r.variant)), ": ",
      el("strong", { class: "rating-value" }, Math.round(r.rating)), " ", tn("± {deviation} · {n} rated game", "± {deviation} · {n} rated games", r.games, { deviation: Math.round(r.deviation) }),
      " ", el("span", { class: "muted rating-system" }, t("({system})", { system: systemName(r.system) }))),
    historyPlot(r.history)));
}

function record(profile, titles) {
  if (profile.record.length === 0) return el("p", { class: "muted" }, t("No finished games yet."));
  return el("table", { class: "record" },
    el("thead", {}, el("tr", {}, el("th", {}, t("Game")), el("th", {}, t("Seat")), el("th", {}, t("Played")), el("th", {}, t("Won")))),
    el("tbody", {}, profile.record.flatMap((g) => [
      el("tr", {}, el("th", {}, variantName(titles, g.game, g.variant)), el("td", {}, t("all")), el("td", {}, g.played), el("td", {}, g.won)),
      ...g.seats.map((s) => el("tr", {}, el("td", {}), el("td", {}, t(s.seat)), el("td", {}, s.played), el("td", {}, s.won))),
    ])));
}

function recent(profile) {
  if (profile.recent.length === 0) return el("p", { class: "muted" }, t("No games yet."));
  return el("ul", { class: "recent" }, profile.recent.map((g) => el("li", {},
    el("a", { href: g.status === "finished" ? `/games/${g.id}/replay` : `/games/${g.id}` }, t("{game} · game {id}", { game: t(g.title), id: g.id })),
    " · ", statusText(g.status))));
}

async function start() {
  const name = decodeURIComponent(location.pathname.split("/").pop());
  const [profile, catalog] = await Promise.all([api(`/api/players/${encodeURIComponent(name)}`), api("/api/catalog")]);
  const titles = Object.fromEntries(catalog.games.map((game) => [game.name, game.title]));
  document.title = t("roses · {name}", { name: profile.name });
  main.replaceChildren(el("section", { class: "panel profile" },
    el("h1", {}, profile.guest ? t("{name} (guest)", { name: profile.name }) : profile.name),
    ratings(profile, titles),
    el("h2", {}, t("Games played and won")), record(profile, titles),
    el("h2", {}, t("Recent games")), recent(profile)));
}

start().catch((problem) => main.replaceChildren(el("p", { class: "error" }, problem.message)));
