// A replay: every version of a game through `/states/{version}`, a slider and step buttons, the event list beside
// it, and the audit's verdict with what this browser checks for itself (the hash links, the seed commitment).
import { get } from "./api.js";
import { h, rulesetName } from "./dom.js";
import { GAMES } from "./games/index.js";
import { t } from "./i18n.js";
import { eventList, makeUi, resultPanel } from "./table.js";

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

export async function showReplay(root, app, gameId) {
  const latest = await get(`/v1/games/${gameId}`);
  const game = GAMES[latest.ruleset];
  const catalogue = await app.catalogue(latest.ruleset);
  const events = await allEvents(gameId);
  const last = latest.version;
  const states = new Map([[last, latest]]);
  const result = latest.status === "finished" ? await get(`/v1/games/${gameId}/result`).catch(() => null) : null;
  let audit = null;
  let own = null;
  let version = 1;
  let playing = null;

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
    root.replaceChildren(
      h("div", { class: "table-head" }, [
        h("h1", {}, t("replay_of", { game: rulesetName(latest.ruleset) })),
        h("span", { class: "meta", id: "replay-version" }, t("version_of", { n: version, total: last })),
        h("nav", { class: "links" }, [h("a", { href: "#/", class: "button" }, t("back_to_lobby"))]),
      ]),
      h("div", { class: "replay-audit" }, auditBadge(audit, own, latest)),
      h("div", { class: "replay-controls", role: "group", "aria-label": t("replay_controls") }, [
        step(t("first"), "first", () => 1, "«"),
        step(t("previous"), "prev", () => version - 1, "◀"),
        slider,
        step(t("next"), "next", () => version + 1, "▶"),
        step(t("last"), "last", () => last, "»"),
        play,
      ]),
      h("div", { class: "table-grid" }, [
        h("section", { class: `board ${latest.ruleset}`, "aria-label": t("table"), "data-version": version },
          view.status === "waiting" || !view.state ? h("p", {}, t("waiting_for_players")) : game.render(view, ui)),
        h("aside", { class: "side" }, [
          version === last ? resultPanel(result, ui, game.score) : null,
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
  return () => clearInterval(playing);
}
