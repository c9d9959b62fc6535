// Settings: how the table looks (colours, suit colours, card size, text size), remembered in this
// browser (localStorage). SETTINGS is the one list of them: the settings dialog is built from it, so a
// new setting is a new entry here, plus an onSettingChange listener where the page must react to it.
// Each one is applied as a data attribute on <html> (data-theme="dark" ...) that the style sheets read.

const STORE = "tableaux.setting.";

/** Every setting: its key, its label, its choices as [value, label] pairs, and the value before any choice. */
export const SETTINGS = [
  {
    key: "theme",
    label: "Table colours",
    choices: [["auto", "Follow the system"], ["light", "Green felt"], ["dark", "Dark"]],
    initial: "auto",
  },
  {
    key: "deck",
    label: "Suit colours",
    choices: [["two", "Two colours"], ["four", "Four colours (♦ blue, ♣ green)"]],
    initial: "two",
  },
  {
    key: "cardSize",
    label: "Card size",
    choices: [["small", "Small"], ["fit", "Fit the window"], ["large", "Large (the table may scroll)"]],
    initial: "fit",
  },
  {
    key: "text",
    label: "Text size",
    choices: [["normal", "Normal"], ["large", "Large"]],
    initial: "normal",
  },
];

const listeners = [];
const darkQuery = window.matchMedia("(prefers-color-scheme: dark)");

function spec(key) {
  const found = SETTINGS.find((s) => s.key === key);
  if (!found) throw new Error(`no setting called ${key}`);
  return found;
}

function stored(key) {
  try {
    return localStorage.getItem(STORE + key);
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

/** Fill the settings list: one row per setting, a label and a menu of its choices. */
function renderList(list) {
  list.replaceChildren();
  for (const s of SETTINGS) {
    const row = document.createElement("li");
    row.className = "setting";
    const label = document.createElement("label");
    label.htmlFor = `setting-${s.key}`;
    label.textContent = s.label;
    const select = document.createElement("select");
    select.id = `setting-${s.key}`;
    select.name = s.key;
    for (const [value, text] of s.choices) select.append(new Option(text, value));
    select.value = getSetting(s.key);
    select.addEventListener("change", () => setSetting(s.key, select.value));
    row.append(label, select);
    list.append(row);
  }
}

/** Apply the remembered settings and build the settings list; the sooner this runs the less flicker. */
export function initSettings() {
  applyAll();
  darkQuery.addEventListener("change", () => apply("theme", getSetting("theme")));
  const list = document.getElementById("settings-list");
  if (list) renderList(list);
}
