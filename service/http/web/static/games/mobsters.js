// Mobsters: your hand, each seat's mobsters with their operations and Law cards, money, the phase and the dice.
// A move names several cards (a mobster, a card, a victim), so it is made in two clicks: pick one of the
// cards that some legal move names, then one of the legal moves that name it.
import { die, h, seatSection } from "../dom.js";

export const EVENTS = ["deck_shuffled", "first_player_chosen", "cards_drawn", "cards_discarded", "setup_decided",
  "setup_revealed", "hand_kept",
  "turn_started", "attendance_rolled", "phase_started", "extra_card_bought", "hit_attempted", "mobster_killed",
  "operation_reassigned", "operations_discarded", "operation_destroyed", "crime_committed", "petty_crime_committed",
  "income_collected", "income_doubled", "cost_charged", "mobster_recruited", "operation_attached", "law_placed",
  "law_escaped", "law_bribed", "game_ended"].map((e) => `mobsters.${e}`);

// The event that begins a turn (the replay jumps between them).
export const MOMENTS = ["mobsters.turn_started"];

export const PHASES = ["draw", "hit", "crime", "collection", "recruit", "law"];

export const score = (amount, ui) => ui.money(amount);

const FIELDS = ["mobster", "card", "victim", "target", "operation", "law"];
const picked = { game: null, subject: null }; // the card picked on this game's table, kept across redraws

function subjects(move) {
  return [...FIELDS.map((f) => move[f]).filter((v) => typeof v === "string"), ...(move.cards || [])];
}

// A move in words, with the cards' names from the catalogue.
export function moveText(ui, move) {
  const named = (v) => (typeof v === "number" ? ui.name(v) : ui.card(v).name); // a number is a seat
  const names = Object.fromEntries(FIELDS.map((f) => [f, f in move ? named(move[f]) : ""]));
  names.cards = (move.cards || []).map((c) => ui.card(c).name).join(", ");
  return ui.t(`mv.${move.type}`, names);
}

function mcard(ui, id, { cls = "", extra = null } = {}) {
  const card = ui.card(id);
  const value = card.value ? ui.money(card.value) : card.bonus ? ui.t("bonus", { v: ui.money(card.bonus) }) : "";
  const label = `${ui.t(`kind.${card.kind}`)}: ${card.name}${value ? `, ${value}` : ""}`;
  return h("div", { class: `mcard ${card.kind} ${cls}`, role: "img", "aria-label": label, title: label }, [
    h("span", { class: "kind", "aria-hidden": "true" }, ui.t(`kind.${card.kind}`)),
    h("span", { class: "name", "aria-hidden": "true" }, card.name),
    value ? h("span", { class: "amount", "aria-hidden": "true" }, value) : null,
    extra,
  ]);
}

// A card that a legal move names is a button that picks it; any other is only drawn.
function pickable(ui, id, face, legalIds) {
  if (!legalIds.has(id)) return face;
  const label = ui.t("pick_card", { name: ui.card(id).name });
  return h("button", { type: "button", class: `pick card-button ${picked.subject === id ? "picked" : ""}`, "data-subject": id,
    "data-key": `pick:${id}`, "aria-pressed": String(picked.subject === id), "aria-label": label, title: label,
    onclick: () => { picked.subject = picked.subject === id ? null : id; ui.redraw(); } }, face);
}

function deed(ui, mobster) {
  if (mobster.deed) return ui.t(`deed.${mobster.deed.action}`, { roll: mobster.deed.roll ?? "" });
  return mobster.has_action ? ui.t("ready") : ui.t("spent");
}

function mobsterBox(ui, mobster, legalIds) {
  return h("div", { class: `in-play ${mobster.law.length ? "arrested" : ""}`, "data-card": mobster.card }, [
    pickable(ui, mobster.card, mcard(ui, mobster.card), legalIds),
    h("p", { class: "note" }, deed(ui, mobster)),
    h("div", { class: "attached" }, [
      ...mobster.operations.map((op) => pickable(ui, op, mcard(ui, op, { cls: "mini" }), legalIds)),
      ...mobster.law.map((law) => pickable(ui, law, mcard(ui, law, { cls: "mini" }), legalIds)),
    ]),
  ]);
}

function seatPanel(view, ui, seat, legalIds) {
  const active = view.state.active_seat === seat.seat && view.state.phase !== "setup";
  return seatSection(ui, seat, {
    mark: active ? "active" : "",
    badge: active ? h("span", { class: "badge" }, ui.t("active")) : null,
    score: h("span", { class: "score money" }, ui.money(seat.money)),
  },
    h("p", { class: "note" }, [ui.t("hand_count", { n: seat.hand_count }), " · ", ui.t("income", { v: ui.money(seat.income) })]),
    h("div", { class: "mob-list" }, seat.mobsters.length ? seat.mobsters.map((m) => mobsterBox(ui, m, legalIds))
      : h("p", { class: "note" }, ui.t("no_mobsters"))),
  );
}

function lastRoll(ui) {
  const rolled = [...ui.events].reverse().find((e) => ["mobsters.hit_attempted", "mobsters.petty_crime_committed",
    "mobsters.attendance_rolled"].includes(e.type));
  if (!rolled) return null;
  const rolls = rolled.payload.rolls ? rolled.payload.rolls.map((r) => (typeof r === "number" ? r : r.roll)) : [rolled.payload.roll];
  return h("figure", { class: "dice" }, [
    h("div", { class: "row" }, rolls.map((r) => die(r, ui.t("die_shows", { n: r })))),
    h("figcaption", {}, ui.t(`roll.${rolled.type}`, { name: ui.name(rolled.payload.seat) })),
  ]);
}

function phases(ui, state) {
  if (state.phase === "setup" || state.phase === "over") return h("span", { class: "badge phase" }, ui.t(`mphase.${state.phase}`));
  return h("ol", { class: "phases", "aria-label": ui.t("phases") }, PHASES.map((p) =>
    h("li", { class: p === state.phase ? "current" : "", "aria-current": p === state.phase ? "step" : null }, ui.t(`mphase.${p}`))));
}

function actions(ui) {
  const plain = ui.moves((m) => subjects(m).length === 0);
  const named = picked.subject ? ui.moves((m) => subjects(m).includes(picked.subject)) : [];
  return h("section", { class: "panel actions-panel", "aria-label": ui.t("your_moves") }, [
    h("h2", {}, ui.t("your_moves")),
    ui.legal.length === 0 ? h("p", { class: "note" }, ui.t("not_your_move")) : null,
    picked.subject ? h("p", {}, ui.t("picked", { name: ui.card(picked.subject).name })) : ui.legal.length > plain.length
      ? h("p", { class: "note" }, ui.t("pick_hint")) : null,
    h("div", { class: "actions" }, [...named, ...plain].map((m) => ui.button(m, moveText(ui, m), moveText(ui, m),
      m.type === "end_phase" ? "" : "primary"))),
  ]);
}

export function render(view, ui) {
  const state = view.state;
  const legalIds = new Set(ui.legal.flatMap(subjects));
  if (picked.game !== view.game_id || !legalIds.has(picked.subject)) Object.assign(picked, { game: view.game_id, subject: null });
  return [
    h("p", { class: "info" }, [
      ui.t("mturn", { n: state.turn }), " · ", state.phase !== "setup" ? ui.t("active_is", { name: ui.name(state.active_seat) }) : "",
      " · ", ui.t("deck_count", { n: state.deck_count }), " · ", ui.t("discard_count", { n: state.discard.length }),
    ]),
    h("div", { class: "row phase-row" }, [phases(ui, state), lastRoll(ui)]),
    state.reassigning ? h("p", { class: "notice" }, ui.t("reassigning")) : null,
    view.you ? actions(ui) : null,
    view.you ? h("section", { class: "hand panel", "aria-label": ui.t("your_hand") }, [
      h("h2", {}, ui.t("your_hand")),
      h("div", { class: "cards" }, view.you.hand.map((id) => pickable(ui, id, mcard(ui, id), legalIds))),
    ]) : null,
    h("div", { class: "seats" }, state.seats.map((seat) => seatPanel(view, ui, seat, legalIds))),
  ];
}
