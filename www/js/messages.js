// messages.js — what the page says: the status line (the editor's own while it is open),
// the live region only screen readers hear, the counters said after an action, and the
// words for deadlocked boxes.
import { plural } from './level-list.js';

const $ = (id) => document.getElementById(id);

/** The page's messages: status(text, kind), say(text), announce(), deadlockText(list). */
export function initMessages(page) {
  const { state } = page;

  /** Show a message in the live region; plain information fades after a while. */
  function status(text, kind = '') {
    const el = page.editorActive() ? $('ed-status') : $('status');
    el.textContent = text;
    el.dataset.kind = kind;
    clearTimeout(state.statusTimer);
    if (!kind && text) state.statusTimer = setTimeout(() => (el.textContent = ''), 12000);
  }

  /** Put text in the live region only screen readers hear. */
  const say = (text) => ($('announce').textContent = text);

  /** Say the counters in the (visually hidden) live region, after an action ends. */
  function announce() {
    const v = state.view;
    const [one, many] = state.pull ? ['pull', 'pulls'] : ['push', 'pushes'];
    say(`${state.saidFirst}${plural(v.moves, 'move', 'moves')}, ${plural(v.pushes, one, many)}, ${v.boxesOnGoals} of ${v.boxCount} boxes ${state.pull ? 'back at the start' : 'on goals'}.`);
    state.saidFirst = '';
  }

  return { status, say, announce, deadlockText };
}

/** The warning under the board for the Session's deadlocks ('' for none). */
function deadlockText(list) {
  const n = (kind) => list.filter((d) => d.kind === kind).length;
  const parts = [];
  const dead = n('dead-square'), frozen = n('frozen');
  if (dead === 1) parts.push('This box is on a square from which no goal can be reached.');
  if (dead > 1) parts.push('These boxes are on squares from which no goal can be reached.');
  if (frozen) parts.push(`${frozen === 1 ? 'This box is' : 'These boxes are'} frozen: they can never move again, and not all are on goals.`);
  return parts.length ? `⚠ ${parts.join(' ')} Undo to go back.` : '';
}
