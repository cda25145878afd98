// GNU Backgammon's review of a finished game (a `review` event): each side's figures, then
// the most costly decisions, each position drawn as a small board by the page's own
// drawing (BoardView).  A small board is a picture: nothing in it is a place to drop on.

import { BoardView } from "./board.js";
import * as G from "./geometry.js";
import { t } from "./i18n.js";
import { player } from "./words.js";

const NS = "http://www.w3.org/2000/svg";
const COLORS = ["white", "black"];
const RATINGS = {
  "Awful!": "rating_awful", Beginner: "rating_beginner", "Casual player": "rating_casual",
  Intermediate: "rating_intermediate", Advanced: "rating_advanced", Expert: "rating_expert",
  "World class": "rating_world_class", Supernatural: "rating_supernatural",
};
const ACTIONS = {
  double: "act_double", "no double": "act_no_double", take: "act_take", drop: "act_drop",
};

/** Show `review` (a review event, or null: hide the panel) in `section`. */
export function renderReview(section, review) {
  section.hidden = !review;
  section.replaceChildren();
  if (!review) return;
  section.dataset.game = review.game ?? "match";
  const title = document.createElement("h2");
  title.textContent = review.game ? t("review_title", { n: review.game }) : t("review_title_match");
  section.append(title, figures(review), costly(review.costly || []));
}

const ROWS = [
  ["review_error_rate", (p) => p.error_rate.toFixed(1)],
  ["review_rating", (p) => (p.rating ? t(RATINGS[p.rating] || p.rating) : t("nobody"))],
  ["review_chequer", (p) => errors(p.chequer)],
  ["review_cube", (p) => errors(p.cube)],
  ["review_luck", (p) => signed(p.luck, 3)],
  ["review_luck_rate", (p) => signed(p.luck_rate, 1)],
];

function figures(review) {
  const table = document.createElement("table");
  table.className = "review-figures";
  table.append(row("th", "", COLORS.map((c) => player(c))));
  for (const [key, figure] of ROWS) {
    const tr = row("td", t(key), COLORS.map((c) => figure(review[c])));
    tr.dataset.row = key;
    table.append(tr);
  }
  return table;
}

function row(cell, name, values) {
  const tr = document.createElement("tr");
  const head = document.createElement("th");
  head.textContent = name;
  tr.append(head, ...values.map((value, i) => {
    const node = document.createElement(cell);
    node.textContent = value;
    node.dataset.color = COLORS[i];
    return node;
  }));
  return tr;
}

function errors(kind) {
  return t("review_errors", { count: kind.count, decisions: kind.decisions, errors: kind.errors.toFixed(3) });
}

function signed(value, digits) {
  return `${value >= 0 ? "+" : "−"}${Math.abs(value).toFixed(digits)}`;
}

// ---- the costly decisions ---------------------------------------------------------

function costly(decisions) {
  const box = document.createElement("div");
  const heading = document.createElement("h2");
  heading.textContent = decisions.length ? t("review_costly") : t("review_none");
  const list = document.createElement("ol");
  list.className = "review-costly";
  list.append(...decisions.map(decision));
  box.append(heading, list);
  return box;
}

function decision(d) {
  const li = document.createElement("li");
  li.dataset.kind = d.kind;
  li.dataset.player = d.player;
  const svg = document.createElementNS(NS, "svg");
  svg.setAttribute("class", "review-board");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", `${d.position_id} ${d.match_id}`);
  new BoardView(svg).render(picture(d.board));
  for (const node of svg.querySelectorAll("[data-loc]")) {
    node.removeAttribute("data-loc");
    node.removeAttribute("data-color");
  }
  const caption = document.createElement("p");
  caption.className = "review-caption";
  caption.textContent = words(d);
  const ids = document.createElement("p");
  ids.className = "ids";
  ids.textContent = `${d.position_id} · ${d.match_id}`;
  li.append(svg, caption, ids);
  return li;
}

function words(d) {
  const action = (a) => (ACTIONS[a] ? t(ACTIONS[a]) : a);
  const fields = {
    n: d.game, player: player(d.player), loss: d.loss.toFixed(3),
    played: d.kind === "cube" ? action(d.played) : d.played,
    best: d.kind === "cube" ? action(d.best) : d.best,
    dice: d.dice ? d.dice.join("-") : "",
  };
  return t(d.kind === "cube" ? "review_cube_decision" : "review_move", fields);
}

/** A state that BoardView draws as `board` (the board() form) and nothing else. */
function picture(board) {
  const physical = { points: {}, bar: {}, off: {}, hand: {} };
  for (let n = 1; n <= 24; n++) physical.points[String(n)] = pockets(board, String(n), G.SLOTS_PER_POINT);
  for (const c of COLORS) {
    physical.bar[c] = pockets(board, "bar", G.BAR_SLOTS, c);
    physical.off[c] = (board[c] || {}).off || 0;
    physical.hand[c] = 0;
  }
  return { physical, sensed: null, board, led_features: [], fix: [], led_brightness: 1 };
}

function pockets(board, loc, slots, only = null) {
  const out = Array.from({ length: slots }, () => []);
  let k = 0;
  for (const c of COLORS) {
    if (only && c !== only) continue;
    for (let i = 0; i < ((board[c] || {})[loc] || 0); i++, k++) out[k % slots].push(c);
  }
  return out;
}
