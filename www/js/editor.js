// editor.js — the level editor: draw walls, floor, goals, boxes and the player with the
// mouse, touch or keys on a grid; the level is checked live by the wasm parser (the same
// messages as a paste); Play tests it on the game board, Save keeps it in "my levels"
// (progress.js), Copy gives XSB, run-length or a share link. Undo/redo of every stroke.
// The draft is kept in localStorage, so a reload loses nothing. No rules here: whether a
// level is valid is the wasm's answer.
import { Board } from './board.js';
import { isFormField } from './input.js';

const $ = (id) => document.getElementById(id);
const KEY_DRAFT = 'sokoban.editorDraft';
const MAX_SIDE = 100;
const TOOLS = ['wall', 'floor', 'goal', 'box', 'player', 'erase'];
// Keys that draw at the cursor: the XSB characters, and digits for the tools in order.
const CHAR_TOOL = { '#': 'wall', ' ': 'floor', '-': 'floor', _: 'floor', '.': 'goal', $: 'box', '@': 'player' };
const MOVES = { ArrowUp: [0, -1], ArrowDown: [0, 1], ArrowLeft: [-1, 0], ArrowRight: [1, 0] };

let api = null; // from my-levels.js: {parse, viewOf, formatLevel, play, save, share, status}
let board = null;
const ed = {
  active: false,
  w: 0, h: 0,
  cells: null, // Uint8Array: 0 nothing (outside), 1 wall, 2 floor
  goals: null,
  boxes: null,
  player: -1,
  cursor: 0,
  tool: 'wall',
  undo: [],
  redo: [],
  check: null, // {ok, text, xsb}
  stroke: null, // {id, last, goal}: a pointer drawing
};

// ---------------------------------------------------------------- the grid

function blank(w, h) {
  const n = w * h;
  return { w, h, cells: new Uint8Array(n), goals: new Uint8Array(n), boxes: new Uint8Array(n), player: -1 };
}

const snapshot = () => ({
  w: ed.w, h: ed.h, cells: ed.cells.slice(), goals: ed.goals.slice(), boxes: ed.boxes.slice(), player: ed.player,
});

function setGrid(g) {
  Object.assign(ed, { w: g.w, h: g.h, cells: g.cells, goals: g.goals, boxes: g.boxes, player: g.player });
  ed.cursor = Math.min(ed.cursor, ed.w * ed.h - 1);
}

/** Keep the grid as it is for undo (before a change). */
function remember() {
  ed.undo.push(snapshot());
  if (ed.undo.length > 500) ed.undo.shift();
  ed.redo = [];
}

/** A border of wall around an empty room: a new level's start. */
function room(w, h) {
  const g = blank(w, h);
  for (let r = 0; r < h; r++) {
    for (let c = 0; c < w; c++) g.cells[r * w + c] = r === 0 || c === 0 || r === h - 1 || c === w - 1 ? 1 : 2;
  }
  return g;
}

/** Apply a tool to a square; `goal` says whether a goal stroke sets or clears. Returns true when it changed. */
function paint(sq, tool, goal = true) {
  const before = [ed.cells[sq], ed.goals[sq], ed.boxes[sq], ed.player];
  const floor = () => {
    if (ed.cells[sq] !== 2) ed.cells[sq] = 2;
  };
  switch (tool) {
    case 'wall':
      ed.cells[sq] = 1;
      ed.goals[sq] = 0;
      ed.boxes[sq] = 0;
      if (ed.player === sq) ed.player = -1;
      break;
    case 'floor':
      floor();
      ed.goals[sq] = 0;
      ed.boxes[sq] = 0;
      if (ed.player === sq) ed.player = -1;
      break;
    case 'goal':
      floor();
      ed.goals[sq] = goal ? 1 : 0;
      break;
    case 'box':
      floor();
      ed.boxes[sq] = 1;
      if (ed.player === sq) ed.player = -1;
      break;
    case 'boxOnGoal':
      floor();
      ed.boxes[sq] = 1;
      ed.goals[sq] = 1;
      if (ed.player === sq) ed.player = -1;
      break;
    case 'player':
      floor();
      ed.boxes[sq] = 0;
      ed.player = sq;
      break;
    case 'playerOnGoal':
      floor();
      ed.boxes[sq] = 0;
      ed.goals[sq] = 1;
      ed.player = sq;
      break;
    default: // erase
      ed.cells[sq] = 0;
      ed.goals[sq] = 0;
      ed.boxes[sq] = 0;
      if (ed.player === sq) ed.player = -1;
  }
  const after = [ed.cells[sq], ed.goals[sq], ed.boxes[sq], ed.player];
  return after.some((v, i) => v !== before[i]);
}

/** The grid as one line of run-length rows ('-' floor, rows split by '|'), or '' when empty. */
function toText() {
  const rows = [];
  for (let r = 0; r < ed.h; r++) {
    let row = '';
    for (let c = 0; c < ed.w; c++) {
      const sq = r * ed.w + c;
      const g = ed.goals[sq];
      if (ed.cells[sq] === 1) row += '#';
      else if (ed.player === sq) row += g ? '+' : '@';
      else if (ed.boxes[sq]) row += g ? '*' : '$';
      else if (g) row += '.';
      else row += '-';
    }
    rows.push(row.replace(/-+$/, ''));
  }
  while (rows.length && !rows[rows.length - 1]) rows.pop();
  while (rows.length && !rows[0]) rows.shift();
  return rows.join('|');
}

/** The grid as text for the draft, a character a square (' ' nothing, '-' floor, else XSB). */
function encode() {
  let out = '';
  for (let sq = 0; sq < ed.w * ed.h; sq++) {
    const g = ed.goals[sq];
    if (ed.cells[sq] === 0) out += ' ';
    else if (ed.cells[sq] === 1) out += '#';
    else if (ed.player === sq) out += g ? '+' : '@';
    else if (ed.boxes[sq]) out += g ? '*' : '$';
    else out += g ? '.' : '-';
  }
  return out;
}

/** A grid from a draft (see encode), or null when it does not fit its size. */
function decode(d) {
  const { w, h, grid } = d ?? {};
  if (!Number.isInteger(w) || !Number.isInteger(h) || w < 3 || h < 3 || w > MAX_SIDE || h > MAX_SIDE) return null;
  if (typeof grid !== 'string' || grid.length !== w * h || /[^ \-#.$*@+]/.test(grid)) return null;
  const g = blank(w, h);
  for (let sq = 0; sq < w * h; sq++) {
    const ch = grid[sq];
    g.cells[sq] = ch === ' ' ? 0 : ch === '#' ? 1 : 2;
    g.goals[sq] = '.*+'.includes(ch) ? 1 : 0;
    g.boxes[sq] = '$*'.includes(ch) ? 1 : 0;
    if ('@+'.includes(ch)) g.player = sq;
  }
  return g;
}

/** A grid from a valid level's text (through the wasm Session's view). */
function gridOf(xsb) {
  const v = api.viewOf(xsb);
  return {
    w: v.width, h: v.height, cells: Uint8Array.from(v.cells), goals: Uint8Array.from(v.goals),
    boxes: Uint8Array.from(v.boxes), player: v.player,
  };
}

// ---------------------------------------------------------------- checking and drawing

/** Check the level with the wasm parser: {ok, text, xsb}. */
function check() {
  const text = toText();
  if (!text) return { ok: false, text: 'The grid is empty: draw walls around some floor, then goals, boxes and the player.' };
  if (!text.includes('#')) return { ok: false, text: 'The level has no walls yet: draw walls around the floor.' };
  let p;
  try {
    p = api.parse(text);
  } catch (e) {
    return { ok: false, text: `Not a level yet: ${e.message}.` };
  }
  const l = p.kind === 'levels' && p.levels[0];
  if (!l) return { ok: false, text: 'Not a level yet.' };
  if (l.error) return { ok: false, text: `Not playable yet: ${l.error.replace(/^level \d+: /, '')}.` };
  return { ok: true, xsb: l.xsb, text: `✓ A valid ${l.width}×${l.height} level with ${l.boxes} ${l.boxes === 1 ? 'box' : 'boxes'}.` };
}

function update() {
  ed.check = check();
  const el = $('ed-check');
  el.textContent = ed.check.text;
  el.dataset.kind = ed.check.ok ? 'ok' : 'error';
  for (const id of ['ed-play', 'ed-save', 'ed-copy-xsb', 'ed-copy-rle', 'ed-copy-link']) $(id).disabled = !ed.check.ok;
  $('ed-undo').disabled = !ed.undo.length;
  $('ed-redo').disabled = !ed.redo.length;
  $('ed-w').value = ed.w;
  $('ed-h').value = ed.h;
  draw();
  try {
    localStorage.setItem(KEY_DRAFT, JSON.stringify({ grid: encode(), w: ed.w, h: ed.h, title: $('ed-title').value }));
  } catch {
    // storage full or disabled: the draft lives on in the page
  }
}

function draw() {
  if (!ed.active) return;
  board.draw(
    { width: ed.w, height: ed.h, cells: ed.cells, goals: ed.goals, boxes: ed.boxes, player: ed.player },
    { blank: true, cursor: ed.cursor },
  );
  $('ed-board').setAttribute('aria-label', `Level editor grid, ${ed.w} by ${ed.h}; cursor at row ${Math.floor(ed.cursor / ed.w) + 1}, column ${(ed.cursor % ed.w) + 1}: ${describe(ed.cursor)}`);
}

function describe(sq) {
  const parts = [];
  if (ed.cells[sq] === 1) return 'wall';
  if (ed.cells[sq] === 0) return 'nothing';
  if (ed.player === sq) parts.push('player');
  if (ed.boxes[sq]) parts.push('box');
  if (ed.goals[sq]) parts.push('goal');
  return parts.length ? parts.join(' on ') : 'floor';
}

// ---------------------------------------------------------------- actions

function setTool(tool) {
  ed.tool = tool;
  for (const b of document.querySelectorAll('#ed-tools input')) b.checked = b.value === tool;
}

function undo() {
  if (!ed.undo.length) return;
  ed.redo.push(snapshot());
  setGrid(ed.undo.pop());
  update();
}

function redo() {
  if (!ed.redo.length) return;
  ed.undo.push(snapshot());
  setGrid(ed.redo.pop());
  update();
}

/** Paint at the cursor (keyboard). */
function paintAt(tool) {
  const sq = ed.cursor;
  const snap = snapshot();
  const goal = tool === 'goal' ? !ed.goals[sq] : true; // a goal key toggles
  if (paint(sq, tool, goal)) {
    ed.undo.push(snap);
    ed.redo = [];
  }
  update();
}

function resize(w, h) {
  w = Math.max(3, Math.min(MAX_SIDE, Math.round(w) || ed.w));
  h = Math.max(3, Math.min(MAX_SIDE, Math.round(h) || ed.h));
  if (w === ed.w && h === ed.h) return update();
  remember();
  const g = blank(w, h);
  for (let r = 0; r < Math.min(h, ed.h); r++) {
    for (let c = 0; c < Math.min(w, ed.w); c++) {
      const a = r * ed.w + c, b = r * w + c;
      g.cells[b] = ed.cells[a];
      g.goals[b] = ed.goals[a];
      g.boxes[b] = ed.boxes[a];
      if (ed.player === a) g.player = b;
    }
  }
  setGrid(g);
  board.layout(w, h);
  update();
}

/** Show the editor with a level (XSB of a valid level) or a new empty room. */
export function openEditor(xsb = null, title = '') {
  // null: the drawing as it was left; '': a new room; else a copy of that level.
  ed.active = true;
  document.body.dataset.mode = 'editor';
  $('sokoban-mode').hidden = true;
  $('editor-mode').hidden = false;
  if (xsb !== null || !ed.cells) {
    if (ed.cells) remember();
    setGrid(xsb ? gridOf(xsb) : room(10, 8));
    $('ed-title').value = title;
  }
  board.layout(ed.w, ed.h);
  update();
  window.scrollTo(0, 0); // the grid in view (on a phone the button was far below it)
  api.status(xsb ? 'Editing a copy of the level: the original stays as it was.' : 'Draw a level: pick a tool, then click or drag on the grid (or use the keys).');
}

export function closeEditor(showGame = true) {
  if (!ed.active) return;
  ed.active = false;
  $('editor-mode').hidden = true;
  if (showGame) {
    $('sokoban-mode').hidden = false;
    document.body.dataset.mode = 'sokoban';
    window.dispatchEvent(new Event('resize'));
  }
}

export const editorActive = () => ed.active;

/** The grid as run-length rows (for tests). */
export const editorText = () => toText();

async function copy(format) {
  if (!ed.check.ok) return;
  const base = location.origin + location.pathname;
  const text = api.formatLevel(ed.check.xsb, format, base);
  api.share(text, { xsb: 'level (XSB)', rle: 'level (run-length)', link: 'link to the level' }[format]);
}

// ---------------------------------------------------------------- input

function attach() {
  const canvas = $('ed-board');
  canvas.addEventListener('pointerdown', (e) => {
    if (ed.stroke || (e.pointerType === 'mouse' && e.button !== 0)) return;
    const sq = board.squareAt(e.clientX, e.clientY);
    if (sq < 0) return;
    if (isFormField(document.activeElement)) document.activeElement.blur();
    e.preventDefault();
    canvas.setPointerCapture?.(e.pointerId);
    const snap = snapshot();
    // A goal stroke sets goals when it starts on a square without one, else clears them.
    ed.stroke = { id: e.pointerId, last: sq, goal: !ed.goals[sq], snap, changed: false };
    ed.cursor = sq;
    ed.stroke.changed = paint(sq, ed.tool, ed.stroke.goal);
    update();
  });
  canvas.addEventListener('pointermove', (e) => {
    const s = ed.stroke;
    if (!s || e.pointerId !== s.id || ed.tool === 'player') return;
    const sq = board.squareAt(e.clientX, e.clientY);
    if (sq < 0 || sq === s.last) return;
    s.last = sq;
    ed.cursor = sq;
    if (paint(sq, ed.tool, s.goal)) s.changed = true;
    update();
  });
  const end = (e) => {
    const s = ed.stroke;
    if (!s || e.pointerId !== s.id) return;
    ed.stroke = null;
    if (s.changed) {
      ed.undo.push(s.snap);
      ed.redo = [];
    }
    update();
  };
  canvas.addEventListener('pointerup', end);
  canvas.addEventListener('pointercancel', end);

  // Keys while the editor is shown: capture on window, ahead of the game's handlers.
  window.addEventListener('keydown', (e) => {
    if (!ed.active || isFormField(e.target)) return;
    const ctrl = e.ctrlKey || e.metaKey;
    let handled = true;
    const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
    if (ctrl && key === 'z') (e.shiftKey ? redo : undo)();
    else if (ctrl && key === 'y') redo();
    else if (ctrl || e.altKey) handled = false;
    else if (MOVES[e.key]) {
      const [dx, dy] = MOVES[e.key];
      const c = Math.max(0, Math.min(ed.w - 1, (ed.cursor % ed.w) + dx));
      const r = Math.max(0, Math.min(ed.h - 1, Math.floor(ed.cursor / ed.w) + dy));
      ed.cursor = r * ed.w + c;
      if (e.shiftKey) paintAt(ed.tool); // Shift+arrow draws a line with the tool
      else draw();
    } else if (e.key === '*') paintAt('boxOnGoal');
    else if (e.key === '+') paintAt('playerOnGoal');
    else if (CHAR_TOOL[e.key]) paintAt(CHAR_TOOL[e.key]);
    else if (/^[1-6]$/.test(e.key)) setTool(TOOLS[Number(e.key) - 1]);
    else if (e.key === 'Enter') paintAt(ed.tool);
    else if (e.key === 'Delete' || e.key === 'Backspace') paintAt('erase');
    else if (key === 'z') undo();
    else if (key === 'y') redo();
    else handled = false;
    if (handled) {
      e.preventDefault();
      e.stopImmediatePropagation();
    }
  }, { capture: true });

  // A level pasted while editing is opened in the editor.
  window.addEventListener('paste', (e) => {
    if (!ed.active || isFormField(e.target)) return;
    e.stopImmediatePropagation();
    e.preventDefault();
    loadPasted(e.clipboardData?.getData('text/plain') ?? '');
  }, { capture: true });
  window.addEventListener('drop', (e) => {
    if (!ed.active) return;
    e.stopImmediatePropagation();
    e.preventDefault();
    api.status('To edit a level from a file, open it on the game board first, then Edit this level.', 'error');
  }, { capture: true });
}

function loadPasted(text) {
  let p;
  try {
    p = api.parse(text);
  } catch (e) {
    api.status(`Could not read the pasted text: ${e.message}. The grid is as it was.`, 'error');
    return;
  }
  const l = p.kind === 'levels' && p.levels.find((x) => !x.error);
  if (!l) {
    api.status(`The pasted text has no playable level${p.levels?.[0]?.error ? `: ${p.levels[0].error}` : ''}. The grid is as it was.`, 'error');
    return;
  }
  remember();
  setGrid(gridOf(l.xsb));
  board.layout(ed.w, ed.h);
  update();
  api.status('Pasted level opened in the editor (undo brings the old grid back).');
}

/** Set up the editor; `a` = {parse, viewOf, formatLevel, play(xsb, title), save(xsb, title), share(text, what), status(text, kind)}. */
export function initEditor(a) {
  api = a;
  board = new Board($('ed-board'));
  attach();
  const on = (id, fn) => $(id).addEventListener('click', fn);
  for (const r of document.querySelectorAll('#ed-tools input')) r.addEventListener('change', () => setTool(r.value));
  on('ed-undo', undo);
  on('ed-redo', redo);
  on('ed-clear', () => {
    remember();
    setGrid(blank(ed.w, ed.h));
    update();
  });
  on('ed-room', () => {
    remember();
    setGrid(room(ed.w, ed.h));
    update();
  });
  const size = () => resize(Number($('ed-w').value), Number($('ed-h').value));
  $('ed-w').addEventListener('change', size);
  $('ed-h').addEventListener('change', size);
  on('ed-play', () => {
    if (!ed.check.ok) return api.status(ed.check.text, 'error');
    const title = $('ed-title').value.trim();
    closeEditor();
    api.play(ed.check.xsb, title);
  });
  on('ed-save', () => {
    if (!ed.check.ok) return api.status(ed.check.text, 'error');
    api.save(ed.check.xsb, $('ed-title').value.trim());
  });
  on('ed-copy-xsb', () => copy('xsb'));
  on('ed-copy-rle', () => copy('rle'));
  on('ed-copy-link', () => copy('link'));
  on('ed-close', () => closeEditor());
  on('tab-sokoban', () => closeEditor());
  on('tab-tiles', () => closeEditor(false));
  new ResizeObserver(() => {
    if (!ed.active) return;
    board.layout(ed.w, ed.h);
    draw();
  }).observe($('ed-board-wrap'));
  // The draft of the last session, if any (valid or not: nothing drawn is lost).
  try {
    const d = JSON.parse(localStorage.getItem(KEY_DRAFT) || 'null');
    const g = decode(d);
    if (g) {
      setGrid(g);
      $('ed-title').value = typeof d.title === 'string' ? d.title : '';
    }
  } catch {
    // a draft that cannot be read: start from a new room when opened
  }
}
