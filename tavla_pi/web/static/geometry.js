// Where everything sits on the drawn board, in millimetres of the real one
// (hardware/GEOMETRY.md), seen from White's side: White at the bottom.
//
//  +----------------------+-----+----------------------+----------------+
//  | 13 14 15 16 17 18    | bar | 19 20 21 22 23 24    | tray  turn     |
//  |                      |  B  |                      | black dice     |
//  |                      |-----|                      |       cube     |
//  |                      |  W  |                      | tray  dice     |
//  | 12 11 10  9  8  7    | bar |  6  5  4  3  2  1    | white turn     |
//  +----------------------+-----+----------------------+----------------+

export const W = 744;
export const H = 560;
export const FIELD = { top: 40, bottom: 520, left: 24, right: 554 };
export const CENTRE_Y = 280;
export const POINT_W = 40;
export const BAR = { left: 264, right: 314, x: 289 };
export const SLOT = 38;           // pocket pitch along a point and along the bar
export const FIRST_SLOT = 19;     // first pocket centre from the edge (or the bar's centre line)
export const CHECKER_R = 18;
export const POINT_LEN = 222;
export const TRAY = { x: 590, w: 52, black: [50, 266], white: [294, 510], slice: 13 };
export const LED_R = 7;
export const PIP_R = 4.2;
export const SLOTS_PER_POINT = 6;
export const BAR_SLOTS = 4;

const RIGHT_HALF = BAR.right;
const LEFT_HALF = FIELD.left;

/** Is point n (1..24) on the far (Black's, top) side? */
export function isTop(n) {
  return n >= 13;
}

/** The x of point n's centre line. */
export function pointX(n) {
  let half, col;
  if (n <= 6) [half, col] = [RIGHT_HALF, 6 - n];
  else if (n <= 12) [half, col] = [LEFT_HALF, 12 - n];
  else if (n <= 18) [half, col] = [LEFT_HALF, n - 13];
  else [half, col] = [RIGHT_HALF, n - 19];
  return half + col * POINT_W + POINT_W / 2;
}

/** The centre of pocket `slot` (0 at the board edge) of point n. */
export function slotXY(n, slot) {
  const y = isTop(n)
    ? FIELD.top + FIRST_SLOT + SLOT * slot
    : FIELD.bottom - FIRST_SLOT - SLOT * slot;
  return [pointX(n), y];
}

/** The centre of bar pocket `slot` (0 nearest the centre line) of colour's half. */
export function barSlotXY(color, slot) {
  const d = FIRST_SLOT + SLOT * slot;
  return [BAR.x, color === "white" ? CENTRE_Y + d : CENTRE_Y - d];
}

/** The triangle of point n as SVG polygon points. */
export function pointPolygon(n) {
  const x = pointX(n);
  const half = POINT_W / 2 - 1;
  const [base, tip] = isTop(n)
    ? [FIELD.top, FIELD.top + POINT_LEN]
    : [FIELD.bottom, FIELD.bottom - POINT_LEN];
  return `${x - half},${base} ${x + half},${base} ${x},${tip}`;
}

/** Where a note about point n goes: near its tip. */
export function tipXY(n) {
  const x = pointX(n);
  return [x, isTop(n) ? FIELD.top + POINT_LEN - 14 : FIELD.bottom - POINT_LEN + 14];
}

/** Where point n's number is written: in the frame beside its LED. */
export function numberXY(n) {
  return [pointX(n), isTop(n) ? FIELD.top - 4 : FIELD.bottom + 12];
}

/** The rectangle of colour's tray. */
export function trayRect(color) {
  const [y0, y1] = TRAY[color];
  return { x: TRAY.x - TRAY.w / 2, y: y0, w: TRAY.w, h: y1 - y0 };
}

/** The top-left corner of the k-th checker slice in colour's tray. */
export function traySliceXY(color, k) {
  const r = trayRect(color);
  const y = color === "black" ? r.y + 4 + k * TRAY.slice : r.y + r.h - 4 - (k + 1) * TRAY.slice;
  return [r.x + 4, y];
}

// ---- the LEDs --------------------------------------------------------------

const LED_X = 692;
const CUBE_VALUES = [64, 32, 16, 8, 4, 2];
const PIP_OFFSETS = [[-1, -1], [1, -1], [-1, 0], [0, 0], [1, 0], [-1, 1], [1, 1]];
const PIP_STEP = 11;

/** The centre of die face `die` (0 or 1) on colour's side. */
export function dieXY(color, die) {
  // each player's die 0 is on that player's left
  if (color === "white") return [662 + 56 * die, 440];
  return [718 - 56 * die, 120];
}

/** Where the LED of `feature` (a pinout.toml feature name) sits, or null if unknown. */
export function ledXY(feature) {
  const parts = feature.split(".");
  switch (parts[0]) {
    case "point": {
      const n = Number(parts[1]);
      return [pointX(n), isTop(n) ? 14 : H - 14];
    }
    case "bar":
      return [BAR.x, parts[1] === "white" ? 480 : 80];
    case "tray":
      return [TRAY.x, parts[1] === "white" ? H - 14 : 14];
    case "turn":
      return [LED_X - 2, parts[1] === "white" ? 500 : 60];
    case "cube":
      if (parts[1] === "owner") return [LED_X + 14, parts[2] === "white" ? 384 : 176];
      return [LED_X + 14, 210 + 28 * CUBE_VALUES.indexOf(Number(parts[1]))];
    case "die": {
      const [x, y] = dieXY(parts[1], Number(parts[2]));
      const [dx, dy] = PIP_OFFSETS[Number(parts[4])];
      const s = parts[1] === "white" ? PIP_STEP : -PIP_STEP; // Black's faces read upside down
      return [x + dx * s, y + dy * s];
    }
    default:
      return null;
  }
}

export const CUBE_LABELS = CUBE_VALUES;

// ---- from a pointer to a location ------------------------------------------

/** The docs/CONTRACTS.md §1 location under board point (x, y), or null off the board. */
export function locationAt(x, y) {
  if (x >= BAR.left && x < BAR.right && y >= FIELD.top && y <= FIELD.bottom) return "bar";
  for (const color of ["black", "white"]) {
    const r = trayRect(color);
    if (x >= r.x - 8 && x <= r.x + r.w + 8 && y >= r.y && y <= r.y + r.h) return "off";
  }
  if (x < FIELD.left || x >= FIELD.right || y < FIELD.top || y > FIELD.bottom) return null;
  const right = x >= BAR.right;
  const col = Math.floor((x - (right ? RIGHT_HALF : LEFT_HALF)) / POINT_W);
  if (col < 0 || col > 5) return null;
  const top = y < CENTRE_Y;
  let n;
  if (top) n = right ? 19 + col : 13 + col;
  else n = right ? 6 - col : 12 - col;
  return String(n);
}

/** Every location a checker may be put on, for the glitch and drop menus. */
export const LOCATIONS = [...Array.from({ length: 24 }, (_, i) => String(i + 1)), "bar", "off"];
