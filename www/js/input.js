// input.js — turns keyboard, mouse and touch input into actions. Keys: arrows/WASD move
// (with Shift: a step that pulls nothing, in pull mode),
// Z or Ctrl+Z undo, Y, Ctrl+Y or Shift+Ctrl+Z redo, R restart, Home/End, Esc, + (or =)
// and - zoom, 0 fits the level to the window; B (Shift+B back) chooses a box, and in box
// mode the arrows/WASD move the target, Enter or Space pushes, Tab (Shift+Tab) goes on to
// the next (previous) box. Pointer events (mouse, pen and touch alike)
// on the board: a click is `click(square)`, pressing a box and moving is a drag
// (`dragStart`, `dragMove`, `drop`); pressing anything else (or anywhere with Shift, Ctrl,
// Alt or the middle button) and moving pans the view; two fingers pinch to zoom and pan;
// the mouse wheel zooms about the pointer. No rules here: every action goes to the
// handlers from play.js, which ask the wasm Session; zoom and pan are the Board's.

const MOVE_KEYS = {
  ArrowUp: 0, ArrowRight: 1, ArrowDown: 2, ArrowLeft: 3,
  w: 0, d: 1, s: 2, a: 3,
};

/** True when a key press belongs to a form field (typing, sliders, lists). */
export function isFormField(el) {
  if (!el || !el.tagName) return false;
  if (el.isContentEditable) return true;
  const tag = el.tagName;
  if (tag === 'TEXTAREA' || tag === 'SELECT') return true;
  if (tag === 'INPUT') return !['checkbox', 'radio', 'button', 'submit', 'reset', 'file'].includes(el.type);
  return false;
}

/** Which action a key event asks for (`boxMode`: a box is chosen by the keyboard), or null. */
function keyAction(e, boxMode) {
  const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
  const ctrl = e.ctrlKey || e.metaKey;
  if (e.altKey) return null;
  if (ctrl) {
    if (key === 'z') return e.shiftKey ? ['redo'] : ['undo'];
    if (key === 'y') return ['redo'];
    return null; // leave Ctrl+R, Ctrl+V, Ctrl+W... to the browser
  }
  if (key === 'b') return ['chooseBox', e.shiftKey ? -1 : 1];
  if (boxMode) {
    if (key in MOVE_KEYS) return ['target', MOVE_KEYS[key]];
    if (key === 'Tab') return ['chooseBox', e.shiftKey ? -1 : 1];
    if (key === 'Enter' || key === ' ') return ['pushTarget'];
  }
  if (key in MOVE_KEYS) return [e.shiftKey ? 'moveOnly' : 'move', MOVE_KEYS[key]];
  switch (key) {
    case 'z': return ['undo'];
    case 'y': return ['redo'];
    case 'r': return ['restart'];
    case 'Home': return ['home'];
    case 'End': return ['end'];
    case 'Escape': return ['escape'];
    case '+': case '=': return ['zoom', 'in'];
    case '-': return ['zoom', 'out'];
    case '0': return ['zoom', 'fit'];
    default: return null;
  }
}

const ZOOM_STEP = 1.25;

/**
 * Zoom the board: 'in', 'out' (about the player, else the middle of the view) or 'fit';
 * `redraw` draws it again.
 */
export function zoomBoard(board, how, redraw, square = -1) {
  if (how === 'fit') board.fit();
  else {
    const f = how === 'in' ? ZOOM_STEP : 1 / ZOOM_STEP;
    if (square >= 0 && board.cols) {
      const rect = board.canvas.getBoundingClientRect();
      const s = rect.width / Math.max(1, board.canvas.width);
      const x = rect.left + (board.ox + ((square % board.cols) + 0.5) * board.cell) * s;
      const y = rect.top + (board.oy + (Math.floor(square / board.cols) + 0.5) * board.cell) * s;
      const inside = x >= rect.left && y >= rect.top && x <= rect.right && y <= rect.bottom;
      if (inside) board.zoomBy(f, x, y);
      else board.zoomBy(f);
    } else board.zoomBy(f);
  }
  redraw();
}

/**
 * Listen for input. `h` has move(dir), moveOnly(dir), undo(), redo(), restart(), home(), end(),
 * escape(), zoom('in' | 'out' | 'fit'), chooseBox(step), target(dir), pushTarget(), boxMode()
 * -> bool, hasBox(square), click(square), dragStart(square) -> bool, dragMove(square,
 * clientX, clientY), drop(square), dragCancel(), redraw() (after a zoom or pan).
 */
export function attachInput(canvas, board, h) {
  window.addEventListener('keydown', (e) => {
    // Keys in a dialog (the help overlay lets Tab, Enter and Space through) are its own.
    if (e.defaultPrevented || isFormField(e.target) || e.target.closest?.('dialog[open]')) return;
    const action = keyAction(e, h.boxMode());
    if (!action) return;
    // A focused button keeps Enter/Space (and Tab moves the focus) unless a box is chosen
    // by the keyboard: then they are the box's.
    e.preventDefault();
    const [name, arg] = action;
    h[name](arg);
  });

  let press = null; // {id, square, x, y, box, pan, dragging, panning, lx, ly}
  let pinch = null; // {dist, x, y}: two touches zoom and pan
  const pointers = new Map(); // id -> {x, y}: the pointers down on the board
  const slop = () => Math.max(6, Math.min(30, (Number(canvas.dataset.cellSize) || 30) * 0.3));
  const pinchOf = () => {
    const [a, b] = [...pointers.values()];
    return { dist: Math.max(1, Math.hypot(a.x - b.x, a.y - b.y)), x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
  };

  canvas.addEventListener('pointerdown', (e) => {
    if (e.pointerType === 'mouse' && e.button !== 0 && e.button !== 1) return;
    pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
    canvas.setPointerCapture?.(e.pointerId);
    e.preventDefault();
    if (pointers.size === 2) {
      // A second finger: a pinch, not a click or a drag.
      if (press?.dragging) h.dragCancel();
      press = null;
      pinch = pinchOf();
      return;
    }
    if (press || pinch) return;
    const square = board.squareAt(e.clientX, e.clientY);
    const pan = e.button === 1 || e.shiftKey || e.ctrlKey || e.altKey || e.metaKey;
    press = {
      id: e.pointerId, square, x: e.clientX, y: e.clientY, box: !pan && square >= 0 && h.hasBox(square),
      pan, dragging: false, panning: false, lx: e.clientX, ly: e.clientY,
    };
    // Keys belong to the board again after a click on it.
    if (isFormField(document.activeElement)) document.activeElement.blur();
  });

  canvas.addEventListener('pointermove', (e) => {
    if (pointers.has(e.pointerId)) pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
    if (pinch && pointers.size >= 2) {
      const p = pinchOf();
      board.zoomBy(p.dist / pinch.dist, p.x, p.y);
      board.panBy(p.x - pinch.x, p.y - pinch.y);
      pinch = p;
      h.redraw();
      return;
    }
    if (!press || e.pointerId !== press.id) return;
    const moved = Math.hypot(e.clientX - press.x, e.clientY - press.y) > slop();
    if (press.box && !press.dragging && moved) {
      press.dragging = h.dragStart(press.square);
      if (!press.dragging) press.box = false;
    }
    if (press.dragging) {
      h.dragMove(board.squareAt(e.clientX, e.clientY), e.clientX, e.clientY);
      return;
    }
    if (!press.box && !press.panning && moved) press.panning = true;
    if (press.panning) {
      board.panBy(e.clientX - press.lx, e.clientY - press.ly);
      press.lx = e.clientX;
      press.ly = e.clientY;
      h.redraw();
    }
  });

  canvas.addEventListener('pointerup', (e) => {
    pointers.delete(e.pointerId);
    if (pinch) {
      if (pointers.size < 2) pinch = null;
      return;
    }
    if (!press || e.pointerId !== press.id) return;
    const p = press;
    press = null;
    if (p.dragging) h.drop(board.squareAt(e.clientX, e.clientY));
    else if (!p.panning && !p.pan && p.square >= 0) h.click(p.square);
  });

  const cancel = (e) => {
    pointers.delete(e.pointerId);
    if (pinch && pointers.size < 2) pinch = null;
    if (!press || e.pointerId !== press.id) return;
    const p = press;
    press = null;
    if (p.dragging) h.dragCancel();
  };
  canvas.addEventListener('pointercancel', cancel);
  canvas.addEventListener('lostpointercapture', cancel);

  // The wheel (and a touchpad's pinch, which comes as Ctrl+wheel) zooms about the pointer.
  canvas.addEventListener('wheel', (e) => {
    e.preventDefault();
    const dy = e.deltaY * (e.deltaMode === 1 ? 16 : e.deltaMode === 2 ? 400 : 1);
    if (board.zoomBy(Math.exp(-dy * (e.ctrlKey ? 0.01 : 0.002)), e.clientX, e.clientY)) h.redraw();
  }, { passive: false });
}
