// session.js — a wasm Session made for one question (does this move list fit the level's
// start, or a position? what does a level look like?) and freed after the answer.
import { Session } from '../pkg/sokoban_wasm.js';

/**
 * `fn(session)` on a temporary Session of the level `xsb`, at the position after the
 * moves `line` (LURD; the start by default) with `redo` to redo; returns what `fn`
 * returns. Throws when the level or the moves do not fit, or when `fn` throws.
 */
export function withSession(xsb, fn, line = '', redo = '') {
  const s = Session.restore(xsb, line, redo);
  try {
    return fn(s);
  } finally {
    s.free();
  }
}
