// main.js — wiring and state. Loads the wasm, owns the Session (every rule lives there:
// the page never decides what is legal), redraws the board and counters after each
// change, saves progress, and connects the modules: board.js (drawing), input.js
// (keys, mouse, touch), levelio.js (files, links, clipboard, storage), replay.js
// (animated moves), level-list.js (a collection's levels), progress.js +
// progress-panel.js (solved levels, best solutions, snapshots, export / import),
// solver-client.js + solver-pool.js + solver-panel.js (the workers and their read-out), layout.js (the side
// cards' tabs, the phone's menu); puzzle.js is the sliding-tile mode.
import init, { checkSolution, formatLevel, levelKey, parse, PullSession, rleLurd, Session } from '../pkg/sokoban_wasm.js';
import { Board } from './board.js';
import { attachInput, isFormField, zoomBoard } from './input.js';
import * as io from './levelio.js';
import { Playback } from './replay.js';
import { SolverClient } from './solver-client.js';
import { SolverPool, combine, workerCount } from './solver-pool.js';
import { SolverPanel, endText, fmtCount, fmtTime } from './solver-panel.js';
import { BUILTIN } from './levels.js';
import { levelTitle, plural, renderLevelList } from './level-list.js';
import { initPuzzle } from './puzzle.js';
import * as progress from './progress.js';
import { myLevelTitle, renderMyLevels, renderProgress, scoreText } from './progress-panel.js';
import { registerOffline } from './offline.js';
import { initHelp } from './help.js';
import { initTheme, reducedMotion } from './theme.js';
import { editorActive, editorText, initEditor, openEditor } from './editor.js';
import { boxText, noneText, pickBox, squareText, stepTarget } from './box-keys.js';
import { initGenerator, openGenLink } from './generator.js';
import { closeMenu, initLayout, reveal } from './layout.js';
import { initOptimize } from './optimize.js';

const $ = (id) => document.getElementById(id);
const SPEEDS = [1, 2, 4, 8, 15, 30, 60, 120]; // replay moves per second
const WALK_MS = 25; // per step of a walk or a box drag

const state = {
  session: null,
  view: null,
  title: '',
  collection: null, // {title, levels: [{number, title, xsb, error, ...}], index, mine (My levels)}
  selected: -1, // box chosen by a click
  reach: null, // Set of squares the selected or dragged box can be pushed to
  drag: null, // {from, clientX, clientY}
  target: -1, // reachable square under the dragged box, or the keyboard's target
  cursor: -1, // box mode (a box chosen by the keyboard): the target cursor's square
  facing: 2,
  dead: new Map(),
  wasSolved: false,
  key: '', // the level's key (progress.js keeps what was achieved under it)
  pull: null, // pull mode: {forward, start, announced} (the forward Session, kept while the PullSession plays; the player's start square)
  plan: null, // the last solution found, for Hint (see keepSolution)
  offer: null, // the solution the panel's Replay button plays (see offer)
};

let board, panel;
const fastPool = new SolverPool(workerCount()); // Fast Solve and Hint: the portfolio
const fastSolver = fastPool.single; // Still solvable? and the fast search next to the IDA*: lane 0 alone
const optimalSolver = new SolverClient(); // Fewest pushes (IDA*): single-threaded, one worker
const solving = () => fastPool.busy || fastSolver.busy || optimalSolver.busy;
let searches = 0; // searches started (a Hint along a kept solution starts none)

// ---------------------------------------------------------------- messages

let statusTimer = 0;
/** Show a message in the live region; plain information fades after a while. */
function status(text, kind = '') {
  const el = editorActive() ? $('ed-status') : $('status');
  el.textContent = text;
  el.dataset.kind = kind;
  clearTimeout(statusTimer);
  if (!kind && text) statusTimer = setTimeout(() => (el.textContent = ''), 12000);
}

// ---------------------------------------------------------------- drawing

function draw() {
  // The view follows the player, or the keyboard's target cursor in box mode.
  const follow = state.cursor >= 0 ? state.cursor : state.view.player;
  if (state.view.width === board.cols && state.view.height === board.rows) board.follow(follow);
  board.draw(state.view, {
    reach: state.reach,
    target: state.target,
    selected: state.selected,
    cursor: state.cursor,
    drag: state.drag?.clientX === undefined ? null : state.drag,
    dead: state.dead,
    facing: state.facing,
  });
}

/** Read the Session after a change: counters, buttons, warnings, board; then save. */
function render() {
  const s = state.session;
  const v = (state.view = s.view());
  $('moves').textContent = v.moves;
  $('pushes').textContent = v.pushes;
  $('goals').textContent = `${v.boxesOnGoals}/${v.boxCount}`;
  $('undo').disabled = !v.canUndo;
  $('redo').disabled = !v.canRedo;
  $('restart').disabled = v.moves === 0;

  const dead = v.solved ? [] : s.deadlocks();
  state.dead = new Map(dead.map((d) => [d.square, d.kind]));
  $('deadlock').textContent = deadlockText(dead);

  const banner = $('solved');
  banner.hidden = !v.solved;
  if (state.pull) {
    renderPull(v);
  } else if (v.solved) {
    const text = `Solved in ${v.moves} moves, ${v.pushes} pushes`;
    banner.textContent = `✓ ${text}`;
    if (!state.wasSolved) {
      const r = progress.recordSolution(state.key, s.levelXsb(), state.title, { lurd: s.historyLurd(), moves: v.moves, pushes: v.pushes });
      const best = !r.first && (r.bestMoves || r.bestPushes)
        ? ` A new best (fewest ${r.bestMoves && r.bestPushes ? 'moves and pushes' : r.bestMoves ? 'moves' : 'pushes'})!` : '';
      const next = nextUnsolved() >= 0 ? ' Press Next unsolved for the next level to solve.' : '';
      const lost = r.saved ? '' : ' (This browser would not save it: its storage is full or disabled.)';
      status(`${text}!${best}${next}${lost}`, r.saved ? 'ok' : 'error');
      renderCollection();
      showProgress();
    }
  }
  state.wasSolved = v.solved;
  draw();
  save();
  updateReplayUi();
}

function deadlockText(list) {
  const n = (kind) => list.filter((d) => d.kind === kind).length;
  const parts = [];
  const dead = n('dead-square'), frozen = n('frozen');
  if (dead === 1) parts.push('This box is on a square from which no goal can be reached.');
  if (dead > 1) parts.push('These boxes are on squares from which no goal can be reached.');
  if (frozen) parts.push(`${frozen === 1 ? 'This box is' : 'These boxes are'} frozen: they can never move again, and not all are on goals.`);
  return parts.length ? `⚠ ${parts.join(' ')} Undo to go back.` : '';
}

function save() {
  const s = state.session;
  if (state.pull) {
    // The reverse game is not a history of the level: kept on its own, for a reload.
    io.savePull({ xsb: s.levelXsb(), start: state.pull.start, line: s.historyLurd(), redo: s.redoLurd() });
    return;
  }
  const xsb = s.levelXsb();
  io.saveCurrent({ xsb, title: state.title, index: state.collection ? state.collection.index : -1 });
  io.saveProgress(xsb, s.historyLurd(), s.redoLurd(), progress.isSolved(state.key));
}

// ---------------------------------------------------------------- levels

/** Put a level on the board, with its saved history when it has one. */
function openLevel(xsb, title) {
  if (state.pull) leavePull();
  stopEverything();
  const saved = io.loadProgress(xsb);
  let session;
  try {
    session = saved ? Session.restore(xsb, saved.line, saved.redo) : new Session(xsb);
  } catch {
    session = new Session(xsb); // saved history that no longer fits: start fresh
  }
  state.session?.free();
  state.session = session;
  state.key = session.levelKey();
  if (saved?.solved) progress.markSolved(state.key, session.levelXsb()); // saved before solutions were
  state.title = title || '';
  state.facing = 2;
  state.wasSolved = true; // do not announce a level that was left solved
  closeMenu();
  delete $('solver-card').dataset.searched; // the phone shows the read-out once a search runs
  $('paste-note').textContent = PASTE_NOTE;
  $('paste-note').dataset.kind = '';
  fitBoardHeight(session.view());
  board.fit(); // a level opens fitted to the window
  board.followed = -1;
  showTitle();
  render();
  renderCollection();
  showProgress();
}

/** The header: the level's title and its place in the collection. */
function showTitle() {
  const col = state.collection;
  const where = col ? `${col.title ? `${col.title} · ` : ''}${col.index + 1} of ${col.levels.length}` : '';
  $('level-title').textContent = [state.title, where].filter(Boolean).join(' — ') || 'Untitled level';
  document.title = `${state.title || 'Sokoban'} · Sokoban`;
}

/**
 * On a narrow (phone) page the board is as tall as the level fitted to its width needs,
 * not more: the square size the board will choose (whole device pixels, at most 72 CSS
 * pixels) times the rows, so no empty band is left above or below the level. A level too
 * tall for the room above the action bar is shrunk by the page's flex layout (it fits its
 * height then); a very wide one keeps a strip of at least 96 pixels to zoom into.
 */
function fitBoardHeight(v = state.view) {
  const wrap = $('board-wrap');
  if (!v || !matchMedia('(max-width: 820px)').matches) {
    wrap.style.height = '';
    return;
  }
  const dpr = devicePixelRatio || 1;
  const cell = Math.floor(Math.min(wrap.clientWidth / v.width, 72) * dpr) / dpr;
  wrap.style.height = `${Math.floor(Math.max(96, cell * v.height))}px`;
}

/**
 * Read pasted, dropped or typed text: a level, a collection or a LURD solution. On bad
 * input the board stays as it was and the message says what is wrong.
 */
function loadText(text, source) {
  if (!text.trim()) {
    status(`Nothing to load: the ${source} is empty.`, 'error');
    return false;
  }
  let p;
  try {
    p = parse(text);
  } catch (e) {
    status(`Could not read the ${source}: ${e.message}`, 'error');
    return false;
  }
  if (p.kind === 'solution') return replayText(p.lurd);
  const valid = p.levels.filter((l) => !l.error);
  if (p.levels.length === 1) {
    const l = p.levels[0];
    if (l.error) {
      status(`That level cannot be played: ${l.error}`, 'error');
      return false;
    }
    clearUrlLevel();
    state.collection = null;
    io.saveCollection(null);
    openLevel(l.xsb, levelTitle(l, p.title || 'Untitled level'));
    status(`Loaded a ${l.width}×${l.height} level with ${plural(l.boxes, 'box', 'boxes')} (${p.format}).`);
    return true;
  }
  if (!valid.length) {
    status(`None of the ${p.levels.length} levels can be played: ${p.levels[0].error}`, 'error');
    return false;
  }
  clearUrlLevel();
  const first = p.levels.indexOf(valid[0]);
  state.collection = { title: p.title || '', levels: p.levels, index: first };
  io.saveCollection({ title: state.collection.title, levels: p.levels });
  openLevel(valid[0].xsb, levelTitle(valid[0]));
  const bad = p.levels.length - valid.length;
  status(`Opened a collection of ${p.levels.length} levels${bad ? ` (${bad} invalid, marked in the list)` : ''}.`);
  return true;
}

/** After the user picks another level, the page URL should no longer name the old one. */
function clearUrlLevel() {
  if (io.urlHasLevel()) history.replaceState(null, '', location.pathname);
}

function goToLevel(i) {
  const col = state.collection;
  const l = col?.levels[i];
  if (!l) return;
  if (l.error) {
    status(`Level ${l.number} cannot be played: ${l.error}`, 'error');
    return;
  }
  clearUrlLevel();
  col.index = i;
  openLevel(l.xsb, levelTitle(l));
  status(`Level ${l.number}: ${levelTitle(l)}.`);
}

/** A collection level's key (computed once; older saved collections have none). */
function keyOf(l) {
  if (l.key === undefined) {
    try {
      l.key = levelKey(l.xsb);
    } catch {
      l.key = null;
    }
  }
  return l.key;
}

/** Index of the next playable level of the collection not solved yet (wrapping round), or -1. */
function nextUnsolved() {
  const col = state.collection;
  if (!col) return -1;
  const n = col.levels.length;
  for (let k = 1; k < n; k++) {
    const i = (col.index + k) % n;
    const l = col.levels[i];
    if (!l.error && !progress.isSolved(keyOf(l))) return i;
  }
  return -1;
}

/** Index of the next (+1) or previous (-1) playable level of the collection, or -1. */
function nextValid(dir) {
  const col = state.collection;
  if (!col) return -1;
  for (let i = col.index + dir; i >= 0 && i < col.levels.length; i += dir) if (!col.levels[i].error) return i;
  return -1;
}

function renderCollection() {
  const col = state.collection;
  $('prev').disabled = nextValid(-1) < 0;
  $('next').disabled = nextValid(1) < 0;
  $('next-unsolved').disabled = nextUnsolved() < 0;
  $('level-pos').textContent = col ? `${col.index + 1} / ${col.levels.length}` : 'single level';
  renderLevelList($('level-list'), col, {
    pick: goToLevel,
    isSolved: (l) => progress.isSolved(keyOf(l)),
    best: (l) => {
      const r = progress.record(keyOf(l));
      if (!r?.bestMoves) return '';
      const m = r.bestMoves, p = r.bestPushes;
      return m === p || m.lurd === p.lurd ? `${m.moves}/${m.pushes}` : `${m.moves}/${m.pushes} · ${p.moves}/${p.pushes}`;
    },
  });
}

// ---------------------------------------------------------------- progress

/** Redraw the Progress card for the level on the board (and My levels). */
function showProgress() {
  renderMyLevels(progress.myLevels(), { play: openMyLevels, remove: deleteMyLevel });
  renderProgress(progress.record(state.key), {
    replayBest: (kind) => {
      const b = bestOf(kind);
      if (b) replayFromStart(b.lurd, `your best solution (fewest ${kind})`);
    },
    copyBest: (kind) => {
      const b = bestOf(kind);
      if (b) share($('rle').checked ? rleLurd(b.lurd) : b.lurd, `best solution (fewest ${kind}, ${scoreText(b)})`);
    },
    restore: restoreSnapshot,
    remove: (snap) => {
      const ok = progress.deleteSnapshot(state.key, snap.name);
      status(ok ? `Deleted the snapshot “${snap.name}”.` : 'This browser would not save the change: its storage is full or disabled.', ok ? '' : 'error');
      showProgress();
    },
  });
}

const bestOf = (kind) => progress.record(state.key)?.[kind === 'moves' ? 'bestMoves' : 'bestPushes'];

/** Moves checked from the level's start (with their push flags); throws when they do not fit. */
function checkFromStart(lurd) {
  const fresh = new Session(state.session.levelXsb());
  try {
    return fresh.checkLurd(lurd);
  } finally {
    fresh.free();
  }
}

/** Replay a solution from the level's start: a restart first (undo brings the moves back). */
function replayFromStart(lurd, what) {
  if (state.pull) leavePull();
  interrupt();
  const s = state.session;
  let moves;
  try {
    moves = checkFromStart(lurd);
  } catch (e) {
    status(`That solution does not replay on this level: ${e.message}`, 'error');
    return;
  }
  if (state.view.moves > 0) s.restart();
  render();
  startReplay(moves, what);
}

function saveSnapshot() {
  interrupt();
  const s = state.session;
  const name = $('snap-name').value.trim() || progress.freeName(state.key);
  const r = progress.saveSnapshot(state.key, s.levelXsb(), state.title, name, { line: s.historyLurd(), moves: state.view.moves, pushes: state.view.pushes });
  if (!r.saved) status('This browser would not save the snapshot: its storage is full or disabled.', 'error');
  else status(`${r.replaced ? 'Replaced' : 'Saved'} the snapshot “${name}” (${scoreText(state.view)}).`, 'ok');
  $('snap-name').value = '';
  showProgress();
}

/** Put a snapshot's position on the board: a restart and its moves, so undo goes back. */
function restoreSnapshot(snap) {
  if (state.pull) leavePull();
  interrupt();
  const s = state.session;
  try {
    checkFromStart(snap.line);
  } catch (e) {
    status(`The snapshot “${snap.name}” does not fit this level: ${e.message}`, 'error');
    return;
  }
  const undos = (state.view.moves > 0 && s.restart() ? 1 : 0) + (snap.line ? 1 : 0);
  if (snap.line) s.playLurd(snap.line);
  render();
  const back = undos === 2 ? ' Undo twice to go back to where you were.' : undos === 1 ? ' Undo goes back to where you were.' : '';
  status(`Restored the snapshot “${snap.name}” (${scoreText(state.view)}).${back}`, 'ok');
}

function exportProgress() {
  const text = progress.exportText(io.allHistory());
  const day = new Date().toISOString().slice(0, 10);
  io.downloadText(`sokoban-progress-${day}.json`, text);
  status('Exported your progress as a JSON file: import it in another browser to carry on there.', 'ok');
}

async function importProgress(file) {
  let text;
  try {
    text = await io.readFile(file);
  } catch (e) {
    status(`Could not read ${file.name}: ${e.message}`, 'error');
    return;
  }
  let r;
  try {
    r = progress.importText(text);
  } catch (e) {
    status(`Nothing was imported from ${file.name}. ${e.message}`, 'error');
    return;
  }
  if (!r.count.saved) {
    status(`Nothing was imported from ${file.name}: this browser would not save it (storage full or disabled).`, 'error');
    return;
  }
  const histories = io.mergeHistory(r.content.history);
  const c = r.count;
  status(`Imported ${file.name}: ${plural(c.levels, 'level', 'levels')} (${c.solved} solved, ${c.newSolved} new here), ${plural(c.snapshots, 'snapshot', 'snapshots')}, ${plural(c.myLevels, 'level of your own', 'levels of your own')}, ${plural(histories, 'move history', 'move histories')}.`, 'ok');
  renderCollection();
  showProgress();
}

// ---------------------------------------------------------------- pull mode

// Pull mode plays the level backwards (a PullSession in place of the Session): the boxes
// start on the goals, the player pulls them back to where the level starts them. The
// rules and the conversion to a forward solution are the wasm's; here: swapping the
// sessions, the read-out, and offering the forward solution.
const PULL_OFF = ['solve', 'hint', 'still-solvable', 'snap-save', 'copy-solution', 'copy-link-solution'];

/** Pull mode on the level on the board; `saved` (from io.loadPull) resumes a game kept over a reload. */
function enterPull(saved = null) {
  if (state.pull) return;
  stopEverything();
  const xsb = state.session.levelXsb();
  let p;
  try {
    p = new PullSession(xsb);
  } catch (e) {
    status(`Pull mode cannot start here: ${e.message}`, 'error');
    return;
  }
  let start = p.player();
  let resumed = '';
  if (saved) {
    const r = resumePull(xsb, saved);
    if (r) {
      p.free();
      p = r;
      start = saved.start;
      resumed = 'ok';
    } else resumed = 'lost';
  }
  state.pull = { forward: state.session, announced: false, start };
  state.session = p;
  pullUi(true);
  render();
  if (resumed === 'ok') status('Pull mode, as you left it: the level is played backwards (Leave pull mode returns to the forward game).');
  else if (resumed === 'lost') status('The pull-mode game kept in this browser does not fit this level any more: pull mode starts afresh.', 'error');
  else status('Pull mode: the boxes start on the goals. Pull them back to the marked squares, where the level starts them: moving away from a box pulls it (Shift+arrow steps without pulling); drag a box to pull it along. Before the first move, click any free square to start there.');
}

/**
 * A PullSession with a saved reverse game: the player placed on its start, the moves made
 * one by one (each its own undo step, as a restored forward history), the redo list made
 * and taken back. Every move is the wasm's to allow; null when any does not fit.
 */
function resumePull(xsb, saved) {
  const p = new PullSession(xsb);
  const stepAs = (c) => {
    const dir = 'urdl'.indexOf(c.toLowerCase());
    return dir >= 0 && p.step(dir, c !== c.toLowerCase()) === c;
  };
  const ok = saved.xsb === xsb
    && (saved.start === p.player() || p.placePlayer(saved.start))
    && [...saved.line].every(stepAs)
    && [...saved.redo].every(stepAs)
    && [...saved.redo].every(() => p.undo());
  if (ok) return p;
  p.free();
  return null;
}

function leavePull() {
  if (!state.pull) return;
  stopEverything();
  state.session.free();
  state.session = state.pull.forward;
  state.pull = null;
  io.savePull(null);
  pullUi(false);
  state.wasSolved = true; // do not announce the forward game's state again
  render();
}

/** After a reload: back into pull mode when the level on the board was left in it. */
function resumeSavedPull() {
  const saved = io.loadPull();
  if (!saved) return;
  if (saved.xsb === state.session.levelXsb()) enterPull(saved);
  else io.savePull(null); // another level is on the board now
}

function pullUi(on) {
  document.body.classList.toggle('pull', on);
  const b = $('pull-mode');
  b.setAttribute('aria-pressed', String(on));
  b.textContent = on ? 'Leave pull mode' : 'Pull mode';
  $('pushes-label').textContent = on ? 'Pulls' : 'Pushes';
  for (const id of PULL_OFF) $(id).disabled = on;
  if (!on) setSolving(solving());
}

/** The read-out of pull mode; when the boxes are back at the start, offer the forward solution. */
function renderPull(v) {
  const banner = $('solved');
  if (!v.solved) {
    state.pull.announced = false;
    return;
  }
  banner.textContent = `✓ Back at the start: ${v.moves} moves, ${v.pushes} pulls`;
  if (state.pull.announced) return;
  state.pull.announced = true;
  const s = state.session;
  const fwd = s.forwardLurd();
  let c;
  try {
    c = checkSolution(s.levelXsb(), fwd);
  } catch (e) {
    status(`The reverse moves do not make a forward solution: ${e.message}`, 'error');
    return;
  }
  const r = progress.recordSolution(state.key, s.levelXsb(), state.title, { lurd: c.lurd, moves: c.moves, pushes: c.pushes });
  const best = r.bestMoves || r.bestPushes ? ' It is kept with your best solutions.' : '';
  status(`The boxes are back where the level starts them! Read backwards, your pulls are a forward solution: ${scoreText(c)}.${best}`, 'ok');
  const box = $('link-solution');
  box.querySelector('span').textContent = `Forward solution from pull mode: ${scoreText(c)}.`;
  box.hidden = false;
  $('link-replay').textContent = 'Play it forward';
  $('link-replay').onclick = () => {
    box.hidden = true;
    replayFromStart(c.lurd, 'the solution found in pull mode');
  };
  renderCollection();
  showProgress();
}

// ---------------------------------------------------------------- editor, my levels

/** What the editor may ask of the page. */
const editorApi = {
  parse,
  formatLevel,
  viewOf(xsb) {
    const s = new Session(xsb);
    try {
      return s.view();
    } finally {
      s.free();
    }
  },
  play(xsb, title) {
    clearUrlLevel();
    state.collection = null;
    io.saveCollection(null);
    openLevel(xsb, title || 'My level');
    status('Playing the level from the editor. Edit this level takes you back to it.');
  },
  save(xsb, title) {
    const r = progress.saveMyLevel(levelKey(xsb), xsb, title);
    if (!r.saved) status('This browser would not save the level: its storage is full or disabled. The drawing stays in the editor.', 'error');
    else status(`${r.replaced ? 'Updated' : 'Saved'} “${title || 'Untitled level'}” in My levels (${plural(progress.myLevels().length, 'level', 'levels')}).`, 'ok');
    refreshMine();
    showProgress();
  },
  share: (text, what) => share(text, what),
  status: (text, kind) => status(text, kind),
};

/** My levels as the text of a collection. */
const myLevelsText = (mine) => `; My levels\n\n${mine.map((l, i) => `; ${myLevelTitle(l, i)}\n${l.xsb}`).join('\n\n')}\n`;

/** Open My levels as a collection, at level `at` (the first by default). */
function openMyLevels(at = 0) {
  const mine = progress.myLevels();
  if (!mine.length) {
    status('No levels of your own yet: draw one with New level, then Save to my levels.', 'error');
    return;
  }
  if (!loadText(myLevelsText(mine), 'my levels')) return;
  const col = state.collection;
  if (!col) return; // a single level
  col.mine = true;
  io.saveCollection({ title: col.title, levels: col.levels, mine: true });
  if (at > 0 && at !== col.index) goToLevel(at);
}

/**
 * After My levels changed: an open My levels collection lists them again (the level on
 * the board stays; when it is no longer one of them it is played on its own).
 */
function refreshMine() {
  const col = state.collection;
  if (!col?.mine) return;
  const mine = progress.myLevels();
  let levels = [];
  try {
    if (mine.length) levels = parse(myLevelsText(mine)).levels;
  } catch {
    levels = [];
  }
  const index = levels.findIndex((l) => keyOf(l) === state.key);
  state.collection = index < 0 ? null : { title: col.title, levels, index, mine: true };
  io.saveCollection(state.collection && { title: col.title, levels, mine: true });
  save();
  showTitle();
  renderCollection();
}

let undoDelete = null; // {entry, index, name}: the level of My levels deleted last

function deleteMyLevel(l, i) {
  const name = myLevelTitle(l, i);
  const r = progress.deleteMyLevel(l.key);
  if (!r.saved) {
    status('This browser would not save the change: its storage is full or disabled. Nothing was deleted.', 'error');
    return;
  }
  undoDelete = r.entry && { entry: r.entry, index: r.index, name };
  $('my-undo-text').textContent = `Deleted “${name}”.`;
  $('my-undo').hidden = !undoDelete;
  status(`Deleted “${name}” from My levels (${plural(progress.myLevels().length, 'level', 'levels')} left). Undo delete brings it back.`, 'ok');
  refreshMine();
  showProgress();
  if (undoDelete) $('my-undo-button').focus(); // the focused Delete button is gone
}

function undoDeleteMyLevel() {
  const u = undoDelete;
  if (!u) return;
  if (!progress.restoreMyLevel(u.entry, u.index)) {
    status('This browser would not save the change: its storage is full or disabled.', 'error');
    return;
  }
  undoDelete = null;
  $('my-undo').hidden = true;
  status(`“${u.name}” is back in My levels.`, 'ok');
  refreshMine();
  showProgress();
  document.querySelector(`#my-list li[data-key="${CSS.escape(u.entry.key)}"] button`)?.focus();
}

/** The wasm checks progress.js runs on an imported file. */
const progressChecks = {
  levelKey,
  checkSolution,
  checkHistory(xsb, line, redo) {
    const s = Session.restore(xsb, line, redo);
    try {
      const v = s.view();
      return { line: s.historyLurd(), moves: v.moves, pushes: v.pushes };
    } finally {
      s.free();
    }
  },
};

// ---------------------------------------------------------------- playing

// `letter` (from a move list) says whether to pull in pull mode: uppercase pulls; without
// one a pull-mode step pulls the box behind the player, if any.
const stepFacing = (dir, letter) => {
  const made = state.session.step(dir, letter === undefined ? undefined : letter !== letter.toLowerCase());
  if (made !== undefined) state.facing = dir;
  return made;
};
// A walk or box drag is one undo group: it starts in animate() and closes when the
// animation ends, is finished early by another input, or is dropped.
const endGroup = () => state.session?.endGroup();
const walk = new Playback({
  step: stepFacing,
  undo: () => state.session.undo(),
  onChange: render,
  onEnd: (why) => {
    endGroup();
    if (why === 'blocked') walk.stop();
    announce();
  },
});
const replay = new Playback({
  step: stepFacing,
  undo: () => state.session.undo(),
  onChange: render,
  onEnd: (why, i) => {
    if (why === 'blocked') status(`Replay stopped: move ${i + 1} is blocked.`, 'error');
    else if (!state.view.solved) status('Replay finished.');
    updateReplayUi();
    announce();
  },
});

function clearSelection() {
  state.selected = -1;
  state.reach = null;
  state.drag = null;
  state.target = -1;
  state.cursor = -1;
}

/** A new input first finishes a walk and ends a replay, then acts on the Session. */
function interrupt() {
  walk.finish();
  endGroup();
  if (replay.length) closeReplay();
  clearSelection();
}

function stopEverything() {
  $('link-solution').hidden = true;
  walk.stop();
  endGroup();
  closeReplay();
  clearSelection();
  fastPool.cancel();
  fastSolver.cancel();
  optimalSolver.cancel();
  dropOffer();
}

function act(fn) {
  return (arg) => {
    interrupt();
    fn(arg);
    render();
    announce();
  };
}

let saidFirst = ''; // said before the counters when the next action ends (a keyboard push)

/** Say the counters in the (visually hidden) live region, after an action ends. */
function announce() {
  const v = state.view;
  const [one, many] = state.pull ? ['pull', 'pulls'] : ['push', 'pushes'];
  say(`${saidFirst}${plural(v.moves, 'move', 'moves')}, ${plural(v.pushes, one, many)}, ${v.boxesOnGoals} of ${v.boxCount} boxes ${state.pull ? 'back at the start' : 'on goals'}.`);
  saidFirst = '';
}

/** Put text in the live region only screen readers hear. */
const say = (text) => ($('announce').textContent = text);

const actions = {
  move: act((dir) => {
    if (stepFacing(dir) === undefined) state.facing = dir;
  }),
  // Shift+arrow: in pull mode a step that pulls nothing; otherwise a plain move.
  moveOnly: act((dir) => {
    if (stepFacing(dir, 'urdl'[dir]) === undefined) state.facing = dir;
  }),
  undo: act(() => state.session.undo()),
  redo: act(() => state.session.redo()),
  restart: act(() => {
    if (state.session.restart()) status('Restarted. Undo brings your moves back.');
  }),
  home: act(() => state.session.undoAll()),
  end: act(() => state.session.redoAll()),
  escape() {
    walk.finish();
    if (state.selected >= 0 || state.drag) {
      clearSelection();
      status('Box let go.');
      say('Box let go.');
      draw();
    }
  },
  // Box mode: the keyboard's way to choose a box and where it goes (box-keys.js).
  boxMode: () => state.cursor >= 0,
  chooseBox(step) {
    const current = state.cursor >= 0 ? state.selected : -1;
    interrupt();
    const v = state.view;
    const sq = pickBox(v, current, step);
    if (sq < 0) {
      say('There is no box to choose.');
      return;
    }
    state.selected = state.cursor = sq;
    state.reach = new Set(state.session.boxReach(sq));
    if (current < 0) {
      status(`Box mode: the arrows move the target over the lit squares, Enter ${state.pull ? 'pulls' : 'pushes'} the box there, B or Tab chooses the next box, Esc lets go.`);
    }
    say(boxText(v, sq, state.reach.size, !!state.pull));
    draw();
  },
  target(dir) {
    const v = state.view;
    const next = stepTarget(state.reach, state.cursor, dir, v.width);
    if (next < 0) {
      say(noneText(dir));
      return;
    }
    state.cursor = next;
    state.target = next === state.selected ? -1 : next;
    if (next === state.selected) say(`${squareText(v, next, !!state.pull)}: where the box is now.`);
    else {
      const path = state.session.boxPath(state.selected, next) ?? '';
      const pushes = path.replace(/[a-z]/g, '').length;
      say(`${squareText(v, next, !!state.pull)}: ${plural(pushes, state.pull ? 'pull' : 'push', state.pull ? 'pulls' : 'pushes')}, ${plural(path.length, 'move', 'moves')}.`);
    }
    draw();
  },
  pushTarget() {
    const from = state.selected, to = state.cursor;
    if (to === from) {
      say(`Choose where the box goes with the arrows first, then press Enter. ${state.reach.size > 1 ? '' : 'This box cannot move from here.'}`.trim());
      return;
    }
    saidFirst = `Box ${state.pull ? 'pulled' : 'pushed'} to ${squareText(state.view, to, !!state.pull).replace(/^R/, 'r')}. `;
    if (!pushBox(from, to)) saidFirst = '';
    draw();
  },
  zoom: (how) => zoomBoard(board, how, draw, state.view.player),
  redraw: () => draw(),
  hasBox: (sq) => !!state.view.boxes[sq],
  click(sq) {
    const selected = state.selected;
    interrupt();
    const v = state.view;
    if (selected >= 0) {
      if (sq === selected) status('Box let go.');
      else if (v.boxes[sq]) selectBox(sq);
      else pushBox(selected, sq);
      draw();
      return;
    }
    if (v.boxes[sq]) selectBox(sq);
    else if (v.cells[sq] === 2 && sq !== v.player) {
      const path = state.session.walkTo(sq);
      if (path !== undefined) animate(path);
      else if (state.pull && v.moves === 0 && state.session.placePlayer(sq)) {
        state.pull.start = sq;
        render();
        status('The player starts here.');
      } else status('The player cannot get there.', 'error');
    }
    draw();
  },
  dragStart(sq) {
    interrupt();
    if (!state.view.boxes[sq]) return false; // it moved: an animation was just finished
    state.reach = new Set(state.session.boxReach(sq));
    state.drag = { from: sq };
    return true;
  },
  dragMove(sq, clientX, clientY) {
    if (!state.drag) return;
    Object.assign(state.drag, { clientX, clientY });
    state.target = state.reach.has(sq) && sq !== state.drag.from ? sq : -1;
    draw();
  },
  drop(sq) {
    const from = state.drag?.from;
    if (from === undefined) return;
    clearSelection();
    if (sq !== from) pushBox(from, sq);
    draw();
  },
  dragCancel() {
    clearSelection();
    draw();
  },
};

function selectBox(sq) {
  state.selected = sq;
  state.reach = new Set(state.session.boxReach(sq));
  const push = state.pull ? 'pull' : 'push';
  status(state.reach.size > 1 ? `Box selected: click a lit square to ${push} it there (Esc lets go).` : `This box cannot be ${push}ed anywhere from here.`);
}

/** Push the box on `from` to `to` by the best box path, animated; explain when impossible. */
function pushBox(from, to) {
  const path = to >= 0 ? state.session.boxPath(from, to) : undefined;
  clearSelection();
  if (path === undefined) {
    status(`The box cannot be ${state.pull ? 'pulled' : 'pushed'} there.`, 'error');
    return false;
  }
  status('');
  animate(path);
  return true;
}

function animate(lurd) {
  if (!lurd) return;
  walk.load(lurd, WALK_MS);
  state.session.beginGroup();
  walk.play();
  if (reducedMotion()) walk.finish(); // no animation: the walk or drag happens at once
}

// ---------------------------------------------------------------- replay

function startReplay(lurd, what) {
  interrupt();
  closeMenu();
  replay.load(lurd, 1000 / SPEEDS[$('r-speed').value]);
  $('replay-controls').hidden = false;
  status(`Replaying ${what}: ${lurd.length} moves.`);
  replay.play();
  updateReplayUi();
}

function closeReplay() {
  replay.stop();
  $('replay-controls').hidden = true;
}

function updateReplayUi() {
  if ($('replay-controls').hidden) return;
  const n = replay.length, at = replay.pos;
  $('r-play').textContent = replay.playing ? 'Pause' : 'Play';
  $('r-play').disabled = at >= n;
  $('r-forward').disabled = at >= n;
  $('r-end').disabled = at >= n;
  $('r-back').disabled = at === 0;
  $('r-progress').max = Math.max(1, n);
  $('r-progress').value = at;
  $('r-pos').textContent = `${at} / ${n}`;
}

/** Replay pasted moves: from the current position if they fit, else from the start. */
function replayText(lurd) {
  if (state.pull) leavePull();
  const s = state.session;
  try {
    startReplay(s.checkLurd(lurd), 'the pasted moves');
    return true;
  } catch (here) {
    if (state.view.moves === 0) {
      status(`These moves do not fit this level: ${here.message}`, 'error');
      return false;
    }
    const fresh = new Session(s.levelXsb());
    try {
      const moves = fresh.checkLurd(lurd);
      interrupt();
      s.restart();
      render();
      startReplay(moves, 'the pasted moves from the start');
      return true;
    } catch (e) {
      status(`These moves do not fit this level, from here or from the start: ${e.message}`, 'error');
      return false;
    } finally {
      fresh.free();
    }
  }
}

// ---------------------------------------------------------------- solver

const FAST_MIB = 512; // fast search memory, shared by the portfolio's workers (a wasm tab has 2–4 GB at most; the same total on a phone)
const TABLE_MIB = 64; // IDA* table
const ALONGSIDE_MIB = 256; // the fast search next to the IDA* (see solveFewest)

/** 'fast' or 'optimal', as the Solve mode switch says. */
function solveMode() {
  return document.querySelector('input[name="s-mode"]:checked')?.value === 'optimal' ? 'optimal' : 'fast';
}

function mibInput(id, fallback, max) {
  const v = Number($(id).value);
  return v >= 1 ? Math.min(Math.round(v), max) : fallback;
}

function solverOptions(mode) {
  const opts = { mode };
  const limit = Number($('s-limit').value);
  if (limit > 0) opts.timeLimitMs = limit * 1000;
  if (mode === 'fast') opts.memoryMiB = mibInput('s-memory-mib', FAST_MIB, 3072);
  else opts.tableMiB = mibInput('s-table-mib', TABLE_MIB, 1024);
  return opts;
}

function setSolving(on) {
  document.body.classList.toggle('solving', on); // the phone's bar swaps Solve and Hint for Cancel
  if (on) $('solver-card').dataset.searched = 'true';
  $('solve').disabled = on;
  $('hint').disabled = on;
  $('still-solvable').disabled = on;
  $('cancel').disabled = !on;
}

// A verified solution is kept (state.plan) with the positions it passes after each push:
// while the position on the board is one of them, Hint plays the next push from it with
// no new search. The position after a push does not depend on the walk to it, so pushing
// the same boxes the same way by hand follows the solution too; any other push leaves it,
// and the next Hint drops it and searches again.

/** Boxes as a key: their squares, sorted. */
const boxKey = (boxes) => Array.from(boxes).sort((a, b) => a - b).join(',');

function keepSolution(session, player, boxes, moves) {
  const width = state.view.width;
  const delta = { u: -width, d: width, l: -1, r: 1 };
  const on = new Set(boxes);
  const points = [{ key: boxKey(on), player, at: 0 }]; // at: index in moves of what follows
  let p = player;
  for (let i = 0; i < moves.length; i++) {
    const c = moves[i];
    const d = delta[c.toLowerCase()];
    p += d;
    if (c !== c.toLowerCase()) {
      on.delete(p);
      on.add(p + d);
      points.push({ key: boxKey(on), player: p, at: i + 1 });
    }
  }
  state.plan = { session, moves, points, delta };
}

/** The next push along the kept solution from here: {moves, toGo}, or null (plan dropped). */
function hintFromPlan() {
  const plan = state.plan;
  const s = state.session;
  if (!plan || plan.session !== s) return null;
  const key = boxKey(s.boxSquares());
  const player = s.player();
  // The latest point with these boxes whose next push the player can walk to.
  for (let k = plan.points.length - 2; k >= 0; k--) {
    const at = plan.points[k];
    if (at.key !== key) continue;
    const next = plan.points[k + 1];
    let moves = plan.moves.slice(at.at, next.at);
    if (player !== at.player) {
      const push = moves[moves.length - 1];
      const stand = next.player - plan.delta[push.toLowerCase()];
      const walk = stand === player ? '' : s.walkTo(stand);
      if (walk === undefined) continue;
      moves = walk + push;
    }
    try {
      moves = s.checkLurd(moves); // never trust, verify
    } catch {
      continue;
    }
    return { moves, toGo: plan.points.length - 1 - k };
  }
  state.plan = null;
  return null;
}

function playHint(moves, toGo, kept) {
  const rest = `${toGo} push${toGo === 1 ? '' : 'es'} to go`;
  panel.setState(`Hint: the next push (${rest}${kept ? ' along the solution found before; no new search' : ' with the solution found'}).`, 'ok');
  status('Hint: walking to the next push.');
  animate(moves.slice(0, moves.search(/[A-Z]/) + 1));
}

/**
 * Check a solution found from the search's start position: against the board when it is
 * still there, else against a copy of the game at that position. Returns the moves with
 * their push flags; throws when they do not replay.
 */
function verifyFrom(start, lurd) {
  const s = state.session;
  if (s === start.session && s.historyLurd() === start.history) return s.checkLurd(lurd);
  const copy = Session.restore(start.xsb, start.history, '');
  try {
    return copy.checkLurd(lurd);
  } finally {
    copy.free();
  }
}

// A solution the panel offers with its Replay button (a first solution, or one found
// after the position changed): {session, history, moves, what}.
function offer(start, moves, label, what) {
  state.offer = { session: start.session, history: start.history, moves, what };
  $('s-replay').textContent = label;
  $('s-offer').hidden = false;
}

function dropOffer() {
  state.offer = null;
  $('s-offer').hidden = true;
}

/** Replay the offered solution, first taking back the moves made since its search started
 *  when they only went on from there (the replay of another solution, say). */
function replayOffer() {
  const o = state.offer;
  const s = state.session;
  if (!o || o.session !== s) return dropOffer();
  interrupt();
  let h = s.historyLurd();
  while (h !== o.history && h.length > o.history.length && h.startsWith(o.history) && s.undo()) h = s.historyLurd();
  render();
  if (h !== o.history) {
    status('The position has changed since this solution was found, and undoing does not get back there: press Solve again.', 'error');
    return;
  }
  startReplay(o.moves, o.what);
}

async function runSolver(kind) {
  if (solving()) return;
  interrupt();
  render();
  const s = state.session;
  if (state.view.solved) {
    panel.setState('The level is already solved.', 'ok');
    return;
  }
  if (kind === 'hint') {
    const h = hintFromPlan();
    if (h) return playHint(h.moves, h.toGo, true);
  }
  const mode = kind === 'hint' ? 'fast' : solveMode();
  const start = {
    session: s, xsb: s.levelXsb(), history: s.historyLurd(), player: s.player(),
    boxes: Array.from(s.boxSquares()), atStart: state.view.moves === 0,
  };
  const request = (options) => ({ level: start.xsb, player: start.player, boxes: start.boxes, options });
  dropOffer();
  panel.reset(mode);
  panel.setState(kind === 'hint' ? 'Looking for a solution to take the next push from…'
    : mode === 'fast' ? 'Solving (fast: any solution)…' : 'Solving (fewest pushes)…', 'running');
  setSolving(true);
  searches++;
  let msg;
  if (mode === 'fast') {
    const show = (m, workers) => {
      const all = combine(m, workers);
      if (all.mode) panel.update(all); // a crashed worker's message has no read-out
      panel.setWorkers(workers);
    };
    msg = await fastPool.solve(request(solverOptions('fast')), show);
    if (msg.mode) show(msg, msg.workers);
  } else {
    msg = await solveFewest(start, request);
  }
  setSolving(false);
  if (msg.type !== 'solved') {
    if (!msg.shown) panel.showEnd(msg, start.atStart);
    return;
  }
  const by = msg.workers?.length > 1 ? ` Solved by worker ${msg.lane + 1} (${msg.solvedBy ?? 'its strategy'}).` : '';
  let moves;
  try {
    moves = verifyFrom(start, msg.lurd);
  } catch (e) {
    panel.setState(`The solver's answer does not replay: ${e.message}`, 'bad');
    return;
  }
  if (start.session !== state.session) return; // another level since
  keepSolution(s, start.player, start.boxes, moves);
  const shortened = msg.foundPushes != null ? `, shortened from ${msg.foundPushes} pushes, ${msg.foundMoves} moves` : '';
  const how = mode === 'fast' ? `fast search: not necessarily the fewest pushes${shortened}` : msg.proven ? 'fewest pushes, proven' : 'fewest pushes';
  const text = `${msg.pushes} pushes, ${msg.moves} moves (${how}), ${msg.proven ? 'in' : 'found in'} ${fmtTime(msg.elapsedMs)}`;
  if (s.historyLurd() !== start.history) {
    if (kind !== 'hint') offer(start, moves, 'Replay it', 'the solver’s solution');
    panel.setState(kind === 'hint'
      ? `Found a solution (${msg.pushes} pushes), but the position has changed since: press Hint again.`
      : `Found a solution: ${text}. The position has changed since: Replay goes back there, if undoing can, and plays it.`, 'bad');
    return;
  }
  if (kind === 'hint') return playHint(moves, msg.pushes, false);
  panel.setState(`Solved: ${text}.${by}`, 'ok');
  startReplay(moves, 'the solver’s solution');
}

const SOLVABLE_MS = 5000; // how long "Still solvable?" looks

/**
 * Is this still solvable? A short fast search from the position on the board: yes (with
 * the pushes left; the solution is kept for Hint), no (proved: a deadlock the rules
 * engine sees at once, or a search that ran out of positions), or don't know in time.
 */
async function checkSolvable() {
  if (solving()) return;
  interrupt();
  render();
  const s = state.session;
  const say = (text, kind) => {
    panel.setState(text, kind);
    status(text, kind === 'bad' ? 'error' : kind);
  };
  if (state.view.solved) return say('The level is solved.', 'ok');
  if (state.dead.size) return say(`No, proved: ${deadlockText(s.deadlocks()).replace(/^⚠ /, '')}`, 'bad');
  const start = { session: s, xsb: s.levelXsb(), history: s.historyLurd(), player: s.player(), boxes: Array.from(s.boxSquares()) };
  dropOffer();
  panel.reset('fast');
  panel.setState(`Is this still solvable? Looking for up to ${SOLVABLE_MS / 1000} s…`, 'running');
  setSolving(true);
  searches++;
  const options = { mode: 'fast', timeLimitMs: SOLVABLE_MS, memoryMiB: Math.min(ALONGSIDE_MIB, mibInput('s-memory-mib', FAST_MIB, 3072)) };
  const msg = await fastSolver.solve({ level: start.xsb, player: start.player, boxes: start.boxes, options }, (m) => panel.update(m));
  if (msg.mode) panel.update(msg);
  setSolving(false);
  if (start.session !== state.session) return;
  const changed = s.historyLurd() !== start.history ? ' (for the position when you asked; it has changed since)' : '';
  if (msg.type === 'solved') {
    let moves;
    try {
      moves = verifyFrom(start, msg.lurd);
    } catch (e) {
      return say(`The solver's answer does not replay: ${e.message}`, 'bad');
    }
    keepSolution(s, start.player, start.boxes, moves);
    return say(`Yes: ${plural(msg.pushes, 'push', 'pushes')} left${changed}, by a solution the fast search found (not necessarily the fewest). Hint plays its next push.`, 'ok');
  }
  if (msg.type === 'unsolvable') return say(`No, proved: no moves from here${changed} solve the level. Undo to go back.`, 'bad');
  if (msg.type === 'limit') {
    return say(`Don't know: no answer within ${msg.limit === 'memory' ? 'the memory allowed' : `${SOLVABLE_MS / 1000} s`}. Solve searches as long as it takes.`, '');
  }
  if (msg.type === 'cancelled') return say('Cancelled: no answer.', '');
  panel.showEnd(msg, false);
}

/**
 * Fewest pushes: the IDA* in its worker and, where the machine has more than one core, the
 * fast search in a second worker at the same time. Why both: the IDA* can take minutes or
 * hours on a level the fast search solves in a second, so the fast one's solution is
 * offered at once as a first answer while the IDA* goes on; and since the IDA* threshold
 * is a proven lower bound, once it reaches that solution's push count the first answer is
 * known to have the fewest pushes and the IDA* can stop. The fast search alongside gets at
 * most 256 MiB so that the two stay well within a tab's memory (64 MiB table + 256 MiB);
 * on one core it would only slow the IDA* down, so it does not run. Resolves with the
 * IDA*'s final message, or a solved / unsolvable one made from the fast search's.
 */
async function solveFewest(start, request) {
  const run = { first: null, proven: false, unsolvable: null, threshold: 0 };
  const proveFirst = () => {
    if (run.first && !run.proven && run.threshold >= run.first.pushes) {
      run.proven = true;
      optimalSolver.cancel();
    }
  };
  const optimal = optimalSolver.solve(request(solverOptions('optimal')), (m) => {
    panel.update(m);
    run.threshold = Math.max(run.threshold, m.threshold);
    proveFirst();
  });
  let alongside = Promise.resolve();
  if (navigator.hardwareConcurrency > 1) {
    const opts = solverOptions('fast');
    opts.memoryMiB = Math.min(opts.memoryMiB, ALONGSIDE_MIB);
    panel.setFirst('A fast search runs alongside for a first solution…');
    alongside = fastSolver.solve(request(opts), (m) => {
      if (!run.first) panel.setFirst(`Fast search alongside: best packed ${m.bestPacked} / ${m.goals}, ${fmtCount(m.positions)} positions, ${fmtTime(m.elapsedMs)}…`);
    }).then((m) => {
      if (m.type === 'solved') {
        let moves;
        try {
          moves = verifyFrom(start, m.lurd);
        } catch (e) {
          panel.setFirst(`The fast search's answer does not replay: ${e.message}`);
          return;
        }
        run.first = m;
        if (start.session !== state.session) return;
        keepSolution(start.session, start.player, start.boxes, moves);
        panel.setFirst(`First solution: ${m.pushes} pushes, ${m.moves} moves (fast search, ${fmtTime(m.elapsedMs)}); looking for fewer pushes…`, 'ok');
        offer(start, moves, 'Replay first solution', 'the first solution');
        proveFirst();
      } else if (m.type === 'unsolvable') {
        run.unsolvable = m; // proven by the fast search: the IDA* need not go on
        optimalSolver.cancel();
      } else if (m.type !== 'cancelled') {
        panel.setFirst(`Fast search alongside: ${endText(m, start.atStart)}`);
      }
    });
  }
  const msg = await optimal;
  if (msg.mode) panel.update(msg);
  fastSolver.cancel();
  await alongside;
  if (run.proven) {
    panel.setFirst(`The fast search found it in ${fmtTime(run.first.elapsedMs)}; then the IDA* proved that no solution has fewer pushes.`, 'ok');
    dropOffer();
    return { ...run.first, proven: true, elapsedMs: msg.elapsedMs ?? run.first.elapsedMs };
  }
  if (run.unsolvable) return run.unsolvable;
  if (run.first && msg.type === 'solved') {
    panel.setFirst(`First solution: ${run.first.pushes} pushes (fast search); the fewest are ${msg.pushes}.`, 'ok');
    dropOffer();
  }
  if (run.first && msg.type !== 'solved') {
    // The first solution stays on offer; say how the IDA* ended.
    panel.setState(`${endText(msg, start.atStart).replace(/ without a solution\.$/, '.')} The fewest pushes are not proven; the first solution (${run.first.pushes} pushes) can be replayed.`, msg.type === 'cancelled' ? '' : 'bad');
    return { ...msg, shown: true };
  }
  return msg;
}

// ---------------------------------------------------------------- paste

const PASTE_NOTE = $('paste-note').textContent;
const CLIPBOARD_MS = 5000; // a browser may ask the person first: wait that long for the answer

/**
 * The Paste a level button: the clipboard's text where the browser lets the page read it;
 * else (no permission, nothing there, not a level) the Level box, in view and focused,
 * with a note saying why and how to paste by hand.
 */
async function pasteLevel() {
  let text = '';
  try {
    const timeout = new Promise((_, fail) => setTimeout(() => fail(new Error('timeout')), CLIPBOARD_MS));
    text = await Promise.race([navigator.clipboard.readText(), timeout]);
  } catch {
    text = ''; // no clipboard API, refused, or no answer in time
  }
  if (text.trim() && loadText(text, 'clipboard text')) return;
  const why = text.trim() ? $('status').textContent : 'The page may not read the clipboard here (or it is empty).';
  const box = $('level-text');
  reveal(box);
  box.focus();
  $('paste-note').textContent = `${why} Paste the level into this box (Ctrl+V, or touch and hold, then Paste) and press Load.`;
  $('paste-note').dataset.kind = text.trim() ? 'error' : '';
}

// ---------------------------------------------------------------- share

async function share(text, what) {
  const out = $('output');
  out.value = text;
  if (await io.copyText(text)) {
    status(`Copied the ${what} to the clipboard.`, 'ok');
  } else {
    reveal(out);
    out.focus();
    out.select();
    status(`The clipboard is not available: the ${what} is selected in the Copied text box (Share), copy it with Ctrl+C.`);
  }
}

/** A solution to put in a link: the moves on the board when they solve it, else the best saved. */
function linkSolution() {
  const s = state.session;
  if (state.view.solved) return s.historyLurd();
  return progress.record(state.key)?.bestMoves?.lurd ?? '';
}

function copyLinkWithSolution() {
  const lurd = linkSolution();
  if (!lurd) {
    status('There is no solution to put in the link yet: solve the level (or replay a solution to the end) first.', 'error');
    return;
  }
  const url = `${state.session.shareUrl(location.origin + location.pathname)}&solution=${encodeURIComponent(rleLurd(lurd))}`;
  share(url, 'share link with the solution');
}

/** A link opened with a solution in it: check it and offer to replay it. */
function offerLinkSolution(xsb, text) {
  $('link-replay').textContent = 'Replay it';
  let c;
  try {
    c = checkSolution(xsb, text);
  } catch (e) {
    status(`The link's solution does not solve this level (${e.message}); the level is open to play.`, 'error');
    return;
  }
  const box = $('link-solution');
  box.querySelector('span').textContent = `This link carries a solution: ${scoreText(c)}.`;
  box.hidden = false;
  $('link-replay').onclick = () => {
    box.hidden = true;
    replayFromStart(c.lurd, 'the solution from the link');
  };
}

function copySolution() {
  const s = state.session;
  const lurd = s.historyLurd() + (replay.length ? replay.remaining() : '');
  if (!lurd) {
    status('No moves to copy yet.');
    return;
  }
  const text = $('rle').checked ? rleLurd(lurd) : lurd;
  share(text, state.view.solved || replay.length ? 'solution' : 'moves so far');
}

// ---------------------------------------------------------------- start

function wireUi() {
  const on = (id, fn) => $(id).addEventListener('click', fn);
  on('undo', () => actions.undo());
  on('redo', () => actions.redo());
  on('restart', () => actions.restart());
  on('prev', () => goToLevel(nextValid(-1)));
  on('next', () => goToLevel(nextValid(1)));
  on('next-unsolved', () => {
    const i = nextUnsolved();
    if (i < 0) status('Every level of this collection is solved.', 'ok');
    else goToLevel(i);
  });
  on('snap-save', saveSnapshot);
  $('snap-name').addEventListener('keydown', (e) => {
    if (e.key === 'Enter') saveSnapshot();
  });
  on('export-progress', exportProgress);
  on('edit-level', () => {
    interrupt();
    closeMenu();
    openEditor(state.session.levelXsb(), state.title);
  });
  on('new-level', () => {
    interrupt();
    closeMenu();
    openEditor('');
  });
  on('my-levels', () => openMyLevels());
  on('my-undo-button', undoDeleteMyLevel);
  on('import-progress', () => $('import-file').click());
  $('import-file').addEventListener('change', (e) => {
    const file = e.target.files[0];
    e.target.value = '';
    if (file) importProgress(file);
  });
  on('load', () => loadText($('level-text').value, 'level text'));
  on('open-file', () => $('file-input').click());
  on('paste-level', pasteLevel);
  $('file-input').addEventListener('change', async (e) => {
    const file = e.target.files[0];
    if (file) loadText(await io.readFile(file), `file ${file.name}`);
    e.target.value = '';
  });
  on('replay', () => {
    const text = $('lurd-text').value;
    if (!text.trim()) return status('Type or paste some moves first (LURD letters).', 'error');
    let p;
    try {
      p = parse(text);
    } catch (e) {
      return status(`Could not read the moves: ${e.message}`, 'error');
    }
    if (p.kind !== 'solution') return status('That is a level, not a list of moves; use Load for levels.', 'error');
    replayText(p.lurd);
  });
  on('r-play', () => {
    if (replay.playing) replay.pause();
    else replay.play();
    updateReplayUi();
  });
  on('r-back', () => replay.back());
  on('r-forward', () => {
    replay.pause();
    replay.forward();
    updateReplayUi();
  });
  on('r-end', () => replay.finish());
  on('r-close', () => closeReplay());
  const speed = () => {
    const mps = SPEEDS[$('r-speed').value];
    $('r-speed-text').textContent = `${mps} moves/s`;
    replay.setDelay(1000 / mps);
  };
  $('r-speed').addEventListener('input', speed);
  speed();
  on('solve', () => runSolver('solve'));
  on('hint', () => runSolver('hint'));
  on('still-solvable', checkSolvable);
  on('zoom-in', () => actions.zoom('in'));
  on('zoom-out', () => actions.zoom('out'));
  on('zoom-fit', () => actions.zoom('fit'));
  on('pull-mode', () => (state.pull ? leavePull() : enterPull()));
  on('s-replay', replayOffer);
  for (const r of document.querySelectorAll('input[name="s-mode"]')) {
    r.checked = r.value === io.loadSolveMode();
    r.addEventListener('change', () => {
      io.saveSolveMode(solveMode());
      if (!solving()) panel.reset(solveMode());
    });
  }
  on('cancel', () => {
    fastPool.cancel();
    fastSolver.cancel();
    optimalSolver.cancel();
    panel.setState('Cancelling…', 'running');
  });
  on('copy-link', () => share(state.session.shareUrl(location.origin + location.pathname), 'share link'));
  on('copy-solution', copySolution);
  on('copy-link-solution', copyLinkWithSolution);
  on('link-dismiss', () => ($('link-solution').hidden = true));

  // Paste anywhere (but not into a text field, which keeps its own paste).
  document.addEventListener('paste', (e) => {
    if (isFormField(e.target)) return;
    const text = e.clipboardData?.getData('text/plain') ?? '';
    e.preventDefault();
    loadText(text, 'pasted text');
  });

  // Drop a level file (or dragged text) anywhere on the page.
  let depth = 0;
  const hint = $('drop-hint');
  document.addEventListener('dragenter', (e) => {
    if (!e.dataTransfer?.types.includes('Files')) return;
    depth++;
    hint.hidden = false;
  });
  document.addEventListener('dragleave', () => {
    if (depth > 0 && --depth === 0) hint.hidden = true;
  });
  document.addEventListener('dragover', (e) => e.preventDefault());
  document.addEventListener('drop', async (e) => {
    depth = 0;
    hint.hidden = true;
    if (isFormField(e.target) && !e.dataTransfer.files.length) return;
    e.preventDefault();
    const file = e.dataTransfer.files[0];
    if (file) loadText(await io.readFile(file), `file ${file.name}`);
    else loadText(e.dataTransfer.getData('text/plain'), 'dropped text');
  });

  addEventListener('resize', () => fitBoardHeight());
  new ResizeObserver(() => {
    if (!state.view) return;
    board.layout(state.view.width, state.view.height);
    draw();
    panel.drawChart();
  }).observe($('board-wrap'));
}

/** First level: from the URL, else what was open last time, else the built-in levels. */
function openFirstLevel() {
  const urlError = openUrlLevel();
  if (urlError === null) return resumeSavedPull();
  openSavedOrBuiltIn();
  resumeSavedPull();
  if (urlError) status(urlError, 'error');
  else openGenLink(); // a ?gen= link: the generated level replaces this one when ready
}

/** A level from the generator (generator.js): opened alone, like a pasted level. */
function openGenerated(xsb, title) {
  clearUrlLevel();
  state.collection = null;
  io.saveCollection(null);
  openLevel(xsb, title);
  status(`Opened a new generated level: ${title.replace(/^Generated /, '')}.`);
}

/** Open the level the page address names: null when opened, else the error or ''. */
function openUrlLevel() {
  if (io.urlHasLevel()) {
    try {
      const p = parse(location.href);
      const l = p.kind === 'levels' && p.levels.find((x) => !x.error);
      if (!l) throw new Error(p.levels?.[0]?.error || 'no level in the link');
      io.saveCollection(null);
      openLevel(l.xsb, levelTitle(l, p.title || 'Level from the link'));
      status(`Opened the level from the link (${p.format}).`);
      const sol = new URLSearchParams(location.search).get('solution');
      if (sol) offerLinkSolution(l.xsb, sol);
      return null;
    } catch (e) {
      return `The level in the page address could not be read: ${e.message}`;
    }
  }
  return '';
}

function openSavedOrBuiltIn() {
  const cur = io.loadCurrent();
  if (cur?.xsb) {
    try {
      const col = io.loadCollection();
      if (col?.levels?.[cur.index]?.xsb === cur.xsb) state.collection = { ...col, index: cur.index };
      openLevel(cur.xsb, cur.title);
      return;
    } catch {
      state.collection = null;
    }
  }
  const p = parse(BUILTIN);
  state.collection = { title: p.title || 'Built-in levels', levels: p.levels, index: 0 };
  io.saveCollection({ title: state.collection.title, levels: p.levels });
  openLevel(p.levels[0].xsb, levelTitle(p.levels[0]));
  status('Welcome! Push every box onto a goal. Arrow keys move; you can also click, tap and drag.');
}

// ---------------------------------------------------------------- optimize

// Optimize (optimize.js): what it may ask of the page. The solution on the board is the
// one being replayed (the solver's answer, a best, pasted moves), else the moves made
// when they solve the level.
initOptimize({
  level: () => (state.session && !state.pull ? { xsb: state.session.levelXsb(), key: state.key, title: state.title } : null),
  boardSolution() {
    const s = state.session;
    if (!s || state.pull) return null;
    if (replay.remaining()) return { lurd: s.historyLurd() + replay.remaining(), what: 'the solution being replayed' };
    return state.view.solved ? { lurd: s.historyLurd(), what: 'the solution on the board' } : null;
  },
  checkSolution,
  replay: (lurd, what) => replayFromStart(lurd, what),
  share: (text, what) => share(text, what),
  rle: (lurd) => ($('rle').checked ? rleLurd(lurd) : lurd),
  status: (text, kind) => status(text, kind),
  saved: () => {
    renderCollection();
    showProgress();
  },
});

async function main() {
  initLayout(); // first: the remembered card shows while the wasm loads
  await init();
  progress.setChecks(progressChecks);
  board = new Board($('board'));
  panel = new SolverPanel({
    state: $('s-state'),
    stats: $('solver-stats'),
    threshold: $('s-threshold'),
    nodes: $('s-nodes'),
    speed: $('s-speed'),
    time: $('s-time'),
    table: $('s-table'),
    packed: $('s-packed'),
    positions: $('s-positions'),
    memory: $('s-memory'),
    cells: $('s-cells'),
    strategy: $('s-strategy'),
    workers: $('s-workers'),
    workerList: $('s-worker-list'),
    first: $('s-first'),
    chart: $('s-chart'),
  });
  initHelp(); // first: its key handler runs before the modes'
  initTheme(() => state.view && draw());
  attachInput($('board'), board, actions);
  wireUi();
  panel.reset(solveMode());
  initGenerator({
    openGenerated,
    replaySolution: (lurd) => replayFromStart(lurd, 'the generated level\'s solution'),
    share,
  });
  openFirstLevel();
  // For tests and the curious: read-only access to the game state.
  window.app = {
    view: () => state.session.view(),
    history: () => state.session.historyLurd(),
    levelXsb: () => state.session.levelXsb(),
    busy: () => walk.active || replay.playing || solving(),
    searches: () => searches,
    editorText: () => editorText(),
    openEditor: () => openEditor(),
    // The fast portfolio's workers: how many, how many still search, and a way to stop one.
    pool: { size: () => fastPool.size, live: () => fastPool.live, kill: (lane) => fastPool.kill(lane) },
  };
  initPuzzle(); // the sliding-tile mode (its tab, or a ?puzzle= link)
  initEditor(editorApi);
  registerOffline(() => {
    $('offline-state').hidden = false;
  });
  // The fast search's worker loads its wasm now, while the person looks at the level:
  // the first Hint or Solve does not wait for it.
  fastPool.warm();
  document.documentElement.dataset.ready = 'true';
}

main().catch((e) => {
  status(`The game could not start: ${e.message}`, 'error');
  throw e;
});
