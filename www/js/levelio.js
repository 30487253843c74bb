// levelio.js — getting text in and out of the page: which URL parameters name a level,
// reading dropped or picked files and offering downloads, the clipboard (with a
// fallback), and localStorage (the current level, the open collection, the move history
// of each level played, and the pull-mode game of the level on screen; solved levels,
// best solutions and snapshots are in progress.js).
// Parsing itself is the wasm `parse`; this module only moves text around.

const KEY_CURRENT = 'sokoban.current';
const KEY_COLLECTION = 'sokoban.collection';
const KEY_PROGRESS = 'sokoban.progress';
const MAX_PROGRESS = 200; // levels whose history is kept

/** True when the page URL carries a level (SokoPlayer `lvl`, SokobanScript `level`/`base64`). */
export function urlHasLevel(loc = location) {
  const p = new URLSearchParams(loc.search);
  return p.has('lvl') || p.has('level') || p.has('base64');
}

/** Text of a File (a dropped or picked level file). */
export function readFile(file) {
  return file.text();
}

function load(key) {
  try {
    const v = localStorage.getItem(key);
    return v ? JSON.parse(v) : null;
  } catch {
    return null;
  }
}

function store(key, value) {
  try {
    if (value == null) localStorage.removeItem(key);
    else localStorage.setItem(key, JSON.stringify(value));
    return true;
  } catch {
    return false; // storage full or disabled: play on without saving
  }
}

/** {xsb, title, index} of the level on screen, or null. */
export const loadCurrent = () => load(KEY_CURRENT);
export const saveCurrent = (cur) => store(KEY_CURRENT, cur);

/** The open collection {title, levels: [{number, title, xsb, error, ...}]}, or null. */
export const loadCollection = () => load(KEY_COLLECTION);
export const saveCollection = (col) => {
  if (store(KEY_COLLECTION, col)) return true;
  // Too big for storage: keep only the valid levels' text.
  const slim = col && { title: col.title, levels: col.levels.map(({ number, title, xsb, error }) => ({ number, title, xsb, error })) };
  return store(KEY_COLLECTION, slim);
};

let progress = null; // cache of the stored progress map

/** Saved history {line, redo, solved} of a level (keyed by its XSB), or null. */
export function loadProgress(xsb) {
  progress ??= load(KEY_PROGRESS) || {};
  return progress[xsb] || null;
}

/** Save a level's history; `solved` marks a level solved at some point. */
export function saveProgress(xsb, line, redo, solved = false) {
  progress ??= load(KEY_PROGRESS) || {};
  progress[xsb] = { line, redo, solved: solved || !!progress[xsb]?.solved, t: Date.now() };
  const keys = Object.keys(progress);
  if (keys.length > MAX_PROGRESS) {
    keys.sort((a, b) => progress[a].t - progress[b].t);
    for (const k of keys.slice(0, keys.length - MAX_PROGRESS)) delete progress[k];
  }
  store(KEY_PROGRESS, progress);
}

/** Every saved move history {xsb: {line, redo, solved}} (for an export). */
export function allHistory() {
  progress ??= load(KEY_PROGRESS) || {};
  return Object.fromEntries(Object.entries(progress).map(([x, h]) => [x, { line: h.line, redo: h.redo, solved: !!h.solved }]));
}

/** Add imported histories of levels that have none here (a history here is kept). */
export function mergeHistory(map) {
  progress ??= load(KEY_PROGRESS) || {};
  const t = Date.now();
  let added = 0;
  for (const [xsb, h] of Object.entries(map)) {
    if (progress[xsb]) continue;
    progress[xsb] = { line: h.line, redo: h.redo, solved: h.solved, t };
    added++;
  }
  if (added) store(KEY_PROGRESS, progress);
  return added;
}

/** Offer text as a file to save (a download). */
export function downloadText(name, text, type = 'application/json') {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

/**
 * Put text on the clipboard. Resolves true when it worked; false when the clipboard is
 * unavailable or refused (the caller then shows the text to copy by hand).
 */
export async function copyText(text) {
  if (!navigator.clipboard?.writeText) return false;
  try {
    const timeout = new Promise((_, fail) => setTimeout(() => fail(new Error('timeout')), 1000));
    await Promise.race([navigator.clipboard.writeText(text), timeout]);
    return true;
  } catch {
    return false;
  }
}

const KEY_PULL = 'sokoban.pull';

/**
 * The pull-mode game of the level on screen {xsb, start, line, redo} (start: the square
 * the player started on; line and redo: reverse moves, uppercase pulls), or null.
 */
export function loadPull() {
  const p = load(KEY_PULL);
  const ok = p && typeof p === 'object' && typeof p.xsb === 'string' && Number.isInteger(p.start)
    && typeof p.line === 'string' && typeof p.redo === 'string';
  return ok ? p : null;
}

/** Keep the pull-mode game (null: none, pull mode was left). */
export const savePull = (p) => store(KEY_PULL, p);

const KEY_SOLVE_MODE = 'sokoban.solveMode';

/** What Solve looks for: 'fast' (the default) or 'optimal' (fewest pushes). */
export function loadSolveMode() {
  return load(KEY_SOLVE_MODE) === 'optimal' ? 'optimal' : 'fast';
}

export function saveSolveMode(mode) {
  store(KEY_SOLVE_MODE, mode);
}
