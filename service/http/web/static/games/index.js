// Every game the client draws, by ruleset id, and every event type the live feed may name.
import * as cashNGuns from "./cash_n_guns.js";
import * as mobsters from "./mobsters.js";
import * as twelveGangsters from "./twelve_gangsters.js";

export const GAMES = { "twelve-gangsters": twelveGangsters, "cash-n-guns": cashNGuns, mobsters };

const COMMON = [
  "game_created", "seat_joined", "game_started", "game_tallied", "seat_left", "seat_resigned", "game_aborted", "rematch_created",
  "bots_seated", "auto_pass_set",
];
export const EVENT_TYPES = [...COMMON, ...Object.values(GAMES).flatMap((game) => game.EVENTS)];
