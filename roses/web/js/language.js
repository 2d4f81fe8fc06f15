// The language switcher in every page's header. The choice is kept by the server: in the
// "lang" cookie for this browser and, when someone is signed in, in their account; the page
// is then drawn again in that language (its catalogue comes with the page).

import { api } from "./api.js";
import { el } from "./kit.js";
import { t } from "./i18n.js";

// Each language under its own name, so that a person finds theirs whatever is shown now.
// Tags as the web writes them (<html lang>, the lang cookie): "pt" is Portugal's Portuguese.
export const LANGUAGES = {
  en: "English", de: "Deutsch", it: "Italiano", "pt-BR": "Português (Brasil)", pt: "Português (Portugal)",
};

export function currentLanguage() {
  return document.documentElement.lang || "en";
}

export async function chooseLanguage(language) {
  await api("/api/language", { method: "PUT", body: { language } });
  location.reload();
}

function switcher() {
  const select = el("select", { id: "language-choice", name: "language" },
    Object.entries(LANGUAGES).map(([code, name]) =>
      el("option", { value: code, lang: code, selected: code === currentLanguage() }, name)));
  select.addEventListener("change", async () => {
    select.disabled = true;
    try {
      await chooseLanguage(select.value);
    } catch {
      select.value = currentLanguage();
      select.disabled = false;
    }
  });
  return el("label", { class: "language-choice" }, el("span", { class: "visually-hidden" }, t("Language")), select);
}

const place = document.getElementById("language");
if (place) place.replaceChildren(switcher());
