// What a person does in the simulator: move checkers by dragging them (lift on
// pick-up, place on drop, as hands do on the board), press the five buttons
// (short presses and long ones), and the simulator's own controls (set up, new
// match, the next dice, a phantom checker).

import { locationAt, LOCATIONS } from "./geometry.js";
import { t } from "./i18n.js";

export const LONG_PRESS_MS = 1500; // tavla_pi.hal.buttons.LONG_PRESS_MS
const HOLD_MS = LONG_PRESS_MS + 100;

/** Dragging checkers on the board view; `notify(result)` reports a refused action. */
export function enableDrag(view, link, isSim, notify) {
  const svg = view.svg;
  let drag = null;
  let hover = null;

  const mark = (loc) => {
    if (hover === loc) return;
    for (const node of svg.querySelectorAll(".hover")) node.classList.remove("hover");
    hover = loc;
    if (loc === null) return;
    const sel = loc === "off" ? `.tray[data-color="${drag.color}"]` : `.layer-base [data-loc="${loc}"]`;
    for (const node of svg.querySelectorAll(sel)) node.classList.add("hover");
  };

  svg.addEventListener("pointerdown", (e) => {
    if (drag || e.button !== 0 || !isSim()) return;
    const target = e.target.closest(".checker, .tray-checker");
    if (!target || target.classList.contains("phantom") || !target.dataset.color) return;
    e.preventDefault();
    svg.setPointerCapture(e.pointerId);
    const { loc, color } = target.dataset;
    const [x, y] = view.boardXY(e);
    view.startDrag(color, x, y);
    const lifted = loc === "hand"
      ? Promise.resolve(true)
      : link.sim({ lift: loc, color }).then((r) => (r.ok || notify(r)) && r.ok);
    drag = { id: e.pointerId, from: loc, color, lifted };
    document.body.classList.add("dragging");
  });

  svg.addEventListener("pointermove", (e) => {
    if (!drag || e.pointerId !== drag.id) return;
    const [x, y] = view.boardXY(e);
    view.moveDrag(x, y);
    mark(locationAt(x, y));
  });

  const drop = (e, cancelled) => {
    if (!drag || e.pointerId !== drag.id) return;
    const d = drag;
    drag = null;
    mark(null);
    document.body.classList.remove("dragging");
    let at = cancelled ? null : locationAt(...view.boardXY(e));
    if (at === null) at = d.from === "hand" ? null : d.from; // off the board: back where it was
    d.lifted.then(async (ok) => {
      if (ok && at !== null) {
        const r = await link.sim({ place: at, color: d.color });
        if (!r.ok) notify(r);
      }
      view.endDrag();
    });
  };
  svg.addEventListener("pointerup", (e) => drop(e, false));
  svg.addEventListener("pointercancel", (e) => drop(e, true));
}

/** Playing with the keyboard: arrows move between places, Enter or Space lifts a checker
 * (of the colour on roll where it has one there, else the one there) and places the held
 * one, Escape puts it back.  The same lift and place actions as dragging. */
export function enableKeyboard(view, link, state, notify) {
  const svg = view.svg;
  let held = null;
  const focusBy = (node, step) => {
    const places = view.places();
    const i = places.indexOf(node);
    places[(i + step + places.length) % places.length].focus();
  };
  const act = async (node) => {
    const s = state();
    if (!s || s.backend !== "sim") return;
    const loc = node.dataset.loc;
    if (held) {
      const d = held;
      held = null;
      node.classList.remove("held");
      const r = await link.sim({ place: loc, color: d.color });
      if (!r.ok) notify(r);
      return;
    }
    const color = liftColor(s, loc, node.dataset.color);
    if (!color) return;
    const r = await link.sim({ lift: loc, color });
    if (r.ok) held = { from: loc, color };
    else notify(r);
  };
  // one key's action at a time, in order: a place pressed while its lift is still on
  // the way must find the checker held
  let pending = Promise.resolve();
  const queued = (node) => { pending = pending.then(() => act(node)).catch(notify); };
  svg.addEventListener("keydown", (e) => {
    const node = e.target.closest("[data-loc][role=button]");
    if (!node) return;
    if (["ArrowRight", "ArrowDown"].includes(e.key)) focusBy(node, 1);
    else if (["ArrowLeft", "ArrowUp"].includes(e.key)) focusBy(node, -1);
    else if (e.key === "Enter" || e.key === " ") queued(node);
    else if (e.key === "Escape") {
      pending = pending.then(() => {
        const back = held && view.places().find((p) => p.dataset.loc === held.from);
        if (back) return act(back);
      });
    } else return;
    e.preventDefault();
  });
}

/** The colour a key press lifts at `loc`: the one on roll if it has a checker there. */
function liftColor(s, loc, trayColor) {
  if (loc === "off") return trayColor;
  const has = (c) => {
    const where = s.physical
      ? (loc === "bar" ? s.physical.bar[c] : s.physical.points[loc]) || []
      : [];
    return where.some((stack) => stack.includes(c));
  };
  if (s.on_roll && has(s.on_roll)) return s.on_roll;
  return ["white", "black"].find(has) || null;
}

/** The five buttons: a click is a short press, holding for 1.5 s a long press. */
export function enableButtons(root, link, notify) {
  for (const button of root.querySelectorAll("[data-button]")) {
    const name = button.dataset.button;
    let held = null;
    const send = (action) => link.sim(action).then((r) => r.ok || notify(r));
    const release = () => {
      button.classList.remove("down", "long");
      if (held) clearTimeout(held.timer);
    };
    button.addEventListener("pointerdown", (e) => {
      if (e.button !== 0) return;
      button.setPointerCapture(e.pointerId);
      button.classList.add("down");
      held = { long: false };
      held.timer = setTimeout(() => {
        held.long = true;
        button.classList.add("long");
        send({ hold: name, ms: HOLD_MS });
      }, LONG_PRESS_MS);
    });
    button.addEventListener("pointerup", () => {
      if (held && !held.long) send({ press: name });
      release();
      held = null;
    });
    button.addEventListener("pointercancel", () => { release(); held = null; });
    button.addEventListener("click", (e) => {
      if (e.detail === 0) send({ press: name }); // Enter or Space on a focused button
    });
  }
}

/** The simulator panel: set up, new match, queued dice, a phantom checker. */
export function enableSimPanel(root, link, notify, say) {
  const $ = (id) => root.querySelector(`#${id}`);
  fill($("glitch-at"), LOCATIONS.filter((l) => l !== "off"), (l) => l);
  for (const id of ["die-a", "die-b"]) fill($(id), [1, 2, 3, 4, 5, 6], String);

  $("sim-setup").addEventListener("click", () => {
    link.sim({ setup: "start" }).then((r) => r.ok || notify(r));
  });
  $("sim-new-match").addEventListener("click", () => {
    const length = Number($("match-length").value);
    link.sim({ setup: "start", match_length: length }).then((r) => r.ok || notify(r));
  });
  $("sim-dice").addEventListener("submit", (e) => {
    e.preventDefault();
    const a = Number($("die-a").value);
    const b = Number($("die-b").value);
    link.sim({ dice: [a, b] }).then((r) => (r.ok ? say(t("sim_queued", { a, b })) : notify(r)));
  });
  $("sim-glitch").addEventListener("submit", (e) => {
    e.preventDefault();
    const at = $("glitch-at").value;
    const color = $("glitch-color").value;
    const ms = Number($("glitch-ms").value);
    link.sim({ glitch: { at, color, ms } }).then((r) => (r.ok
      ? say(t("sim_injected", { at, color: t(`c_${color}`), ms }))
      : notify(r)));
  });
}

function fill(select, values, label) {
  if (select.options.length) return;
  for (const v of values) select.add(new Option(label(v), String(v)));
}
