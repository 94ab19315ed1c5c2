// The public HTTP API, as any client calls it: JSON, bearer seat tokens, problem+json errors, stream tickets.

export class ApiError extends Error {
  constructor(status, problem, retryAfter = 0) {
    super(problem.detail || problem.title || `HTTP ${status}`);
    this.status = status;
    this.code = problem.code || "http_error";
    this.retryAfter = retryAfter; // seconds, from Retry-After (a 429, a 503): when asking again makes sense
  }
}

const THROTTLED_RETRIES = 3;
const THROTTLED_WAIT_MAX_S = 15;

export async function call(method, path, { body, token, ifMatch } = {}) {
  const headers = { Accept: "application/json" };
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (ifMatch !== undefined) headers["If-Match"] = `"${ifMatch}"`;
  if (method === "POST" && path.endsWith("/moves")) headers["Idempotency-Key"] = crypto.randomUUID();
  // no-store: a seat's view holds its hand, which has no place in the browser's disk cache.
  const payload = body === undefined ? undefined : JSON.stringify(body);
  let response = await fetch(path, { method, headers, body: payload, cache: "no-store" });
  // Over a rate limit nothing was done: wait as told and ask again (a move with the same Idempotency-Key), a few
  // times, so a busy moment passes unnoticed.
  for (let again = 0; response.status === 429 && again < THROTTLED_RETRIES; again++) {
    const wait = Math.min(Number(response.headers.get("Retry-After")) || 1, THROTTLED_WAIT_MAX_S);
    document.dispatchEvent(new CustomEvent("syndicate:throttled", { detail: wait }));
    await new Promise((resolve) => setTimeout(resolve, wait * 1000));
    response = await fetch(path, { method, headers, body: payload, cache: "no-store" });
  }
  if (response.status === 204) return null;
  const data = await response.json();
  if (!response.ok) throw new ApiError(response.status, data, Number(response.headers.get("Retry-After")) || 0);
  return data;
}

export const get = (path, token) => call("GET", path, { token });

// Seat tokens are shown once, at creation or joining: kept in this browser, one per game.
const SEATS = "syndicate.seats";

export const seats = {
  all() {
    try {
      return JSON.parse(localStorage.getItem(SEATS)) || {};
    } catch {
      return {};
    }
  },
  of(gameId) {
    return this.all()[gameId] || null;
  },
  keep(gameId, seat, token, created = false) {
    const all = this.all();
    all[gameId] = { seat, token, created };
    localStorage.setItem(SEATS, JSON.stringify(all));
  },
  forget(gameId) {
    const all = this.all();
    delete all[gameId];
    localStorage.setItem(SEATS, JSON.stringify(all));
  },
};

// A registered player: its id, name and token, kept in this browser until signing out. The token acts for the
// player's seat in every game it sits in, so such a seat needs no seat token of its own.
const PLAYER = "syndicate.player";

export const player = {
  get() {
    try {
      return JSON.parse(localStorage.getItem(PLAYER));
    } catch {
      return null;
    }
  },
  keep(id, name, token) {
    localStorage.setItem(PLAYER, JSON.stringify({ id, name, token }));
  },
  forget() {
    localStorage.removeItem(PLAYER);
  },
  // Whether the signed-in player holds a seat in a game, as a view or a lobby entry shows its seats.
  seated(game) {
    const me = this.get();
    return Boolean(me && game.seats.some((seat) => seat.player === me.id));
  },
};

// The token that acts for this browser in a game: the seat token it keeps, else the player's if it holds a seat.
export function tokenFor(gameId, game) {
  return seats.of(gameId)?.token || (player.seated(game) ? player.get().token : null);
}

// The live feed. A seat's own feed needs a single-use ticket (EventSource cannot send Authorization), so every
// reconnection asks for a new one and resumes after the last event seen. `types` are the event types to listen
// to: the feed names each message by its type, and EventSource delivers only the names it listens for.
export function follow(gameId, token, types, onEvent) {
  let source = null;
  let last = 0;
  let stopped = false;
  let timer = null;
  const again = () => {
    if (!stopped) timer = setTimeout(open, 2000);
  };
  const seen = (message) => {
    last = Math.max(last, Number(message.lastEventId) || 0);
    // the feed closes after these: nothing more will come
    if (message.type === "game_tallied" || message.type === "game_aborted") stopped = true;
    onEvent(message);
  };
  const open = async () => {
    let url = `/v1/games/${gameId}/events/stream`;
    try {
      if (token) url = (await call("POST", `/v1/games/${gameId}/stream-tickets`, { token })).stream;
    } catch {
      again();
      return;
    }
    if (stopped) return;
    source = new EventSource(url + (url.includes("?") ? "&" : "?") + `after=${last}`);
    for (const type of [...types, "game_finished"]) source.addEventListener(type, seen);
    source.addEventListener("error", () => {
      source.close(); // a ticket opens one feed once: reconnect with a new one, not the browser's retry
      again();
    });
  };
  open();
  return () => {
    stopped = true;
    clearTimeout(timer);
    if (source) source.close();
  };
}
