// Signing in as a registered player (a new one, or with a token kept from before), and what a player sees in the
// lobby: its ratings, its games and the quick match. Signed out, "me" is a name kept in this browser.
import { call, get, player } from "./api.js";
import { h, rulesetName } from "./dom.js";
import { t } from "./i18n.js";

const NAME = "syndicate.name";

export const identity = {
  name: () => player.get()?.name || localStorage.getItem(NAME) || t("default_name"),
  setName: (name) => localStorage.setItem(NAME, name),
};

let shownToken = null; // a new player's token, shown once until the user says it is kept

export function accountBox(app, ruleset, gameItem) {
  const me = player.get();
  if (shownToken) return tokenNotice(app);
  if (!me) return signedOut(app);
  const signOut = h("button", { type: "button", id: "sign-out", class: "small" }, t("sign_out"));
  signOut.onclick = () => {
    player.forget();
    app.render();
  };
  return h("section", { class: "panel account", id: "account", "aria-labelledby": "account-title" }, [
    h("h2", { id: "account-title" }, t("signed_in_as", { name: me.name })),
    signOut,
    ratings(me, app),
    quickMatch(ruleset, me, app),
    h("h3", {}, t("my_games")),
    myGames(me, app, gameItem),
  ]);
}

// One identity box: the name the table shows, kept in this browser to play as a guest, or registered as a player
// (rated, its games kept on any device); a kept player token signs in. A first visit is asked for a name.
function signedOut(app) {
  const kept = localStorage.getItem(NAME);
  const nameInput = h("input", {
    id: "my-name", value: kept || "", maxlength: "40", autocomplete: "nickname", placeholder: t("name_placeholder"),
    onchange: (e) => e.target.value.trim() && identity.setName(e.target.value.trim()),
  });
  const error = h("p", { class: "error", role: "alert" });
  const register = h("button", { type: "button", id: "register", class: "primary" }, t("register_name"));
  register.onclick = async () => {
    const name = nameInput.value.trim();
    if (!name) {
      error.textContent = t("name_needed");
      nameInput.focus();
      return;
    }
    try {
      const made = await call("POST", "/v1/players", { body: { name } });
      player.keep(made.player_id, made.name, made.token);
      shownToken = made.token;
      app.render();
    } catch (failure) {
      error.textContent = app.problem(failure);
    }
  };
  const guest = h("button", { type: "submit", id: "play-as-guest" }, t("play_as_guest"));
  const box = h("form", { class: "identity", id: "identity" }, [
    h("label", { for: "my-name" }, t("your_name")), nameInput, guest, register,
  ]);
  box.onsubmit = (e) => {
    e.preventDefault();
    const name = nameInput.value.trim();
    if (!name) {
      error.textContent = t("name_needed");
      return;
    }
    identity.setName(name);
    error.textContent = "";
    app.render();
  };
  const pasted = h("input", { id: "player-token", type: "password", autocomplete: "off" });
  const signIn = h("form", { class: "row", id: "sign-in" }, [
    h("label", { for: "player-token" }, t("player_token")), pasted,
    h("button", { type: "submit" }, t("sign_in")),
  ]);
  signIn.onsubmit = async (e) => {
    e.preventDefault();
    try {
      const token = pasted.value.trim();
      const me = await get("/v1/players/me", token);
      player.keep(me.player_id, me.name, token);
      app.render();
    } catch (failure) {
      error.textContent = failure.code === "invalid_token" ? t("bad_player_token") : app.problem(failure);
    }
  };
  const first = !kept;
  const section = h("section", { class: `panel account ${first ? "first-visit" : ""}`, id: "account", "aria-labelledby": "account-title" }, [
    h("h2", { id: "account-title" }, first ? t("name_prompt") : t("playing_as_guest", { name: kept })),
    h("p", { class: "hint" }, t("identity_hint")),
    box,
    h("details", { class: "have-token", id: "have-token" }, [h("summary", {}, t("have_token")), signIn]),
    error,
  ]);
  if (first) setTimeout(() => nameInput.focus(), 0);
  return section;
}

function tokenNotice(app) {
  const done = h("button", { type: "button", id: "token-kept", class: "primary" }, t("token_kept"));
  done.onclick = () => {
    shownToken = null;
    app.render();
  };
  return h("section", { class: "panel account", id: "account", role: "alert" }, [
    h("p", {}, t("keep_token")),
    h("code", { id: "new-token", class: "token" }, shownToken),
    done,
  ]);
}

function ratings(me, app) {
  const list = h("ul", { id: "ratings", class: "ratings", "aria-busy": "true" });
  get(`/v1/players/${me.id}`)
    .then((profile) => {
      list.removeAttribute("aria-busy");
      const rows = Object.entries(profile.ratings).map(([ruleset, r]) =>
        h("li", { "data-rating": ruleset }, t("rating_line", { game: rulesetName(ruleset), rating: r.rating.toFixed(2),
          games: r.games, wins: r.wins })));
      list.replaceChildren(...(rows.length ? rows : [h("li", { class: "none" }, t("no_rating"))]));
    })
    .catch((failure) => list.replaceChildren(h("li", { class: "error" }, app.problem(failure))));
  return list;
}

function quickMatch(ruleset, me, app) {
  const counts = [];
  for (let n = ruleset.min_players; n <= ruleset.max_players; n++) counts.push(n);
  const select = h("select", { id: "quick-seats" }, counts.map((n) => h("option", { value: n }, n)));
  const error = h("p", { class: "error", role: "alert" });
  const go = h("button", { type: "button", class: "primary", id: "quick-match" }, t("quick_match"));
  go.onclick = async () => {
    try {
      const body = { ruleset: ruleset.id, seat_count: Number(select.value) };
      const match = await call("POST", "/v1/quick-match", { body, token: me.token });
      app.go(`#/game/${match.game.game_id}`);
    } catch (failure) {
      error.textContent = app.problem(failure);
    }
  };
  return h("div", { class: "row quick" }, [
    h("label", { for: "quick-seats" }, t("quick_seats", { game: rulesetName(ruleset.id) })), select, go, error,
  ]);
}

function myGames(me, app, gameItem) {
  const list = h("ul", { class: "games", id: "my-games", "aria-busy": "true" });
  get("/v1/players/me/games?page_size=10", me.token)
    .then((games) => {
      list.removeAttribute("aria-busy");
      list.replaceChildren(...(games.length ? games.map((g) => gameItem(g, app)) : [h("li", { class: "none" }, t("none"))]));
    })
    .catch((failure) => list.replaceChildren(h("li", { class: "error" }, app.problem(failure))));
  return list;
}
