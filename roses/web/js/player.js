// A player's page: follow or block them, ratings with their history (axes and dates), games
// played and won with the win rates, and the history of their games, filtered and paged.
import { api, ApiError } from "./api.js";
import { el, svg } from "./kit.js";
import { t, tn } from "./i18n.js";
import { systemName } from "./rating-system.js";
import { accountName } from "./bot_mark.js";
import { pageLocale, shortDate } from "./dates.js";

const main = document.getElementById("main");
const PLOT = { left: 48, right: 12, top: 10, bottom: 34 };

// Round tick values for the rating axis: about four, on a step of 50, 100, 200 or 500.
function ratingTicks(low, high) {
  const step = [50, 100, 200, 500].find((s) => (high - low) / s <= 5) || 1000;
  const ticks = [];
  for (let v = Math.ceil(low / step) * step; v <= high; v += step) ticks.push(v);
  return ticks;
}

// The rating after each rated game, with its deviation as a band; the rating on the left
// axis and the games' dates below (in the page's language).
export function historyPlot(points, width = 480, height = 200) {
  const plot = svg("svg", { class: "rating-history", viewBox: `0 0 ${width} ${height}`, role: "img", preserveAspectRatio: "xMinYMin meet" });
  plot.setAttribute("aria-label", t("Rating history: {ratings}", { ratings: points.map((p) => Math.round(p.rating)).join(", ") }));
  const all = [{ rating: 1500, deviation: 350 }, ...points];
  const low = Math.min(...all.map((p) => p.rating - p.deviation));
  const high = Math.max(...all.map((p) => p.rating + p.deviation));
  const inner = { w: width - PLOT.left - PLOT.right, h: height - PLOT.top - PLOT.bottom };
  const x = (i) => PLOT.left + (i * inner.w) / Math.max(all.length - 1, 1);
  const y = (r) => PLOT.top + inner.h - ((r - low) * inner.h) / Math.max(high - low, 1);
  const band = [...all.map((p, i) => `${x(i)},${y(p.rating + p.deviation)}`),
    ...all.map((p, i) => `${x(i)},${y(p.rating - p.deviation)}`).reverse()].join(" ");
  const bottom = PLOT.top + inner.h;
  const yAxis = svg("g", { class: "axis y-axis" },
    svg("line", { x1: PLOT.left, y1: PLOT.top, x2: PLOT.left, y2: bottom }),
    ...ratingTicks(low, high).map((v) => svg("g", { class: "tick" },
      svg("line", { x1: PLOT.left - 4, y1: y(v), x2: PLOT.left, y2: y(v) }),
      svg("text", { x: PLOT.left - 6, y: y(v) + 4, "text-anchor": "end" }, String(v)))));
  // Dates under the first game, the last and one between (fewer when they would crowd).
  const dated = [1, Math.round(all.length / 2), all.length - 1].filter((i, k, list) => i >= 1 && i < all.length && list.indexOf(i) === k);
  const xAxis = svg("g", { class: "axis x-axis" },
    svg("line", { x1: PLOT.left, y1: bottom, x2: width - PLOT.right, y2: bottom }),
    svg("text", { x: x(0), y: bottom + 14, "text-anchor": "start", class: "start" }, t("start")),
    ...dated.map((i) => svg("g", { class: "tick" },
      svg("line", { x1: x(i), y1: bottom, x2: x(i), y2: bottom + 4 }),
      svg("text", { x: x(i), y: bottom + 28, "text-anchor": i === all.length - 1 ? "end" : "middle" }, shortDate(all[i].at)))));
  plot.append(yAxis, xAxis, svg("polygon", { points: band, class: "deviation" }),
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

function percent(rate) {
  return new Intl.NumberFormat(pageLocale(), { style: "percent", maximumFractionDigits: 0 }).format(rate);
}

function record(profile, titles) {
  if (profile.record.length === 0) return el("p", { class: "muted" }, t("No finished games yet."));
  return el("table", { class: "record" },
    el("thead", {}, el("tr", {}, el("th", {}, t("Game")), el("th", {}, t("Seat")), el("th", {}, t("Played")), el("th", {}, t("Won")), el("th", {}, t("Win rate")))),
    el("tbody", {}, profile.record.flatMap((g) => [
      el("tr", {}, el("th", {}, variantName(titles, g.game, g.variant)), el("td", {}, t("all")), el("td", {}, g.played), el("td", {}, g.won), el("td", { class: "win-rate" }, percent(g.win_rate))),
      ...g.seats.map((s) => el("tr", {}, el("td", {}), el("td", {}, t(s.seat)), el("td", {}, s.played), el("td", {}, s.won), el("td", { class: "win-rate" }, percent(s.win_rate)))),
    ])));
}

const RESULTS = () => ({ won: t("won"), lost: t("lost"), drawn: t("drawn"), playing: t("being played") });

function opponentName(opponent) {
  return opponent.player || (opponent.bot ? t("{bot} bot", { bot: opponent.bot }) : t("open"));
}

function historyRow(game, titles) {
  return el("tr", { "data-game": game.id, class: `result-${game.result}` },
    el("td", {}, el("time", { datetime: game.date }, shortDate(game.date))),
    el("td", {}, el("a", { href: game.result === "playing" ? `/games/${game.id}` : `/games/${game.id}/replay` }, variantName(titles, game.game, game.variant))),
    el("td", {}, t(game.seat)),
    el("td", { class: "opponents" }, game.opponents.map((o) => t("{seat}: {player}", { seat: t(o.seat), player: opponentName(o) })).join(" · ")),
    el("td", { class: "result" }, RESULTS()[game.result]),
    el("td", {}, game.rated ? t("rated") : t("casual")));
}

function choice(name, label, options) {
  return el("label", {}, label, el("select", { name }, options.map(([value, text]) => el("option", { value }, text))));
}

// The player's games, newest first: filters (game, variant, result, rated) and pages.
function historySection(name, catalog, titles) {
  const variants = [...new Set(catalog.games.flatMap((g) => g.player_counts))].sort();
  const form = el("form", { class: "history-filters", onsubmit: (event) => { event.preventDefault(); load(1); } },
    choice("game", t("Game"), [["", t("all games")], ...catalog.games.map((g) => [g.name, t(g.title)])]),
    choice("variant", t("Players"), [["", t("any number")], ...variants.map((n) => [`${n}p`, tn("{n} player", "{n} players", n)])]),
    choice("result", t("Result"), [["", t("any result")], ...Object.entries(RESULTS())]),
    choice("rated", t("Rated"), [["", t("rated and casual")], ["true", t("rated")], ["false", t("casual")]]),
    el("button", { type: "submit" }, t("Show")));
  const body = el("div", { class: "history-games", "aria-live": "polite" });
  const load = async (page) => {
    const query = new URLSearchParams([...new FormData(form)].filter(([, value]) => value));
    query.set("page", page);
    try {
      const history = await api(`/api/players/${encodeURIComponent(name)}/games?${query}`);
      const pager = el("nav", { class: "pager", "aria-label": t("Pages") },
        el("button", { type: "button", disabled: page <= 1, onclick: () => load(page - 1) }, t("Newer")),
        el("span", {}, t("Page {page} of {pages}", { page, pages: history.pages })),
        el("button", { type: "button", disabled: page >= history.pages, onclick: () => load(page + 1) }, t("Older")));
      body.replaceChildren(history.games.length === 0
        ? el("p", { class: "muted" }, t("No games match."))
        : el("div", { class: "table-scroll" }, el("table", { class: "history" },
          el("thead", {}, el("tr", {}, el("th", {}, t("Date")), el("th", {}, t("Game")), el("th", {}, t("Seat")), el("th", {}, t("Opponents")), el("th", {}, t("Result")), el("th", {}, t("Rated")))),
          el("tbody", {}, history.games.map((g) => historyRow(g, titles))))),
        el("p", { class: "muted small" }, tn("{n} game", "{n} games", history.total)),
        pager);
    } catch (problem) {
      body.replaceChildren(el("p", { class: "error", role: "alert" }, problem.message));
    }
  };
  load(1);
  return [form, body];
}

function recent(profile) {
  if (profile.recent.length === 0) return el("p", { class: "muted" }, t("No games yet."));
  return el("ul", { class: "recent" }, profile.recent.map((g) => el("li", {},
    el("a", { href: g.status === "finished" ? `/games/${g.id}/replay` : `/games/${g.id}` }, t("{game} · game {id}", { game: t(g.title), id: g.id })),
    " · ", statusText(g.status))));
}

// Follow and block from the page of another signed-in player (not a guest): the buttons say
// what a click would do now, and a refusal says why and changes nothing.
async function relationButtons(profile) {
  const me = await api("/api/me").catch(() => null);
  if (!me || me.guest || profile.guest || me.name === profile.name) return null;
  const box = el("div", { class: "relation-buttons" });
  const error = el("p", { class: "error", role: "alert", hidden: true });
  const path = (kind) => `/api/people/${kind}/${encodeURIComponent(profile.name)}`;
  const draw = async () => {
    const people = await api("/api/people");
    const following = people.following.some((p) => p.name === profile.name);
    const blocked = people.blocked.includes(profile.name);
    const act = (kind, method) => async () => {
      error.hidden = true;
      try {
        await api(path(kind), { method });
        await draw();
      } catch (problem) {
        error.textContent = problem instanceof ApiError ? problem.message : t("Something went wrong: {problem}", { problem: problem.message });
        error.hidden = false;
      }
    };
    box.replaceChildren(
      blocked ? "" : el("button", { type: "button", class: following ? "" : "primary", onclick: act("follows", following ? "DELETE" : "PUT") }, following ? t("Unfollow") : t("Follow")),
      el("button", { type: "button", onclick: act("blocks", blocked ? "DELETE" : "PUT") }, blocked ? t("Unblock") : t("Block")),
      error);
  };
  await draw();
  return box;
}

async function start() {
  const name = decodeURIComponent(location.pathname.split("/").pop());
  const [profile, catalog] = await Promise.all([api(`/api/players/${encodeURIComponent(name)}`), api("/api/catalog")]);
  const titles = Object.fromEntries(catalog.games.map((game) => [game.name, game.title]));
  document.title = t("roses · {name}", { name: profile.name });
  const relations = await relationButtons(profile).catch(() => null);
  main.replaceChildren(el("section", { class: "panel profile" },
    el("h1", {}, profile.guest ? t("{name} (guest)", { name: profile.name }) : accountName(profile.name, profile.bot)),
    relations || "",
    ratings(profile, titles),
    el("h2", {}, t("Games played and won")), record(profile, titles),
    el("h2", {}, t("Recent games")), recent(profile),
    el("h2", { id: "history" }, t("History")), ...historySection(profile.name, catalog, titles)));
}

start().catch((problem) => main.replaceChildren(el("p", { class: "error" }, problem.message)));
