// progress.js — what the player achieved, kept in this browser: per level (keyed by the
// level's key, a hash of its normalized form computed in Rust, so the same level from a
// file, a link or a paste is one level) whether it was solved, the solution with the
// fewest moves and the one with the fewest pushes, and named snapshots of positions; and
// export / import of all of it (with the move histories levelio.js keeps) as one JSON file.
//
// Storage: localStorage, one JSON value. Why not IndexedDB: the data is small (a record is
// a level's text and a few solutions, kilobytes), the level list reads it synchronously
// for every level on each redraw, and localStorage's synchronous API keeps that a plain
// lookup; its ~5 MB per origin holds thousands of solved levels. A write that fails
// (storage full or disabled) is reported to the caller, which says so; nothing is lost
// from memory.
//
// The rules are never decided here: imported levels and solutions are checked by the
// wasm (`checks`: levelKey, checkSolution, checkHistory) before anything is merged.

const KEY = 'sokoban.saved';
export const FILE_APP = 'sokoban-player';
export const FILE_KIND = 'progress';
export const FILE_VERSION = 1;
const MAX_NAME = 80;

let data = null; // {levels: {key: record}}
let checks = null; // from records.js: the wasm's checks

/**
 * A record: {xsb, title, solved, bestMoves, bestPushes, snapshots}; a best is
 * {lurd, moves, pushes, t}; a snapshot is {name, line, moves, pushes, t}.
 */
function load() {
  if (data) return data;
  try {
    const v = JSON.parse(localStorage.getItem(KEY) || 'null');
    data = v && typeof v === 'object' && v.levels && typeof v.levels === 'object' ? v : { levels: {} };
  } catch {
    data = { levels: {} };
  }
  if (!Array.isArray(data.myLevels)) data.myLevels = [];
  return data;
}

/** Write everything; false when the browser refused (storage full or disabled). */
function persist() {
  try {
    localStorage.setItem(KEY, JSON.stringify(data));
    return true;
  } catch {
    return false;
  }
}

/** Give the module the wasm's checks: {levelKey(text), checkSolution(xsb, lurd), checkHistory(xsb, line, redo)}. */
export function setChecks(c) {
  checks = c;
}

/** The record of a level, or null. */
export function record(key) {
  return (key && load().levels[key]) || null;
}

export const isSolved = (key) => !!record(key)?.solved;

function ensure(key, xsb, title) {
  const levels = load().levels;
  const r = (levels[key] ??= { xsb, title: title || '', solved: false, bestMoves: null, bestPushes: null, snapshots: [] });
  if (title && !r.title) r.title = title;
  return r;
}

const fewerMoves = (a, b) => !b || a.moves < b.moves || (a.moves === b.moves && a.pushes < b.pushes);
const fewerPushes = (a, b) => !b || a.pushes < b.pushes || (a.pushes === b.pushes && a.moves < b.moves);

/**
 * Note a solution played on the board ({lurd, moves, pushes}, already a solution by the
 * rules engine). Returns {first, bestMoves, bestPushes, saved}: whether it is the first
 * solve and which bests it improved; `saved` false when storage refused.
 */
export function recordSolution(key, xsb, title, sol) {
  const r = ensure(key, xsb, title);
  const out = { first: !r.solved, bestMoves: false, bestPushes: false };
  r.solved = true;
  const entry = { lurd: sol.lurd, moves: sol.moves, pushes: sol.pushes, t: Date.now() };
  if (fewerMoves(entry, r.bestMoves)) {
    r.bestMoves = entry;
    out.bestMoves = true;
  }
  if (fewerPushes(entry, r.bestPushes)) {
    r.bestPushes = entry;
    out.bestPushes = true;
  }
  out.saved = persist();
  return out;
}

/** Mark a level solved with no solution kept (progress saved before solutions were). */
export function markSolved(key, xsb) {
  const r = ensure(key, xsb, '');
  if (r.solved) return true;
  r.solved = true;
  return persist();
}

/** A level's snapshots, oldest first. */
export const snapshots = (key) => record(key)?.snapshots ?? [];

/**
 * Save a snapshot of the position reached by `line` (moves from the start). A snapshot
 * of the same name is replaced. Returns {replaced, saved}.
 */
export function saveSnapshot(key, xsb, title, name, snap) {
  const r = ensure(key, xsb, title);
  const clean = String(name).trim().slice(0, MAX_NAME);
  const i = r.snapshots.findIndex((s) => s.name === clean);
  const entry = { name: clean, line: snap.line, moves: snap.moves, pushes: snap.pushes, t: Date.now() };
  if (i >= 0) r.snapshots[i] = entry;
  else r.snapshots.push(entry);
  return { replaced: i >= 0, saved: persist() };
}

export function deleteSnapshot(key, name) {
  const r = record(key);
  if (!r) return false;
  r.snapshots = r.snapshots.filter((s) => s.name !== name);
  return persist();
}

/** A name for a new snapshot that no other snapshot of the level has. */
export function freeName(key, base = 'Snapshot') {
  const names = new Set(snapshots(key).map((s) => s.name));
  for (let i = names.size + 1; ; i++) if (!names.has(`${base} ${i}`)) return `${base} ${i}`;
}

// ---------------------------------------------------------------- my levels

/** Levels saved from the editor: [{key, xsb, title, t}], oldest first. */
export const myLevels = () => load().myLevels;

/** Save a level from the editor (the same level again only updates its title). Returns {replaced, saved}. */
export function saveMyLevel(key, xsb, title) {
  const list = load().myLevels;
  const i = list.findIndex((l) => l.key === key);
  const entry = { key, xsb, title: String(title || '').slice(0, 200), t: Date.now() };
  if (i >= 0) list[i] = entry;
  else list.push(entry);
  return { replaced: i >= 0, saved: persist() };
}

/**
 * Delete one of my levels. Returns {entry, index, saved}: what was deleted and where (for
 * an undo with restoreMyLevel), entry null when no level has that key; when storage
 * refuses, nothing is deleted and `saved` is false.
 */
export function deleteMyLevel(key) {
  const list = load().myLevels;
  const index = list.findIndex((l) => l.key === key);
  if (index < 0) return { entry: null, index, saved: true };
  const [entry] = list.splice(index, 1);
  const saved = persist();
  if (!saved) list.splice(index, 0, entry);
  return { entry, index, saved };
}

/** Undo a delete: put the level back where it was (once). False when storage refused. */
export function restoreMyLevel(entry, index) {
  const list = load().myLevels;
  if (list.some((l) => l.key === entry.key)) return true;
  list.splice(Math.max(0, Math.min(index, list.length)), 0, entry);
  if (persist()) return true;
  list.splice(list.indexOf(entry), 1);
  return false;
}

// ---------------------------------------------------------------- export / import

/** Everything saved as the text of a JSON file; `history` is levelio's move histories. */
export function exportText(history) {
  return JSON.stringify({
    app: FILE_APP,
    kind: FILE_KIND,
    version: FILE_VERSION,
    exported: new Date().toISOString(),
    levels: load().levels,
    myLevels: load().myLevels,
    history,
  }, null, 1);
}

class Refused extends Error {}
const refuse = (msg) => {
  throw new Refused(msg);
};
const isObj = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const isCount = (v) => Number.isInteger(v) && v >= 0;

/** Check that an imported level is valid and has the key the file gives it (wasm). */
function checkKey(xsb, key, where) {
  let k;
  try {
    k = checks.levelKey(xsb);
  } catch (e) {
    refuse(`The file is damaged: ${where} is not a valid level (${e.message}).`);
  }
  if (k !== key) refuse(`The file is damaged: ${where} does not match its key.`);
}

/** Check one best solution of an imported record against its level (wasm). */
function checkBest(r, which, where) {
  const b = r[which];
  if (b == null) return null;
  if (!isObj(b) || typeof b.lurd !== 'string' || !isCount(b.moves) || !isCount(b.pushes)) {
    refuse(`${where}: its ${which === 'bestMoves' ? 'fewest-moves' : 'fewest-pushes'} solution is malformed.`);
  }
  let c;
  try {
    c = checks.checkSolution(r.xsb, b.lurd);
  } catch (e) {
    refuse(`${where}: a saved solution does not solve the level (${e.message}).`);
  }
  if (c.moves !== b.moves || c.pushes !== b.pushes) {
    refuse(`${where}: a saved solution has ${c.moves} moves and ${c.pushes} pushes, not the ${b.moves} and ${b.pushes} the file says.`);
  }
  return { lurd: c.lurd, moves: c.moves, pushes: c.pushes, t: Number(b.t) || Date.now() };
}

/**
 * Read and check an exported file's text completely; throws an Error whose message says
 * what is wrong (nothing is changed). Returns the checked content {levels, history}.
 */
export function checkFile(text) {
  let v;
  try {
    v = JSON.parse(text);
  } catch (e) {
    refuse(`The file is damaged: it is not valid JSON (${e.message}).`);
  }
  if (!isObj(v) || v.app !== FILE_APP || v.kind !== FILE_KIND) {
    refuse('This is not a Sokoban progress file (it was not exported by this page).');
  }
  if (!Number.isInteger(v.version) || v.version < 1) refuse('The file is damaged: it has no valid version number.');
  if (v.version > FILE_VERSION) refuse(`The file was made by a newer version of this page (format ${v.version}; this page reads ${FILE_VERSION}).`);
  if (!isObj(v.levels)) refuse('The file is damaged: it has no list of levels.');
  if (v.history != null && !isObj(v.history)) refuse('The file is damaged: its move histories are not a list.');
  const levels = {};
  let n = 0;
  for (const [key, r] of Object.entries(v.levels)) {
    n++;
    const where = `Level ${n} of the file${r?.title ? ` (${String(r.title).slice(0, 40)})` : ''}`;
    if (!isObj(r) || typeof r.xsb !== 'string' || typeof r.solved !== 'boolean') refuse(`The file is damaged: ${where} is malformed.`);
    checkKey(r.xsb, key, where);
    const out = {
      xsb: r.xsb,
      title: typeof r.title === 'string' ? r.title.slice(0, 200) : '',
      solved: r.solved,
      bestMoves: checkBest(r, 'bestMoves', `The file is damaged: ${where}`),
      bestPushes: checkBest(r, 'bestPushes', `The file is damaged: ${where}`),
      snapshots: [],
    };
    if ((out.bestMoves || out.bestPushes) && !out.solved) refuse(`The file is damaged: ${where} has solutions but is not marked solved.`);
    if (r.snapshots != null && !Array.isArray(r.snapshots)) refuse(`The file is damaged: the snapshots of ${where} are not a list.`);
    for (const s of r.snapshots ?? []) {
      if (!isObj(s) || typeof s.name !== 'string' || !s.name.trim() || typeof s.line !== 'string') {
        refuse(`The file is damaged: a snapshot of ${where} is malformed.`);
      }
      let c;
      try {
        c = checks.checkHistory(r.xsb, s.line, '');
      } catch (e) {
        refuse(`The file is damaged: snapshot “${s.name.slice(0, 40)}” of ${where} does not replay (${e.message}).`);
      }
      out.snapshots.push({ name: s.name.trim().slice(0, MAX_NAME), line: c.line, moves: c.moves, pushes: c.pushes, t: Number(s.t) || Date.now() });
    }
    levels[key] = out;
  }
  if (v.myLevels != null && !Array.isArray(v.myLevels)) refuse('The file is damaged: its list of your levels is not a list.');
  const myLevels = [];
  for (const [i, l] of (v.myLevels ?? []).entries()) {
    const where = `Your level ${i + 1} in the file`;
    if (!isObj(l) || typeof l.xsb !== 'string' || typeof l.key !== 'string') refuse(`The file is damaged: ${where} is malformed.`);
    checkKey(l.xsb, l.key, where);
    myLevels.push({ key: l.key, xsb: l.xsb, title: typeof l.title === 'string' ? l.title.slice(0, 200) : '', t: Number(l.t) || Date.now() });
  }
  const history = {};
  for (const [xsb, h] of Object.entries(v.history ?? {})) {
    if (!isObj(h) || typeof h.line !== 'string' || typeof (h.redo ?? '') !== 'string') refuse('The file is damaged: a move history is malformed.');
    try {
      checks.checkHistory(xsb, h.line, h.redo ?? '');
    } catch (e) {
      refuse(`The file is damaged: a move history does not replay on its level (${e.message}).`);
    }
    history[xsb] = { line: h.line, redo: h.redo ?? '', solved: !!h.solved };
  }
  return { levels, myLevels, history };
}

/**
 * Merge checked content (from checkFile) into what is saved: solved marks add up, the
 * better solution of each kind is kept, snapshots and your levels are added (a snapshot
 * whose name is taken by a different position gets "(imported)" added). Returns counts; `saved` false when
 * storage refused (then nothing was written).
 */
export function merge({ levels, myLevels: mine = [] }) {
  const before = JSON.stringify(load());
  const count = { levels: 0, solved: 0, newSolved: 0, snapshots: 0, myLevels: 0 };
  for (const l of mine) {
    if (data.myLevels.some((m) => m.key === l.key)) continue;
    data.myLevels.push(l);
    count.myLevels++;
  }
  for (const [key, r] of Object.entries(levels)) {
    count.levels++;
    const mine = ensure(key, r.xsb, r.title);
    if (r.solved) count.solved++;
    if (r.solved && !mine.solved) count.newSolved++;
    mine.solved ||= r.solved;
    if (r.bestMoves && fewerMoves(r.bestMoves, mine.bestMoves)) mine.bestMoves = r.bestMoves;
    if (r.bestPushes && fewerPushes(r.bestPushes, mine.bestPushes)) mine.bestPushes = r.bestPushes;
    for (const s of r.snapshots) {
      const same = mine.snapshots.find((m) => m.name === s.name);
      if (same && same.line === s.line) continue;
      let name = s.name;
      while (mine.snapshots.some((m) => m.name === name)) name = `${name} (imported)`;
      mine.snapshots.push({ ...s, name });
      count.snapshots++;
    }
  }
  count.saved = persist();
  if (!count.saved) data = JSON.parse(before); // all or nothing
  return count;
}

/** Read a file's text, check it, merge it; throws a message and changes nothing on bad input. */
export function importText(text) {
  const content = checkFile(text);
  return { content, count: merge(content) };
}
