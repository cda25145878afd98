// The club page: every board of the club live (GET /api/club, then GET /api/stream).
//
// Each board is drawn small with the board page's own drawing (board.js), its players,
// score, match length, cube, clock and whose turn it is; a board whose last will came
// ("gone") is marked so.  A click shows it full size with its log; "All boards" goes back.

import { BoardView } from "./board.js";
import { clockFigures, eventText, UNSAID } from "./words.js";

const CLOCK_MS = 1000;      // how often the running clocks are drawn again

const boards = new Map();   // name -> { status, state, at, seq, log }
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

/** The state as board.js draws it: the rules' board as if the sensors read it. */
function drawable(state) {
  const sensed = { faults: [], unknown: {} };
  for (const c of ["white", "black"]) {
    sensed[c] = {};
    for (const [loc, n] of Object.entries((state.board || {})[c] || {})) {
      if (loc !== "off") sensed[c][loc] = [n, n];
    }
  }
  return { ...state, sensed, physical: null, led_features: [], fix: [] };
}

function seconds(s) {
  const t = Math.max(0, Math.ceil(s || 0));
  return `${Math.floor(t / 60)}:${String(t % 60).padStart(2, "0")}`;
}

/** A board's clock as it stands now: the state's figures counted on since the board
 * sent them (the delay first, then the reserve; a board gone stands still). */
function clockLine(board) {
  const s = board.state;
  const players = s.players || { white: "White", black: "Black" };
  const since = board.status === "gone" ? 0 : Date.now() - (board.stateAt ?? board.at ?? Date.now());
  const { reserve } = clockFigures(s.clock, since);
  const flag = s.clock.flag ? ` flag: ${players[s.clock.flag]}` : "";
  return `clock ${seconds(reserve.white)} / ${seconds(reserve.black)}${flag}`;
}

/** Draw every running clock again (grid and full view). */
function tickClocks() {
  for (const [name, board] of boards) {
    if (!board.state || !board.state.clock || !board.state.clock.running) continue;
    const spans = [views.get(name)?.node.querySelector(".clock"),
      full === name ? document.querySelector("#full-facts .clock") : null];
    for (const span of spans) if (span) span.textContent = clockLine(board);
  }
}

/** The facts line of a board: players, score, length, cube, clock, turn. */
function facts(board) {
  const s = board.state || {};
  const players = s.players || { white: "White", black: "Black" };
  const score = s.score || [0, 0];
  const parts = [];
  for (const [i, c] of ["white", "black"].entries()) {
    const span = el("span", { class: `player ${c}`, "data-color": c }, `${players[c]} ${score[i]}`);
    if (s.on_roll === c && !s.winner) span.classList.add("turn");
    if (s.clock && s.clock.running === c) span.classList.add("running");
    parts.push(span);
  }
  parts.push(el("span", { class: "length" }, s.match_length ? `${s.match_length} pt match` : "money game"));
  if (s.cube) parts.push(el("span", { class: "cube" }, `cube ${s.cube.value}${s.cube.owner ? ` (${players[s.cube.owner]})` : ""}`));
  if (s.clock) parts.push(el("span", { class: "clock" }, clockLine(board)));
  const turn = s.winner ? `${players[s.winner]} wins` : s.on_roll ? `${players[s.on_roll]} to play` : (s.phase || "");
  parts.push(el("span", { class: "turn-text" }, turn));
  if (s.dice && s.dice.length) parts.push(el("span", { class: "dice" }, `dice ${s.dice.join("-")}`));
  return parts;
}

function showBoard(name) {
  const board = boards.get(name);
  let entry = views.get(name);
  if (!entry) {
    const node = el("article", { class: "club-table", "data-board": name, tabindex: "0", role: "button" });
    const title = el("h2");
    title.append(el("span", { class: "club-name" }, name), el("span", { class: "club-status" }));
    const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
    node.append(title, el("div", { class: "club-facts" }), svg);
    node.addEventListener("click", () => follow(name));
    node.addEventListener("keydown", (e) => { if (e.key === "Enter") follow(name); });
    entry = { node, view: new BoardView(svg) };
    views.set(name, entry);
    const grid = document.getElementById("grid");
    const after = [...grid.children].find((n) => n.dataset.board > name);
    grid.insertBefore(node, after || null);
  }
  const status = board.status || "unknown";
  entry.node.dataset.status = status;
  entry.node.querySelector(".club-status").textContent = status;
  entry.node.querySelector(".club-facts").replaceChildren(...facts(board));
  if (board.state && board.state.board) entry.view.render(drawable(board.state));
  if (full === name) showFull();
}

function logLine(e, variant) {
  return el("li", { "data-type": e.type }, eventText(e, variant));
}

function showFull() {
  const board = boards.get(full);
  const section = document.getElementById("full");
  section.dataset.status = board.status || "unknown";
  document.getElementById("full-name").replaceChildren(
    el("span", {}, full), " ", el("span", { class: "club-status" }, board.status || "unknown"));
  document.getElementById("full-facts").replaceChildren(...facts(board));
  if (board.state && board.state.board) fullView.render(drawable(board.state));
  const variant = (board.state || {}).variant || "portes";
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

function blank() {
  return { status: null, state: null, at: null, seq: 0, log: [] };
}

/** One message of the stream applied as the server applied it. */
function apply(message) {
  const board = boards.get(message.board) || blank();
  boards.set(message.board, board);
  const p = message.payload;
  if (message.kind === "status") board.status = p.status;
  else if (message.kind === "state") {
    board.state = p.state; board.at = board.stateAt = p.at;
    board.status = board.status || "online";
  } else {
    if (p.event.type === "new_match") board.log = [];
    board.log.push(p.event);
    if (board.log.length > 500) board.log.shift();
    board.seq = p.seq; board.at = p.at;
    if (p.event.type === "match_over") setTimeout(loadMatches, 500);
  }
  showBoard(message.board);
}

async function loadClub() {
  const answer = await fetch("/api/club", { cache: "no-store" });
  const club = await answer.json();
  document.getElementById("club-name").textContent = club.club;
  for (const [name, board] of Object.entries(club.boards)) {
    boards.set(name, board);
    showBoard(name);
  }
  const early = pending || [];
  pending = null;
  for (const m of early) {
    const known = boards.get(m.board);
    if (m.kind === "event" && known && m.payload.seq <= known.seq) continue;  // in the log already
    apply(m);
  }
}

async function loadMatches() {
  const answer = await fetch("/api/matches", { cache: "no-store" });
  const matches = await answer.json();
  const list = document.getElementById("matches");
  if (!matches.length) return;
  list.replaceChildren(...matches.map((m) => {
    const item = el("li");
    const link = el("a", { href: `/api/matches/${encodeURIComponent(m.name)}`, download: m.name }, m.name);
    const who = m.players ? `${m.players.white} – ${m.players.black}` : "";
    item.append(link, ` ${m.board}: ${who} ${m.score.join("-")} (${m.length} pt)`);
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
    const message = JSON.parse(e.data);
    if (pending) pending.push(message);
    else apply(message);
  };
}

document.getElementById("back").addEventListener("click", back);
connect();
setInterval(tickClocks, CLOCK_MS);
