// A watched game at a readable pace: when a spectator's page learns of many events at once, it draws the table as
// of each meaningful one in turn (`/states/{version}`), a moment apart; bookkeeping goes by at once. A seat's page
// is always the live table, and so is anyone's who asks to jump to it.
import { get } from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";

export const SPEEDS = [0.5, 1, 2, 4];
const STEP_MS = 1200; // a meaningful event at 1×
const BRIEF = 0.5; // an event that says little on its own (a card face down, a phase begun): half a step
const SPEED_KEY = "syndicate.pace";

// Events that change nothing a watcher needs to see happen: drawn along with the next one.
const BOOKKEEPING = new Set(["game_created", "seat_joined", "bots_seated", "game_started", "game_tallied", "rematch_created",
  "twelve_gangsters.boss_passed", "cash_n_guns.loot_dealt", "mobsters.deck_shuffled", "mobsters.phase_started"]);
const BRIEF_TYPES = new Set(["twelve_gangsters.gangster_played", "cash_n_guns.bullet_loaded", "cash_n_guns.aimed",
  "cash_n_guns.courage_chosen", "cash_n_guns.turn_ended", "mobsters.turn_started", "mobsters.cards_drawn",
  "mobsters.cards_discarded", "mobsters.setup_decided", "mobsters.income_collected", "mobsters.cost_charged"]);

const weight = (event) => (BOOKKEEPING.has(event.type) ? 0 : BRIEF_TYPES.has(event.type) ? BRIEF : 1);

// The version to draw next after `from`: the next meaningful event, with the bookkeeping that follows it.
export function nextStop(events, from, live) {
  const ahead = events.filter((e) => e.version > from && e.version <= live);
  const first = ahead.findIndex((e) => weight(e) > 0);
  if (first < 0) return { version: live, weight: 0 };
  const next = ahead.findIndex((e, i) => i > first && weight(e) > 0);
  return { version: next < 0 ? live : ahead[next - 1].version, weight: weight(ahead[first]) };
}

// A seat's page is the live table: its player plays, and a house that moves fast for the others must not keep it
// waiting behind a replay of their moves. Spectators see the game at a readable pace.
const due = (view) => Boolean(view.you);

// A past table offers no moves: what the seat could do then is not what it may do now.
const past = (view) => (view.you ? { ...view, you: { ...view.you, legal_moves: [] } } : view);

export function pace({ root, gameId, token, redraw }) {
  let speed = Number(localStorage.getItem(SPEED_KEY)) || 1;
  let last = null; // what was drawn last: { view, version, at, weight }
  let live = null;
  let timer = null;
  let fetching = false;
  let skipping = false; // the next frame is drawn live, whatever is being played back
  let marks = new Map(); // each seat's text as last drawn: what changed is marked
  let ahead = null; // the next table to show, read while the one before is on screen: { version, view (a promise) }

  // A past table as the caller may see it (null if it could not be read), asked for once.
  const read = (version) => {
    if (ahead?.version !== version) {
      ahead = { version, view: get(`/v1/games/${gameId}/states/${version}`, token).then(past, () => null) };
    }
    return ahead.view;
  };

  const drawn = (view, version, stepWeight) => {
    if (last?.version !== version) queueMicrotask(markChanges);
    last = { view, version, at: performance.now(), weight: stepWeight };
  };

  const advance = async () => {
    timer = null;
    if (!live || !last || live.view.version <= last.version) return;
    const stop = nextStop(live.events, last.version, live.view.version);
    fetching = true;
    try {
      const view = stop.version === live.view.version ? live.view : await read(stop.version);
      if (!view) drawn(live.view, live.view.version, 0); // the past could not be read: the live table it is
      else if (live.view.version > last.version) drawn(view, stop.version, stop.weight);
    } finally {
      fetching = false;
    }
    redraw();
  };

  // The table to draw now, given the live one: the live table, or the one being played back.
  const frame = (current) => {
    live = current;
    const version = current.view.version;
    if (!last || skipping || due(current.view) || version <= last.version) {
      skipping = false;
      clearTimeout(timer);
      timer = null;
      if (last?.version !== version || !last) drawn(current.view, version, 1);
      else last.view = current.view; // the same version, read again (a rematch asked for): the newer read
      return current;
    }
    const wait = last.at + (STEP_MS * last.weight) / speed - performance.now();
    const stop = nextStop(current.events, last.version, version);
    if (wait <= 0 && stop.version === version && !fetching) {
      drawn(current.view, version, stop.weight);
      return current;
    }
    if (!timer && !fetching) {
      timer = setTimeout(advance, Math.max(0, wait));
      if (stop.version !== version) read(stop.version);
    }
    return { view: last.view, events: current.events.filter((e) => e.version <= last.version) };
  };

  // What changed since the last version drawn: each seat whose panel reads differently is marked for a moment.
  function markChanges() {
    const now = new Map([...root.querySelectorAll(".board .seat[data-seat]")].map((e) => [e.dataset.seat, e]));
    for (const [seat, element] of now) {
      const text = element.textContent;
      if (marks.has(seat) && marks.get(seat) !== text) element.classList.add("changed");
      marks.set(seat, text);
    }
  }

  const jump = (now = true) => {
    clearTimeout(timer);
    timer = null;
    skipping = true;
    if (now) redraw();
  };

  // Speed and "jump to live", for a page that watches; what is being played back, while it is behind (last: its
  // width changes with the count, and the buttons must not move under the pointer).
  const controls = (shown) => {
    if (!live || due(live.view) || (live.view.status !== "in_progress" && shown.version >= live.view.version)) return null;
    const behind = live.view.version - shown.version;
    return h("div", { class: "pace", id: "pace", role: "group", "aria-label": t("pace") }, [
      ...SPEEDS.map((s) => h("button", { type: "button", class: "small pace-speed", "data-speed": s, "data-key": `pace:${s}`,
        "aria-pressed": String(s === speed), onclick: () => { speed = s; localStorage.setItem(SPEED_KEY, String(s)); redraw(); } },
      t("pace_speed", { x: s }))),
      h("button", { type: "button", class: "small", id: "pace-live", "data-key": "pace:live", disabled: behind > 0 ? null : true,
        onclick: () => jump() }, t("pace_jump")),
      h("span", { class: "meta", id: "pace-state", "data-behind": behind }, behind > 0
        ? t("pace_behind", { n: behind }) : t("pace_live")),
    ]);
  };

  return { frame, controls, jump, stop: () => clearTimeout(timer) };
}
