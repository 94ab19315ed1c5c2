// A replay: every version of a game through `/states/{version}`, a slider and step buttons, the event list beside
// it, and the audit's verdict with what this browser checks for itself (the hash links, the seed commitment).
// Once a finished game's review is made (`/review`), each seat's chance to win across the game, drawn, and its
// costliest decisions, each a button to the version it was made at.
import { get } from "./api.js";
import { fill, h, rulesetName, s } from "./dom.js";
import { GAMES } from "./games/index.js";
import { has, language, t } from "./i18n.js";
import { describe, eventList, makeUi, resultPanel } from "./table.js";

async function allEvents(gameId) {
  const events = [];
  let after = 0;
  while (after !== null) {
    const page = await get(`/v1/games/${gameId}/events?after=${after}&limit=1000`);
    events.push(...page.events);
    after = page.next_after;
  }
  return events;
}

async function sha256(text) {
  if (!crypto.subtle) return null; // only in a secure context (https, or this machine)
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

// What the browser checks itself: each event links to the one before, and the revealed seed fits its commitment.
async function ownChecks(latest, events) {
  const linked = events.every((e, i) => e.prev_hash === (i === 0 ? "0".repeat(64) : events[i - 1].hash));
  const seed = latest.seed === undefined || latest.seed === null ? null
    : (await sha256(`${latest.seed}:${latest.salt ?? ""}`)) === latest.seed_commitment;
  return { linked, seed };
}

function auditBadge(audit, own, latest) {
  if (!audit) return h("p", { class: "badge" }, t("audit_running"));
  const ok = audit.ok && own.linked && own.seed !== false;
  const yesNo = (v) => (v === null ? t("not_checked") : v ? t("check_ok") : t("check_failed"));
  return h("details", { class: "audit", id: "audit" }, [
    h("summary", {}, h("span", { class: `badge ${ok ? "ok" : "bad"}`, id: "audit-badge", "data-ok": String(ok) },
      ok ? t("audit_ok") : t("audit_failed"))),
    h("dl", {}, [
      h("dt", {}, t("audit_events")), h("dd", {}, audit.event_count),
      h("dt", {}, t("audit_head")), h("dd", { class: "hash" }, audit.head_hash),
      h("dt", {}, t("audit_chain")), h("dd", {}, yesNo(own.linked)),
      h("dt", {}, t("audit_commitment")), h("dd", { class: "hash" }, latest.seed_commitment),
      h("dt", {}, t("audit_seed")), h("dd", {}, latest.seed ?? t("hidden_until_end")),
      h("dt", {}, t("audit_seed_check")), h("dd", {}, yesNo(own.seed)),
      h("dt", {}, t("audit_problems")), h("dd", {}, audit.problems.length ? h("ul", {}, audit.problems.map((p) =>
        h("li", {}, typeof p === "string" ? p : JSON.stringify(p)))) : t("none")),
    ]),
  ]);
}

const COSTLIEST = 3;
const CHART = { width: 320, height: 170, left: 34, right: 8, top: 8, bottom: 20 };

const percent = (chance) => new Intl.NumberFormat(language() === "fr" ? "fr-FR" : "en-GB",
  { style: "percent", maximumFractionDigits: 0 }).format(chance);

// A move in words: the game's own text for it if the client has one, else its type and what it names.
function moveText(move, ui) {
  const named = (key, value) => {
    if (["target", "victim", "seat"].includes(key)) return ui.name(value);
    if (Array.isArray(value)) return value.map((v) => ui.card(v).name).join(", ");
    return ["card", "mobster", "operation", "law", "loot"].includes(key) ? ui.card(value).name : String(value);
  };
  const { type, ...fields } = move;
  const names = Object.fromEntries(Object.entries(fields).map(([key, value]) => [key, named(key, value)]));
  return has(`mv.${type}`) ? t(`mv.${type}`, names) : [type, ...Object.values(names)].join(" ");
}

// Each seat's chance to win, after each of its decisions (and before its first), by version.
function linesOf(review) {
  const lines = new Map();
  for (const d of review.decisions) {
    if (!lines.has(d.seat)) lines.set(d.seat, [[d.version - 1, d.chance_before]]);
    lines.get(d.seat).push([d.version, d.chance_after]);
  }
  return [...lines.entries()].sort(([a], [b]) => a - b);
}

export function costliest(review, count = COSTLIEST) {
  return review.decisions.filter((d) => d.loss > 0).sort((a, b) => b.loss - a.loss || a.version - b.version)
    .slice(0, count);
}

function reviewPanel(review, ui, last, version, go) {
  if (review === "pending") {
    return h("section", { class: "panel review", id: "review", "aria-busy": "true" }, [
      h("h2", {}, t("review")), h("p", {}, t("review_pending"))]);
  }
  if (!review) return null;
  const { width, height, left, right, top, bottom } = CHART;
  const x = (v) => left + ((width - left - right) * Math.max(0, v)) / Math.max(1, last);
  const y = (chance) => top + (height - top - bottom) * (1 - chance);
  const lines = linesOf(review);
  const costly = costliest(review);
  const summary = lines.map(([seat, points]) => t("review_line", { name: ui.name(seat),
    from: percent(points[0][1]), to: percent(points[points.length - 1][1]) })).join("; ");
  const chart = s("svg", { class: "review-chart", viewBox: `0 0 ${width} ${height}`, role: "img",
    "aria-labelledby": "review-chart-title review-chart-desc" }, [
    s("title", { id: "review-chart-title" }, t("review_chart")),
    s("desc", { id: "review-chart-desc" }, t("review_chart_desc", { lines: summary })),
    [0, 0.5, 1].map((chance) => [
      s("line", { class: "grid", x1: left, x2: width - right, y1: y(chance), y2: y(chance) }),
      s("text", { class: "axis", x: left - 4, y: y(chance) + 4, "text-anchor": "end" }, percent(chance))]),
    s("line", { class: "now", x1: x(version), x2: x(version), y1: top, y2: height - bottom }),
    lines.map(([seat, points]) => s("polyline", { class: `line seat-c${seat}`, "data-seat": seat,
      points: points.map(([v, chance]) => `${x(v).toFixed(1)},${y(chance).toFixed(1)}`).join(" ") })),
    costly.map((d, i) => s("circle", { class: `mark seat-c${d.seat}`, cx: x(d.version), cy: y(d.chance_after), r: 6,
      "data-version": d.version, onclick: () => go(d.version) }, s("title", {}, `${i + 1}. ${t("review_mark", {
      n: d.version, name: ui.name(d.seat), loss: percent(d.loss) })}`))),
    s("text", { class: "axis", x: left, y: height - 6 }, "1"),
    s("text", { class: "axis", x: width - right, y: height - 6, "text-anchor": "end" }, String(last)),
  ]);
  return h("section", { class: "panel review", id: "review", "aria-labelledby": "review-title" }, [
    h("h2", { id: "review-title" }, t("review")),
    chart,
    h("ul", { class: "legend" }, lines.map(([seat]) => h("li", {}, [
      h("span", { class: `dot seat-c${seat}`, "aria-hidden": "true" }), ui.name(seat)]))),
    h("h3", {}, t("costliest")),
    costly.length ? h("ol", { class: "costly" }, costly.map((d) => h("li", {}, h("button", { type: "button",
      class: "costly-decision", "data-version": d.version, "aria-current": d.version === version ? "step" : null,
      onclick: () => go(d.version) }, t("review_costly", { n: d.version, name: ui.name(d.seat),
      move: moveText(d.move, ui), best: moveText(d.best, ui), loss: percent(d.loss) })))))
      : h("p", {}, t("review_no_loss")),
  ]);
}

// Once a game is over every seat's own is public, at every version: what each held, where its table does not
// draw it itself.
function handsPanel(view, ui, game) {
  const seats = view.state?.seats || [];
  if (game.DRAWS_HANDS || !seats.some((seat) => seat.hand !== undefined || seat.loot !== undefined)) return null;
  const said = (field, value) => (field === "loaded_card" ? t(`bullet.${value}`) : value.map((id) => ui.card(id).name).join(", "));
  return h("section", { class: "panel hands", id: "hands", "aria-labelledby": "hands-title" }, [
    h("h2", { id: "hands-title" }, t("every_hand")),
    h("ul", {}, seats.map((seat) => h("li", { "data-seat": seat.seat }, [h("strong", {}, ui.name(seat.seat)), ": ",
      ["hand", "loaded_card", "loot"].filter((f) => seat[f] !== undefined && seat[f] !== null)
        .map((f) => `${t(`own.${f}`)}: ${said(f, seat[f]) || t("none")}`).join(" · ")]))),
  ]);
}

export async function showReplay(root, app, gameId) {
  const latest = await get(`/v1/games/${gameId}`);
  const game = GAMES[latest.ruleset];
  const catalogue = await app.catalogue(latest.ruleset);
  const events = await allEvents(gameId);
  const last = latest.version;
  const states = new Map([[last, latest]]);
  // The versions that begin a round or a turn, as the game's module names them: the replay jumps between them.
  const moments = events.filter((e) => (game.MOMENTS || []).includes(e.type)).map((e) => e.version);
  const result = latest.status === "finished" ? await get(`/v1/games/${gameId}/result`).catch(() => null) : null;
  let audit = null;
  let own = null;
  let version = 1;
  let playing = null;
  let review = null; // "pending" while it is being made
  let asking = null;

  const go = async (next) => {
    version = Math.min(last, Math.max(1, next));
    if (!states.has(version)) states.set(version, await get(`/v1/games/${gameId}/states/${version}`));
    draw();
  };
  const step = (label, key, target, text) => h("button", { type: "button", class: "step", "data-key": key, "aria-label": label,
    title: label, onclick: () => go(target()) }, text);

  const draw = () => {
    const focused = document.activeElement?.dataset?.key;
    const view = states.get(version);
    const ui = makeUi(view, catalogue, events.filter((e) => e.version <= version), null);
    const slider = h("input", { type: "range", min: "1", max: String(last), value: String(version), id: "replay-slider",
      "data-key": "slider", "aria-label": t("replay_version"), "aria-valuetext": t("version_of", { n: version, total: last }) });
    slider.addEventListener("change", () => go(Number(slider.value)));
    const play = h("button", { type: "button", class: "step", "data-key": "play", id: "replay-play",
      "aria-pressed": String(Boolean(playing)) }, playing ? t("pause") : t("autoplay"));
    play.onclick = () => {
      if (playing) { clearInterval(playing); playing = null; draw(); return; }
      playing = setInterval(() => (version >= last ? (clearInterval(playing), (playing = null), draw()) : go(version + 1)), 700);
      draw();
    };
    fill(root,
      h("div", { class: "table-head" }, [
        h("h1", {}, t("replay_of", { game: rulesetName(latest.ruleset) })),
        h("span", { class: "meta", id: "replay-version" }, t("version_of", { n: version, total: last })),
        h("nav", { class: "links" }, [h("a", { href: "#/", class: "button" }, t("back_to_lobby"))]),
      ]),
      h("div", { class: "replay-audit" }, auditBadge(audit, own, latest)),
      h("div", { class: "replay-controls", role: "group", "aria-label": t("replay_controls") }, [
        step(t("first"), "first", () => 1, "«"),
        step(t(`moment_prev.${latest.ruleset}`), "prev-moment", () => moments.filter((v) => v < version).at(-1) ?? 1, "◀◀"),
        step(t("previous"), "prev", () => version - 1, "◀"),
        slider,
        step(t("next"), "next", () => version + 1, "▶"),
        step(t(`moment_next.${latest.ruleset}`), "next-moment", () => moments.find((v) => v > version) ?? last, "▶▶"),
        step(t("last"), "last", () => last, "»"),
        play,
      ]),
      h("div", { class: "table-grid" }, [
        h("section", { class: `board ${latest.ruleset}`, "aria-label": t("table"), "data-version": version },
          // Before the start, what the last event did: the game created, a seat taken.
          !view.state ? h("p", { class: "replay-note", id: "replay-note" }, describe(ui.events.at(-1), ui)) : game.render(view, ui)),
        h("aside", { class: "side" }, [
          version === last ? resultPanel(result, ui, game) : null,
          handsPanel(view, ui, game),
          reviewPanel(review, ui, last, version, go),
          h("section", { class: "panel log", "aria-labelledby": "log-title" }, [
            h("h2", { id: "log-title" }, t("events")), eventList(events, ui, version, go)]),
        ]),
      ]),
    );
    const again = focused && [...root.querySelectorAll("[data-key]")].find((e) => e.dataset.key === focused);
    if (again) again.focus();
    const log = root.querySelector(".log");
    const current = root.querySelector(".events .current");
    if (log && current) log.scrollTop = current.offsetTop - log.clientHeight / 2; // the log scrolls, not the page
  };

  await go(1);
  get(`/v1/games/${gameId}/audit`).then(async (answer) => {
    own = await ownChecks(latest, events);
    audit = answer;
    draw();
  }).catch((failure) => app.announce(app.problem(failure)));
  const askReview = () => get(`/v1/games/${gameId}/review`).then((answer) => {
    if (answer.status === "pending") asking = setTimeout(askReview, (answer.retry_after_s || 5) * 1000);
    review = answer.status === "pending" ? "pending" : answer;
    draw();
  }).catch(() => { review = null; }); // a service that reviews no games: the replay goes without
  if (latest.status === "finished") askReview();
  return () => { clearInterval(playing); clearTimeout(asking); };
}
