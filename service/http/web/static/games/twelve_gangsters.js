// 12 Gangsters: each seat's hand of gangsters 1–12, the Boss, the successful and stopped piles, the last reveal.
import { fedora, h, seatSection } from "../dom.js";

export const EVENTS = ["boss_chosen", "gangster_played", "round_revealed", "boss_passed"].map((e) => `twelve_gangsters.${e}`);

export const score = (points) => String(points);

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

function seatPanel(view, ui, seat) {
  const state = view.state;
  const isBoss = state.boss === seat.seat;
  const reveal = state.last_round;
  const chosenFace = seat.seat === ui.me && view.you.chosen !== null
    ? gangster(ui, view.you.chosen, { seat: seat.seat, cls: "chosen" })
    : seat.has_chosen ? gangster(ui, 0, { faceDown: true }) : h("div", { class: "gcard empty", "aria-hidden": "true" });
  return seatSection(ui, seat, {
    mark: isBoss ? "boss" : "",
    badge: isBoss ? h("span", { class: "badge boss-badge" }, ui.t("boss")) : null,
    score: h("span", { class: "score" }, ui.t("points", { n: seat.score })),
  },
    h("div", { class: "played" }, [
      view.status === "finished" ? null : chosenFace,
      h("span", { class: "note" }, view.status === "finished" ? "" : seat.has_chosen ? ui.t("has_chosen") : ui.t("thinking")),
      reveal ? h("span", { class: "note" }, ui.t("last_played", { n: reveal.plays[seat.seat] })) : null,
    ]),
    pile(ui, seat.succeeded, seat.seat, "succeeded"),
    pile(ui, seat.stopped, seat.seat, "stopped"),
    h("p", { class: "note" }, ui.t("cards_left", { n: seat.cards_left })),
  );
}

function revealPanel(ui, reveal) {
  if (!reveal) return null;
  return h("section", { class: "reveal panel", "aria-label": ui.t("round_reveal", { n: reveal.round }) }, [
    h("h2", {}, ui.t("round_reveal", { n: reveal.round })),
    h("div", { class: "cards" }, reveal.plays.map((card, seat) => h("figure", { class: "revealed" }, [
      gangster(ui, card, { seat, cls: reveal.succeeded.includes(seat) ? "ok" : "ko" }),
      h("figcaption", {}, [ui.name(seat), seat === reveal.boss ? ` · ${ui.t("boss")}` : "", " · ",
        reveal.succeeded.includes(seat) ? ui.t("success") : ui.t("stopped_one")]),
    ]))),
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

export function render(view, ui) {
  const state = view.state;
  return [
    h("p", { class: "info" }, [
      ui.t("round_of", { n: Math.min(state.round, state.rounds), total: state.rounds }), " · ",
      state.boss === null ? "" : ui.t("boss_is", { name: ui.name(state.boss) })]),
    h("div", { class: "seats" }, state.seats.map((seat) => seatPanel(view, ui, seat))),
    revealPanel(ui, state.last_round),
    hand(view, ui),
  ];
}
