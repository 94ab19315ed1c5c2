// Building the page: one small element helper, for HTML and SVG alike.
import { t } from "./i18n.js";

const SVG = "http://www.w3.org/2000/svg";

function build(element, attrs, children) {
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (name.startsWith("on") && typeof value === "function") element.addEventListener(name.slice(2), value);
    else if (name === "style") element.style.cssText = value; // through the CSSOM: the page's CSP forbids inline style
    else element.setAttribute(name, value === true ? "" : String(value));
  }
  return add(element, children);
}

// Children as `h` takes them: nested lists flattened, and nothing drawn for null, undefined or false (the DOM's own
// append would write "null").
function add(element, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return element;
}

export const h = (tag, attrs, ...children) => build(document.createElement(tag), attrs, children);
export const s = (tag, attrs, ...children) => build(document.createElementNS(SVG, tag), attrs, children);

// An element's children replaced, taken as `h` takes them.
export function fill(element, ...children) {
  element.replaceChildren();
  return add(element, children);
}

export const rulesetName = (id) => t(`ruleset.${id}`);

// A table's info line: the parts that say something (a part with nothing to say is null or ""), between dots.
export function infoLine(...parts) {
  const said = parts.filter((part) => part !== null && part !== undefined && part !== false && part !== "");
  return h("p", { class: "info" }, said.flatMap((part, i) => (i ? [" · ", part] : [part])));
}

// A small die face, for Mobsters' rolls.
export function die(value, label) {
  const pips = { 1: [[2, 2]], 2: [[1, 1], [3, 3]], 3: [[1, 1], [2, 2], [3, 3]], 4: [[1, 1], [1, 3], [3, 1], [3, 3]],
    5: [[1, 1], [1, 3], [2, 2], [3, 1], [3, 3]], 6: [[1, 1], [1, 2], [1, 3], [3, 1], [3, 2], [3, 3]] }[value] || [];
  return s("svg", { class: "die", viewBox: "0 0 40 40", role: "img", "aria-label": label },
    s("rect", { x: 2, y: 2, width: 36, height: 36, rx: 7 }),
    pips.map(([x, y]) => s("circle", { cx: x * 10, cy: y * 10, r: 3.6 })));
}

// A fedora: the only picture the client draws, on card backs and gangster cards.
export function fedora(cls = "fedora") {
  return s("svg", { class: cls, viewBox: "0 0 64 40", "aria-hidden": "true" },
    s("path", { d: "M4 30 Q32 40 60 30 Q50 27 46 26 L42 8 Q32 4 22 8 L18 26 Q12 27 4 30 Z" }),
    s("path", { class: "band", d: "M19.5 20 Q32 24 44.5 20 L45.6 25 Q32 29 18.4 25 Z" }));
}

// A seat's panel in a row of seats: its colour, its name, a badge while it has one, its score; then what its
// game shows of it. `mark` names the seat's state for the style sheet (the Boss, the active seat).
export function seatSection(ui, seat, { mark = "", badge = null, score }, ...body) {
  return h("section", { class: `seat ${mark} ${seat.seat === ui.me ? "me" : ""}`, "data-seat": seat.seat,
    "aria-label": ui.name(seat.seat) }, [
    h("header", {}, [
      h("span", { class: `dot seat-c${seat.seat}`, "aria-hidden": "true" }),
      h("strong", {}, ui.name(seat.seat)),
      badge,
      score,
    ]),
    ...body,
  ]);
}
