// box-keys.js — choosing a box and where it goes with the keyboard alone (play.js wires
// it): B (or Tab in box mode) goes through the boxes, the arrows move a target cursor over
// the squares the chosen box can reach (the lit squares of a drag, from the wasm's
// boxReach), Enter pushes it there by the wasm's boxPath. Here only the geometry of the
// cursor and the words a screen reader hears; no rules.

const DIRS = [[0, -1], [1, 0], [0, 1], [-1, 0]]; // up, right, down, left as [dx, dy]
const DIR_NAMES = ['up', 'right', 'down', 'left'];

/** The squares holding a box, in reading order (row by row). */
export function boxSquares(view) {
  const out = [];
  for (let sq = 0; sq < view.boxes.length; sq++) if (view.boxes[sq]) out.push(sq);
  return out;
}

/**
 * The box to choose: with no box chosen (`current` < 0) the one nearest the player (the
 * first in reading order on a tie), else the next (`step` 1) or previous (-1) in reading
 * order, round the end. -1 when there is no box.
 */
export function pickBox(view, current, step) {
  const boxes = boxSquares(view);
  if (!boxes.length) return -1;
  const i = boxes.indexOf(current);
  if (i >= 0) return boxes[(i + step + boxes.length) % boxes.length];
  const w = view.width;
  const dist = (sq) => Math.abs((sq % w) - (view.player % w)) + Math.abs(Math.floor(sq / w) - Math.floor(view.player / w));
  return boxes.reduce((best, sq) => (dist(sq) < dist(best) ? sq : best));
}

/**
 * The next square of `reach` from `from` in direction `dir` (0 up, 1 right, 2 down, 3
 * left): the nearest one ahead within 45 degrees of the direction (along the line
 * first), else the nearest anywhere ahead; -1 when there is none.
 */
export function stepTarget(reach, from, dir, width) {
  const [dx, dy] = DIRS[dir];
  const fx = from % width, fy = Math.floor(from / width);
  let best = -1, bestKey = null;
  for (const sq of reach) {
    const x = (sq % width) - fx, y = Math.floor(sq / width) - fy;
    const along = x * dx + y * dy;
    const across = Math.abs(x * dy - y * dx);
    if (along <= 0) continue;
    const key = [across > along ? 1 : 0, along + 2 * across, across, sq];
    if (!bestKey || compare(key, bestKey) < 0) {
      best = sq;
      bestKey = key;
    }
  }
  return best;
}

function compare(a, b) {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return 0;
}

/** "row 3, column 5" (counted from 1, as a person reads the board). */
export const squareName = (sq, width) => `row ${Math.floor(sq / width) + 1}, column ${(sq % width) + 1}`;

/** What a square is, for the ear: its place and whether it is a goal (a start square in pull mode). */
export function squareText(view, sq, pull) {
  const goal = view.goals[sq] ? (pull ? ', a start square' : ', a goal') : '';
  const text = `${squareName(sq, view.width)}${goal}`;
  return text[0].toUpperCase() + text.slice(1);
}

/** Said when a box is chosen: which box, where, and how many squares it can go to. */
export function boxText(view, box, reachSize, pull) {
  const boxes = boxSquares(view);
  const [done, does] = pull ? ['pulled', 'pulls'] : ['pushed', 'pushes'];
  const on = view.goals[box] ? (pull ? ', on a start square' : ', on a goal') : '';
  const where = reachSize > 1
    ? `It can be ${done} to ${reachSize - 1} ${reachSize === 2 ? 'square' : 'squares'}: arrows choose one, Enter ${does} it there, Escape lets go.`
    : `It cannot be ${done} anywhere from here: B or Tab chooses another box, Escape lets go.`;
  return `Box ${boxes.indexOf(box) + 1} of ${boxes.length}, ${squareName(box, view.width)}${on}. ${where}`;
}

/** Said when the arrows find no lit square further that way. */
export const noneText = (dir) => `No square further ${DIR_NAMES[dir]} that the box can reach.`;
