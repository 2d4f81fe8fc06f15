// Translations. Every text a person sees goes through t("English text", {name: value}):
// the English text is the message id in the gettext catalogues (roses/locale), and the page
// carries its language's catalogue. Placeholders are {name}.

// Outside a page (a script run by node in the tests) there is no catalogue: English.
const page = typeof document === "undefined" ? null : document.getElementById("translations");
const catalogue = JSON.parse(page?.textContent || "{}");

function fill(template, params) {
  return template.replace(/\{(\w+)\}/g, (whole, key) => (key in params ? String(params[key]) : whole));
}

export function t(text, params = {}) {
  return fill(catalogue[text] || text, params);
}

// A text that depends on a count: tn("{n} game", "{n} games", n). English, German, Italian
// and Portuguese all have one form for 1 and one for every other count (the catalogues'
// Plural-Forms: nplurals=2; plural=(n != 1)), so forms[0] is for 1 and forms[1] the rest.
export function tn(singular, plural, count, params = {}) {
  const forms = catalogue[`${singular}\u0000${plural}`];
  const chosen = forms ? forms[count === 1 ? 0 : 1] : count === 1 ? singular : plural;
  return fill(chosen, { n: count, ...params });
}
