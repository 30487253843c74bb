// puzzle.js — the page's second mode: sliding-tile puzzles (2×2 to 5×5). Owns the wasm
// PuzzleSession (every rule lives there), draws it with puzzle-board.js, and reuses the
// Sokoban mode's parts where they fit: the solver worker and its client
// (solver-client.js, one worker of its own so the pattern databases stay built between
// solves), the solver panel and chart (solver-panel.js, mode 'puzzle'), the timed replay
// (replay.js). The header's tabs switch modes; `?puzzle=15` (or 8, 24, WxH, with
// `&tiles=…&goal=blank-first`) opens this mode from a link. While it is shown, its key,
// paste and drop handlers run first and keep the events from the Sokoban mode.
import { PuzzleSession } from '../pkg/sokoban_wasm.js';
import { PuzzleBoard } from './puzzle-board.js';
import { isFormField } from './input.js';
import { copyText } from './levelio.js';
import { Playback } from './replay.js';
import { SolverClient } from './solver-client.js';
import { SolverPanel, endText, fmtTime } from './solver-panel.js';

const $ = (id) => document.getElementById(id);
const SPEEDS = [1, 2, 4, 8, 15, 30, 60, 120]; // replay moves per second
const KEY_STATE = 'puzzle.current';
const KEY_MODE = 'page.mode';
const NAMES = { 3: '2x2', 8: '3x3', 11: '4x3', 15: '4x4', 24: '5x5' };

const client = new SolverClient();
const state = {
  session: null,
  view: null,
  active: false,
  solves: 0,
  statusTimer: 0,
};
let board, panel, replay;

// ---------------------------------------------------------------- helpers

function status(text, kind = '') {
  const el = $('p-status');
  el.textContent = text;
  el.dataset.kind = kind;
  clearTimeout(state.statusTimer);
  if (!kind && text) state.statusTimer = setTimeout(() => (el.textContent = ''), 12000);
}

function load(key) {
  try {
    return JSON.parse(localStorage.getItem(key) || 'null');
  } catch {
    return null;
  }
}

function store(key, value) {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // storage full or disabled: play on without saving
  }
}

const sizeName = (v) => `${v.width}x${v.height}`;
const puzzleName = (v) => `${v.width * v.height - 1}-puzzle`;

/** The goal selector's value for a session's goal ('blank-first', 'blank-last' or tiles). */
function goalKind(v) {
  const n = v.goal.length;
  if (v.goal.every((t, i) => t === i)) return 'blank-first';
  if (v.goal.every((t, i) => t === (i + 1) % n)) return 'blank-last';
  return 'custom';
}

// ---------------------------------------------------------------- drawing

function render() {
  const s = state.session;
  const prev = state.view;
  const v = (state.view = s.view());
  $('p-moves').textContent = v.moves;
  $('p-home').textContent = `${v.inPlace}/${v.tiles.length - 1}`;
  $('p-undo').disabled = !v.canUndo;
  $('p-redo').disabled = !v.canRedo;
  $('p-restart').disabled = v.moves === 0;
  const banner = $('p-solved');
  banner.hidden = !v.solved;
  if (v.solved) banner.textContent = `✓ Solved in ${v.moves} moves`;
  // A single slide glides; anything else is drawn at once.
  let moved = null;
  if (prev && prev.width === v.width && prev.height === v.height && prev.blank !== v.blank) {
    const d = Math.abs(prev.blank - v.blank);
    const sameRow = Math.floor(prev.blank / v.width) === Math.floor(v.blank / v.width);
    if ((d === 1 && sameRow) || d === v.width) moved = { tile: v.tiles[prev.blank], from: v.blank, to: prev.blank };
  }
  const glide = replay?.playing ? Math.min(90, replay.delay * 0.7) : 90;
  board.draw(v, moved, glide);
  $('p-board').setAttribute('aria-label', describe(v));
  save();
  updateReplayUi();
}

/** The position in words for screen readers. */
function describe(v) {
  const rows = [];
  for (let r = 0; r < v.height; r++) {
    const cells = v.tiles.slice(r * v.width, (r + 1) * v.width).map((t) => (t ? String(t) : 'gap'));
    rows.push(`row ${r + 1}: ${cells.join(', ')}`);
  }
  return `${puzzleName(v)}, ${v.solved ? 'solved' : `${v.inPlace} of ${v.tiles.length - 1} tiles in place`}; ${rows.join('; ')}. Arrow keys slide a tile into the gap.`;
}

function save() {
  const s = state.session;
  const v = state.view;
  store(KEY_STATE, { w: v.width, h: v.height, goal: s.goalText(), start: s.startText(), line: s.historyMoves(), redo: s.redoMoves() });
}

function fitBoard() {
  const v = state.view;
  if (!v || !state.active) return;
  board.layout(v.width, v.height);
  board.draw(v, null, 0);
  panel.drawChart();
}

// ---------------------------------------------------------------- positions

/** Put a session on the board (stopping whatever ran on the last one). */
function open(session, message) {
  stopAll();
  state.session?.free();
  state.session = session;
  state.view = null;
  const v = session.view();
  $('p-size').value = [...$('p-size').options].some((o) => o.value === sizeName(v)) ? sizeName(v) : $('p-size').value;
  const kind = goalKind(v);
  if (kind !== 'custom') $('p-goal').value = kind;
  $('p-text').value = session.startText();
  render();
  panel.reset('puzzle');
  panel.setState('Idle.');
  if (message) status(message);
}

function chosenSize() {
  const [w, h] = $('p-size').value.split('x').map(Number);
  return { w, h };
}

function scramble() {
  const { w, h } = chosenSize();
  const moves = Number($('p-mix').value);
  const seed = Math.floor(Math.random() * 2 ** 52);
  open(PuzzleSession.scramble(w, h, $('p-goal').value, moves, seed),
    `A new ${w * h - 1}-puzzle: ${moves ? `${moves} random moves from the goal` : 'a random position that can reach the goal'}.`);
}

/** Read a pasted or typed position; on bad input the board stays and the status says why. */
function loadText(text, source) {
  if (!text.trim()) {
    status(`Nothing to load: the ${source} is empty.`, 'error');
    return false;
  }
  const count = (text.match(/\d+/g) || []).length;
  const { w, h } = chosenSize();
  const square = [4, 9, 16, 25].includes(count);
  try {
    const s = new PuzzleSession(text, square ? 0 : w, square ? 0 : h, $('p-goal').value);
    const v = s.view();
    open(s, `Loaded a ${puzzleName(v)} (${v.width}×${v.height})${v.solvable ? '.' : ': it cannot reach the goal (two tiles would have to swap).'}`);
    return true;
  } catch (e) {
    status(`Could not read the ${source}: ${e.message}`, 'error');
    return false;
  }
}

/** A session from the page address (`?puzzle=15&tiles=…&goal=…`), or null. */
function fromUrl() {
  const p = new URLSearchParams(location.search);
  const spec = p.get('puzzle');
  if (spec === null) return null;
  const name = NAMES[spec] ?? spec.replace(/[×*]/, 'x');
  const [w, h] = name.split('x').map(Number);
  const goal = p.get('goal') || 'blank-last';
  try {
    if (p.get('tiles')) return new PuzzleSession(p.get('tiles'), w || 0, h || 0, goal);
    const saved = load(KEY_STATE);
    if (saved && saved.w === w && saved.h === h && !p.get('goal')) return restore(saved);
    return PuzzleSession.scramble(w, h, goal, 0, Math.floor(Math.random() * 2 ** 52));
  } catch (e) {
    status(`The puzzle in the page address could not be read: ${e.message}`, 'error');
    return null;
  }
}

function restore(saved) {
  try {
    return PuzzleSession.restore(saved.start, saved.w, saved.h, saved.goal, saved.line || '', saved.redo || '');
  } catch {
    return null;
  }
}

function shareUrl() {
  const s = state.session;
  const v = state.view;
  const kind = goalKind(v);
  const q = new URLSearchParams({ puzzle: sizeName(v), tiles: s.tilesText().replace(/ /g, ',') });
  if (kind !== 'blank-last') q.set('goal', kind === 'custom' ? s.goalText().replace(/ /g, ',') : kind);
  return `${location.origin}${location.pathname}?${q}`;
}

// ---------------------------------------------------------------- playing

function stopAll() {
  closeReplay();
  client.cancel();
}

function act(fn) {
  return (arg) => {
    if (!state.session) return;
    closeReplay();
    fn(arg);
    render();
  };
}

const actions = {
  // An arrow slides the tile on the far side of the gap in the arrow's direction: the gap
  // (the blank) moves the opposite way.
  move: act((dir) => state.session.step((dir + 2) & 3)),
  undo: act(() => state.session.undo()),
  redo: act(() => state.session.redo()),
  restart: act(() => {
    if (state.session.restart()) status('Back at the start. Undo brings your moves back.');
  }),
  home: act(() => state.session.undoAll()),
  end: act(() => state.session.redoAll()),
  click: act((cell) => {
    if (state.session.slideTo(cell) === undefined && cell !== state.view.blank) {
      status('Only a tile in the gap’s row or column can slide.');
    }
  }),
};

const MOVE_KEYS = { ArrowUp: 0, ArrowRight: 1, ArrowDown: 2, ArrowLeft: 3, w: 0, d: 1, s: 2, a: 3 };

function keyAction(e) {
  const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
  const ctrl = e.ctrlKey || e.metaKey;
  if (e.altKey) return null;
  if (ctrl) {
    if (key === 'z') return e.shiftKey ? ['redo'] : ['undo'];
    if (key === 'y') return ['redo'];
    return null;
  }
  if (key in MOVE_KEYS) return ['move', MOVE_KEYS[key]];
  return { z: ['undo'], y: ['redo'], r: ['restart'], Home: ['home'], End: ['end'] }[key] ?? null;
}

function attach() {
  // Capture on window: these run before the Sokoban mode's handlers, and stop the events
  // from reaching them while this mode is shown.
  window.addEventListener('keydown', (e) => {
    if (!state.active || isFormField(e.target)) return;
    e.stopPropagation();
    const a = keyAction(e);
    if (!a) return;
    e.preventDefault();
    actions[a[0]](a[1]);
  }, { capture: true });
  window.addEventListener('paste', (e) => {
    if (!state.active || isFormField(e.target)) return;
    e.stopPropagation();
    e.preventDefault();
    loadText(e.clipboardData?.getData('text/plain') ?? '', 'pasted text');
  }, { capture: true });
  window.addEventListener('drop', (e) => {
    if (!state.active) return;
    e.stopPropagation();
    e.preventDefault();
  }, { capture: true });
  const canvas = $('p-board');
  canvas.addEventListener('pointerdown', (e) => {
    if (e.pointerType === 'mouse' && e.button !== 0) return;
    if (isFormField(document.activeElement)) document.activeElement.blur();
    e.preventDefault();
    const cell = board.cellAt(e.clientX, e.clientY);
    if (cell >= 0) actions.click(cell);
  });
}

// ---------------------------------------------------------------- replay

function startReplay(moves) {
  replay.load(moves, 1000 / SPEEDS[$('p-r-speed').value]);
  $('p-replay-controls').hidden = false;
  status(`Replaying the solution: ${moves.length} moves.`);
  replay.play();
  updateReplayUi();
}

function closeReplay() {
  replay?.stop();
  $('p-replay-controls').hidden = true;
}

function updateReplayUi() {
  if ($('p-replay-controls').hidden) return;
  const n = replay.length, at = replay.pos;
  $('p-r-play').textContent = replay.playing ? 'Pause' : 'Play';
  $('p-r-play').disabled = at >= n;
  $('p-r-forward').disabled = at >= n;
  $('p-r-end').disabled = at >= n;
  $('p-r-back').disabled = at === 0;
  $('p-r-progress').max = Math.max(1, n);
  $('p-r-progress').value = at;
  $('p-r-pos').textContent = `${at} / ${n}`;
}

// ---------------------------------------------------------------- solver

function setSolving(on) {
  $('p-solve').disabled = on;
  $('p-cancel').disabled = !on;
}

function solverOptions() {
  const limit = Number($('p-s-limit').value);
  const heuristic = $('p-s-heuristic').value;
  return { ...(limit > 0 ? { timeLimitMs: limit * 1000 } : {}), heuristic };
}

async function solve() {
  if (client.busy || !state.session) return;
  closeReplay();
  render();
  const s = state.session;
  const v = state.view;
  if (v.solved) {
    panel.setState('The puzzle is already solved.', 'ok');
    return;
  }
  const start = { session: s, history: s.historyMoves() };
  panel.reset('puzzle');
  panel.setState(`Solving the ${puzzleName(v)}…`, 'running');
  setSolving(true);
  state.solves++;
  const request = { puzzle: { tiles: s.tilesText(), width: v.width, height: v.height, goal: s.goalText() }, options: solverOptions() };
  const msg = await client.solve(request, (m) => panel.update(m));
  setSolving(false);
  if (msg.mode) panel.update(msg);
  if (msg.type === 'unsolvable') {
    panel.setState('No solution: this position cannot reach the goal (its tiles’ parity is wrong — two tiles would have to swap). Scramble or load another.', 'bad');
    return;
  }
  if (msg.type !== 'solved') {
    const text = endText(msg, true);
    panel.setState(msg.type === 'limit' ? `${text} The fewest moves are at least ${msg.threshold}.` : text, msg.type === 'cancelled' ? '' : 'bad');
    return;
  }
  if (state.session !== start.session || s.historyMoves() !== start.history) {
    panel.setState(`Found the fewest moves (${msg.length}), but the position has changed since: press Solve again.`, 'bad');
    return;
  }
  let moves;
  try {
    moves = s.checkMoves(msg.solution);
  } catch (e) {
    panel.setState(`The solver's answer does not replay: ${e.message}`, 'bad');
    return;
  }
  panel.setState(`Solved: ${msg.length} moves, the fewest (${msg.algorithm}), in ${fmtTime(msg.elapsedMs)}.`, 'ok');
  startReplay(moves);
}

// ---------------------------------------------------------------- modes

function setMode(mode, { updateUrl = true } = {}) {
  const puzzle = mode === 'puzzle';
  state.active = puzzle;
  document.body.dataset.mode = mode;
  $('sokoban-mode').hidden = puzzle;
  $('puzzle-mode').hidden = !puzzle;
  $('tab-sokoban').setAttribute('aria-selected', String(!puzzle));
  $('tab-tiles').setAttribute('aria-selected', String(puzzle));
  store(KEY_MODE, mode);
  if (puzzle) {
    if (!state.session) {
      const saved = load(KEY_STATE);
      const s = (saved && restore(saved)) || PuzzleSession.scramble(4, 4, 'blank-last', 0, Math.floor(Math.random() * 2 ** 52));
      open(s);
      status('Slide the tiles into order: arrow keys, or click a tile next to the gap.');
    }
    document.title = 'Sliding tiles · Sokoban';
    requestAnimationFrame(fitBoard);
  } else {
    document.title = document.title.replace('Sliding tiles · ', '') || 'Sokoban';
    window.dispatchEvent(new Event('resize'));
  }
  if (updateUrl) {
    const p = new URLSearchParams(location.search);
    if (puzzle && [...p.keys()].length === 0 && state.view) history.replaceState(null, '', `${location.pathname}?puzzle=${sizeName(state.view)}`);
    if (!puzzle && p.has('puzzle')) history.replaceState(null, '', location.pathname);
  }
}

/** Set up the mode (after the wasm has loaded). Opens it when the address asks for it. */
export function initPuzzle() {
  board = new PuzzleBoard($('p-board'));
  panel = new SolverPanel({
    state: $('p-s-state'),
    stats: $('p-solver-stats'),
    chart: $('p-s-chart'),
    threshold: $('p-s-threshold'),
    nodes: $('p-s-nodes'),
    speed: $('p-s-speed'),
    time: $('p-s-time'),
    table: $('p-s-db'),
    search: $('p-s-search'),
  });
  panel.reset('puzzle');
  replay = new Playback({
    step: (dir) => state.session.step(dir),
    undo: () => state.session.undo(),
    onChange: render,
    onEnd: (why, i) => {
      if (why === 'blocked') status(`Replay stopped: move ${i + 1} is off the board.`, 'error');
      else status(state.view.solved ? `Solved in ${state.view.moves} moves.` : 'Replay finished.', state.view.solved ? 'ok' : '');
      updateReplayUi();
    },
  });
  attach();
  const on = (id, fn) => $(id).addEventListener('click', fn);
  on('tab-sokoban', () => setMode('sokoban'));
  on('tab-tiles', () => setMode('puzzle'));
  on('p-undo', () => actions.undo());
  on('p-redo', () => actions.redo());
  on('p-restart', () => actions.restart());
  on('p-scramble', scramble);
  on('p-load', () => loadText($('p-text').value, 'position text'));
  on('p-solve', solve);
  on('p-cancel', () => {
    client.cancel();
    panel.setState('Cancelling…', 'running');
  });
  on('p-copy-link', async () => {
    const url = shareUrl();
    const out = $('p-output');
    out.value = url;
    if (await copyText(url)) status('Copied a link to this position.', 'ok');
    else {
      out.hidden = false;
      out.focus();
      out.select();
      status('The clipboard is not available: the link is selected below, copy it with Ctrl+C.');
    }
  });
  on('p-r-play', () => {
    if (replay.playing) replay.pause();
    else replay.play();
    updateReplayUi();
  });
  on('p-r-back', () => replay.back());
  on('p-r-forward', () => {
    replay.pause();
    replay.forward();
    updateReplayUi();
  });
  on('p-r-end', () => replay.finish());
  on('p-r-close', () => closeReplay());
  const speed = () => {
    const mps = SPEEDS[$('p-r-speed').value];
    $('p-r-speed-text').textContent = `${mps} moves/s`;
    replay.setDelay(1000 / mps);
  };
  $('p-r-speed').addEventListener('input', speed);
  speed();
  new ResizeObserver(fitBoard).observe($('p-board-wrap'));

  const fromLink = fromUrl();
  if (fromLink) {
    setMode('puzzle', { updateUrl: false });
    open(fromLink, `Opened the ${puzzleName(fromLink.view())} from the link.`);
  } else if (load(KEY_MODE) === 'puzzle' && !new URLSearchParams(location.search).toString()) {
    setMode('puzzle');
  }
  window.puzzle = {
    view: () => state.session?.view(),
    history: () => state.session?.historyMoves(),
    busy: () => !!(replay.playing || client.busy),
    solves: () => state.solves,
    active: () => state.active,
  };
}
