// A player's page: ratings with their history, games played and won, recent games.
import { api, el } from "./api.js";

const main = document.getElementById("main");
const SVG = "http://www.w3.org/2000/svg";

function svg(tag, attributes) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  return node;
}

// The rating after each rated game, with its deviation as a band.
export function historyPlot(points, width = 320, height = 120) {
  const plot = svg("svg", { class: "rating-history", viewBox: `0 0 ${width} ${height}`, width, height, role: "img" });
  plot.setAttribute("aria-label", `rating history: ${points.map((p) => Math.round(p.rating)).join(", ")}`);
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

function ratings(profile) {
  if (profile.ratings.length === 0) {
    return el("p", { class: "muted" }, profile.guest ? "Guests are never rated." : "No rated games yet.");
  }
  return profile.ratings.map((r) => el("div", { class: "rating" },
    el("h3", {}, el("a", { href: `/ratings?game=${r.game}&variant=${r.variant}` }, `${r.game} ${r.variant}`), ": ",
      el("strong", { class: "rating-value" }, Math.round(r.rating)), ` ± ${Math.round(r.deviation)} · ${r.games} rated games`),
    historyPlot(r.history)));
}

function record(profile) {
  if (profile.record.length === 0) return el("p", { class: "muted" }, "No finished games yet.");
  return el("table", { class: "record" },
    el("thead", {}, el("tr", {}, el("th", {}, "Game"), el("th", {}, "Seat"), el("th", {}, "Played"), el("th", {}, "Won"))),
    el("tbody", {}, profile.record.flatMap((g) => [
      el("tr", {}, el("th", {}, `${g.game} ${g.variant}`), el("td", {}, "all"), el("td", {}, g.played), el("td", {}, g.won)),
      ...g.seats.map((s) => el("tr", {}, el("td", {}), el("td", {}, s.seat), el("td", {}, s.played), el("td", {}, s.won))),
    ])));
}

function recent(profile) {
  if (profile.recent.length === 0) return el("p", { class: "muted" }, "No games yet.");
  return el("ul", { class: "recent" }, profile.recent.map((g) => el("li", {},
    el("a", { href: g.status === "finished" ? `/games/${g.id}/replay` : `/games/${g.id}` }, `${g.title} · game ${g.id}`),
    ` · ${g.status}`)));
}

async function start() {
  const name = decodeURIComponent(location.pathname.split("/").pop());
  const profile = await api(`/api/players/${encodeURIComponent(name)}`);
  document.title = `roses · ${profile.name}`;
  main.replaceChildren(el("section", { class: "panel profile" },
    el("h2", {}, profile.name, profile.guest ? " (guest)" : ""),
    ratings(profile),
    el("h3", {}, "Games played and won"), record(profile),
    el("h3", {}, "Recent games"), recent(profile)));
}

start().catch((problem) => main.replaceChildren(el("p", { class: "error" }, problem.message)));
