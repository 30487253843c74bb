// input.js — turns keyboard, mouse and touch input into actions. Keys: arrows/WASD move
// (with Shift: a step that pulls nothing, in pull mode),
// Z or Ctrl+Z undo, Y, Ctrl+Y or Shift+Ctrl+Z redo, R restart, Home/End, Esc. Pointer
// events (mouse, pen and touch alike) on the board: a click is `click(square)`, pressing
// a box and moving is a drag (`dragStart`, `dragMove`, `drop`). No rules here: every
// action goes to the handlers from main.js, which ask the wasm Session.

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

/** Which action a key event asks for, or null. */
function keyAction(e) {
  const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
  const ctrl = e.ctrlKey || e.metaKey;
  if (e.altKey) return null;
  if (ctrl) {
    if (key === 'z') return e.shiftKey ? ['redo'] : ['undo'];
    if (key === 'y') return ['redo'];
    return null; // leave Ctrl+R, Ctrl+V, Ctrl+W... to the browser
  }
  if (key in MOVE_KEYS) return [e.shiftKey ? 'moveOnly' : 'move', MOVE_KEYS[key]];
  switch (key) {
    case 'z': return ['undo'];
    case 'y': return ['redo'];
    case 'r': return ['restart'];
    case 'Home': return ['home'];
    case 'End': return ['end'];
    case 'Escape': return ['escape'];
    default: return null;
  }
}

/**
 * Listen for input. `h` has move(dir), moveOnly(dir), undo(), redo(), restart(), home(), end(),
 * escape(), hasBox(square), click(square), dragStart(square) -> bool,
 * dragMove(square, clientX, clientY), drop(square), dragCancel().
 */
export function attachInput(canvas, board, h) {
  window.addEventListener('keydown', (e) => {
    if (e.defaultPrevented || isFormField(e.target)) return;
    const action = keyAction(e);
    if (!action) return;
    // A focused button keeps Enter/Space; everything we handle is another key.
    e.preventDefault();
    const [name, arg] = action;
    h[name](arg);
  });

  let press = null; // {id, square, x, y, box, dragging}
  const slop = () => Math.max(6, (Number(canvas.dataset.cellSize) || 30) * 0.3);

  canvas.addEventListener('pointerdown', (e) => {
    if (press || (e.pointerType === 'mouse' && e.button !== 0)) return;
    const square = board.squareAt(e.clientX, e.clientY);
    press = { id: e.pointerId, square, x: e.clientX, y: e.clientY, box: square >= 0 && h.hasBox(square), dragging: false };
    canvas.setPointerCapture?.(e.pointerId);
    // Keys belong to the board again after a click on it.
    if (isFormField(document.activeElement)) document.activeElement.blur();
    e.preventDefault();
  });

  canvas.addEventListener('pointermove', (e) => {
    if (!press || e.pointerId !== press.id) return;
    if (press.box && !press.dragging && Math.hypot(e.clientX - press.x, e.clientY - press.y) > slop()) {
      press.dragging = h.dragStart(press.square);
      if (!press.dragging) press.box = false;
    }
    if (press.dragging) h.dragMove(board.squareAt(e.clientX, e.clientY), e.clientX, e.clientY);
  });

  canvas.addEventListener('pointerup', (e) => {
    if (!press || e.pointerId !== press.id) return;
    const p = press;
    press = null;
    if (p.dragging) h.drop(board.squareAt(e.clientX, e.clientY));
    else if (p.square >= 0) h.click(p.square);
  });

  const cancel = (e) => {
    if (!press || e.pointerId !== press.id) return;
    const p = press;
    press = null;
    if (p.dragging) h.dragCancel();
  };
  canvas.addEventListener('pointercancel', cancel);
  canvas.addEventListener('lostpointercapture', cancel);
}
