// Dates and moments in the page's language (its <html lang>), never the browser's own.

// Intl's plain "pt" is Brazil's Portuguese (CLDR); a page in "pt" is in Portugal's.
const INTL_LOCALES = { pt: "pt-PT" };

export function pageLocale() {
  const language = (typeof document !== "undefined" && document.documentElement.lang) || "en";
  return INTL_LOCALES[language] || language;
}

// A moment (ISO 8601) as the page's language writes it, with the given Intl options.
export function formatMoment(iso, options) {
  return new Intl.DateTimeFormat(pageLocale(), options).format(new Date(iso));
}

export function shortDate(iso) {
  return formatMoment(iso, { day: "numeric", month: "short", year: "numeric" });
}

export function dayAndTime(iso) {
  return formatMoment(iso, { weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" });
}
