// Telling a player that a decision is due, even outside the page: the title and the favicon while it is due, an
// optional sound, and a browser notification while the page is hidden (asked for by a click, never assumed).
import { h } from "./dom.js";
import { t } from "./i18n.js";

const PLAIN = "Syndicate";
const SOUND = "syndicate.sound";

function icon(due) {
  const dot = due ? '<circle cx="24" cy="8" r="7.5" fill="#e5484d" stroke="#fff" stroke-width="1.5"/>' : "";
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#1f2328"/>`
    + `<text x="15" y="24" font-size="21" font-family="Georgia,serif" text-anchor="middle" fill="#f3e9d2">S</text>${dot}</svg>`;
  return `data:image/svg+xml,${encodeURIComponent(svg)}`;
}

// The page's title and favicon say whether a decision of yours is due (a dot, and "●" first in the title).
export function markDue(due) {
  document.title = due ? `● ${t("due_title")} · ${PLAIN}` : PLAIN;
  let link = document.querySelector("link[rel=icon]");
  if (!link) link = document.head.appendChild(h("link", { rel: "icon" }));
  link.href = icon(due);
  document.documentElement.dataset.due = due ? "1" : "0";
}

// The moment a decision falls due: a short tone if asked for, and a notification if the page is out of sight.
export function announceDue(text) {
  if (localStorage.getItem(SOUND) === "on") tone();
  if (document.hidden && "Notification" in window && Notification.permission === "granted") {
    new Notification(PLAIN, { body: text, tag: "syndicate-turn" });
  }
}

function tone() {
  try {
    const audio = new AudioContext();
    const oscillator = audio.createOscillator();
    const gain = audio.createGain();
    oscillator.frequency.value = 660;
    gain.gain.value = 0.08;
    oscillator.connect(gain).connect(audio.destination);
    oscillator.onended = () => audio.close();
    oscillator.start();
    oscillator.stop(audio.currentTime + 0.18);
  } catch {
    // no sound where the browser allows none: the title and the favicon still tell
  }
}

// The player's choices: a sound on a due decision, and notifications (the browser asks once, on this click).
export function signalControls() {
  const sound = h("input", { type: "checkbox", id: "sound-on" });
  sound.checked = localStorage.getItem(SOUND) === "on";
  sound.onchange = () => {
    localStorage.setItem(SOUND, sound.checked ? "on" : "off");
    if (sound.checked) tone();
  };
  const controls = [h("label", { class: "check small" }, [sound, t("sound_on_turn")])];
  if ("Notification" in window && Notification.permission === "default") {
    const ask = h("button", { type: "button", class: "button small", id: "notify-me" }, t("notify_me"));
    ask.onclick = () => Notification.requestPermission().then(() => ask.remove());
    controls.push(ask);
  }
  return h("span", { class: "signals" }, controls);
}
