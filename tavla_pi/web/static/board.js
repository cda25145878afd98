// The board as SVG: points, bar, trays, checkers, notes and the LEDs.
//
// Checkers are drawn where they are: on the simulated board, where the modelled
// checkers really lie (`physical` of /api/state); on the real board, as the sensors
// read them.  Differences show on the checkers themselves: a dashed checker is on the
// board but not (yet) seen by the sensors, a hollow one is seen but not there; a
// "⚙ n" note marks where the rules engine holds another count than the board shows.
// The LEDs are the daemon's pixel frame, each drawn where the board has it.
// Plakoto: a pinned checker (/api/state `pinned`) lies under its pinner, ringed, and
// its point is marked closed to the pinned side.

import * as G from "./geometry.js";
import { t } from "./i18n.js";
import { location } from "./words.js";

const NS = "http://www.w3.org/2000/svg";
const COLORS = ["white", "black"];
const POINTS = Array.from({ length: 24 }, (_, i) => String(i + 1));
const SATURATED = 15;

function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (parent) parent.appendChild(node);
  return node;
}

function text(x, y, content, cls, parent) {
  const node = el("text", { x, y, class: cls }, parent);
  node.textContent = content;
  return node;
}

/** The board drawing inside `svg`; render(state) redraws, showLeds(frame) relights. */
export class BoardView {
  constructor(svg) {
    this.svg = svg;
    svg.setAttribute("viewBox", `0 0 ${G.W} ${G.H}`);
    svg.replaceChildren();
    this.layers = {};
    this._defs();
    for (const name of ["base", "tints", "checkers", "notes", "leds", "drag"]) {
      this.layers[name] = el("g", { class: `layer-${name}` }, svg);
    }
    this._drawBase();
    this.ledNodes = [];
    this.features = null;
    this.tints = new Map();
    this.brightness = 1;
  }

  _defs() {
    const defs = el("defs", {}, this.svg);
    const glow = el("filter", { id: "glow", x: "-100%", y: "-100%", width: "300%", height: "300%" }, defs);
    el("feGaussianBlur", { stdDeviation: "3", result: "b" }, glow);
    const merge = el("feMerge", {}, glow);
    el("feMergeNode", { in: "b" }, merge);
    el("feMergeNode", { in: "SourceGraphic" }, merge);
  }

  _drawBase() {
    const g = this.layers.base;
    el("rect", { x: 0, y: 0, width: G.W, height: G.H, rx: 10, class: "frame" }, g);
    el("rect", {
      x: G.FIELD.left, y: G.FIELD.top, width: G.FIELD.right - G.FIELD.left,
      height: G.FIELD.bottom - G.FIELD.top, class: "field",
    }, g);
    for (const p of POINTS) {
      const n = Number(p);
      el("polygon", {
        points: G.pointPolygon(n), class: `point ${n % 2 ? "odd" : "even"}`, "data-loc": p,
      }, g);
      const [x, y] = G.numberXY(n);
      text(x, y, p, "point-number", g);
    }
    el("rect", {
      x: G.BAR.left, y: G.FIELD.top, width: G.BAR.right - G.BAR.left,
      height: G.FIELD.bottom - G.FIELD.top, class: "bar", "data-loc": "bar",
    }, g);
    for (const c of COLORS) {
      const r = G.trayRect(c);
      el("rect", { x: r.x, y: r.y, width: r.w, height: r.h, rx: 4, class: "tray", "data-loc": "off", "data-color": c }, g);
      for (const die of [0, 1]) {
        const [x, y] = G.dieXY(c, die);
        el("rect", { x: x - 19, y: y - 19, width: 38, height: 38, rx: 6, class: "die-face" }, g);
      }
    }
    G.CUBE_LABELS.forEach((v) => {
      const [x, y] = G.ledXY(`cube.${v}`);
      text(x - 12, y + 3.5, String(v), "cube-label", g);
    });
  }

  /** Redraw everything that depends on the state (not the LEDs: see showLeds). */
  render(state) {
    this.brightness = state.led_brightness || 1;
    if (!this.features || this.features.join() !== (state.led_features || []).join()) {
      this._buildLeds(state.led_features || []);
    }
    this._drawCheckers(state);
    this._drawNotes(state);
    this._markFixes(state.fix || []);
    this._markClosed(state.pinned || {});
    this._labelPlaces(state);
  }

  /** The places a keyboard moves between, in order: points 1..24, the bar, the trays. */
  places() {
    return [...this.layers.base.querySelectorAll("polygon.point, rect.bar, rect.tray")];
  }

  /** Each place focusable, named with what lies there ("point 8: 3 white"). */
  _labelPlaces(state) {
    for (const node of this.places()) {
      const loc = node.dataset.loc;
      const held = COLORS.map((c) => [c, loc === "off" && node.dataset.color !== c ? 0 : placeCount(state, c, loc)])
        .filter(([, n]) => n > 0)
        .map(([c, n]) => `${n} ${t(n === 1 ? `c_${c}` : `c_${c}_many`)}`);
      const where = loc === "off" ? `${location("off")} (${t(node.dataset.color)})` : location(loc);
      node.setAttribute("tabindex", "0");
      node.setAttribute("role", "button");
      node.setAttribute("aria-label", `${where}: ${held.length ? held.join(", ") : t("place_empty")}`);
    }
  }

  // ---- checkers ----------------------------------------------------------------

  _drawCheckers(state) {
    const g = this.layers.checkers;
    g.replaceChildren();
    const seen = (c, loc) => (state.sensed && state.sensed[c] && state.sensed[c][loc]) || [0, 0];
    for (const p of POINTS) {
      const pockets = state.physical
        ? state.physical.points[p] || []
        : sensedPockets(state.sensed, p, G.SLOTS_PER_POINT, null, (state.pinned || {})[p]);
      this._drawPlace(g, p, null, pockets, seen, (slot) => G.slotXY(Number(p), slot), state);
    }
    for (const c of COLORS) {
      const pockets = state.physical
        ? state.physical.bar[c] || []
        : sensedPockets(state.sensed, "bar", G.BAR_SLOTS, c);
      this._drawPlace(g, "bar", c, pockets, seen, (slot) => G.barSlotXY(c, slot), state);
      const off = state.physical ? state.physical.off[c] : (state.board[c] || {}).off || 0;
      this._drawTray(g, c, off);
      if (state.physical && state.physical.hand[c]) this._drawHand(g, c, state.physical.hand[c]);
    }
  }

  _drawPlace(g, loc, half, pockets, seen, xy, state) {
    // how many of each colour the drawing shows here, and what the sensors read
    const counts = { white: 0, black: 0 };
    pockets.forEach((stack) => stack.forEach((c) => { counts[c] += 1; }));
    const unseen = {};
    const phantom = {};
    const compare = state.physical && state.sensed; // no reading yet (just started): no marks
    for (const c of COLORS) {
      if (half && c !== half) continue;
      const [lo, hi] = seen(c, loc);
      unseen[c] = compare ? Math.max(0, counts[c] - hi) : 0;
      phantom[c] = compare ? Math.max(0, lo - counts[c]) : 0;
    }
    // unseen checkers: the topmost ones of that colour, counted from the last pocket
    const order = [];
    pockets.forEach((stack, slot) => stack.forEach((c, layer) => order.push({ c, slot, layer, size: stack.length })));
    for (let i = order.length - 1; i >= 0; i--) {
      const o = order[i];
      if (unseen[o.c] > 0) { o.unseen = true; unseen[o.c] -= 1; }
    }
    const pinnedOne = half ? null : pinnedChecker(order, (state.pinned || {})[loc]);
    for (const o of order) {
      const [x, y] = xy(o.slot);
      const shift = o.layer * 4;
      const disc = el("circle", {
        cx: x + shift, cy: y - shift, r: G.CHECKER_R,
        class: `checker ${o.c}${o.unseen ? " unseen" : ""}`, "data-loc": loc, "data-color": o.c,
      }, g);
      const mine = pockets[o.slot].filter((c) => c === o.c).length; // a pin's pinned one is not
      if (o.layer === o.size - 1 && mine > 1) {
        text(x + shift, y - shift + 4, String(mine), `stack-count ${o.c}`, g).dataset.loc = loc;
      }
      disc.dataset.slot = String(o.slot);
      if (o === pinnedOne) this._ringPinned(g, disc, x + shift, y - shift, loc, o.c);
    }
    if (!state.physical) this._markSaturated(g, loc, half, state, xy);
    // phantoms: read by the sensors, not on the board; drawn in the next free pockets
    let free = pockets.findIndex((stack) => stack.length === 0);
    for (const c of COLORS) {
      for (let k = 0; k < (phantom[c] || 0); k++) {
        const slot = free >= 0 ? free : pockets.length - 1;
        const [x, y] = xy(Math.max(0, slot));
        el("circle", {
          cx: x, cy: y, r: G.CHECKER_R - 2, class: `checker phantom ${c}`, "data-loc": loc, "data-color": c,
        }, g);
        free = free >= 0 && free + 1 < pockets.length ? free + 1 : -1;
      }
    }
  }

  /** The pinned checker: a ring in the pinner's colour round it, and a title saying so. */
  _ringPinned(g, disc, x, y, loc, c) {
    disc.classList.add("pinned");
    const ring = el("circle", {
      cx: x, cy: y, r: G.CHECKER_R + 3, class: `pin-ring ${other(c)}`, "data-loc": loc, "data-color": c,
    }, g);
    const title = el("title", {}, ring);
    title.textContent = t("pinned_title", { color: t(`c_${c}`), color_many: t(`c_${c}_many`) });
  }

  _markSaturated(g, loc, half, state, xy) {
    for (const c of COLORS) {
      if (half && c !== half) continue;
      const read = state.sensed && state.sensed[c] && state.sensed[c][loc];
      if (!read || read[1] === read[0]) continue;
      const [x, y] = xy(0);
      const label = read[1] >= SATURATED ? `≥${read[0]}` : `${read[0]}–${read[1]}`;
      text(x, y + 4, label, `stack-count ${c}`, g);
    }
  }

  _drawTray(g, c, n) {
    for (let k = 0; k < n; k++) {
      const [x, y] = G.traySliceXY(c, k);
      el("rect", {
        x, y, width: G.TRAY.w - 8, height: G.TRAY.slice - 2, rx: 3,
        class: `tray-checker ${c}`, "data-loc": "off", "data-color": c,
      }, g);
    }
  }

  _drawHand(g, c, n) {
    const y = c === "white" ? G.CENTRE_Y + 7 : G.CENTRE_Y - 7;
    const x = G.TRAY.x + (c === "white" ? 12 : -12);
    el("circle", { cx: x, cy: y, r: 11, class: `checker hand ${c}`, "data-loc": "hand", "data-color": c }, g);
    text(x, y + 4, String(n), `stack-count ${c}`, g);
  }

  // ---- notes: where the rules engine holds another count -----------------------

  _drawNotes(state) {
    const g = this.layers.notes;
    g.replaceChildren();
    // while the board is set up the engine holds no game yet (its board is the last one,
    // or Portes' start in any game): the fix list and the lit points say what goes where
    if (state.phase === "setup") return;
    for (const loc of [...POINTS, "bar"]) {
      let row = 0;
      for (const c of COLORS) {
        const engine = (state.board[c] || {})[loc] || 0;
        const shown = shownCount(state, c, loc);
        if (engine === shown) continue;
        const [x, y] = loc === "bar"
          ? [G.BAR.x, G.CENTRE_Y + (c === "white" ? 8 : -8)]
          : G.tipXY(Number(loc));
        const dy = loc === "bar" ? 0 : row * (Number(loc) >= 13 ? -15 : 15);
        const note = el("g", { class: `engine-note ${c}`, "data-loc": loc, "data-color": c, "data-engine": engine }, g);
        el("rect", { x: x - 17, y: y + dy - 7, width: 34, height: 14, rx: 7 }, note);
        text(x, y + dy + 4, `⚙${engine}`, "", note);
        row += 1;
      }
    }
  }

  _markFixes(fixes) {
    for (const node of this.layers.base.querySelectorAll(".fix-add, .fix-remove")) {
      node.classList.remove("fix-add", "fix-remove");
    }
    for (const f of fixes) {
      const cls = f.add !== undefined ? "fix-add" : "fix-remove";
      const sel = f.at === "off" ? `.tray[data-color="${f.color}"]` : `[data-loc="${f.at}"]:not(.tray)`;
      for (const node of this.layers.base.querySelectorAll(sel)) node.classList.add(cls);
    }
  }

  /** Points closed by a pin: marked on the point itself, with the pinned colour. */
  _markClosed(pinned) {
    for (const node of this.layers.base.querySelectorAll("polygon.point.closed")) {
      node.classList.remove("closed");
      delete node.dataset.closedTo;
    }
    for (const [loc, c] of Object.entries(pinned)) {
      const node = this.layers.base.querySelector(`polygon.point[data-loc="${loc}"]`);
      if (!node) continue;
      node.classList.add("closed");
      node.dataset.closedTo = c;
    }
  }

  // ---- the LEDs -----------------------------------------------------------------

  _buildLeds(features) {
    const g = this.layers.leds;
    g.replaceChildren();
    this.features = features.slice();
    this.ledNodes = features.map((name, i) => {
      if (!name) return null;
      const xy = G.ledXY(name);
      if (!xy) return null;
      const r = name.startsWith("die.") ? G.PIP_R : G.LED_R;
      return el("circle", { cx: xy[0], cy: xy[1], r, class: "led", "data-feature": name, "data-index": i }, g);
    });
    this._buildTints(features);
  }

  _buildTints(features) {
    const g = this.layers.tints;
    g.replaceChildren();
    this.tints.clear();
    for (const name of features) {
      if (!name) continue;
      const [kind, which] = name.split(".");
      let node = null;
      if (kind === "point") node = el("polygon", { points: G.pointPolygon(Number(which)) }, g);
      else if (kind === "bar") {
        const top = which === "black";
        node = el("rect", {
          x: G.BAR.left, y: top ? G.FIELD.top : G.CENTRE_Y, width: G.BAR.right - G.BAR.left,
          height: G.CENTRE_Y - G.FIELD.top,
        }, g);
      } else if (kind === "tray") {
        const r = G.trayRect(which);
        node = el("rect", { x: r.x, y: r.y, width: r.w, height: r.h, rx: 4 }, g);
      }
      if (node) {
        node.setAttribute("class", "tint");
        node.setAttribute("fill", "none");
        this.tints.set(name, node);
      }
    }
  }

  /** Light the LEDs: `frame` is /api/state `leds`, "#rrggbb" in chain order. */
  showLeds(frame) {
    frame.forEach((hex, i) => {
      const node = this.ledNodes[i];
      if (!node) return;
      const lit = hex !== "#000000";
      node.setAttribute("fill", lit ? seen(hex, this.brightness) : "#141210");
      node.dataset.color = hex;
      node.classList.toggle("lit", lit);
      const tint = this.tints.get(node.dataset.feature);
      if (tint) {
        tint.setAttribute("fill", lit ? seen(hex, this.brightness) : "none");
        tint.classList.toggle("lit", lit);
      }
    });
  }

  // ---- the checker in the hand, following the pointer -------------------------------

  startDrag(color, x, y) {
    this.layers.drag.replaceChildren();
    this.dragNode = el("circle", { cx: x, cy: y, r: G.CHECKER_R + 1, class: `checker ${color} dragging` }, this.layers.drag);
  }

  moveDrag(x, y) {
    if (!this.dragNode) return;
    this.dragNode.setAttribute("cx", x);
    this.dragNode.setAttribute("cy", y);
  }

  endDrag() {
    this.layers.drag.replaceChildren();
    this.dragNode = null;
  }

  /** A pointer event's position in board millimetres. */
  boardXY(event) {
    const pt = this.svg.createSVGPoint();
    pt.x = event.clientX;
    pt.y = event.clientY;
    const p = pt.matrixTransform(this.svg.getScreenCTM().inverse());
    return [p.x, p.y];
  }
}

/** A pixel as the eye sees the LED: the frame's colour without the brightness setting's dimming. */
function seen(hex, brightness) {
  const gain = brightness > 0 ? 1 / brightness : 1;
  const rgb = [1, 3, 5].map((i) => Math.min(255, Math.round(parseInt(hex.slice(i, i + 2), 16) * gain)));
  return `rgb(${rgb.join(",")})`;
}

/** How many checkers of colour `c` are at `loc` as drawn (the tray: borne off). */
function placeCount(state, c, loc) {
  if (loc !== "off") return shownCount(state, c, loc);
  return state.physical ? state.physical.off[c] : (state.board[c] || {}).off || 0;
}

function shownCount(state, c, loc) {
  if (state.physical) {
    const pockets = loc === "bar" ? state.physical.bar[c] : state.physical.points[loc] || [];
    return pockets.reduce((n, stack) => n + stack.filter((k) => k === c).length, 0);
  }
  const read = state.sensed && state.sensed[c] && state.sensed[c][loc];
  return read ? read[0] : 0;
}

/** Pockets as the sensors read them: the low count of each colour, one per pocket, then
 * stacked.  Where a checker is pinned (`pinned`: its colour) it lies first, in the first
 * pocket, and the pinner's checkers start again from that pocket: on top of it. */
function sensedPockets(sensed, loc, slots, only = null, pinned = null) {
  const pockets = Array.from({ length: slots }, () => []);
  if (!sensed) return pockets;
  let k = 0;
  const colours = pinned ? [pinned, other(pinned)] : COLORS;
  for (const c of colours) {
    if (only && c !== only) continue;
    if (pinned && c !== pinned) k = 0;
    const read = sensed[c] && sensed[c][loc];
    for (let i = 0; read && i < read[0]; i++, k++) pockets[k % slots].push(c);
  }
  return pockets;
}

/** Of a point's checkers (bottom first per pocket), the pinned one: of the pinned colour,
 * with a checker on top of it where one is, else the first of that colour. */
function pinnedChecker(order, pinned) {
  if (!pinned) return null;
  const mine = order.filter((o) => o.c === pinned);
  return mine.find((o) => o.layer < o.size - 1) || mine[0] || null;
}

function other(color) {
  return color === "white" ? "black" : "white";
}
