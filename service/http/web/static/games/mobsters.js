// Mobsters: your hand, each seat's mobsters with their operations and Law cards, money, the phase and the dice.
// A move names several cards (a mobster, a card, a victim), so it is made in two clicks: pick one of the
// cards that some legal move names, then one of the legal moves that name it. Each card says what it does; a seat
// may ask the house to pass phases for it (auto-pass), which the service honours, whatever the hand holds.
import { call, tokenFor } from "../api.js";
import { die, h, infoLine, seatSection } from "../dom.js";

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

export const SOURCES = ["start", "operations", "bonuses", "crimes", "petty_crimes", "costs", "extra_cards", "bribes"];
const ROLLS = ["mobsters.hit_attempted", "mobsters.petty_crime_committed", "mobsters.attendance_rolled"];

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

// What a card does, in a line: its kind's rule with its amount, and the bonus that goes with it.
export function rulesText(ui, card) {
  const text = ui.t(`mrule.${card.kind}`, { v: ui.money(card.value || 0) });
  const family = card.family ? ui.t(`mfamily.${card.family}`) : "";
  if (card.kind === "mobster") return card.bonus ? `${text} ${ui.t("mbonus", { v: ui.money(card.bonus), family })}` : text;
  const boosts = (card.boosted_by || []).map((b) => `${ui.card(b.mobster).name} +${ui.money(b.bonus)}`);
  return boosts.length ? `${text} ${ui.t("boosted", { who: boosts.join(", ") })}` : text;
}

export function mcard(ui, id, { cls = "", extra = null } = {}) {
  const card = ui.card(id);
  const value = card.value ? ui.money(card.value) : card.bonus ? ui.t("bonus", { v: ui.money(card.bonus) }) : "";
  const rules = rulesText(ui, card);
  const label = `${ui.t(`kind.${card.kind}`)}: ${card.name}${value ? `, ${value}` : ""}. ${rules}`;
  // A long word is set smaller, so that a name stays inside its card.
  const long = card.name.length > 16 || card.name.split(/\s+/).some((word) => word.length > 10);
  return h("div", { class: `mcard ${card.kind} ${cls}`, role: "img", "aria-label": label, title: label }, [
    h("span", { class: "kind", "aria-hidden": "true" }, ui.t(`kind.${card.kind}`)),
    h("span", { class: `name ${long ? "long" : ""}`, "aria-hidden": "true" }, card.name),
    h("span", { class: "rules", "aria-hidden": "true" }, rules),
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

// The die of the last roll, while the phase it was rolled in lasts: a die never outlives its roll.
export function lastRoll(ui) {
  const at = ui.events.findLastIndex((e) => ROLLS.includes(e.type));
  const moved = ui.events.findLastIndex((e) => ["mobsters.phase_started", "mobsters.turn_started"].includes(e.type));
  if (at < 0 || at < moved) return null;
  const rolled = ui.events[at];
  const rolls = rolled.payload.rolls ? rolled.payload.rolls.map((r) => r.roll) : [rolled.payload.roll];
  if (!rolls.length) return null;
  const said = ui.t(`ev.${rolled.type}`, { p: rolled.payload, name: ui.name, card: (id) => ui.card(id).name, money: ui.money });
  return h("figure", { class: "dice", "data-version": rolled.version }, [
    h("div", { class: "row" }, rolls.map((r) => die(r, ui.t("die_shows", { n: r })))),
    h("figcaption", {}, said),
  ]);
}

// The phases the house passes for this seat: a public choice, sent to the service, which ends each of them as
// soon as it begins, whatever the hand holds. What was asked is shown until the table has caught up with it.
const passing = { game: null, wanted: null, until: Infinity, error: "" };

function autoPass(view, ui) {
  if (ui.me === null || view.status !== "in_progress" || view.seats[ui.me]?.resigned) return null;
  if (passing.game !== view.game_id) Object.assign(passing, { game: view.game_id, wanted: null, until: Infinity, error: "" });
  if (view.version >= passing.until) Object.assign(passing, { wanted: null, until: Infinity });
  const chosen = passing.wanted || new Set(view.seats[ui.me]?.auto_pass || []);
  const save = async (event) => {
    const decisions = [...event.target.closest("fieldset").querySelectorAll("input:checked")].map((input) => input.value);
    Object.assign(passing, { wanted: new Set(decisions), until: Infinity, error: "" });
    try {
      const answer = await call("POST", `/v1/games/${view.game_id}/auto-pass`, { body: { decisions }, token: tokenFor(view.game_id, view) });
      passing.until = answer.version;
    } catch {
      Object.assign(passing, { wanted: null, error: ui.t("auto_pass_failed") });
      ui.redraw();
    }
  };
  return h("fieldset", { class: "panel auto-pass", id: "auto-pass" }, [
    h("legend", {}, ui.t("auto_pass")),
    h("div", { class: "row" }, PHASES.map((p) => h("label", {}, [
      h("input", { type: "checkbox", value: p, "data-key": `auto-pass:${p}`, checked: chosen.has(p), onchange: save }),
      ui.t(`mphase.${p}`),
    ]))),
    h("p", { class: "note" }, passing.error || ui.t("auto_pass_note")),
  ]);
}

// Each seat's money by where the rules paid it from (the result's `money_by_source`): it sums to the score.
export function breakdown(result, ui) {
  const seats = result.details?.money_by_source;
  if (!seats) return null;
  const cell = (amount) => h("td", { class: "money" }, ui.money(amount));
  return h("table", { class: "money-by-source" }, [
    h("caption", {}, ui.t("money_by_source")),
    h("thead", {}, h("tr", {}, [h("th", {}, ""), ...seats.map((_, seat) => h("th", { scope: "col" }, ui.name(seat)))])),
    h("tbody", {}, [
      ...SOURCES.map((source) => h("tr", { "data-source": source }, [h("th", { scope: "row" }, ui.t(`msource.${source}`)),
        ...seats.map((ledger) => cell(ledger[source] ?? 0))])),
      h("tr", { class: "total" }, [h("th", { scope: "row" }, ui.t("msource.total")),
        ...seats.map((ledger) => cell(SOURCES.reduce((sum, source) => sum + (ledger[source] ?? 0), 0)))]),
    ]),
  ]);
}

function phases(ui, state) {
  if (state.phase === "setup" || state.phase === "over") return h("span", { class: "badge phase" }, ui.t(`mphase.${state.phase}`));
  // The discard comes between Draw and Hit, only when the hand holds too many cards: a step of the turn while it lasts.
  const steps = state.phase === "discard" ? [...PHASES.slice(0, 1), "discard", ...PHASES.slice(1)] : PHASES;
  return h("ol", { class: "phases", "aria-label": ui.t("phases") }, steps.map((p) =>
    h("li", { class: p === state.phase ? "current" : "", "aria-current": p === state.phase ? "step" : null }, ui.t(`mphase.${p}`))));
}

function actions(ui, passed) {
  // A discard names one card of the hand and nothing else can be done then: one click each, without picking.
  const plain = ui.moves((m) => subjects(m).length === 0 || m.type === "discard");
  const named = picked.subject ? ui.moves((m) => subjects(m).includes(picked.subject) && !plain.includes(m)) : [];
  return h("section", { class: "panel actions-panel", "aria-label": ui.t("your_moves") }, [
    h("h2", {}, ui.t("your_moves")),
    ui.legal.length === 0 ? h("p", { class: "note" }, ui.t(passed ? "auto_passing" : "not_your_move")) : null,
    picked.subject ? h("p", {}, ui.t("picked", { name: ui.card(picked.subject).name })) : ui.legal.length > plain.length
      ? h("p", { class: "note" }, ui.t("pick_hint")) : null,
    h("div", { class: "actions" }, [...named, ...plain].map((m) => ui.button(m, moveText(ui, m), moveText(ui, m),
      m.type === "end_phase" ? "" : "primary"))),
  ]);
}

export function render(view, shown) {
  const state = view.state;
  // A phase the seat asked the house to pass is the house's to end, at once: no button to race it with.
  const owed = view.awaiting?.find((a) => a.seat === shown.me);
  const passed = Boolean(owed && (view.seats[shown.me]?.auto_pass || []).includes(owed.decision));
  const ui = passed ? { ...shown, legal: [], moves: () => [] } : shown;
  const legalIds = new Set(ui.legal.filter((m) => m.type !== "discard").flatMap(subjects)); // a discard is a button
  if (picked.game !== view.game_id || !legalIds.has(picked.subject)) Object.assign(picked, { game: view.game_id, subject: null });
  return [
    // The setup is before the first turn (turn 0): its badge says so, and nobody plays yet.
    infoLine(state.turn > 0 ? ui.t("mturn", { n: state.turn }) : null,
      state.phase !== "setup" ? ui.t("active_is", { name: ui.name(state.active_seat) }) : null,
      ui.t("deck_count", { n: state.deck_count }), ui.t("discard_count", { n: state.discard.length })),
    h("div", { class: "row phase-row" }, [phases(ui, state), lastRoll(ui)]),
    // A killed mobster's operations wait here for their new holder: each is picked like any card.
    state.reassigning ? h("div", { class: "notice reassigning" }, [h("p", {}, ui.t("reassigning")),
      h("div", { class: "cards" }, state.reassigning.operations.map((op) => pickable(ui, op, mcard(ui, op, { cls: "mini" }), legalIds)))]) : null,
    view.you ? actions(ui, passed) : null,
    autoPass(view, ui),
    view.you ? h("section", { class: "hand panel", "aria-label": ui.t("your_hand") }, [
      h("h2", {}, ui.t("your_hand")),
      h("div", { class: "cards" }, view.you.hand.map((id) => pickable(ui, id, mcard(ui, id), legalIds))),
    ]) : null,
    h("div", { class: "seats" }, state.seats.map((seat) => seatPanel(view, ui, seat, legalIds))),
  ];
}
