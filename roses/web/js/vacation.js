// The settings page's vacation: the days available (30 a year, accrued day by day), a
// request for some days that pauses the clocks of every correspondence game, and coming
// back early. The server refuses with a sentence (a live game being played, too many days).

import { api, ApiError } from "./api.js";
import { el } from "./kit.js";
import { t, tn } from "./i18n.js";
import { dayAndTime } from "./dates.js";

function problemText(problem) {
  return problem instanceof ApiError ? problem.message : t("Something went wrong: {problem}", { problem: problem.message });
}

export async function vacationSection(me) {
  const section = el("section", { class: "panel", id: "vacation" });
  if (me.guest) {
    section.append(el("h2", {}, t("Vacation")),
      el("p", { class: "muted" }, t("A guest has no vacation days: register to keep your account first.")));
    return section;
  }
  const error = el("p", { class: "error", role: "alert", hidden: true });
  const draw = (state) => {
    const rule = el("p", { class: "muted small" },
      tn("A vacation pauses the clocks of your correspondence games, never of a live game; your opponents see it. You earn {n} day a year, day by day, up to {cap}; a vacation ends by itself, and the days you do not take come back if you return early.",
        "A vacation pauses the clocks of your correspondence games, never of a live game; your opponents see it. You earn {n} days a year, day by day, up to {cap}; a vacation ends by itself, and the days you do not take come back if you return early.",
        state.days_per_year, { cap: state.cap_days }));
    const available = el("p", { class: "vacation-available" },
      tn("You have {n} vacation day.", "You have {n} vacation days.", state.available_days));
    if (state.until) {
      section.replaceChildren(el("h2", {}, t("Vacation")),
        el("p", { class: "vacation-status", role: "status" }, t("You are on vacation until {when}: your correspondence clocks are paused.", { when: dayAndTime(state.until) })),
        available, rule, error,
        el("div", { class: "buttons" }, el("button", { type: "button", class: "primary", onclick: () => send("DELETE") }, t("Come back now"))));
      return;
    }
    const days = el("input", { type: "number", name: "days", min: 1, max: state.max_days, value: Math.max(1, Math.min(state.available_days, 7)), inputmode: "numeric" });
    section.replaceChildren(el("h2", {}, t("Vacation")), available, rule,
      el("form", { class: "stack", novalidate: true, onsubmit: (event) => {
        event.preventDefault();
        send("POST", { days: Number(days.value) });
      } },
      el("label", {}, t("Days of vacation"), days),
      error,
      el("div", { class: "buttons" }, el("button", { type: "submit", class: "primary" }, t("Go on vacation")))));
  };
  const send = async (method, body) => {
    error.hidden = true;
    try {
      draw(await api("/api/vacation", { method, body }));
    } catch (problem) {
      error.textContent = problemText(problem);
      error.hidden = false;
    }
  };
  draw(await api("/api/vacation"));
  return section;
}
