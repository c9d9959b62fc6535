// Translations. The page's strings come from the server's gettext catalogues (GET /api/i18n, which picks
// the language from Accept-Language, or GET /api/i18n/{lang} for the one chosen in the language menu,
// remembered in localStorage). t("English text", {name: value}) looks a string up; tn() picks a plural
// form with the language's own rule (Intl.PluralRules). A string the catalogue lacks shows in English.
// The last catalogue loaded is kept in localStorage too, so that a page started while the server cannot be
// reached still says so in the player's language (pwa.js).

const KEY = "tableaux.lang";
const LAST = "tableaux.catalogue";
const T = { lang: "en", messages: {}, plurals: {}, categories: ["one", "other"], languages: [], ranks: {}, suits: {},
  cardName: "{rank} of {suit}" };

/** The language the page speaks now (a code such as "fr"). */
export function lang() {
  return T.lang;
}

/** The languages the server offers: [{code, name}], each name in its own language. */
export function languages() {
  return T.languages;
}

function fill(text, params) {
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (whole, key) => (key in params ? String(params[key]) : whole));
}

/** `msgid` in the page's language, its {placeholders} filled from `params`. */
export function t(msgid, params) {
  return fill(T.messages[msgid] || msgid, params);
}

/** A card's name ("TS" -> "10 of spades", "Pik-10"): the server's words and pattern, as its hints and reasons. */
export function cardWords(code) {
  return fill(T.cardName, { rank: rankWords(code[0]), suit: T.suits[code[1]] || code[1] });
}

/** A rank's name ("Q" -> "Queen", "Dame"), as the server says it. */
export function rankWords(rank) {
  return T.ranks[rank] || rank;
}

const formatters = new Map();

/** The page language's formatter of `kind` made with `options`, made once: making one costs far more than using
 * it, and the chance and the statistics format figures on every change. */
function formatter(Kind, options) {
  const key = `${T.lang} ${Kind.name} ${JSON.stringify(options)}`;
  if (!formatters.has(key)) formatters.set(key, new Kind(T.lang, options));
  return formatters.get(key);
}

/** A share as a whole percentage, spaced as the page's language spaces it: "62%", "62 %" (French). */
export function percent(share) {
  return formatter(Intl.NumberFormat, { style: "percent", maximumFractionDigits: 0 }).format(share);
}

/** Several things as one phrase in the page's language: "A, B and C", "A, B et C". */
export function listWords(items) {
  return formatter(Intl.ListFormat, { type: "conjunction" }).format(items);
}

/** The form of `singular`/`plural` for `n` in the page's language; {n} is filled in too. */
export function tn(singular, plural, n, params) {
  const forms = T.plurals[singular];
  let text = "";
  if (forms) {
    const index = T.categories.indexOf(formatter(Intl.PluralRules, {}).select(n));
    text = forms[index >= 0 ? index : forms.length - 1];
  }
  if (!text) text = n === 1 ? singular : plural;
  return fill(text, { n, ...params });
}

async function fetchCatalogue(url) {
  try {
    const response = await fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } });
    return response.ok ? await response.json() : null;
  } catch {
    return null; // no catalogue: the page stays in English
  }
}

/** Load the remembered language, or the one the browser's Accept-Language asks for, and translate the page. */
export async function loadLanguage() {
  const saved = localStorage.getItem(KEY);
  let data = saved ? await fetchCatalogue(`/api/i18n/${encodeURIComponent(saved)}`) : null;
  if (!data) data = await fetchCatalogue("/api/i18n");
  try {
    if (data) localStorage.setItem(LAST, JSON.stringify(data));
    else data = JSON.parse(localStorage.getItem(LAST) || "null");
  } catch {
    // storage switched off or full: the page speaks English when it cannot reach the server
  }
  if (data) {
    T.lang = data.lang;
    T.messages = data.messages;
    T.plurals = data.plurals;
    T.categories = data.plural_categories;
    T.languages = data.languages;
    T.ranks = data.ranks || {};
    T.suits = data.suits || {};
    T.cardName = data.card_name || T.cardName;
  }
  document.documentElement.lang = T.lang;
  translatePage(document);
}

/** Switch to language `code` and remember it: the page reloads in that language (the game is on the server). */
const REFOCUS_KEY = "tableaux.refocus";

export function chooseLanguage(code) {
  localStorage.setItem(KEY, code);
  sessionStorage.setItem(REFOCUS_KEY, "menu-button"); // the reload would leave the keyboard on the page
  location.reload();
}

/** After the reload a language change makes, the keyboard goes back to the menu the choice was made in. */
export function refocusAfterReload() {
  const id = sessionStorage.getItem(REFOCUS_KEY);
  sessionStorage.removeItem(REFOCUS_KEY);
  if (id) document.getElementById(id)?.focus();
}

/** Translate the static markup: the text of [data-i18n] elements and the attributes [data-i18n-attr] names. */
export function translatePage(root) {
  for (const node of root.querySelectorAll("[data-i18n]")) {
    node.textContent = t(node.textContent.trim().replace(/\s+/g, " "));
  }
  for (const node of root.querySelectorAll("[data-i18n-attr]")) {
    for (const name of node.dataset.i18nAttr.split(/\s+/)) {
      const value = node.getAttribute(name);
      if (value) node.setAttribute(name, t(value));
    }
  }
}
