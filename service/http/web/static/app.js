// The client's entry point: a header, the language switch and the routes (#/, #/game/<id>, #/watch/<id>,
// #/replay/<id>). Each route draws into <main> with only the public API.
import { get } from "./api.js";
import { h } from "./dom.js";
import { LANGUAGES, language, setLanguage, t } from "./i18n.js";
import { showLobby } from "./lobby.js";
import { showReplay } from "./replay.js";
import { showTable } from "./table.js";

const main = document.getElementById("main");
let leave = () => {};
let cachedRulesets = null;
const catalogues = {};

// What went wrong, in words: the text of a known error code, else the failure's own message, else just "Error" (a
// failure may carry no message, or not even be an Error).
export function problem(failure) {
  const known = failure?.code && `error.${failure.code}`;
  if (known && t(known) !== known) return t(known);
  return failure?.message ? `${t("error")}: ${failure.message}` : t("error");
}

const app = {
  async rulesets() {
    cachedRulesets = cachedRulesets || (await get("/v1/rulesets"));
    return cachedRulesets;
  },
  async catalogue(ruleset) {
    if (!catalogues[ruleset]) {
      const answer = await get(`/v1/rulesets/${ruleset}/cards`);
      catalogues[ruleset] = { ...answer, byId: Object.fromEntries(answer.cards.map((card) => [String(card.id), card])) };
    }
    return catalogues[ruleset];
  },
  go(hash) {
    if (location.hash === hash) app.render();
    else location.hash = hash;
  },
  announce(text) {
    const region = document.getElementById("announce");
    region.textContent = "";
    setTimeout(() => (region.textContent = text), 50);
  },
  problem,
  async render() {
    leave();
    leave = () => {};
    header();
    const [route, id] = location.hash.replace(/^#\/?/, "").split("/");
    document.body.dataset.route = route || "lobby";
    try {
      if (route === "game" || route === "watch") leave = (await showTable(main, app, id, route === "watch")) || leave;
      else if (route === "replay") leave = (await showReplay(main, app, id)) || leave;
      else leave = (await showLobby(main, app)) || leave;
    } catch (failure) {
      main.replaceChildren(h("h1", {}, t("error")), h("p", { role: "alert" }, app.problem(failure)),
        h("a", { href: "#/", class: "button" }, t("back_to_lobby")));
    }
  },
};

function header() {
  document.getElementById("brand").textContent = t("brand");
  const skip = document.getElementById("skip-link");
  skip.textContent = t("skip");
  skip.onclick = (event) => {
    event.preventDefault(); // the hash is the route: `#main` would leave the page for the lobby
    main.focus();
  };
  document.title = t("brand");
  const langs = document.getElementById("langs");
  langs.setAttribute("aria-label", t("language"));
  langs.replaceChildren(...LANGUAGES.map((code) =>
    h("button", {
      type: "button", class: "lang", lang: code, "aria-pressed": String(code === language()), "data-lang": code,
      onclick: () => { setLanguage(code); app.render(); },
    }, t(`lang.${code}`))));
}

window.addEventListener("hashchange", () => app.render());
app.render();
