// The game in words: the phase, the fixes, the dice, and one log line per event
// (docs/CONTRACTS.md §4 types), all through the message table of the current language.

import { t } from "./i18n.js";

export function player(color) {
  return color === "white" || color === "black" ? t(color) : String(color ?? t("nobody"));
}

export function location(loc) {
  if (loc === "bar") return t("loc_bar");
  if (loc === "off") return t("loc_off");
  return t("loc_point", { n: loc });
}

export function locations(list) {
  return list && list.length ? list.map(location).join(", ") : t("nowhere");
}

export function diceText(dice) {
  return dice && dice.length ? dice.join("-") : "";
}

/** An equity as gnubg shows it: signed, three places (a minus sign, not a hyphen). */
export function equity(value) {
  const n = Number(value);
  return `${n < 0 ? "\u2212" : "+"}${Math.abs(n).toFixed(3)}`;
}

/** A loss of equity: three places, no sign. */
export function loss(value) {
  return Number(value).toFixed(3);
}

/** One fix of an out_of_sync event or of /api/state `fix`. */
export function fixText(fix) {
  const add = fix.add !== undefined;
  const n = add ? fix.add : fix.remove;
  return t(add ? "fix_add" : "fix_remove", {
    n, at: location(fix.at), color: t(`c_${fix.color}`), color_many: t(`c_${fix.color}_many`),
  });
}

/** The phase of /api/state as a sentence. */
export function phaseText(s) {
  const who = player(s.on_roll);
  switch (s.phase) {
    case "setup": return t("phase_setup");
    case "opening": return t("phase_opening");
    case "await_roll": return t(mayDouble(s) ? "phase_await_roll_cube" : "phase_await_roll", { player: who });
    case "double_offered":
      return t("phase_double_offered", {
        player: who, cube: s.cube.value * 2, taker: player(other(s.on_roll)),
      });
    case "resign_offered":
      return t("phase_resign_offered", {
        player: who, ...resigned(s), taker: player(other(s.on_roll)),
      });
    case "moving": return t("phase_moving", { player: who, dice: diceText(s.dice) });
    case "no_move": return t("phase_no_move", { player: who, dice: diceText(s.dice) });
    case "game_over":
      return s.winner
        ? t("phase_game_over", { winner: player(s.winner), points: s.points_won })
        : t("phase_game_over_next");
    case "match_over": return t("phase_match_over", { winner: player(s.winner) });
    default: return String(s.phase);
  }
}

/** The tavli games (docs/VARIANTS.md) and the match settings, in the page's order. */
export const VARIANTS = ["portes", "plakoto", "fevga", "tavli"];

/** A game's name: "portes", "plakoto", "fevga" (or "tavli", the three in turn). */
export function gameName(variant) {
  return t(`game_${VARIANTS.includes(variant) ? variant : "portes"}`);
}

/** Which game of the match is on: in a tavli match its number and name, else the name. */
export function gameText(s) {
  const game = gameName(s.variant || "portes");
  return s.match_variant === "tavli" ? t("game_of_tavli", { n: s.tavli_game || 1, game }) : game;
}

/** The pinned checkers of /api/state (`pinned`: point -> colour), as one sentence or none. */
export function pinnedText(pinned) {
  const at = Object.entries(pinned || {}).sort(([a], [b]) => Number(a) - Number(b));
  if (!at.length) return null;
  return t("pinned_list", {
    list: at.map(([loc, c]) => t("pinned_at", { at: location(loc), color: t(`c_${c}`) })).join(", "),
  });
}

/** A level's name (docs/CONTRACTS.md: "beginner" .. "world class") in words. */
export function levelText(level) {
  return t(`level_${String(level).replace(" ", "_")}`);
}

/** Who plays a match: two players, the computer's colour and level, or (`remote`: its
 * name) the colour a friend's board plays. */
export function modeText(opponent, level, remote = null) {
  if (opponent && remote) return t("mode_remote", { name: remote, color: player(opponent) });
  return opponent ? t("mode_computer", { color: player(opponent), level: levelText(level) }) : t("mode_two");
}

/** The resignation of /api/state (`resignation`), chosen or offered, as a sentence. */
export function resignText(s) {
  const r = s.resignation;
  if (!r) return t("resign_none");
  return t(r.state === "offered" ? "resign_offered" : "resign_choosing", {
    player: player(r.player), ...resigned(s),
  });
}

/** The kind and points of the resignation shown: points are the level times the cube. */
function resigned(s) {
  const points = s.resignation ? s.resignation.points : 0;
  const level = Math.round(points / (s.cube.value || 1));
  const kind = ["single", "gammon", "backgammon"][level - 1] || "single";
  return { kind: t(`kind_${kind}`), points };
}

/** What else the light says now, as short sentences. */
export function hints(s) {
  const out = [];
  if (s.menu_armed) out.push(t("hint_menu_armed"));
  if (s.menu) {
    out.push(t("hint_menu_mode", { mode: modeText(s.menu.opponent, s.menu.level, s.menu.remote) }));
    if (s.menu.notice) out.push(t("set_engine_missing", { message: s.menu.notice }));
    if (s.match_length) out.push(t(s.menu.clock ? "hint_menu_clock_on" : "hint_menu_clock_off"));
  }
  out.push(...(s.remote ? remoteHints(s) : s.online ? onlineHints(s) : computerHints(s)));
  if (s.first_checker) out.push(t("hint_first_checker", { at: location(s.first_checker) }));
  const pins = pinnedText(s.pinned);
  if (pins) out.push(pins);
  if (s.to_bar && s.to_bar.length) out.push(t("hint_to_bar"));
  if (s.candidates && s.candidates.length) out.push(t("hint_candidates"));
  if (s.lifted) {
    out.push(t("hint_lifted", { from: location(s.lifted.from), to: locations(s.lifted.destinations) }));
  }
  const warning = s.blunder_warning;
  if (warning) {
    out.push(t("coach_warning", { play: warning.play, best: warning.best, loss: loss(warning.loss) }));
  }
  if (s.press_done) out.push(doneHint(s));
  for (const c of ["white", "black"]) {
    const n = s.physical ? s.physical.hand[c] : 0;
    if (n) out.push(t("hint_hand", { player: player(c), n }));
  }
  return out;
}

/** Who presses DONE now: the mover, or, where the board cannot see the rest of the
 * seat's play it lights (a tall stack), the hand that carries it out. */
function doneHint(s) {
  if (!s.engine_play) return t("hint_press_done", { player: player(s.on_roll) });
  const hand = s.on_roll === "white" ? "black" : "white";
  return t("hint_carried_done", { play: s.engine_play.play, player: player(hand) });
}

/** The computer's side: thinking, its trouble, its play being carried out. */
function computerHints(s) {
  const out = [];
  if (s.engine_thinking) out.push(t("hint_engine_thinking"));
  if (s.engine_trouble) out.push(t("hint_engine_trouble", { reason: s.engine_trouble }));
  out.push(...playHints(s.engine_play, "hint_engine_play", "hint_engine_fix", {}));
  return out;
}

/** The friend's board's side (`remote` of /api/state): who is awaited, whether it is
 * reached, why it is out of sync, its play being carried out (never "the computer"). */
function remoteHints(s) {
  const r = s.remote;
  const name = r.peer;
  const out = [];
  if (r.waiting_for) out.push(t("hint_remote_waiting", { name: r.waiting_for }));
  if (!r.connected) out.push(t("hint_remote_unreached", { name }));
  const troubles = [r.trouble, s.engine_trouble].filter((x, i, all) => x && all.indexOf(x) === i);
  for (const trouble of troubles) out.push(t("hint_remote_trouble", { name, reason: syncReason(trouble, name) }));
  out.push(...playHints(s.engine_play, "hint_remote_play", "hint_remote_fix", { name }));
  return out;
}

/** The online opponent's side (`online` of /api/state): an opponent sought, awaited, the
 * server's trouble, its play being carried out (never "the computer"). */
function onlineHints(s) {
  const o = s.online;
  const name = (o.match && o.match.opponent) || t("online_opponent");
  const out = [];
  if (o.seeking) out.push(t("hint_online_seeking"));
  else if (s.engine_thinking) out.push(t("hint_remote_waiting", { name }));
  if (o.trouble) out.push(t("hint_online_trouble", { reason: o.trouble }));
  out.push(...playHints(s.engine_play, "hint_remote_play", "hint_remote_fix", { name }));
  return out;
}

/** The reason of a remote trouble ("out of sync with NAME: reason"), without its prefix. */
export function syncReason(trouble, name) {
  const prefix = `out of sync with ${name}: `;
  return trouble.startsWith(prefix) ? trouble.slice(prefix.length) : trouble;
}

/** The seat's play while the hand carries it out: the next checker, or the fix first. */
function playHints(play, moveKey, fixKey, params) {
  if (!play) return [];
  if (!play.next) return [t(fixKey, { ...params, play: play.play })];
  return [t(moveKey, {
    ...params, play: play.play, from: location(play.next.from), to: location(play.next.to),
  })];
}

/** Whether the player on roll may well double (the Crawford game is not told apart). */
function mayDouble(s) {
  return hasCube(s) && s.cube.value < 64 && (s.cube.owner === null || s.cube.owner === s.on_roll);
}

/** Whether the game now has a cube: Plakoto and Fevga have none, nor a tavli match's
 * Portes unless its house rules put one in (older states: Portes has one). */
export function hasCube(s) {
  if (typeof s.cube_in_play === "boolean") return s.cube_in_play;
  return !s.variant || s.variant === "portes";
}

function other(color) {
  return color === "white" ? "black" : "white";
}

// ---- the rejection reasons of the referee, translated where known -------------

const REASONS = [
  [/^the board does not show a legal play$/, "reason_legal_play"],
  [/^a hit checker must go to the bar first$/, "reason_to_bar"],
  [/^a checker is still in the hand$/, "reason_in_hand"],
  [/^two plays read the same: confirm one$/, "reason_ambiguous"],
  [/^not all dice are used$/, "reason_dice_left"],
  [/^the cube is offered before rolling$/, "reason_cube_before"],
  [/^the dice are rolled: double before rolling$/, "reason_rolled"],
  [/^no doubling in the Crawford game$/, "reason_crawford"],
  [/^a double is already offered$/, "reason_offered"],
  [/^the cube is at 64, its highest value$/, "reason_max_cube"],
  [/^it is (white|black)'s turn$/, "reason_turn"],
  [/^(white|black) is moving$/, "reason_moving"],
  [/^(white|black) must take or drop the double$/, "reason_answer"],
  [/^the cube belongs to (white|black)$/, "reason_owner"],
  [/^only the player on roll \((white|black)\) may double$/, "reason_on_roll"],
  [/^no hint: the engine did not answer$/, "reason_no_hint"],
  [/^(white|black) must accept or decline the resignation$/, "reason_resign_answer"],
  [/^(white|black) has already declined an? (single|gammon|backgammon)$/, "reason_resign_declined"],
  [/^only the player on roll \((white|black)\) may resign$/, "reason_resign_on_roll"],
  [/^a resignation is waiting for an answer$/, "reason_resign_waiting"],
  [/^the board ([a-z0-9-]+) plays (white|black)$/, "reason_friend_plays"],
  [/^the dice are on their way$/, "reason_dice_coming"],
  [/^put the checkers back where they stood before the play refused$/, "reason_put_back"],
];

export function reasonText(reason) {
  const text = String(reason ?? "");
  const nothing = /^(ROLL|CUBE) does nothing now/.exec(text);
  if (nothing) return t("reason_nothing", { button: t(nothing[1] === "ROLL" ? "btn_roll" : "btn_cube") });
  const server = /^the server refused the play: (.*)$/s.exec(text);
  if (server) return t("reason_server_refused", { reason: server[1] });
  for (const [pattern, key] of REASONS) {
    const found = pattern.exec(text);
    if (!found) continue;
    if (key === "reason_friend_plays") return t(key, { name: found[1], player: player(found[2]) });
    return t(key, { player: found[1] ? player(found[1]) : "" });
  }
  return text;
}

// ---- one line per event ---------------------------------------------------------

function score(list) {
  return Array.isArray(list) ? list.join("–") : "";
}

const LINES = {
  game_started: (e) => (e.variant && e.variant !== "portes"
    ? t("ev_game_started_variant", { game: gameName(e.variant) }) : t("ev_game_started")),
  new_match: (e) => {
    let match = e.match_length ? t("ev_new_match", { n: e.match_length }) : t("ev_new_match_money");
    if (e.variant && e.variant !== "portes") match += ` · ${gameName(e.variant)}`;
    if (e.clock) {
      match += ` · ${t("ev_clock_rules", {
        delay: e.clock.delay_s, reserve: minutes(e.clock.reserve_s_per_point),
      })}`;
    }
    return e.opponent ? `${match} · ${modeText(e.opponent, e.level, e.remote)}` : match;
  },
  opening_roll: (e) => (e.starter
    ? t("ev_opening_roll", { w: e.white, b: e.black, starter: player(e.starter) })
    : t("ev_opening_tie", { w: e.white, b: e.black })),
  rolled: (e) => t("ev_rolled", { player: player(e.player), dice: diceText(e.dice) }),
  lifted: (e) => t("ev_lifted", {
    player: player(e.player), from: location(e.from), to: locations(e.destinations),
  }),
  out_of_sync: (e) => t("ev_out_of_sync", { fixes: (e.fix || []).map(fixText).join("; ") }),
  in_sync: () => t("ev_in_sync"),
  played: (e) => t("ev_played", { player: player(e.player), play: e.play }),
  rejected: (e) => t("ev_rejected", { player: player(e.player), reason: reasonText(e.reason) }),
  no_legal_move: (e) => t("ev_no_legal_move", { player: player(e.player), dice: diceText(e.dice) }),
  double_offered: (e) => t("ev_double_offered", { player: player(e.player), cube: e.cube }),
  double_taken: (e) => t("ev_double_taken", { player: player(e.player), cube: e.cube }),
  double_dropped: (e) => t("ev_double_dropped", { player: player(e.player), cube: e.cube }),
  game_over: (e, variant, inTavli) => {
    if (e.kind === "draw") return t("ev_game_drawn", { score: score(e.score) });
    const cube = hasCube({ variant }) && !(inTavli && e.cube === 1); // tavli: if doubled
    return t(cube ? "ev_game_over" : "ev_game_over_no_cube", {
      winner: player(e.winner), kind: t(`kind_${e.kind}`), points: e.points, cube: e.cube,
      score: score(e.score),
    });
  },
  match_over: (e) => t(e.reason === "time" ? "ev_match_over_time" : "ev_match_over",
    { winner: player(e.winner), score: score(e.score) }),
  clock: (e) => {
    if (e.flag) return t("clock_flag", { player: player(e.flag) });
    const times = { white: minutes(e.reserve_ms.white / 1000), black: minutes(e.reserve_ms.black / 1000) };
    return e.running ? t("ev_clock_runs", { player: player(e.running), ...times })
      : t("ev_clock_stopped", times);
  },
  hint: (e) => {
    const best = (e.plays || [])[0] || { play: "", equity: 0 };
    return t("ev_hint", {
      player: player(e.player), dice: diceText(e.dice), play: best.play, equity: equity(best.equity),
    });
  },
  blunder_warning: (e) => t("ev_blunder_warning", {
    player: player(e.player), play: e.play, best: e.best, loss: loss(e.loss),
  }),
  resign_offered: (e) => t("ev_resign_offered", { player: player(e.player), points: e.points }),
  resign_accepted: (e) => t("ev_resign_accepted", { player: player(e.player), points: e.points }),
  resign_declined: (e) => t("ev_resign_declined", { player: player(e.player), points: e.points }),
  engine_play: (e) => t("ev_engine_play", {
    player: player(e.player), play: e.play, dice: diceText(e.dice),
  }),
  remote_play: (e, _v, _t, peer) => t("ev_remote_play", {
    name: peer || t("nobody"), player: player(e.player), play: e.play, dice: diceText(e.dice),
  }),
  remote_match: (e) => t("ev_remote_match", { name: e.peer, player: player(e.color) }),
  remote_status: (e) => t(e.connected ? "ev_remote_on" : "ev_remote_off", { name: e.peer }),
  takeback: (e) => t("ev_takeback", { player: player(e.player), dice: diceText(e.dice) }),
  review: (e) => t("ev_review", {
    n: e.game, w: (e.white || {}).error_rate, b: (e.black || {}).error_rate,
  }),
};

/** The bookkeeping of a remote match (its messages and dice shares): in the journal,
 * not in the log (a board's own share of a roll to come is not shown either). */
export const UNSAID = new Set(["remote_sent", "remote_taken", "dice_commit", "dice_reveal",
  "online_status"]);

/** The log line of one event of a game of `variant` (Plakoto and Fevga have no cube;
 * `inTavli`: of a tavli match, whose Portes has one only by its house rules; `peer`:
 * the friend's board the match is played with); unknown types show as their JSON. */
export function eventText(event, variant = "portes", inTavli = false, peer = null) {
  const line = LINES[event.type];
  if (line) return line(event, variant, inTavli, peer);
  const { t: _time, type, ...rest } = event;
  return `${type} ${JSON.stringify(rest)}`;
}

/** What the sensors report (`sensed` of /api/state), each fault's kind in words; in
 * Plakoto two colours in one place are a pin (or a checker put on a held point, which
 * the fix list tells), not a fault. */
export function sensorsText(sensed, variant) {
  if (!sensed) return "";
  const parts = [];
  const faults = (sensed.faults || []).filter((f) => variant !== "plakoto" || f.kind !== "mixed_colors");
  if (faults.length) {
    const list = faults.map((f) => `${location(f.location)} (${t(`fault_${f.kind}`)})`);
    parts.push(t("sensors_faults", { list: list.join(", ") }));
  }
  const unknown = Object.keys(sensed.unknown || {});
  if (unknown.length) parts.push(t("sensors_unknown", { list: unknown.map(location).join(", ") }));
  return parts.length ? parts.join("; ") : t("sensors_ok");
}

/** The players' names (`players` of /api/state), by colour. */
export function playersText(players) {
  return t("players_text", { white: players.white, black: players.black });
}

/** The clock's figures `elapsed` ms after /api/state gave them (`clock`): the running
 * side's delay is spent first, then its reserve (docs/CLOCK.md). */
export function clockFigures(clock, elapsed) {
  const reserve = { ...clock.reserve_s };
  let delay = clock.delay_left_s ?? 0;
  if (clock.running && !clock.flag) {
    const spent = Math.max(0, elapsed) / 1000;
    const fromDelay = Math.min(delay, spent);
    delay -= fromDelay;
    reserve[clock.running] = Math.max(0, reserve[clock.running] - (spent - fromDelay));
  }
  return { reserve, delay };
}

function minutes(seconds) {
  const s = Math.ceil(seconds);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/** The clock in words: the reserve of each side this board times, the running side's
 * delay left; a fallen flag. */
export function clockText(clock, elapsed) {
  if (clock.flag) return t("clock_flag", { player: player(clock.flag) });
  const { reserve, delay } = clockFigures(clock, elapsed);
  const timed = clock.timed || ["white", "black"]; // the computer's, a friend's: not here
  return timed.map((c) => {
    const time = minutes(reserve[c]);
    if (c !== clock.running) return t("clock_side", { player: player(c), time });
    if (delay > 0) return t("clock_running_delay", { player: player(c), time, delay: Math.ceil(delay) });
    return t("clock_running", { player: player(c), time });
  }).join(" · ");
}
