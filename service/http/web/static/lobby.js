// The lobby: the games of each ruleset (waiting, running, finished), creating a game, joining an open seat.
// Who "I" am is a signed-in player, or a name kept in this browser (account.js).
import { accountBox, identity } from "./account.js";
import { call, get, player, seats } from "./api.js";
import { fill, h, rulesetName } from "./dom.js";
import { GAMES } from "./games/index.js";
import { money, t, when } from "./i18n.js";

const STATUSES = ["waiting", "in_progress", "finished"];
const PEOPLE = ["me", "open"];
const BOT_ORDER = ["random", "smart", "hard"]; // weakest first; a kind the service adds comes after these
const LIST_REFRESH_MS = 5000;

const chosen = { ruleset: null };

export async function showLobby(root, app) {
  const rulesets = await app.rulesets();
  chosen.ruleset = chosen.ruleset || rulesets[0].id;
  const ruleset = rulesets.find((r) => r.id === chosen.ruleset);
  const tabs = h(
    "div",
    { class: "tabs", role: "group", "aria-label": t("games") },
    rulesets.map((r) =>
      h(
        "button",
        {
          type: "button",
          class: "tab",
          "aria-pressed": String(r.id === ruleset.id),
          "data-ruleset": r.id,
          onclick: () => {
            chosen.ruleset = r.id;
            app.render();
          },
        },
        rulesetName(r.id),
      ),
    ),
  );
  const lists = h("div", { class: "lists" }, STATUSES.map((status) => gameList(ruleset, status, app)));
  // The lists follow new games, but never under the keyboard's focus.
  const timer = setInterval(() => {
    if (!lists.contains(document.activeElement)) lists.replaceChildren(...STATUSES.map((s) => gameList(ruleset, s, app)));
  }, LIST_REFRESH_MS);
  fill(root,
    h("h1", {}, t("lobby")),
    accountBox(app, ruleset, gameItem),
    tabs,
    h(
      "div",
      { class: "lobby-grid" },
      h("section", { class: "panel", "aria-labelledby": "create-title" }, [
        h("h2", { id: "create-title" }, t("new_game", { game: rulesetName(ruleset.id) })),
        createForm(ruleset, app),
        howTo(ruleset.id),
      ]),
      lists,
    ),
  );
  return () => clearInterval(timer);
}

export function howTo(rulesetId, open = false) {
  const details = h("details", { class: "howto" }, [
    h("summary", {}, t("how_to_play")),
    ...t(`howto.${rulesetId}`)
      .split("\n")
      .map((line) => h("p", {}, line)),
  ]);
  details.open = open;
  return details;
}

// The kinds a seat may be given: a person, or each bot the ruleset lists (`GET /v1/rulesets`), with how it plays.
function seatKinds(ruleset) {
  const rank = (kind) => (BOT_ORDER.includes(kind) ? BOT_ORDER.indexOf(kind) : BOT_ORDER.length);
  const bots = [...ruleset.bots].sort((a, b) => rank(a) - rank(b));
  return [...PEOPLE.map((kind) => ({ kind })), ...bots.map((kind) => ({ kind, about: ruleset.bot_descriptions[kind] }))];
}

function seatRow(ruleset, index, kind, onchange) {
  const id = `seat-${index}`;
  const option = ({ kind: k, about }) =>
    h("option", { value: k, title: about || null, selected: k === kind ? "" : null }, t(`seat_kind.${k}`));
  return h("li", { class: "seat-row" }, [
    h("label", { for: id }, t("seat_n", { n: index + 1 })),
    h("select", { id, "data-seat": String(index), onchange }, seatKinds(ruleset).map(option)),
  ]);
}

// An option that names a seat: people count seats from 1, the API from 0 (its maximum is the game's last seat).
const namesASeat = (option) => option.type === "integer" && option.maximum === null && option.minimum === 0;

function optionInput(option) {
  const id = `option-${option.name}`;
  const label = h("label", { for: id }, t(`option.${option.name}`));
  if (option.type === "boolean") {
    const box = h("input", { id, type: "checkbox", "data-option": option.name });
    box.checked = Boolean(option.default);
    return h("div", { class: "option check" }, [box, label]);
  }
  const input = h("input", {
    id,
    type: "number",
    min: namesASeat(option) ? "1" : "0",
    "data-option": option.name,
    value: option.default ?? "",
    placeholder: option.default === null ? t("option_unset") : "",
  });
  return h("div", { class: "option" }, [label, input]);
}

function createForm(ruleset, app) {
  const kinds = ["me", ...Array(ruleset.min_players - 1).fill("smart")];
  const list = h("ol", { class: "seat-rows" });
  const error = h("p", { class: "error", role: "alert" });
  const draw = () => list.replaceChildren(...kinds.map((k, i) => seatRow(ruleset, i, k, (e) => (kinds[i] = e.target.value))));
  draw();
  const more = h("button", { type: "button", class: "small" }, t("add_seat"));
  const fewer = h("button", { type: "button", class: "small" }, t("remove_seat"));
  more.onclick = () => kinds.length < ruleset.max_players && (kinds.push("random"), draw());
  fewer.onclick = () => kinds.length > ruleset.min_players && (kinds.pop(), draw());
  const form = h("form", { class: "create", "aria-describedby": "create-title" }, [
    h("fieldset", {}, [h("legend", {}, t("seats", { min: ruleset.min_players, max: ruleset.max_players })), list]),
    h("div", { class: "row" }, [more, fewer]),
    h("fieldset", {}, [h("legend", {}, t("options")), ...ruleset.options.map(optionInput)]),
    error,
    h("button", { type: "submit", class: "primary", id: "create-game" }, t("create")),
  ]);
  form.onsubmit = async (e) => {
    e.preventDefault();
    if (kinds.filter((k) => k === "me").length > 1) {
      error.textContent = t("one_me");
      return;
    }
    const body = { ruleset: ruleset.id, seats: kinds.map(seatBody), options: readOptions(form, ruleset) };
    try {
      const game = await call("POST", "/v1/games", { body, token: player.get()?.token });
      const me = kinds.indexOf("me");
      const mine = game.tokens.find((token) => token.seat === me);
      if (mine) seats.keep(game.game_id, mine.seat, mine.token, true);
      app.go(`#/game/${game.game_id}`);
    } catch (failure) {
      error.textContent = app.problem(failure);
    }
  };
  return form;
}

function seatBody(kind) {
  if (kind === "me") return player.get() ? { player: "me" } : { name: identity.name() };
  if (kind === "open") return { open: true };
  return { bot: kind };
}

function readOptions(form, ruleset) {
  const options = {};
  for (const option of ruleset.options) {
    const input = form.querySelector(`[data-option="${option.name}"]`);
    if (option.type === "boolean") options[option.name] = input.checked;
    else if (input.value !== "") options[option.name] = Number(input.value) - (namesASeat(option) ? 1 : 0);
  }
  return options;
}

function gameList(ruleset, status, app) {
  const list = h("ul", { class: "games", "aria-busy": "true" });
  const section = h("section", { class: "panel", "data-status": status }, [h("h2", {}, t(`status.${status}`)), list]);
  get(`/v1/games?status=${status}&ruleset=${ruleset.id}&page_size=10`)
    .then((games) => {
      list.removeAttribute("aria-busy");
      list.replaceChildren(...(games.length ? games.map((g) => gameItem(g, app)) : [h("li", { class: "none" }, t("none"))]));
    })
    .catch((failure) => list.replaceChildren(h("li", { class: "error" }, app.problem(failure))));
  return section;
}

function seatLabel(seat) {
  if (seat.open) return t(seat.invited ? "seat_kind.invited" : "seat_kind.open");
  if (seat.bot) return t(`bot.${seat.bot}`);
  return seat.name;
}

export function gameItem(game, app) {
  const mine = seats.of(game.game_id) || player.seated(game);
  const actions = [];
  const refused = h("span", { class: "error", role: "alert", "data-refused": game.game_id });
  if (mine && game.status !== "finished") actions.push(link(`#/game/${game.game_id}`, t("play"), "primary"));
  if (!mine && game.status === "waiting" && (game.open_seats > 0 || invitedHere(game))) {
    const join = h("button", { type: "button", class: "primary", "data-join": game.game_id }, t("join"));
    join.onclick = () => joinGame(game, app).catch((failure) => {
      refused.textContent = app.problem(failure); // shown beside the game, and read out (role=alert)
    });
    actions.push(join);
  }
  if (game.status !== "finished") actions.push(link(`#/watch/${game.game_id}`, t("watch")));
  else actions.push(link(`#/replay/${game.game_id}`, t("replay")));
  return h("li", { class: "game-item", "data-game": game.game_id }, [
    game.winners ? outcome(game) : h("span", { class: "who" }, game.seats.map(seatLabel).join(" · ")),
    game.randomness === "public" ? publicSeedBadge() : null,
    h("span", { class: "when" }, when(game.created_at)),
    h("span", { class: "actions" }, actions),
    refused,
  ]);
}

// A finished game: who won, and each seat's score.
function outcome(game) {
  const score = GAMES[game.ruleset].score;
  const seat = (s) => h("span", { class: game.winners.includes(s.seat) ? "won" : null },
    `${seatLabel(s)} ${score(game.scores[s.seat], { money })}`);
  const names = game.winners.map((w) => seatLabel(game.seats[w])).join(", ");
  return h("span", { class: "who outcome", "data-winners": game.winners.join(",") }, [
    h("strong", {}, names ? t("won_by", { names }) : t("no_winner")), " — ",
    game.seats.map((s, i) => [i ? " · " : "", seat(s)]),
  ]);
}

// Whether a rematch keeps a seat of this game for this browser's player.
export function invitedHere(game) {
  const me = player.get();
  return Boolean(me) && game.seats.some((seat) => seat.open && seat.invited === me.id);
}

// The seat token this browser held in the game a rematch replays, if the rematch keeps that seat for it.
export function keptHere(game) {
  const before = game.rematch_of && seats.of(game.rematch_of);
  return before && game.seats.some((seat) => seat.open && seat.kept_for === before.seat) ? before.token : null;
}

// Take a seat (a player as itself, with no seat token; a rematch's seat kept for this browser with the old game's
// seat token; anyone else under this browser's name) and open the table. A seed the creator chose lets it compute
// every hand: the API seats only a joiner that accepts it.
export async function joinGame(game, app) {
  const publicSeed = game.randomness === "public";
  if (publicSeed && !window.confirm(t("confirm_public_seed"))) return;
  const me = player.get();
  const kept = keptHere(game);
  const accept = publicSeed ? { accept_public_randomness: true } : {};
  const body = { ...(me || kept ? {} : { name: identity.name() }), ...accept };
  const joined = await call("POST", `/v1/games/${game.game_id}/join`, { body, token: kept || me?.token });
  if (joined.token) seats.keep(game.game_id, joined.seat, joined.token);
  app.go(`#/game/${game.game_id}`);
}

export function publicSeedBadge() {
  return h("span", { class: "badge public-seed", title: t("public_seed_why"), "data-randomness": "public" }, t("public_seed"));
}

function link(href, text, cls = "") {
  return h("a", { href, class: `button ${cls}` }, text);
}
