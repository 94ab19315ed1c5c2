// Every text of the client, in English and French. The language comes from the browser, or the switch.
import { STRINGS_EN, STRINGS_FR } from "./strings.js";

const TABLES = { en: STRINGS_EN, fr: STRINGS_FR };
export const LANGUAGES = ["en", "fr"];
const KEY = "syndicate.lang";

function initial() {
  const kept = localStorage.getItem(KEY);
  if (LANGUAGES.includes(kept)) return kept;
  const browser = (navigator.languages || [navigator.language || "en"]).map((l) => l.slice(0, 2).toLowerCase());
  return browser.find((l) => LANGUAGES.includes(l)) || "en";
}

let lang = initial();

export const language = () => lang;

export function setLanguage(next) {
  lang = next;
  localStorage.setItem(KEY, next);
  document.documentElement.lang = next;
}

// t("seat_n", {n: 2}) → "Seat 2". A missing key shows itself, so a gap is visible rather than blank, and so does a
// parameter that is missing, null or undefined: its placeholder stays, never the words "null" or "undefined". A text
// with plural forms ({one, other}, as Intl.PluralRules names them) takes the form its `n` asks for in the language.
export function t(key, params = {}) {
  let text = TABLES[lang][key] ?? TABLES.en[key] ?? key;
  if (typeof text === "function") return text(params);
  if (typeof text === "object") text = text[plurals().select(Number(params.n))] ?? text.other;
  return text.replace(/\{(\w+)\}/g, (_, name) => String(params[name] ?? `{${name}}`));
}

export const has = (key) => key in TABLES[lang];

let rules = null;
const plurals = () => (rules?.resolvedOptions().locale.startsWith(lang) ? rules : (rules = new Intl.PluralRules(lang)));

export function money(amount) {
  return new Intl.NumberFormat(lang === "fr" ? "fr-FR" : "en-US", {
    style: "currency",
    currency: "USD",
    maximumFractionDigits: 0,
  }).format(amount);
}

export function when(iso) {
  return new Date(iso).toLocaleString(lang === "fr" ? "fr-FR" : "en-GB", { dateStyle: "short", timeStyle: "short" });
}

document.documentElement.lang = lang;
