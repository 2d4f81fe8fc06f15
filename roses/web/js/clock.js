// Time limits on the page: each seat's live clock ticking, or the correspondence deadline
// (in the reader's local time), low time marked, the claim of a win on time, and a game
// lost on time said in words. The server is authoritative: a clock ticks from the time
// left as of the snapshot (view.clock.now), counted by this page's monotonic clock, never
// by its own date; the server ends the game or makes a stand-in's move by itself.
// Also the new-game form's choice of a time limit (the lobby).

import { api, ApiError } from "./api.js";
import { el } from "./kit.js";
import { t, tn } from "./i18n.js";
import { dayAndTime } from "./dates.js";
import { accountName } from "./bot_mark.js";

const LOW_FRACTION = 0.2; // low time: 80% of the time for this decision used
const TICK_MS = 200;

function liveClockText(clock) {
  const [minutes, seconds] = clock.split("+");
  return t("{minutes} min + {seconds} s per move", { minutes, seconds });
}

// The new-game form's time limit: none (the default), a live clock or days per move.
export function timeLimitField(catalog) {
  const clocks = catalog.live_clocks || [];
  const days = catalog.correspondence_days || [];
  const select = el("select", { name: "time_limit", id: "time-limit" },
    el("option", { value: "none" }, t("No time limit")),
    el("optgroup", { label: t("Live clock") },
      clocks.map((clock) => el("option", { value: `live:${clock}` }, liveClockText(clock)))),
    el("optgroup", { label: t("Correspondence") },
      days.map((n) => el("option", { value: `correspondence:${n}` }, tn("{n} day per move", "{n} days per move", n)))));
  const element = el("div", { class: "time-limit" },
    el("label", { for: "time-limit" }, t("Time limit")), " ", select);
  return {
    element,
    choice() {
      const [kind, value] = select.value.split(":");
      if (kind === "live") return { kind, clock: value };
      if (kind === "correspondence") return { kind, days: Number(value) };
      return { kind: "none" };
    },
  };
}

function limitText(clock) {
  return clock.kind === "live"
    ? t("Live clock: {clock}", { clock: t("{minutes} min + {seconds} s per move", { minutes: clock.initial_ms / 60_000, seconds: clock.increment_ms / 1000 }) })
    : t("Correspondence: {days}", { days: tn("{n} day per move", "{n} days per move", clock.days) });
}

// What a player agrees to by sitting down: "Rated · Live clock: 5 min + 3 s per move",
// "Casual · No time limit". Every list entry, invitation, waiting page and game page says it.
export function termsText(game) {
  return t("{rated} · {limit}", {
    rated: game.rated ? t("Rated") : t("Casual"),
    limit: game.clock ? limitText(game.clock) : t("No time limit"),
  });
}

// A list's line about a game's terms, with my deadline when it is my move.
export function timeLimitLine(game) {
  const clock = game.clock;
  const mine = clock && game.you !== null && clock.running.includes(game.you) && clock.deadlines ? clock.deadlines[game.you] : null;
  return el("span", { class: "muted small time-limit-line", "data-rated": game.rated ? "rated" : "casual" },
    el("span", { class: "terms" }, termsText(game)),
    mine && clock.kind === "correspondence" ? el("span", { class: "my-deadline" }, t("Your deadline: {when}", { when: localTime(mine) })) : null,
    ...vacationLines(game));
}

function pad(number) {
  return String(number).padStart(2, "0");
}

// 4:05, 1:02:03, or 9.4 under ten seconds (the last seconds count).
function clockFace(ms) {
  const left = Math.max(0, ms);
  if (left < 10_000) return (Math.floor(left / 100) / 10).toFixed(1);
  const seconds = Math.floor(left / 1000);
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  return hours ? `${hours}:${pad(minutes)}:${pad(seconds % 60)}` : `${minutes}:${pad(seconds % 60)}`;
}

// "2 days 3 h", "5 h 10 min", "12 min": how long until a deadline.
function duration(ms) {
  const minutes = Math.max(0, Math.floor(ms / 60_000));
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  if (days) return t("{days} d {hours} h", { days, hours });
  if (hours) return t("{hours} h {minutes} min", { hours, minutes: minutes % 60 });
  return t("{minutes} min", { minutes });
}

const localTime = dayAndTime;

// The seats whose players are on vacation now: their clocks stand still until then.
function pausedSeats(game) {
  const until = game.clock && game.clock.paused_until;
  return until ? game.seats.filter((seat) => until[seat.seat]) : [];
}

function vacationText(game, seat) {
  const when = localTime(game.clock.paused_until[seat.seat]);
  return seat.is_you
    ? t("You are on vacation until {when}: your clock is paused.", { when })
    : t("{player} is on vacation until {when}: their clock is paused.", { player: seatName(seat), when });
}

// A list's line (or the game page's) telling who is away: the opponents know why they wait.
export function vacationLines(game) {
  return pausedSeats(game).map((seat) => el("span", { class: "on-vacation", "data-seat": seat.seat }, vacationText(game, seat)));
}

function seatName(seat) {
  return (seat.player && accountName(seat.player, seat.bot_account)) || (seat.bot ? t("{bot} bot", { bot: t(seat.bot_label || seat.bot) }) : t(seat.label));
}

function ruleText(rule) {
  if (rule === "loss") return t("Out of time loses the game.");
  if (rule === "claim") return t("Past the deadline, the opponent may claim the win.");
  return t("Past the deadline, a bot moves for the absent player.");
}

export function createClock(gameId, onView) {
  const element = el("section", { class: "game-clocks", "aria-label": t("Clocks"), hidden: true });
  let view = null;
  let receivedAt = 0; // performance.now() when the snapshot arrived
  let timer = null;
  let faces = [];
  let claimBox = null;
  let problem = "";

  const elapsed = () => performance.now() - receivedAt;
  // A paused clock (its player on vacation) runs only once the pause is over.
  const pauseLeft = (seat) => {
    const until = view.clock.paused_until && view.clock.paused_until[seat];
    return until ? Math.max(0, Date.parse(until) - Date.parse(view.clock.now)) : 0;
  };
  const left = (seat) => {
    const clock = view.clock;
    const running = view.status === "active" && clock.running.includes(seat);
    return clock.remaining_ms[seat] - (running ? Math.max(0, elapsed() - pauseLeft(seat)) : 0);
  };
  const budget = () => {
    const clock = view.clock;
    return clock.kind === "live" ? clock.initial_ms : clock.days * 86_400_000;
  };

  async function claim() {
    problem = "";
    try {
      onView(await api(`/api/games/${gameId}/claim-timeout`, { method: "POST", body: {} }));
    } catch (error) {
      problem = error instanceof ApiError ? error.message : t("Something went wrong: {problem}", { problem: error.message });
      render();
    }
  }

  // Whether I may claim now: the server said so, or an opponent's deadline passed since.
  function claimable() {
    const clock = view.clock;
    if (view.status !== "active" || view.you === null || clock.on_time_out !== "claim") return false;
    if (clock.claimable_by.includes(view.you)) return true;
    return clock.running.some((seat) => seat !== view.you && left(seat) <= 0);
  }

  function tick() {
    if (!view || !view.clock || !view.clock.remaining_ms) return;
    const clock = view.clock;
    faces.forEach(({ seat, face, box }) => {
      const ms = left(seat);
      const running = view.status === "active" && clock.running.includes(seat);
      face.textContent = clock.kind === "live"
        ? clockFace(ms)
        : running ? (ms > 0 ? t("{time} left", { time: duration(ms) }) : t("Deadline passed")) : "—";
      box.classList.toggle("low", running && ms < budget() * LOW_FRACTION);
      box.classList.toggle("out", running && ms <= 0);
    });
    if (claimBox && claimable() !== !claimBox.hidden) claimBox.hidden = !claimable();
  }

  function outcomeLine() {
    const lost = view.result && view.result.lost_on_time;
    if (view.status !== "finished" || typeof lost !== "number") return "";
    const who = t(view.seats[lost].label);
    const text = view.you === null
      ? t("{seat} ran out of time and lost the game.", { seat: who })
      : view.you === lost || (view.result.ranks && view.result.ranks[view.you] === view.result.ranks[lost])
        ? t("You lost on time: {seat} ran out of time.", { seat: who })
        : t("You won on time: {seat} ran out of time.", { seat: who });
    return el("p", { class: "time-outcome", role: "status" }, text);
  }

  function render() {
    const clock = view.clock;
    element.hidden = !clock;
    clearInterval(timer);
    timer = null;
    if (!clock) return;
    const started = Array.isArray(clock.remaining_ms);
    const heading = limitText(clock);
    faces = [];
    const seats = started ? view.seats.map((seat) => {
      const face = el("span", { class: "face", role: "timer" });
      const running = view.status === "active" && clock.running.includes(seat.seat);
      const deadline = clock.deadlines[seat.seat];
      const box = el("div", { class: `seat-clock${running ? " running" : ""}${seat.is_you ? " mine" : ""}`, "data-seat": seat.seat },
        el("span", { class: "who" }, t(seat.label), " · ", seatName(seat)),
        face,
        clock.kind === "correspondence" && running && deadline
          ? el("span", { class: "deadline" }, t("Deadline: {when}", { when: localTime(deadline) })) : "",
        clock.paused_until && clock.paused_until[seat.seat] ? el("span", { class: "on-vacation" }, vacationText(view, seat)) : "");
      faces.push({ seat: seat.seat, face, box });
      return box;
    }) : [el("p", { class: "muted" }, t("The clocks start once every seat is taken."))];
    claimBox = el("div", { class: "claim", hidden: true },
      el("button", { type: "button", class: "primary", onclick: claim }, t("Claim the win on time")),
      el("span", { class: "muted" }, t("or keep waiting for the move")));
    element.replaceChildren(
      el("p", { class: "clock-rule" }, el("strong", {}, heading), " ", ruleText(clock.on_time_out)),
      el("div", { class: "seat-clocks" }, seats),
      claimBox,
      problem ? el("p", { class: "error", role: "alert" }, problem) : "",
      outcomeLine());
    tick();
    if (started && view.status === "active" && clock.running.length) timer = setInterval(tick, TICK_MS);
  }

  return {
    element,
    update(next) {
      view = next;
      receivedAt = performance.now();
      render();
    },
  };
}
