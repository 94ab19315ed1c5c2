// A table: the game as this browser's seat (or a spectator) sees it, kept live by the feed. Moves are the
// seat's `legal_moves`, drawn as buttons by the game's module: what is not legal is never a button.
import { call, follow, get, player, seats, tokenFor } from "./api.js";
import { fill, h, rulesetName } from "./dom.js";
import { GAMES, EVENT_TYPES } from "./games/index.js";
import { money, t } from "./i18n.js";
import { howTo, invitedHere, joinGame, keptHere, publicSeedBadge } from "./lobby.js";
import { announceDue, markDue, signalControls } from "./signals.js";
import { pace } from "./playback.js";

const REMATCH_LOOK_MS = 3000;

export function seatName(view, seat, me) {
  const info = view.seats[seat] || {};
  // Bots are told apart by their seat: a table may hold several of one kind.
  // People count seats from 1; the API, from 0.
  let name = info.open ? t(info.invited ? "seat_kind.invited" : "seat_kind.open") : info.bot ? t("bot_at", { bot: t(`bot.${info.bot}`), n: seat + 1 }) : info.name;
  if (seat === me) name = t("you_named", { name });
  return name ?? t("seat_n", { n: seat + 1 });
}

// What a game module draws with: the view, the catalogue, seat names and buttons for legal moves only.
export function makeUi(view, catalogue, events, act, redraw = () => {}) {
  const me = view.you ? view.you.seat : null;
  const legal = act ? view.you?.legal_moves || [] : [];
  return {
    view, catalogue, events, me, legal, t, money, redraw,
    name: (seat) => seatName(view, seat, me),
    card: (id) => {
      const card = catalogue.byId[String(id)];
      return card ? { ...card, name: t("card_name", { id: card.id, name: card.name }) } : { id, name: String(id), kind: "unknown" };
    },
    moves: (predicate) => legal.filter(predicate),
    button(move, content, label, cls = "") {
      const key = JSON.stringify(move);
      return h("button", { type: "button", class: `move ${cls}`, "data-move": key, "data-key": key,
        "aria-label": label, title: label, onclick: () => act(move) }, content);
    },
  };
}

// An event in words. `log` is the game's log the event is in: a line its game completes from earlier events (the
// game module's `told`) reads them there, never anything later.
export function describe(event, ui, log = ui.events || []) {
  const key = `ev.${event.type}`;
  const told = GAMES[ui.view?.ruleset]?.told?.(event, log) || {};
  const said = t(key, { p: event.payload, name: ui.name, card: (id) => ui.card(id).name, money, ...told });
  // A move the house made for a person's seat at its deadline is not that person's choice: say so.
  return event.command?.by === "deadline" ? `${said} ${t("by_deadline")}` : said;
}

// The log, the `last` events of it (each told from the whole log), oldest first when each is a step to pick.
export function eventList(events, ui, current = null, onPick = null, last = Infinity) {
  const listed = events.slice(-last);
  return h("ol", { class: "events", reversed: onPick ? null : "" },
    (onPick ? listed : [...listed].reverse()).map((event) => {
      const text = `${event.version}. ${describe(event, ui, events)}`;
      const item = onPick
        ? h("button", { type: "button", class: "event", "aria-current": event.version === current ? "step" : null,
            onclick: () => onPick(event.version) }, text)
        : text;
      return h("li", { "data-version": event.version, class: event.version === current ? "current" : null }, item);
    }));
}

// The final tally, and each seat's breakdown where the game draws one (its module's `breakdown(result, ui)`, from
// the result's `details`: what each score is made of).
export function resultPanel(result, ui, game) {
  if (!result) return null;
  const format = game.score;
  const order = result.scores.map((score, seat) => ({ seat, score, rank: result.ranks[seat] }));
  order.sort((a, b) => (a.rank ?? 99) - (b.rank ?? 99));
  return h("section", { class: "panel result", id: "result", "aria-labelledby": "result-title" }, [
    h("h2", { id: "result-title" }, t("result")),
    h("p", { class: "winners" }, result.winners.length
      ? t("winners", { names: result.winners.map(ui.name).join(", ") }) : t("no_winner")),
    h("table", {}, [
      h("thead", {}, h("tr", {}, [h("th", {}, t("rank")), h("th", {}, t("player")), h("th", {}, t("score"))])),
      h("tbody", {}, order.map((row) => h("tr", { class: result.winners.includes(row.seat) ? "won" : null }, [
        h("td", {}, row.rank ?? "–"), h("td", {}, ui.name(row.seat)), h("td", {}, format(row.score, ui))]))),
    ]),
    result.tie_break ? h("p", {}, t("tie_break", { rule: result.tie_break })) : null,
    game.breakdown ? h("div", { class: "breakdown", id: "breakdown" }, game.breakdown(result, ui)) : null,
  ]);
}

function awaitingLine(view, ui) {
  if (view.status === "finished") return h("p", { class: "awaiting done" }, t("game_over"));
  if (view.status === "waiting") {
    return h("p", { class: "awaiting", id: "awaiting" }, [t("waiting_for_players"),
      view.bots_at ? [" · ", h("span", { class: "countdown", "data-deadline": view.bots_at, "data-says": "bots_in", role: "timer" }, "")] : null]);
  }
  if (view.status === "aborted") return h("p", { class: "awaiting done" }, t("status.aborted"));
  const mine = view.awaiting.find((a) => a.seat === ui.me);
  const others = view.awaiting.filter((a) => a.seat !== ui.me).map((a) => ui.name(a.seat));
  const deadline = view.awaiting.map((a) => a.deadline_at).filter(Boolean).sort()[0];
  return h("p", { class: `awaiting ${mine ? "mine" : ""}`, id: "awaiting" }, [
    mine ? h("strong", {}, t("your_decision", { decision: t(`decision.${mine.decision}`) })) : null,
    mine && others.length ? " · " : null,
    others.length ? t("waiting_for", { names: others.join(", ") }) : null,
    deadline ? h("span", { class: "countdown", "data-deadline": deadline, role: "timer" }, "") : null,
  ]);
}

function tick() {
  for (const element of document.querySelectorAll("[data-deadline]")) {
    const left = Math.max(0, Math.ceil((Date.parse(element.dataset.deadline) - Date.now()) / 1000));
    element.textContent = t(element.dataset.says || "seconds_left", { s: left });
    element.classList.toggle("urgent", left <= 5);
  }
}

export async function showTable(root, app, gameId, watching) {
  // A player's seat is known from the game's seats: look as a spectator first, then as the seat.
  let view = await get(`/v1/games/${gameId}`);
  const token = watching ? null : tokenFor(gameId, view);
  if (token) view = await get(`/v1/games/${gameId}`, token);
  const game = GAMES[view.ruleset];
  const catalogue = await app.catalogue(view.ruleset);
  let events = [];
  let result = null;
  let notice = "";
  let wasMine = false;
  let handFocus = false; // the keyboard was in the moves: give it back to them when the next decision comes
  const playback = pace({ root, gameId, token, redraw: () => draw() }); // a watcher sees events one by one
  const live = () => ({ view, events });

  const act = async (move) => {
    document.body.dataset.busy = "1";
    const single = view.awaiting.length === 1; // a turn-based decision: guard it with the version we decided on
    try {
      const answer = await call("POST", `/v1/games/${gameId}/moves`, { body: move, token, ifMatch: single ? view.version : undefined });
      view = answer.game;
      playback.jump(false); // one's own move shows at once
      notice = "";
      setTimeout(catchUp, 0); // the log: other seats may have moved in between
    } catch (failure) {
      notice = app.problem(failure);
      await refresh(false).catch(() => {}); // the notice is shown all the same, on the table as it was
    } finally {
      draw();
      document.body.dataset.busy = "0";
    }
  };

  // Leave, resign, abort, rematch: each answers the game as a spectator sees it, or the new game.
  const request = async (what) => {
    if (what === "resign" && !window.confirm(t("confirm_resign"))) return;
    try {
      const answer = await call("POST", `/v1/games/${gameId}/${what}`, { token });
      if (what === "leave") {
        seats.forget(gameId);
        app.go("#/");
      } else if (what === "rematch") {
        const mine = answer.tokens.find((given) => given.seat === view.you.seat);
        if (mine) seats.keep(answer.game_id, mine.seat, mine.token, true);
        app.go(`#/game/${answer.game_id}`);
      } else {
        notice = "";
        await refresh();
      }
    } catch (failure) {
      notice = app.problem(failure);
      await refresh(false).catch(() => {}); // what was refused may be stale: a rematch another seat asked for
      draw();
    }
  };

  const refused = (failure) => {
    notice = app.problem(failure);
    draw();
  };

  let left = false; // a refresh still under way when the page moved on must not draw the table back
  const draw = () => {
    if (left) return;
    const { view, events } = playback.frame(live()); // the table as of the event being played back, or live
    const focused = document.activeElement?.dataset?.key;
    // A resigned seat is the random bot's: the view still lists its legal moves, but the API refuses them.
    const resigned = view.you && view.seats[view.you.seat]?.resigned;
    const ui = makeUi(view, catalogue, events, watching || resigned ? null : act, draw);
    const yourTurn = ui.legal.length > 0;
    if (yourTurn && !wasMine) {
      app.announce(t("your_turn"));
      announceDue(`${rulesetName(view.ruleset)}: ${t("your_turn")}`);
    }
    wasMine = yourTurn;
    markDue(yourTurn);
    fill(root,
      h("div", { class: "table-head" }, [
        h("h1", {}, rulesetName(view.ruleset)),
        h("span", { class: `badge status-${view.status}` }, t(`status.${view.status}`)),
        view.randomness === "public" ? publicSeedBadge() : null,
        h("span", { class: "meta", id: "version" }, t("version_n", { n: view.version })),
        h("span", { class: "meta", id: "playing-as" },
          ui.me === null ? t("watching") : t("playing_as", { name: seatName(view, ui.me, null) })),
        h("nav", { class: "links" }, [
          h("a", { href: "#/", class: "button" }, t("back_to_lobby")),
          view.status === "finished" ? h("a", { href: `#/replay/${gameId}`, class: "button", id: "to-replay" }, t("replay")) : null,
          ...seatActions(view, ui, request, app, refused),
        ]),
        ui.me === null || view.status === "finished" ? null : signalControls(),
        playback.controls(view),
      ]),
      awaitingLine(view, ui),
      // A game's link opened where none of its seats is held (another browser, signed out): say why it is watched.
      !watching && ui.me === null ? h("p", { class: "hint", id: "not-seated" }, t(joinable(view) ? "not_seated_join" : "not_seated")) : null,
      h("p", { class: "notice", role: "alert" }, notice),
      h("div", { class: "table-grid" }, [
        h("section", { class: `board ${view.ruleset}`, "aria-label": t("table"), "data-version": view.version,
          "data-status": view.status }, ["waiting", "aborted"].includes(view.status) ? waitingSeats(view, ui) : game.render(view, ui)),
        h("aside", { class: "side" }, [
          resultPanel(view.status === "finished" ? result : null, ui, game),
          howTo(view.ruleset),
          h("section", { class: "panel log", "aria-labelledby": "log-title" }, [
            h("h2", { id: "log-title" }, t("events")),
            eventList(events, ui, null, null, 60),
          ]),
        ]),
      ]),
    );
    tick();
    const again = focused && [...root.querySelectorAll("[data-key]")].find((e) => e.dataset.key === focused);
    if (focused) handFocus = focused.startsWith("{");
    else if (document.activeElement !== document.body) handFocus = false;
    if (again) again.focus();
    else if (handFocus) root.querySelector("[data-move]")?.focus();
  };

  const refresh = async (redraw = true) => {
    const after = events.at(-1)?.version ?? 0;
    const [next, page] = await Promise.all([
      get(`/v1/games/${gameId}`, token),
      get(`/v1/games/${gameId}/events?after=${after}&limit=1000`, token),
    ]);
    if (next.version >= view.version) view = next;
    events.push(...page.events.filter((e) => e.version > (events.at(-1)?.version ?? 0)));
    if (view.status === "finished" && !result?.tallied) result = await get(`/v1/games/${gameId}/result`).catch(() => null);
    if (redraw) draw();
  };

  let pending = null;
  let behind = false; // a catch-up failed: its notice goes once the table has caught up
  // Read the game again; if that fails, say so and try again (after Retry-After, if the answer gave one):
  // the feed may have told all it had, and the table must not stay behind it.
  const catchUp = () => refresh().then(() => {
    if (behind) { behind = false; notice = ""; draw(); }
  }, (failure) => {
    if (left) return;
    behind = true;
    notice = app.problem(failure);
    draw();
    clearTimeout(pending);
    pending = setTimeout(catchUp, 1000 * (failure.retryAfter || 2));
  });
  const later = (message) => {
    if (Number(message.lastEventId) <= (events.at(-1)?.version ?? 0) && message.type !== "game_finished") return; // seen
    clearTimeout(pending);
    pending = setTimeout(catchUp, 60);
  };
  await refresh(false);
  draw();
  const stop = view.status === "finished" && result?.tallied ? () => {} : follow(gameId, token, EVENT_TYPES, later);
  const timer = setInterval(tick, 250);
  // The feed ends with the tally, but a seat of a finished game may still be asked to its rematch: look at
  // the view now and then (nothing else of a finished game changes), until there is one.
  const rematchWatch = setInterval(async () => {
    if (!view.you || view.status !== "finished" || view.rematch) return;
    const next = await get(`/v1/games/${gameId}`, token).catch(() => null);
    if (next?.rematch && !left) {
      view = next;
      draw();
    }
  }, REMATCH_LOOK_MS);
  return () => {
    left = true;
    playback.stop();
    markDue(false);
    stop();
    clearInterval(timer);
    clearInterval(rematchWatch);
    clearTimeout(pending);
  };
}

// Only what the API would allow now is offered: a seat's own requests, by the game's status; a seat to take.
function joinable(view) {
  const room = view.seats.some((seat) => seat.open && !seat.invited && seat.kept_for === undefined);
  return view.status === "waiting" && (room || invitedHere(view) || Boolean(keptHere(view)));
}

function seatActions(view, ui, request, app, refused) {
  if (ui.me === null) {
    if (!joinable(view)) return [];
    return [h("button", { type: "button", class: "button primary", id: "join", "data-join": view.game_id,
      onclick: () => joinGame(view, app).catch(refused) }, t("join"))];
  }
  const button = (what, cls = "") =>
    h("button", { type: "button", class: `button ${cls}`, id: what, onclick: () => request(what) }, t(`action.${what}`));
  if (view.status === "waiting") {
    const creator = createdHere(view, ui.events);
    // Any seat may fill the others with the house's bots where the game offers it; elsewhere, its creator only.
    const bots = creator || view.options.bots_after_s != null ? button("start-with-bots", "primary") : null;
    return [bots, button("leave"), creator ? button("abort", "danger") : null];
  }
  if (view.status === "in_progress" && !view.seats[ui.me]?.resigned) return [button("resign", "danger")];
  if (view.status === "finished") {
    return [view.rematch ? h("a", { href: `#/game/${view.rematch}`, class: "button", id: "to-rematch" }, t("to_rematch"))
      : button("rematch", "primary")];
  }
  return [];
}

// The creator is the player who created the game, or whoever holds a seat token handed out at creation.
function createdHere(view, events) {
  const me = player.get();
  if (seats.of(view.game_id)?.created) return true;
  const creator = events.find((event) => event.type === "game_created")?.payload.creator;
  return Boolean(me && creator === me.id);
}

function waitingSeats(view, ui) {
  return h("ul", { class: "waiting-seats" }, view.seats.map((seat) =>
    h("li", { class: seat.open ? "open" : "" }, `${t("seat_n", { n: seat.seat + 1 })}: ${ui.name(seat.seat)}`)));
}
