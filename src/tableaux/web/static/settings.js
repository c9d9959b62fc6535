// Settings, remembered in this browser (localStorage): how the table looks (colours, suit colours, card
// backs and faces, card size, text size), which hints the page asks for (fair or peeking), pile labels and one-tap
// play. SETTINGS is the one list of them: the settings dialog is built from it, so a new setting is a new
// entry here, plus an onSettingChange listener where the page must react to it. Each one is applied as a data
// attribute on <html> (data-theme="dark" ...) that the style sheets read.

import { cardFace } from "./cards.js";
import { t } from "./i18n.js";

const STORE = "tableaux.setting.";

/**
 * Every setting: its key, its label, its choices as [value, label] pairs, and the value before any choice.
 * Labels are functions so that they are looked up in the page's language when the dialog is built (the
 * catalogue arrives after this module runs). `note`: lines under the menu saying what the choices mean
 * (the choices themselves stay short, so that no menu is wider than a phone). `sample`: a small card
 * drawn beside the menu, as the table draws it. `legacy` reads a value remembered under an older key, so
 * that a choice made before the settings shared one list is not lost.
 */
export const SETTINGS = [
  {
    key: "theme",
    label: () => t("Table colours"),
    choices: [
      ["auto", () => t("Follow the system")],
      ["light", () => t("Green felt")],
      ["dark", () => t("Dark")],
    ],
    initial: "auto",
  },
  {
    key: "deck",
    label: () => t("Suit colours"),
    choices: [
      ["two", () => t("Two colours")],
      ["four", () => t("Four colours (♦ blue, ♣ green)")],
    ],
    initial: "two",
  },
  {
    key: "back",
    label: () => t("Card backs"),
    choices: [
      ["blue", () => t("Blue lattice")],
      ["red", () => t("Red rings")],
      ["night", () => t("Gold on black")],
    ],
    initial: "blue",
    sample: backSample,
  },
  {
    key: "face",
    label: () => t("Card faces"),
    choices: [
      ["classic", () => t("Classic")],
      ["large", () => t("Large index")],
    ],
    initial: "classic",
    note: () => [t("Large index: a big rank and suit on every card, easier to read on a small screen. "
      + "Classic cards switch to it by themselves when they are small.")],
    sample: faceSample,
  },
  {
    key: "cardSize",
    label: () => t("Card size"),
    choices: [
      ["small", () => t("Small")],
      ["fit", () => t("Fit the window")],
      ["large", () => t("Large (the table may scroll)")],
    ],
    initial: "fit",
  },
  {
    key: "text",
    label: () => t("Text size"),
    choices: [
      ["normal", () => t("Normal")],
      ["large", () => t("Large")],
    ],
    initial: "normal",
  },
  {
    key: "hintMode",
    label: () => t("Hints"),
    choices: [
      ["fair", () => t("Fair")],
      ["peek", () => t("Peeking")],
    ],
    initial: "fair",
    note: () => [t("Fair: only from the cards you have seen"), t("Peeking: the solver looks at the face-down cards")],
    legacy: ["tableaux.hintMode", (old) => old],
  },
  {
    key: "pileLabels",
    label: () => t("Pile labels"),
    choices: [
      ["off", () => t("Hidden")],
      ["on", () => t("Shown")],
    ],
    initial: "off",
    note: () => [t("Shown on the table and in hints (T1, R3, F2…)")],
    legacy: ["tableaux.pileLabels", (old) => (old === "1" ? "on" : "off")],
  },
  {
    key: "oneTap",
    label: () => t("One tap"),
    choices: [
      ["off", () => t("Off")],
      ["on", () => t("On")],
    ],
    initial: "off",
    note: () => [t("On: a tap or click on a card moves it at once to its best place: home first, then onto a card, "
      + "then to an empty pile."), t("Off: tap a card, then the place it goes to.")],
  },
];

/** A face-down card with the chosen back (the style sheet draws it from <html data-back>). */
function backSample() {
  const node = document.createElement("span");
  node.className = "back-sample";
  return node;
}

/** A face-up card, on the large-print face when that is the choice (the style sheet reads <html data-face>). */
function faceSample() {
  const node = document.createElement("span");
  node.className = "face-sample";
  node.append(cardFace("7H")); // a number card reads the same in every language
  return node;
}

const listeners = [];
const darkQuery = window.matchMedia("(prefers-color-scheme: dark)");

function spec(key) {
  const found = SETTINGS.find((s) => s.key === key);
  if (!found) throw new Error(`no setting called ${key}`);
  return found;
}

function stored(key) {
  try {
    const value = localStorage.getItem(STORE + key);
    const legacy = spec(key).legacy;
    if (value != null || !legacy) return value;
    const old = localStorage.getItem(legacy[0]);
    return old == null ? null : legacy[1](old);
  } catch {
    return null; // storage switched off: every setting keeps its initial value for this visit
  }
}

/** The current value of a setting; a stored value that is not one of its choices counts as unset. */
export function getSetting(key) {
  const s = spec(key);
  const value = stored(key);
  return s.choices.some(([v]) => v === value) ? value : s.initial;
}

export function setSetting(key, value) {
  const s = spec(key);
  if (!s.choices.some(([v]) => v === value)) throw new Error(`${key} cannot be ${value}`);
  try {
    localStorage.setItem(STORE + key, value);
  } catch {
    // not remembered, but still applied for this visit
  }
  apply(key, value);
}

/** Call `listener(key, value)` after any setting changes (the system's colour scheme counts as "theme"). */
export function onSettingChange(listener) {
  listeners.push(listener);
}

/** "dark" or "light": the player's choice, or the system's colour scheme when they chose "auto". */
export function colourScheme() {
  const theme = getSetting("theme");
  if (theme !== "auto") return theme;
  return darkQuery.matches ? "dark" : "light";
}

/** "fair" (the default: only the cards the player has seen) or "peek" (the solver sees every card). */
export function hintMode() {
  return getSetting("hintMode");
}

/** Whether a tap or click on a card moves it at once to its best place (input.js). */
export function oneTap() {
  return getSetting("oneTap") === "on";
}

/** Whether piles carry their notation labels (T1, R3...), on the table and in hints. */
export function showLabels() {
  return getSetting("pileLabels") === "on";
}

function applyAll() {
  const root = document.documentElement;
  for (const s of SETTINGS) root.dataset[s.key] = getSetting(s.key);
  root.dataset.scheme = colourScheme();
}

function apply(key, value) {
  applyAll();
  const select = document.getElementById(`setting-${key}`);
  if (select) select.value = value;
  for (const listener of listeners) listener(key, value);
}

/** Fill the settings list: one row per setting, a label and a menu of its choices, in the page's language. */
export function renderSettings() {
  const list = document.getElementById("settings-list");
  if (!list) return;
  list.replaceChildren();
  for (const s of SETTINGS) {
    const row = document.createElement("li");
    row.className = "setting";
    const label = document.createElement("label");
    label.htmlFor = `setting-${s.key}`;
    label.textContent = s.label();
    const select = document.createElement("select");
    select.id = `setting-${s.key}`;
    select.name = s.key;
    for (const [value, text] of s.choices) select.append(new Option(text(), value));
    select.value = getSetting(s.key);
    select.addEventListener("change", () => setSetting(s.key, select.value));
    const choice = document.createElement("span");
    choice.className = "choice";
    choice.append(select);
    if (s.sample) choice.prepend(s.sample());
    row.append(label, choice);
    if (s.note) {
      const note = document.createElement("p");
      note.className = "setting-note";
      note.id = `setting-${s.key}-note`;
      for (const line of s.note()) note.append(Object.assign(document.createElement("span"), { textContent: line }));
      select.setAttribute("aria-describedby", note.id);
      row.append(note);
    }
    list.append(row);
  }
}

/** Apply the remembered settings and build the settings list; the sooner this runs the less flicker. */
export function initSettings() {
  applyAll();
  darkQuery.addEventListener("change", () => apply("theme", getSetting("theme")));
  renderSettings();
}
