// Ca$h 'n Guns: the loot on the table, each seat's face-down bullet, the aims as arrows, courage, wounds and
// the sharing in order. The hold-up window's countdown is the table's deadline line.
import { fedora, h, infoLine, s } from "../dom.js";

export const EVENTS = ["loot_dealt", "godfather_chosen", "loot_revealed", "bullet_loaded", "hold_up_started", "aimed",
  "guns_drawn", "retarget_ordered", "privilege_skipped", "retargeted", "courage_chosen", "courage_revealed",
  "shots_resolved", "loot_taken", "token_taken", "turn_ended", "game_ended"].map((e) => `cash_n_guns.${e}`);

export const score = (amount, ui) => ui.money(amount);

// The event that begins a turn (the replay jumps between them).
export const MOMENTS = ["cash_n_guns.loot_revealed"];

const WOUNDS_TO_DIE = 3;

// What the log says of an event with the help of earlier ones (it sees one event at a time): whom each seat fired
// at. The aims are public from the moment the guns are drawn, and so is every retarget since; what a seat loaded
// is the shots' own, public as they are fired. Nothing later than the event is read.
export function told(event, log) {
  if (event.type !== "cash_n_guns.shots_resolved") return {};
  const earlier = log.filter((e) => e.version < event.version);
  const drawn = earlier.findLastIndex((e) => e.type === "cash_n_guns.guns_drawn");
  if (drawn < 0) return {}; // the log read starts after the hold-up: the shots are told without targets
  const targets = [...earlier[drawn].payload.aims];
  for (const e of earlier.slice(drawn + 1)) if (e.type === "cash_n_guns.retargeted") targets[e.payload.seat] = e.payload.target;
  return { targets };
}

// A loot card's name in the page's language, read from its id (`cash-20000-03`), its amount in the page's money.
const lootName = (ui, id) => ui.t("loot_name", { id, money: ui.money });

export function loot(ui, id) {
  const card = ui.card(id);
  const label = lootName(ui, id);
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

// --- where the seats sit ------------------------------------------------------------------------------------
// The table is a grid: a row of seats at the bottom, one seat on each side of the loot, a row at the top. Cells
// never overlap, so neither do the tiles, whatever their height; the info line stays above the grid.
const SIDES = { 3: [1, 0, 2], 4: [1, 1, 1], 5: [1, 1, 2], 6: [2, 1, 2], 7: [2, 1, 3], 8: [3, 1, 3] }; // bottom, each side, top
const COLUMNS = 12;

const span = (index, count) => `${1 + (index * COLUMNS) / count} / span ${COLUMNS / count}`;

// Each seat's cell, clockwise (bottom right to left, up the left, top left to right, down the right), seat 0 at
// the bottom's middle.
function cells(count) {
  const [bottom, side, top] = SIDES[count] || SIDES[8];
  const ring = [];
  for (let i = bottom - 1; i >= 0; i--) ring.push({ row: 3, column: span(i, bottom) });
  if (side) ring.push({ row: 2, column: "1 / span 3" });
  for (let i = 0; i < top; i++) ring.push({ row: 1, column: span(i, top) });
  if (side) ring.push({ row: 2, column: "10 / span 3" });
  const first = Math.floor((bottom - 1) / 2);
  return Array.from({ length: count }, (_, seat) => ring[(first + seat) % ring.length]);
}

// --- the aims: arrows drawn once the tiles are laid out, from the shooter's tile to the edge of its target's ----
function targetOf(view, seat) {
  if (!seat.alive) return null;
  if (seat.target !== null && seat.target !== undefined) return seat.target;
  // A seat's own aim, while the window hides it from the others.
  return seat.seat === view.you?.seat && view.you.aiming_at !== undefined ? view.you.aiming_at : null;
}

function arrows(view, ui) {
  const seats = view.state.seats;
  const aims = seats.map((seat) => [seat.seat, targetOf(view, seat)]).filter(([, target]) => target !== null);
  return s("svg", { class: "arrows", "aria-hidden": "true" },
    s("defs", {}, aims.map(([from]) => s("marker", { id: `aim-head-${from}`, viewBox: "0 0 10 10", refX: 8, refY: 5,
      markerWidth: 4, markerHeight: 4, orient: "auto-start-reverse" }, s("path", { class: `seat-c${from}`, d: "M0 0 L10 5 L0 10 Z" })))),
    aims.map(([from, to]) => s("path", { class: `aim seat-c${from}`, "data-from": from, "data-to": to, d: "",
      "marker-end": `url(#aim-head-${from})` }, s("title", {}, ui.t("aims_at", { name: ui.name(from), target: ui.name(to) })))));
}

const inside = (p, r, pad = 0) => p.x > r.left - pad && p.x < r.right + pad && p.y > r.top - pad && p.y < r.bottom + pad;
const mid = (r) => ({ x: (r.left + r.right) / 2, y: (r.top + r.bottom) / 2 });

// A quadratic curve from a to b bent by `bend` pixels to the right of its direction, sampled.
function curve(a, b, bend, steps = 120) {
  const length = Math.hypot(b.x - a.x, b.y - a.y) || 1;
  const n = { x: -(b.y - a.y) / length, y: (b.x - a.x) / length };
  const c = { x: (a.x + b.x) / 2 + 2 * bend * n.x, y: (a.y + b.y) / 2 + 2 * bend * n.y }; // the apex is bend away
  return Array.from({ length: steps + 1 }, (_, i) => {
    const t = i / steps;
    return { x: (1 - t) ** 2 * a.x + 2 * (1 - t) * t * c.x + t * t * b.x, y: (1 - t) ** 2 * a.y + 2 * (1 - t) * t * c.y + t * t * b.y };
  });
}

// The way from one tile to another that stays on the table and crosses the fewest other tiles, then the least of
// the loot, then bends the least; cut where it leaves the shooter's tile and where it reaches the target's (a gap
// for the arrowhead), so that it never ends under a tile.
function route(from, to, others, lootBox, table) {
  const a = mid(from);
  const b = mid(to);
  let best = null;
  for (const bend of [8, -8, 40, -40, 80, -80, 130, -130, 190, -190, 260, -260]) {
    const points = curve(a, b, bend);
    const cost = points.reduce((sum, p) => sum + (!inside(p, table, -4) ? 12 : 0) + (others.some((r) => inside(p, r, 4)) ? 6 : 0)
      + (lootBox && inside(p, lootBox, 6) ? 3 : 0), 0) + Math.abs(bend) / 40;
    if (!best || cost < best.cost) best = { cost, points };
  }
  const start = best.points.findIndex((p) => !inside(p, from, 2));
  let end = best.points.length - 1;
  while (end > start && inside(best.points[end], to, 7)) end--;
  return best.points.slice(Math.max(start, 0), end + 1);
}

function relative(element, box) {
  const r = element.getBoundingClientRect();
  return { left: r.left - box.left, right: r.right - box.left, top: r.top - box.top, bottom: r.bottom - box.top };
}

// Lay the arrows over the tiles as they are drawn now (again whenever the page's width changes).
function fitArrows(ring) {
  const svg = ring?.querySelector(":scope > .arrows");
  if (!svg || !ring.isConnected) return;
  const box = ring.getBoundingClientRect();
  svg.setAttribute("viewBox", `0 0 ${box.width} ${box.height}`);
  const tiles = new Map([...ring.querySelectorAll(".tile")].map((tile) => [tile.dataset.seat, relative(tile, box)]));
  const cards = ring.querySelector(".loot-cards");
  const lootBox = cards && cards.childElementCount ? relative(cards, box) : null;
  for (const path of svg.querySelectorAll(".aim")) {
    const from = tiles.get(path.dataset.from);
    const to = tiles.get(path.dataset.to);
    if (!from || !to || !from.right) continue;
    const others = [...tiles].filter(([seat]) => seat !== path.dataset.from && seat !== path.dataset.to).map(([, r]) => r);
    const points = route(from, to, others, lootBox, { left: 0, top: 0, right: box.width, bottom: box.height });
    path.setAttribute("d", points.map((p, i) => `${i ? "L" : "M"}${p.x.toFixed(1)} ${p.y.toFixed(1)}`).join(" "));
  }
}

window.addEventListener("resize", () => document.querySelectorAll(".ring").forEach(fitArrows));

// --- what changed since the table was last drawn: marked for a short animation -------------------------------
let before = null;

function changes(view) {
  const state = view.state;
  const was = before && before.game === view.game_id && before.version < view.version ? before : null;
  const shots = state.last_shots ? `${state.last_shots.turn}` : "";
  before = { game: view.game_id, version: view.version, shots, wounds: state.seats.map((seat) => seat.wounds),
    loot: state.seats.map((seat) => seat.loot_count) };
  if (!was) return { wounds: [], loot: [], shots: false };
  return { wounds: was.wounds, loot: state.seats.map((seat, i) => seat.loot_count > was.loot[i]), shots: shots !== was.shots };
}

// --- the seats ------------------------------------------------------------------------------------------------
function wounds(ui, count, was) {
  return h("span", { class: "wounds", role: "img", "aria-label": ui.t("wounds_n", { n: count }) },
    Array.from({ length: WOUNDS_TO_DIE }, (_, i) =>
      h("span", { class: `wound ${i < count ? "on" : ""} ${was !== undefined && i >= was && i < count ? "fresh" : ""}` })));
}

// This turn's shots, once fired: they stay on the table until the next turn's loot is revealed.
const shotsNow = (state) => (state.last_shots && state.last_shots.turn === state.turn ? state.last_shots : null);

function courage(ui, state, seat) {
  const shots = shotsNow(state);
  if (!seat.alive) return shots && shots.died.includes(seat.seat) ? ui.t("killed") : ui.t("dead");
  if (shots && shots.hits[seat.seat] > 0) return ui.t("wounded_now");
  if (seat.stands !== null && seat.stands !== undefined) return seat.stands ? ui.t("standing") : ui.t("lying");
  if (state.phase === "courage") return seat.has_chosen ? ui.t("courage_chosen") : ui.t("thinking");
  return "";
}

function firedNote(ui, state, seat, fresh) {
  const shots = shotsNow(state);
  const card = shots?.cards[seat.seat];
  if (!card || card === "discarded") return null;
  const target = seat.target;
  const text = target === null || target === undefined ? ui.t("fired", { card: ui.t(`bullet.${card}`) })
    : ui.t("fired_at", { card: ui.t(`bullet.${card}`), target: ui.name(target) });
  return h("span", { class: `note shot ${card} ${fresh ? "fresh" : ""}` }, text);
}

// Once the game is over its view is public: every seat's loot is on the table.
function heldLoot(ui, seat) {
  if (!seat.loot || !seat.loot.length) return null; // a dead seat's loot left the game with it
  return h("div", { class: "held" }, [
    h("span", { class: "note" }, ui.t(seat.alive ? "loot_worth" : "loot_lost", { v: ui.money(seat.loot_value ?? 0) })),
    h("div", { class: "cards mini" }, seat.loot.map((id) => loot(ui, id))),
  ]);
}

function seatTile(view, ui, seat, order, cell, changed) {
  const state = view.state;
  const mine = seat.seat === ui.me;
  const shots = shotsNow(state);
  const hit = Boolean(shots && shots.hits[seat.seat] > 0);
  const target = targetOf(view, seat);
  const loaded = mine && view.you.loaded_card ? bullet(ui, view.you.loaded_card)
    : seat.has_loaded ? bullet(ui, null, true) : null;
  const moves = ui.moves((m) => (m.type === "aim" || m.type === "retarget") ? m.target === seat.seat
    : m.type === "order_retarget" && m.seat === seat.seat);
  const pick = order.indexOf(seat.seat);
  const classes = ["seat", "tile", seat.alive ? "" : "dead", mine ? "me" : "", state.sharer === seat.seat ? "picking" : "",
    hit ? "hit" : "", hit && changed.shots ? "fresh-hit" : ""];
  return h("section", { class: classes.join(" "), style: `grid-row:${cell.row};grid-column:${cell.column}`,
    "data-seat": seat.seat, "aria-label": ui.name(seat.seat) }, [
    h("header", {}, [
      h("span", { class: `dot seat-c${seat.seat}`, "aria-hidden": "true" }),
      state.godfather === seat.seat ? h("span", { class: "godfather", title: ui.t("godfather") }, fedora(), h("span", { class: "sr-only" }, ui.t("godfather"))) : null,
      h("strong", {}, ui.name(seat.seat)),
    ]),
    h("div", { class: "tile-row" }, [wounds(ui, seat.wounds, changed.wounds[seat.seat]),
      h("span", { class: "note" }, ui.t("bullets_left", { n: seat.bullet_cards }))]),
    h("div", { class: "tile-row" }, [loaded, h("span", { class: `note courage ${hit ? "wounded" : ""}` }, courage(ui, state, seat))]),
    h("div", { class: "tile-row" }, [
      h("span", { class: `note loot-count ${changed.loot[seat.seat] ? "fresh" : ""}` }, ui.t("loot_count", { n: seat.loot_count })),
      target !== null ? h("span", { class: "note aim-note" }, ui.t("aims_at", { name: "→", target: ui.name(target) })) : null,
      pick >= 0 && state.phase === "sharing" ? h("span", { class: "badge" }, ui.t("pick_order", { n: pick + 1 })) : null,
      firedNote(ui, state, seat, changed.shots),
    ]),
    heldLoot(ui, seat),
    moves.map((m) => ui.button(m, ui.t(`act.${m.type}`), ui.t(`act_label.${m.type}`, { name: ui.name(seat.seat) }))),
  ]);
}

function centre(view, ui) {
  const state = view.state;
  const takes = ui.moves((m) => m.type === "take");
  const items = state.table_loot.map((id) => {
    const [move] = takes.filter((m) => m.loot === id);
    return move ? ui.button(move, loot(ui, id), ui.t("take_label", { item: lootName(ui, id) }), "card-button") : loot(ui, id);
  });
  if (state.godfather_token_available && state.phase !== "over") {
    const [move] = takes.filter((m) => m.godfather_token);
    const token = loot(ui, "godfather_token");
    items.push(move ? ui.button(move, token, ui.t("take_token"), "card-button") : token);
  }
  return h("div", { class: "centre" }, [
    state.phase === "over" && !items.length ? null : h("p", { class: "note" }, ui.t("loot_on_table", { n: state.table_loot.length })),
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

// The turn, its phase, the Godfather, the piles left, and the sharing's order while it goes on. Before the first
// turn (turn 0: the loot being dealt, the first Godfather being chosen) only the phase is settled.
function info(state, ui, order) {
  const phase = h("span", { class: "badge phase", "data-phase": state.phase }, ui.t(`phase.${state.phase}`));
  if (state.turn === 0) return infoLine(phase);
  return infoLine(ui.t("turn_of", { n: Math.min(state.turn, state.turns), total: state.turns }), phase,
    ui.t("godfather_is", { name: ui.name(state.godfather) }), ui.t("piles_left", { n: state.piles_left }),
    state.phase === "sharing" && order.length ? ui.t("sharing_order", { names: order.map(ui.name).join(" → ") }) : null);
}

export function render(view, ui) {
  const state = view.state;
  const order = sharingOrder(state);
  const changed = changes(view);
  const places = cells(state.seats.length);
  const ring = h("div", { class: "ring", style: `--seats:${state.seats.length}` }, [
    arrows(view, ui), h("div", { class: "centre-cell" }, centre(view, ui)),
    state.seats.map((seat) => seatTile(view, ui, seat, order, places[seat.seat], changed))]);
  // The arrows need the tiles laid out: fit them once the table is on the page.
  queueMicrotask(() => (ring.isConnected ? fitArrows(ring) : requestAnimationFrame(() => fitArrows(ring))));
  return [
    info(state, ui, order),
    ring,
    yours(view, ui),
  ];
}

// --- the end: what each seat's score is made of, seat by seat in the order they ranked -------------------------
// A line of parts per seat rather than a wide table: it fits the result's narrow panel.
const PARTS = ["banknotes", "diamonds", "paintings", "bonus", "wounds"];

function part(ui, row, field) {
  const value = row[field];
  let text = field === "wounds" ? String(value) : ui.money(value);
  if (field === "diamonds" && row.diamond_cards) text = ui.t("with_cards", { v: text, n: row.diamond_cards, kind: "diamond" });
  if (field === "paintings" && row.painting_cards) text = ui.t("with_cards", { v: text, n: row.painting_cards, kind: "painting" });
  return h("span", { class: "part", "data-field": field, "data-value": value }, `${ui.t(`worth.${field}`)} ${text}`);
}

export function breakdown(result, ui) {
  const details = result.details || {};
  if (!Array.isArray(details.seats)) return null;
  const rank = (row) => result.ranks?.[row.seat] ?? 99;
  const rows = [...details.seats].sort((a, b) => rank(a) - rank(b));
  return [
    h("h3", { class: "cng-breakdown-title" }, ui.t("breakdown_title")),
    h("ul", { class: "cng-breakdown" }, rows.map((row) => h("li", { "data-seat": row.seat, class: row.alive ? null : "dead" }, [
      h("div", { class: "who" }, [
        h("strong", {}, ui.name(row.seat)),
        h("span", { class: "total", "data-field": "total", "data-value": row.total }, `${ui.t("worth.total")} ${ui.money(row.total)}`),
      ]),
      row.alive ? null : h("div", { class: "note" }, ui.t("dead_scores_nothing")),
      h("div", { class: "parts" }, PARTS.map((field) => part(ui, row, field))),
    ]))),
    h("p", { class: "note" }, [
      details.diamond_bonus !== null && details.diamond_bonus !== undefined
        ? ui.t("bonus_to", { name: ui.name(details.diamond_bonus), v: ui.money(details.seats[details.diamond_bonus].bonus) })
        : ui.t("no_bonus"),
      details.ended ? ` · ${ui.t(`ended.${details.ended}`)}` : "",
    ]),
  ];
}
