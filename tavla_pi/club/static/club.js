// The club page: every board of the club live (GET /api/club, then GET /api/stream).
//
// Each board is drawn small with the board page's own drawing (board.js), its players,
// score, match length, cube, clock and whose turn it is; a board whose last will came
// ("gone") is marked so.  A click shows it full size with its log; "All boards" goes back.
// The boards whose key the server knows (`verified`) come first; the others are shown
// apart, under "Unverified boards".
//
// The server checks every state before it is shown; the page does not count on it: each
// state is read into what the drawing needs (counts clipped to 15, dice 1..6, names
// shortened, anything else dropped), and each board is drawn in its own try, so one
// board's bad data never stops the others.

import { BoardView } from "./board.js";
import { clockFigures, eventText, UNSAID } from "./words.js";

const CLOCK_MS = 1000;      // how often the running clocks are drawn again
const COLORS = ["white", "black"];
const POINTS = Array.from({ length: 24 }, (_, i) => String(i + 1));
const PLACES = new Set([...POINTS, "bar", "off"]);
const CHECKERS = 15;        // a side's checkers: no place holds more
const NAME_CHARS = 32;      // a player's name, as [players] allows it
const LOG_BOUND = 500;      // the log lines a board keeps, as the server does
const MAX_BOARDS = 400;     // the boards drawn (the server follows fewer)

const boards = new Map();   // name -> { status, state, at, seq, log, verified }
const views = new Map();    // name -> { node, view }
let full = null;            // the board shown full size, or null
let fullView = null;
let pending = null;         // stream messages that came before /api/club answered

function el(tag, attrs = {}, text = null) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== null) node.textContent = text;
  return node;
}

// ---- a state read defensively -------------------------------------------------------

function whole(value, low, high) {
  const n = Math.floor(Number(value));
  return Number.isFinite(n) ? Math.min(high, Math.max(low, n)) : low;
}

function seconds(value) {
  const n = Number(value);
  return Number.isFinite(n) ? Math.min(1e7, Math.max(0, n)) : 0;
}

function color(value) {
  return COLORS.includes(value) ? value : null;
}

function text(value, chars, fallback = "") {
  return typeof value === "string" && value ? value.slice(0, chars) : fallback;
}

function object(value) {
  return value && typeof value === "object" && !Array.isArray(value) ? value : {};
}

/** The board's checkers: each place's count clipped to 0..15, unknown places dropped. */
function shownBoard(board) {
  const out = { pinned: {} };
  for (const c of COLORS) {
    out[c] = {};
    for (const [loc, n] of Object.entries(object(object(board)[c]))) {
      if (PLACES.has(loc)) out[c][loc] = whole(n, 0, CHECKERS);
    }
  }
  for (const [loc, c] of Object.entries(object(object(board).pinned))) {
    if (POINTS.includes(loc) && color(c)) out.pinned[loc] = c;
  }
  return out;
}

function shownClock(clock) {
  if (!clock || typeof clock !== "object") return null;
  const reserve = object(clock.reserve_s);
  return {
    reserve_s: { white: seconds(reserve.white), black: seconds(reserve.black) },
    delay_left_s: clock.delay_left_s === null ? null : seconds(clock.delay_left_s),
    running: color(clock.running), flag: color(clock.flag),
    timed: Array.isArray(clock.timed) ? COLORS.filter((c) => clock.timed.includes(c)) : COLORS,
  };
}

/** What the page shows of a state: only what it draws, each of its type and range. */
function shownState(state) {
  if (!state || typeof state !== "object") return null;
  const players = object(state.players);
  const cube = object(state.cube);
  return {
    phase: text(state.phase, 20),
    on_roll: color(state.on_roll),
    winner: color(state.winner),
    board: shownBoard(state.board),
    dice: Array.isArray(state.dice) ? state.dice.slice(0, 2).map((d) => whole(d, 1, 6)) : [],
    cube: { value: whole(cube.value, 1, 64), owner: color(cube.owner) },
    score: COLORS.map((_, i) => whole(Array.isArray(state.score) ? state.score[i] : 0, 0, 99999)),
    match_length: whole(state.match_length, 0, 64),
    variant: text(state.variant, 12, "portes"),
    clock: shownClock(state.clock),
    players: { white: text(players.white, NAME_CHARS, "White"), black: text(players.black, NAME_CHARS, "Black") },
  };
}

/** A board's log as the page keeps it: event objects, the newest LOG_BOUND. */
function shownLog(log) {
  return Array.isArray(log) ? log.filter((e) => e && typeof e === "object").slice(-LOG_BOUND) : [];
}

// ---- drawing ------------------------------------------------------------------------

/** The state as board.js draws it: the rules' board as if the sensors read it. */
function drawable(state) {
  const sensed = { faults: [], unknown: {} };
  for (const c of COLORS) {
    sensed[c] = {};
    for (const [loc, n] of Object.entries(state.board[c])) {
      if (loc !== "off") sensed[c][loc] = [n, n];
    }
  }
  return { ...state, pinned: state.board.pinned, sensed, physical: null, led_features: [], fix: [] };
}

function clockTime(s) {
  const t = Math.max(0, Math.ceil(s || 0));
  return `${Math.floor(t / 60)}:${String(t % 60).padStart(2, "0")}`;
}

/** A board's clock as it stands now: the state's figures counted on since the board
 * sent them (the delay first, then the reserve; a board gone stands still). */
function clockLine(board) {
  const s = board.state;
  const since = board.status === "gone" ? 0 : Date.now() - (board.stateAt ?? board.at ?? Date.now());
  const { reserve } = clockFigures(s.clock, since);
  const flag = s.clock.flag ? ` flag: ${s.players[s.clock.flag]}` : "";
  return `clock ${clockTime(reserve.white)} / ${clockTime(reserve.black)}${flag}`;
}

/** Draw every running clock again (grid and full view). */
function tickClocks() {
  for (const [name, board] of boards) {
    try {
      if (!board.state || !board.state.clock || !board.state.clock.running) continue;
      const spans = [views.get(name)?.node.querySelector(".clock"),
        full === name ? document.querySelector("#full-facts .clock") : null];
      for (const span of spans) if (span) span.textContent = clockLine(board);
    } catch (error) {
      console.warn(`club: the clock of ${name} cannot be drawn`, error);
    }
  }
}

/** The facts line of a board: players, score, length, cube, clock, turn. */
function facts(board) {
  const s = board.state || shownState({});
  const players = s.players;
  const parts = [];
  for (const [i, c] of COLORS.entries()) {
    const span = el("span", { class: `player ${c}`, "data-color": c }, `${players[c]} ${s.score[i]}`);
    if (s.on_roll === c && !s.winner) span.classList.add("turn");
    if (s.clock && s.clock.running === c) span.classList.add("running");
    parts.push(span);
  }
  parts.push(el("span", { class: "length" }, s.match_length ? `${s.match_length} pt match` : "money game"));
  if (board.state) parts.push(el("span", { class: "cube" }, `cube ${s.cube.value}${s.cube.owner ? ` (${players[s.cube.owner]})` : ""}`));
  if (s.clock) parts.push(el("span", { class: "clock" }, clockLine(board)));
  const turn = s.winner ? `${players[s.winner]} wins` : s.on_roll ? `${players[s.on_roll]} to play` : s.phase;
  parts.push(el("span", { class: "turn-text" }, turn));
  if (s.dice.length) parts.push(el("span", { class: "dice" }, `dice ${s.dice.join("-")}`));
  return parts;
}

/** The board's tile, made (in its place: verified boards first, by name) if new. */
function tile(name, board) {
  let entry = views.get(name);
  if (entry) return entry;
  const node = el("article", {
    class: "club-table", "data-board": name, "data-verified": String(board.verified), tabindex: "0", role: "button",
  });
  const title = el("h2");
  title.append(el("span", { class: "club-name" }, name), el("span", { class: "club-status" }));
  if (!board.verified) title.append(el("span", { class: "club-trust" }, "unverified"));
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  node.append(title, el("div", { class: "club-facts" }), svg);
  node.addEventListener("click", () => follow(name));
  node.addEventListener("keydown", (e) => { if (e.key === "Enter") follow(name); });
  entry = { node, view: new BoardView(svg) };
  views.set(name, entry);
  const grid = document.getElementById(board.verified ? "verified" : "unverified");
  const after = [...grid.children].find((n) => n.dataset.board > name);
  grid.insertBefore(node, after || null);
  document.getElementById("unverified-title").hidden = !document.getElementById("unverified").children.length;
  return entry;
}

/** Draw one board again; its bad data marks its own tile and stops nothing else. */
function showBoard(name) {
  const board = boards.get(name);
  const entry = tile(name, board);
  try {
    const status = board.status === "online" || board.status === "gone" ? board.status : "unknown";
    entry.node.dataset.status = status;
    delete entry.node.dataset.trouble;
    entry.node.querySelector(".club-status").textContent = status;
    entry.node.querySelector(".club-facts").replaceChildren(...facts(board));
    if (board.state) entry.view.render(drawable(board.state));
  } catch (error) {
    entry.node.dataset.trouble = "bad data";
    entry.node.querySelector(".club-facts").replaceChildren(el("span", { class: "trouble" }, "this board's data cannot be shown"));
    console.warn(`club: ${name} cannot be drawn`, error);
  }
  if (full === name) showFull();
}

function logLine(e, variant) {
  try {
    return el("li", { "data-type": text(e.type, 40) }, eventText(e, variant));
  } catch {
    return el("li", { "data-type": "unreadable" }, "(an event that cannot be shown)");
  }
}

function showFull() {
  const board = boards.get(full);
  const section = document.getElementById("full");
  section.dataset.status = board.status || "unknown";
  document.getElementById("full-name").replaceChildren(
    el("span", {}, full), " ", el("span", { class: "club-status" }, board.status || "unknown"));
  try {
    document.getElementById("full-facts").replaceChildren(...facts(board));
    if (board.state) fullView.render(drawable(board.state));
  } catch (error) {
    document.getElementById("full-facts").replaceChildren(el("span", { class: "trouble" }, "this board's data cannot be shown"));
    console.warn(`club: ${full} cannot be drawn`, error);
  }
  const variant = board.state ? board.state.variant : "portes";
  const lines = board.log.filter((e) => !UNSAID.has(e.type)).map((e) => logLine(e, variant));
  const list = document.getElementById("full-log");
  list.replaceChildren(...lines);
  list.scrollTop = list.scrollHeight;
}

function follow(name) {
  full = name;
  document.getElementById("grid").hidden = true;
  document.getElementById("full").hidden = false;
  if (!fullView) fullView = new BoardView(document.getElementById("full-board"));
  showFull();
}

function back() {
  full = null;
  document.getElementById("full").hidden = true;
  document.getElementById("grid").hidden = false;
}

// ---- what comes from the server -----------------------------------------------------

function blank(verified) {
  return { status: null, state: null, at: null, seq: 0, log: [], verified: verified === true };
}

/** A board of /api/club, read as the page keeps it. */
function known(entry) {
  const e = object(entry);
  return {
    status: e.status, state: shownState(e.state), at: Number(e.at) || null,
    seq: whole(e.seq, 0, Number.MAX_SAFE_INTEGER), log: shownLog(e.log), verified: e.verified === true,
  };
}

/** One message of the stream applied as the server applied it. */
function apply(message) {
  const name = message && message.board;
  if (typeof name !== "string" || (!boards.has(name) && boards.size >= MAX_BOARDS)) return;
  const board = boards.get(name) || blank(message.verified);
  boards.set(name, board);
  const p = object(message.payload);
  if (message.kind === "status") board.status = p.status;
  else if (message.kind === "state") {
    board.state = shownState(p.state); board.at = board.stateAt = Number(p.at) || null;
    board.status = board.status || "online";
  } else if (message.kind === "event") {
    const event = object(p.event);
    if (event.type === "new_match") board.log = [];
    board.log.push(event);
    if (board.log.length > LOG_BOUND) board.log.shift();
    board.seq = whole(p.seq, 0, Number.MAX_SAFE_INTEGER); board.at = Number(p.at) || null;
    if (event.type === "match_over") setTimeout(loadMatches, 500);
  }
  showBoard(name);
}

function applySafely(message) {
  try {
    apply(message);
  } catch (error) {
    console.warn("club: a message that cannot be shown", error);
  }
}

async function loadClub() {
  const answer = await fetch("/api/club", { cache: "no-store" });
  const club = await answer.json();
  document.getElementById("club-name").textContent = text(club.club, 32);
  for (const [name, entry] of Object.entries(object(club.boards)).slice(0, MAX_BOARDS)) {
    try {
      boards.set(name, known(entry));
      showBoard(name);
    } catch (error) {
      console.warn(`club: ${name} cannot be shown`, error);
    }
  }
  const early = pending || [];
  pending = null;
  for (const m of early) {
    const had = boards.get(m.board);
    if (m.kind === "event" && had && object(m.payload).seq <= had.seq) continue;  // in the log already
    applySafely(m);
  }
}

async function loadMatches() {
  const answer = await fetch("/api/matches", { cache: "no-store" });
  const matches = await answer.json();
  const list = document.getElementById("matches");
  if (!Array.isArray(matches) || !matches.length) return;
  list.replaceChildren(...matches.map((m) => {
    const item = el("li");
    const link = el("a", { href: `/api/matches/${encodeURIComponent(m.name)}`, download: m.name }, m.name);
    const players = object(m.players);
    const who = m.players ? `${text(players.white, NAME_CHARS)} – ${text(players.black, NAME_CHARS)}` : "";
    const score = Array.isArray(m.score) ? m.score.join("-") : "";
    item.append(link, ` ${m.board}: ${who} ${score} (${m.length} pt)`);
    return item;
  }));
}

function connect() {
  const conn = document.getElementById("conn");
  const source = new EventSource("/api/stream");
  source.onopen = () => {
    conn.dataset.state = "online"; conn.textContent = "live";
    pending = [];
    loadClub().catch(() => { pending = null; });
    loadMatches().catch(() => {});
  };
  source.onerror = () => { conn.dataset.state = "offline"; conn.textContent = "reconnecting…"; };
  source.onmessage = (e) => {
    let message;
    try {
      message = JSON.parse(e.data);
    } catch {
      return;
    }
    if (pending) pending.push(message);
    else applySafely(message);
  };
}

document.getElementById("back").addEventListener("click", back);
connect();
setInterval(tickClocks, CLOCK_MS);
