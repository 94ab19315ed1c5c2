// Ca$h 'n Guns: the loot on the table, each seat's face-down bullet, the aims as arrows, courage, wounds and
// the sharing in order. The hold-up window's countdown is the table's deadline line.
import { fedora, h, s } from "../dom.js";

export const EVENTS = ["loot_dealt", "godfather_chosen", "loot_revealed", "bullet_loaded", "hold_up_started", "aimed",
  "guns_drawn", "retarget_ordered", "privilege_skipped", "retargeted", "courage_chosen", "courage_revealed",
  "shots_resolved", "loot_taken", "token_taken", "turn_ended", "game_ended"].map((e) => `cash_n_guns.${e}`);

export const score = (amount, ui) => ui.money(amount);

// The event that begins a turn (the replay jumps between them).
export const MOMENTS = ["cash_n_guns.loot_revealed"];

const WOUNDS_TO_DIE = 3;

export function loot(ui, id) {
  const card = ui.card(id);
  const label = card.kind === "cash" || card.kind === "diamond"
    ? ui.t(`loot.${card.kind}`, { v: ui.money(card.value) }) : ui.t(`loot.${card.kind}`);
  const mark = { cash: "$", diamond: "◆", painting: "▣", clip: "➹", "first-aid": "✚", token: "" }[card.kind] ?? "?";
  return h("div", { class: `loot ${card.kind}`, role: "img", "aria-label": label, title: label }, [
    card.kind === "token" ? fedora() : h("span", { class: "mark", "aria-hidden": "true" }, mark),
    h("span", { class: "loot-name", "aria-hidden": "true" }, card.value ? ui.money(card.value) : ui.t(`loot_short.${card.kind}`)),
  ]);
}

function bullet(ui, kind, faceDown = false) {
  if (faceDown) return h("div", { class: "bullet back", role: "img", "aria-label": ui.t("bullet_face_down") }, fedora());
  return h("div", { class: `bullet ${kind}`, role: "img", "aria-label": ui.t(`bullet.${kind}`) }, ui.t(`bullet.${kind}`));
}

// The standing seats in the order they pick: from the Godfather, or the nearest standing seat clockwise.
export function sharingOrder(state) {
  const n = state.seats.length;
  const order = [];
  for (let i = 0; i < n; i++) {
    const seat = state.seats[(state.godfather + i) % n];
    if (seat.alive && seat.standing) order.push(seat.seat);
  }
  return order;
}

function place(index, count) {
  const angle = Math.PI / 2 + (2 * Math.PI * index) / count;
  return { x: 50 + 38 * Math.cos(angle), y: 50 + 38 * Math.sin(angle) };
}

function arrows(state, ui) {
  const n = state.seats.length;
  const lines = state.seats.filter((seat) => seat.alive && seat.target !== null && seat.target !== undefined).map((seat) => {
    const from = place(seat.seat, n);
    const to = place(seat.target, n);
    const cut = 0.22; // stop short of the seats' tiles
    return s("line", { class: `aim seat-s${seat.seat}`, x1: from.x + (to.x - from.x) * cut, y1: from.y + (to.y - from.y) * cut,
      x2: to.x - (to.x - from.x) * cut, y2: to.y - (to.y - from.y) * cut, "marker-end": "url(#arrowhead)" },
      s("title", {}, ui.t("aims_at", { name: ui.name(seat.seat), target: ui.name(seat.target) })));
  });
  return s("svg", { class: "arrows", viewBox: "0 0 100 100", preserveAspectRatio: "none", "aria-hidden": "true" },
    s("defs", {}, s("marker", { id: "arrowhead", viewBox: "0 0 10 10", refX: 8, refY: 5, markerWidth: 5, markerHeight: 5,
      orient: "auto-start-reverse" }, s("path", { d: "M0 0 L10 5 L0 10 Z" }))), lines);
}

function wounds(ui, count) {
  return h("span", { class: "wounds", role: "img", "aria-label": ui.t("wounds_n", { n: count }) },
    Array.from({ length: WOUNDS_TO_DIE }, (_, i) => h("span", { class: i < count ? "wound on" : "wound" })));
}

function courage(ui, state, seat) {
  if (!seat.alive) return ui.t("dead");
  if (seat.stands !== null && seat.stands !== undefined) return seat.stands ? ui.t("standing") : ui.t("lying");
  if (state.phase === "courage") return seat.has_chosen ? ui.t("courage_chosen") : ui.t("thinking");
  return "";
}

function seatTile(view, ui, seat, order) {
  const state = view.state;
  const at = place(seat.seat, state.seats.length);
  const mine = seat.seat === ui.me;
  const shot = state.last_shots;
  const loaded = mine && view.you.loaded_card ? bullet(ui, view.you.loaded_card)
    : seat.has_loaded ? bullet(ui, null, true) : null;
  const moves = ui.moves((m) => (m.type === "aim" || m.type === "retarget") ? m.target === seat.seat
    : m.type === "order_retarget" && m.seat === seat.seat);
  const pick = order.indexOf(seat.seat);
  return h("section", { class: `seat tile ${seat.alive ? "" : "dead"} ${mine ? "me" : ""} ${state.sharer === seat.seat ? "picking" : ""}`,
    style: `left:${at.x}%;top:${at.y}%`, "data-seat": seat.seat, "aria-label": ui.name(seat.seat) }, [
    h("header", {}, [
      state.godfather === seat.seat ? h("span", { class: "godfather", title: ui.t("godfather") }, fedora(), h("span", { class: "sr-only" }, ui.t("godfather"))) : null,
      h("strong", {}, ui.name(seat.seat)),
    ]),
    h("div", { class: "tile-row" }, [wounds(ui, seat.wounds), h("span", { class: "note" }, ui.t("bullets_left", { n: seat.bullet_cards }))]),
    h("div", { class: "tile-row" }, [loaded, h("span", { class: "note" }, courage(ui, state, seat))]),
    h("div", { class: "tile-row" }, [
      h("span", { class: "note" }, ui.t("loot_count", { n: seat.loot_count })),
      seat.alive && seat.target !== null && seat.target !== undefined
        ? h("span", { class: "note aim-note" }, ui.t("aims_at", { name: "→", target: ui.name(seat.target) })) : null,
      pick >= 0 && state.phase === "sharing" ? h("span", { class: "badge" }, ui.t("pick_order", { n: pick + 1 })) : null,
      shot && shot.cards[seat.seat] && shot.cards[seat.seat] !== "discarded"
        ? h("span", { class: "note" }, ui.t("fired", { card: ui.t(`bullet.${shot.cards[seat.seat]}`) })) : null,
    ]),
    moves.map((m) => ui.button(m, ui.t(`act.${m.type}`), ui.t(`act_label.${m.type}`, { name: ui.name(seat.seat) }))),
  ]);
}

function centre(view, ui) {
  const state = view.state;
  const takes = ui.moves((m) => m.type === "take");
  const items = state.table_loot.map((id) => {
    const [move] = takes.filter((m) => m.loot === id);
    return move ? ui.button(move, loot(ui, id), ui.t("take_label", { item: ui.card(id).name }), "card-button") : loot(ui, id);
  });
  if (state.godfather_token_available) {
    const [move] = takes.filter((m) => m.godfather_token);
    const token = loot(ui, "godfather_token");
    items.push(move ? ui.button(move, token, ui.t("take_token"), "card-button") : token);
  }
  return h("div", { class: "centre" }, [
    h("p", { class: "note" }, ui.t("loot_on_table", { n: state.table_loot.length })),
    h("div", { class: "cards loot-cards" }, items),
  ]);
}

function yours(view, ui) {
  if (!view.you) return null;
  const you = view.you;
  const own = ui.moves((m) => ["load", "courage", "skip_privilege"].includes(m.type));
  return h("section", { class: "panel mine", "aria-label": ui.t("your_seat") }, [
    h("h2", {}, ui.t("your_seat")),
    h("div", { class: "cards" }, [
      h("span", { class: "note" }, ui.t("your_bullets", { bang: you.bang_cards, click: you.click_cards })),
    ]),
    h("div", { class: "actions" }, own.map((m) => {
      const key = m.type === "load" ? `load.${m.card}` : m.type === "courage" ? `courage.${m.stand}` : "skip_privilege";
      const content = m.type === "load" ? bullet(ui, m.card) : ui.t(key);
      return ui.button(m, content, ui.t(`label.${key}`), m.type === "load" ? "card-button" : "");
    })),
    h("p", {}, ui.t("your_loot", { v: ui.money(you.loot_value) })),
    h("div", { class: "cards mini" }, you.loot.map((id) => loot(ui, id))),
  ]);
}

export function render(view, ui) {
  const state = view.state;
  const order = sharingOrder(state);
  return [
    h("p", { class: "info" }, [
      ui.t("turn_of", { n: Math.min(state.turn, state.turns), total: state.turns }), " · ",
      h("span", { class: "badge phase", "data-phase": state.phase }, ui.t(`phase.${state.phase}`)), " · ",
      ui.t("godfather_is", { name: ui.name(state.godfather) }), " · ", ui.t("piles_left", { n: state.piles_left }),
      state.phase === "sharing" && order.length ? ` · ${ui.t("sharing_order", { names: order.map(ui.name).join(" → ") })}` : "",
    ]),
    h("div", { class: "ring", style: `--seats:${state.seats.length}` }, [
      arrows(state, ui), centre(view, ui), state.seats.map((seat) => seatTile(view, ui, seat, order))]),
    yours(view, ui),
  ];
}
