// 12 Gangsters: each seat's hand of gangsters 1–12, the Boss, the successful and stopped piles, and each round's
// reveal drawn as a moment: every seat's gangster under its name, what became of it and who stopped it.
import { fedora, h, infoLine, seatSection } from "../dom.js";

export const EVENTS = ["boss_chosen", "gangster_played", "round_revealed", "boss_passed"].map((e) => `twelve_gangsters.${e}`);

// The events that begin a round (the replay jumps between them): the first Boss, then each Boss passed on.
export const MOMENTS = ["twelve_gangsters.boss_chosen", "twelve_gangsters.boss_passed"];

export const score = (points) => String(points);

export const DRAWS_HANDS = true; // a seat's panel shows its hand once the game is over: the replay needs no list of them

const REVEALED = "twelve_gangsters.round_revealed";
const shown = { game: null, round: 0 }; // the last reveal drawn: only a new one is turned over with a flourish

// One gangster, face up (its value from the catalogue) or face down.
export function gangster(ui, id, { seat, faceDown = false, cls = "" } = {}) {
  if (faceDown) return h("div", { class: `gcard back ${cls}`, role: "img", "aria-label": ui.t("face_down") }, fedora());
  const value = ui.card(id).value ?? id;
  return h("div", { class: `gcard seat-c${seat} ${cls}`, role: "img", "aria-label": ui.t("gangster_n", { n: value }) }, [
    h("span", { class: "corner", "aria-hidden": "true" }, value), fedora(), h("span", { class: "value", "aria-hidden": "true" }, value)]);
}

function pile(ui, cards, seat, kind) {
  return h("div", { class: `pile ${kind}`, "aria-label": `${ui.t(kind)}: ${cards.join(", ") || ui.t("none")}`, role: "group" }, [
    h("span", { class: "pile-title" }, ui.t(kind)),
    h("div", { class: "cards mini" }, cards.map((card) => gangster(ui, card, { seat, cls: "mini" }))),
  ]);
}

// What became of a seat's gangster in a reveal, as the rules say: above the Boss's is stopped by the Boss; the
// Boss's is stopped by whoever matched it.
export function outcome(reveal, seat) {
  const bar = reveal.plays[reveal.boss];
  const matched = reveal.plays.map((card, s) => s).filter((s) => s !== reveal.boss && reveal.plays[s] === bar);
  const succeeded = reveal.succeeded.includes(seat);
  if (seat === reveal.boss) return { succeeded, key: succeeded ? "tg_boss_unmatched" : "tg_boss_matched", by: matched };
  if (!succeeded) return { succeeded, key: "tg_stopped_by_boss", by: [reveal.boss] };
  return { succeeded, key: reveal.plays[seat] === bar ? "tg_matched_boss" : "tg_succeeded", by: [] };
}

const names = (ui, seats) => new Intl.ListFormat(ui.t("tg_list_locale"), { type: "conjunction" }).format(seats.map(ui.name));

function seatPanel(view, ui, seat) {
  const state = view.state;
  const isBoss = state.boss === seat.seat;
  const reveal = state.last_round;
  // Once the game is over everyone sees every seat's own (its hand, its choice): a replay shows them at each version.
  const open = seat.seat === ui.me ? view.you?.chosen : seat.chosen;
  const chosenFace = open !== null && open !== undefined
    ? gangster(ui, open, { seat: seat.seat, cls: "chosen" })
    : seat.has_chosen ? gangster(ui, 0, { faceDown: true }) : h("div", { class: "gcard empty", "aria-hidden": "true" });
  const finished = view.status === "finished";
  return seatSection(ui, seat, {
    mark: isBoss ? "boss" : "",
    badge: isBoss ? h("span", { class: "badge boss-badge" }, ui.t("boss")) : null,
    score: h("span", { class: "score" }, ui.t("points", { n: seat.score })),
  },
    h("div", { class: "played" }, [
      finished ? null : chosenFace,
      h("span", { class: "note" }, finished ? "" : seat.has_chosen ? ui.t("has_chosen") : ui.t("thinking")),
      reveal ? h("span", { class: "note" }, ui.t("last_played", { n: reveal.plays[seat.seat] })) : null,
    ]),
    pile(ui, seat.succeeded, seat.seat, "succeeded"),
    pile(ui, seat.stopped, seat.seat, "stopped"),
    seat.hand && seat.hand.length && seat.seat !== ui.me ? pile(ui, seat.hand, seat.seat, "tg_hand") : null,
    h("p", { class: "note" }, ui.t("cards_left", { n: seat.cards_left })),
  );
}

function revealPanel(view, ui, reveal) {
  if (!reveal) return null;
  const fresh = shown.game !== view.game_id || shown.round !== reveal.round;
  Object.assign(shown, { game: view.game_id, round: reveal.round });
  const title = ui.t("tg_reveal_title", { n: reveal.round, name: ui.name(reveal.boss), card: reveal.plays[reveal.boss] });
  return h("section", { class: `reveal panel tg-reveal ${fresh ? "fresh" : ""}`, "data-round": reveal.round, "aria-label": title }, [
    h("h2", {}, title),
    h("ol", { class: "tg-plays" }, reveal.plays.map((card, seat) => {
      const what = outcome(reveal, seat);
      const said = ui.t(what.key, { names: names(ui, what.by) });
      return h("li", { class: `tg-play ${what.succeeded ? "ok" : "ko"} ${seat === reveal.boss ? "boss" : ""}`, "data-seat": seat,
        "data-card": card, "data-outcome": what.succeeded ? "succeeded" : "stopped" }, [
        h("span", { class: "tg-who" }, [h("span", { class: `dot seat-c${seat}`, "aria-hidden": "true" }), h("span", { class: "tg-name" }, ui.name(seat))]),
        h("span", { class: "tg-role" }, seat === reveal.boss ? h("span", { class: "badge boss-badge" }, ui.t("boss")) : ""),
        h("div", { class: "tg-card" }, [gangster(ui, card, { seat, cls: what.succeeded ? "ok" : "ko" }),
          h("span", { class: "tg-mark", "aria-hidden": "true" }, what.succeeded ? "✓" : "✗")]),
        h("span", { class: "tg-outcome" }, said),
      ]);
    })),
  ]);
}

// The whole game laid open once it is over: every seat's gangster of every round, and what became of it.
function roundsPanel(ui, seats) {
  const reveals = ui.events.filter((e) => e.type === REVEALED).map((e) => e.payload);
  if (!reveals.length) return null;
  return h("section", { class: "panel tg-rounds", id: "tg-rounds", "aria-labelledby": "tg-rounds-title" }, [
    h("h2", { id: "tg-rounds-title" }, ui.t("tg_rounds")),
    h("table", {}, [
      h("thead", {}, h("tr", {}, [h("th", { scope: "col" }, ui.t("tg_round")),
        ...seats.map((seat) => h("th", { scope: "col" }, ui.name(seat.seat)))])),
      h("tbody", {}, reveals.map((reveal) => h("tr", { "data-round": reveal.round }, [
        h("th", { scope: "row" }, reveal.round),
        ...reveal.plays.map((card, seat) => {
          const ok = reveal.succeeded.includes(seat);
          return h("td", { class: ok ? "ok" : "ko", "data-seat": seat, title: ui.t(ok ? "success" : "stopped_one") },
            [String(card), seat === reveal.boss ? h("span", { class: "tg-boss-mark", title: ui.t("boss") }, " ★") : null,
              h("span", { class: "sr-only" }, ` ${ui.t(ok ? "success" : "stopped_one")}`)]);
        }),
      ]))),
    ]),
  ]);
}

function hand(view, ui) {
  if (!view.you) return null;
  const held = new Set(view.you.hand);
  const values = ui.catalogue.cards.filter((c) => c.players.includes(view.seats.length)).map((c) => c.id);
  return h("section", { class: "hand panel", "aria-label": ui.t("your_hand") }, [
    h("h2", {}, ui.t("your_hand")),
    h("div", { class: "cards" }, values.map((card) => {
      const face = gangster(ui, card, { seat: ui.me, cls: held.has(card) ? "" : "spent" });
      const [move] = ui.moves((m) => m.type === "play" && m.card === card);
      return move ? ui.button(move, face, ui.t("play_gangster", { n: ui.card(card).value }), "card-button") : face;
    })),
  ]);
}

// What each score is made of: a seat's gangsters that succeeded, from the result's details.
export function breakdown(result, ui) {
  const seats = result.details?.seats || [];
  return h("ul", { class: "tg-breakdown" }, seats.map((row) => h("li", { "data-seat": row.seat,
    "data-succeeded": row.succeeded.join(",") }, [
    h("strong", {}, ui.name(row.seat)), " · ",
    ui.t("tg_heists", { n: row.succeeded.length, points: row.succeeded.reduce((a, b) => a + b, 0) }),
    h("div", { class: "cards mini" }, row.succeeded.map((card) => gangster(ui, card, { seat: row.seat, cls: "mini" }))),
  ])));
}

export function render(view, ui) {
  const state = view.state;
  return [
    infoLine(ui.t("round_of", { n: Math.min(state.round, state.rounds), total: state.rounds }),
      state.boss === null ? null : ui.t("boss_is", { name: ui.name(state.boss) })),
    revealPanel(view, ui, state.last_round),
    h("div", { class: "seats" }, state.seats.map((seat) => seatPanel(view, ui, seat))),
    view.status === "finished" ? roundsPanel(ui, state.seats) : null,
    hand(view, ui),
  ];
}
