// The page: follows the daemon's events, refetches the state on each one, and
// draws the board, the LEDs, the panel and the event log.

import { BoardView } from "./board.js";
import { enableButtons, enableDrag, enableKeyboard, enableSimPanel } from "./controls.js";
import {
  LANGUAGES, language, onLanguage, setLanguage, startLanguage, t, translatePage,
} from "./i18n.js";
import { Link } from "./link.js";
import { OnlinePanel } from "./online.js";
import { renderReview } from "./review.js";
import { SettingsPanel } from "./settings.js";
import * as words from "./words.js";

const $ = (id) => document.getElementById(id);
const MAX_LOG = 300;
const LED_REFRESH_MS = 150;
const CLOCK_MS = 250; // how often a running clock is drawn again
const POLL_MS = 2000; // catches changes that neither an event nor the light announce
const ANNOUNCED = new Set([
  "rolled", "played", "engine_play", "remote_play", "opening_roll", "no_legal_move", "double_offered",
  "double_taken", "double_dropped", "game_over", "out_of_sync",
]); // the page's own words for these, until the board's speech says them

let state = null;
let events = [];
let ledSerial = 0;
let lastFrame = null;
let noticeTimer = null;
let review = null; // the latest review event of the match, shown after its game
let spokenSeen = false; // once the board speaks, the live region says its words only
let audioFailed = false; // an audio failure is shown once

const view = new BoardView($("board"));
const link = new Link({
  event: onEvent, leds: onLeds, reset: onReset, status: onStatus, acted: () => refresh(),
});
const settings = new SettingsPanel($("settings"), link);
const online = new OnlinePanel($("online"), link);

// ---- state -------------------------------------------------------------------

let fetching = false;
let again = false;

/** Fetch /api/state and draw it; calls during a fetch coalesce into one more. */
async function refresh() {
  if (fetching) {
    again = true;
    return;
  }
  fetching = true;
  try {
    do {
      again = false;
      const serial = ledSerial;
      const s = await link.state();
      show(s, serial === ledSerial || lastFrame === null);
    } while (again);
  } catch (err) {
    const error = String(err.message || err);
    document.body.dataset.stateError = error;
    say(t("state_error", { error }), "error");
  } finally {
    fetching = false;
  }
}

let drawn = "";

let stateAt = 0; // performance.now() when the state came: the clock counts on from it

function show(s, withLeds) {
  state = s;
  stateAt = performance.now();
  if (document.body.dataset.stateError !== undefined) {
    delete document.body.dataset.stateError;
    say("");
  }
  const key = JSON.stringify({ ...s, leds: null });
  if (key !== drawn) { // redraw only what changed: most refreshes follow a blinking LED
    drawn = key;
    document.body.dataset.backend = s.backend;
    document.body.dataset.phase = s.phase;
    view.render(s);
    renderPanel();
    online.update(s.online);
  }
  if (withLeds) {
    lastFrame = s.leds;
    view.showLeds(s.leds);
  } else if (lastFrame) {
    view.showLeds(lastFrame);
  }
}

let soon = null;

/** A refresh within `ms`, however many are asked for meanwhile. */
function refreshSoon(ms) {
  if (soon === null) soon = setTimeout(() => { soon = null; refresh(); }, ms);
}

function onLeds(frame) {
  ledSerial += 1;
  lastFrame = frame;
  if (state) view.showLeds(frame);
  refreshSoon(LED_REFRESH_MS); // the light changed: so, most likely, did the board
}

// ---- events --------------------------------------------------------------------

/** The match's own events that may come between its new_match and its first game. */
const MATCH_BOUND = new Set(["remote_match", "remote_status"]);

function onEvent(event) {
  if (words.UNSAID.has(event.type)) { // a remote match's bookkeeping: not for the log
    refresh();
    return;
  }
  if (event.type === "remote_match" && events.some((e) => e.type === "remote_match" && e.peer === event.peer)) {
    refresh(); // the two boards agreed on one match id: the same match, said once
    return;
  }
  const last = events.findLast((e) => !MATCH_BOUND.has(e.type));
  if (event.type === "new_match" || (event.type === "game_started" && last && last.type !== "new_match")) {
    events = [];
  }
  events.push(event);
  if (event.type === "new_match") settings.load(); // MENU may have chosen another mode
  if (event.type === "online_status" || event.type === "new_match") online.load();
  if (events.length > MAX_LOG) events = events.slice(-MAX_LOG);
  if (event.type === "review" || event.type === "new_match") {
    review = event.type === "review" ? event : null;
    renderReview($("review"), review);
  }
  renderLog();
  announce(event);
  refresh();
}

/** The live region: a `spoken` event's words, else (while none was seen) the log line. */
function announce(event) {
  if (event.type === "spoken") {
    spokenSeen = true;
    $("announce").textContent = event.text;
    if ($("speech-audio").checked) playAudio(event.text, event.language);
  } else if (!spokenSeen && (ANNOUNCED.has(event.type) || event.type.startsWith("double_"))) {
    $("announce").textContent = words.eventText(event, "portes", false, opponentName());
  }
}

async function playAudio(text, lang) {
  try {
    const wav = await link.speechAudio(text, lang);
    const url = URL.createObjectURL(wav);
    const audio = new Audio(url);
    audio.addEventListener("ended", () => URL.revokeObjectURL(url));
    await audio.play();
  } catch (err) {
    if (audioFailed) return;
    audioFailed = true;
    $("speech-status").textContent = t("speech_failed", { error: String(err.message || err) });
  }
}

function enableSpeechButtons() {
  for (const [id, what] of [["speech-repeat", "repeat"], ["speech-position", "position"]]) {
    $(id).addEventListener("click", async () => {
      const r = await link.askSpeech(what);
      $("speech-status").textContent = r.ok ? ""
        : t("speech_failed", { error: (r.body && r.body.error) || `HTTP ${r.status}` });
    });
  }
}

function onReset() {
  events = [];
  review = null;
  renderReview($("review"), review);
  renderLog();
  refresh();
}

function onStatus(status) {
  const conn = $("conn");
  conn.dataset.state = status;
  conn.textContent = t(`conn_${status}`);
  if (status === "live") refresh();
}

/** The name of the friend's board, or of the online opponent; null for neither. */
function opponentName() {
  if (state && state.remote) return state.remote.peer;
  const match = state && state.online && state.online.match;
  return (match && match.opponent) || null;
}

function renderLog() {
  const list = $("log");
  const t0 = events.length ? events[0].t : 0;
  let variant = "portes"; // the game each event belongs to: its game_started says
  let tavli = false; // whether it is of a tavli match: its new_match says
  let peer = opponentName(); // the friend's board, or the online opponent
  const games = events.map((e) => {
    if (e.type === "new_match") [tavli, peer] = [e.variant === "tavli", e.remote || peer];
    if (e.type === "remote_match") peer = e.peer;
    if (e.type === "game_started") variant = e.variant || "portes";
    return [variant, tavli, peer];
  });
  list.replaceChildren(...events.map((e, i) => [e, games[i]]).reverse().map(([e, game]) => {
    const li = document.createElement("li");
    li.dataset.type = e.type;
    const time = document.createElement("time");
    time.textContent = clock(e.t - t0);
    const line = document.createElement("span");
    line.textContent = words.eventText(e, ...game);
    li.append(time, line);
    return li;
  }));
}

function clock(ms) {
  const s = Math.max(0, Math.floor(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

// ---- the panel -------------------------------------------------------------------

function renderPanel() {
  const s = state;
  if (!s) return;
  $("phase").textContent = words.phaseText(s);
  list($("hints"), words.hints(s));
  renderHint(s.hint);
  const turn = $("turn");
  turn.textContent = s.on_roll ? words.player(s.on_roll) : t("nobody");
  turn.dataset.color = s.on_roll || "";
  renderDice(s);
  const cube = s.cube;
  let cubeText = cube.owner
    ? t("cube_owned", { value: cube.value, owner: words.player(cube.owner) })
    : t("cube_centred", { value: cube.value });
  if (cube.offered) cubeText += ` · ${t("cube_offered", { value: cube.value * 2 })}`;
  $("cube").textContent = cubeText;
  $("cube").dataset.value = cube.value;
  $("cube").dataset.owner = cube.owner || "";
  $("cube").hidden = $("cube-term").hidden = !words.hasCube(s);
  $("resign").textContent = words.resignText(s);
  $("resign").dataset.state = s.resignation ? s.resignation.state : "";
  $("game").textContent = words.gameText(s);
  $("game").dataset.variant = s.variant || "portes";
  const [w, b] = s.score;
  $("score").textContent = s.match_length
    ? t("score_match", { w, b, n: s.match_length })
    : t("score_money", { w, b });
  $("players").textContent = words.playersText(s.players);
  renderClock();
  const fixes = s.fix || [];
  list($("fix"), fixes.length ? fixes.map(words.fixText) : [t("fix_none")]);
  $("fix").dataset.count = fixes.length;
  $("sensors").textContent = words.sensorsText(s.sensed, s.variant);
  $("ids").textContent = `${s.position_id} · ${s.match_id}`;
}

/** The match's clock, counted on since the state came (hidden without one). */
function renderClock() {
  const clock = state && state.clock;
  $("clock").hidden = $("clock-term").hidden = !clock;
  if (!clock) return;
  $("clock").textContent = words.clockText(clock, performance.now() - stateAt);
  $("clock").dataset.running = clock.running || "";
  $("clock").dataset.flag = clock.flag || "";
}

/** The hint of this turn: its five best plays with their equities, the best first. */
function renderHint(hint) {
  $("coach").hidden = !hint;
  $("coach-for").textContent = hint
    ? t("coach_for", { player: words.player(hint.player), dice: words.diceText(hint.dice) }) : "";
  $("hint-list").replaceChildren(...(hint ? hint.plays : []).map((p) => {
    const li = document.createElement("li");
    li.dataset.play = p.play;
    const play = document.createElement("span");
    play.className = "play";
    play.textContent = p.play;
    const eq = document.createElement("span");
    eq.className = "equity";
    eq.textContent = words.equity(p.equity);
    li.append(play, eq);
    return li;
  }));
}

function renderDice(s) {
  const box = $("dice");
  box.replaceChildren();
  if (!s.dice.length) {
    box.textContent = t("no_dice");
    return;
  }
  if (s.phase === "opening") {
    box.textContent = t("dice_opening", { w: s.dice[0], b: s.dice[1] });
    return;
  }
  const doubles = s.dice.length === 2 && s.dice[0] === s.dice[1];
  const values = doubles ? [s.dice[0], s.dice[0], s.dice[0], s.dice[0]] : s.dice;
  values.forEach((v, i) => {
    const die = document.createElement("span");
    die.className = "die";
    die.textContent = "⚀⚁⚂⚃⚄⚅"[v - 1];
    die.dataset.value = v;
    const used = Boolean(s.dice_used[i]);
    die.dataset.used = used;
    if (used) die.title = t("dice_used");
    box.append(die);
  });
}

function list(node, items) {
  node.replaceChildren(...items.map((text) => {
    const li = document.createElement("li");
    li.textContent = text;
    return li;
  }));
}

// ---- notices -------------------------------------------------------------------------

function say(text, kind = "info") {
  const notice = $("notice");
  notice.textContent = text;
  notice.dataset.kind = kind;
  clearTimeout(noticeTimer);
  noticeTimer = setTimeout(() => { notice.textContent = ""; }, 8000);
}

function notify(result) {
  say(t("sim_refused", { error: (result.body && result.body.error) || `HTTP ${result.status}` }), "error");
  refresh();
}

// ---- language ----------------------------------------------------------------------

function relabel() {
  translatePage();
  document.title = t("title");
  const lang = $("lang");
  lang.value = language();
  const length = $("match-length");
  const chosen = length.value || "0";
  length.replaceChildren(...[0, 1, 3, 5, 7, 9, 11].map((n) => new Option(
    n ? t("sim_points", { n }) : t("sim_money"), String(n))));
  length.value = chosen;
  const color = $("glitch-color");
  const pick = color.value || "white";
  color.replaceChildren(...["white", "black"].map((c) => new Option(t(`c_${c}`), c)));
  color.value = pick;
  onStatus($("conn").dataset.state || "connecting");
  settings.relabel();
  if (state) online.update(state.online);
  if (state) view.render(state); // the board's titles (a pin's) are words too
  renderPanel();
  renderLog();
  renderReview($("review"), review);
}

function start() {
  const lang = $("lang");
  lang.replaceChildren(...Object.entries(LANGUAGES).map(([code, name]) => new Option(name, code)));
  lang.addEventListener("change", () => {
    setLanguage(lang.value);
    // the board speaks the page's language unless its config names one
    link.saveSettings({ speech: { page_language: lang.value } }).catch(() => {});
  });
  onLanguage(relabel);
  startLanguage();
  enableDrag(view, link, () => state !== null && state.backend === "sim", notify);
  enableButtons(document, link, notify);
  enableKeyboard(view, link, () => state, notify);
  enableSpeechButtons();
  enableSimPanel(document, link, notify, (text) => say(text));
  refresh();
  settings.load();
  link.follow();
  setInterval(() => { if ($("conn").dataset.state === "live") refresh(); }, POLL_MS);
  setInterval(() => online.load(), POLL_MS); // the chat and the open matches
  setInterval(renderClock, CLOCK_MS);
}

start();
