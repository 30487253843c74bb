// share.js — the Share card and what leaves the page: the share link (with or without a
// solution), the moves or solution as LURD, any text copied to the clipboard (or shown
// selected when the clipboard is out of reach); a solution carried in (a link's, pull
// mode's) offered for replay; typed moves replayed.
import { checkSolution, parse, rleLurd } from '../pkg/sokoban_wasm.js';
import { reveal } from './layout.js';
import * as io from './levelio.js';
import * as progress from './progress.js';
import { scoreText } from './progress-panel.js';

const $ = (id) => document.getElementById(id);

/** Sharing: share(text, what), offerLinkSolution(xsb, text), showSolution(text, label, lurd, what), hideSolution(). */
export function initShare(page) {
  const { state } = page;

  async function share(text, what) {
    const out = $('output');
    out.value = text;
    if (await io.copyText(text)) {
      page.status(`Copied the ${what} to the clipboard.`, 'ok');
    } else {
      reveal(out);
      out.focus();
      out.select();
      page.status(`The clipboard is not available: the ${what} is selected in the Copied text box (Share), copy it with Ctrl+C.`);
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
      page.status('There is no solution to put in the link yet: solve the level (or replay a solution to the end) first.', 'error');
      return;
    }
    const url = `${state.session.shareUrl(location.origin + location.pathname)}&solution=${encodeURIComponent(rleLurd(lurd))}`;
    share(url, 'share link with the solution');
  }

  /** Offer a solution brought to this level (`text` about it, the button's `label`) for a replay from the start. */
  function showSolution(text, label, lurd, what) {
    const box = $('link-solution');
    box.querySelector('span').textContent = text;
    $('link-replay').textContent = label;
    box.hidden = false;
    $('link-replay').onclick = () => {
      box.hidden = true;
      page.replayFromStart(lurd, what);
    };
  }

  const hideSolution = () => ($('link-solution').hidden = true);

  /** A link opened with a solution in it: check it and offer to replay it. */
  function offerLinkSolution(xsb, text) {
    let c;
    try {
      c = checkSolution(xsb, text);
    } catch (e) {
      page.status(`The link's solution does not solve this level (${e.message}); the level is open to play.`, 'error');
      return;
    }
    showSolution(`This link carries a solution: ${scoreText(c)}.`, 'Replay it', c.lurd, 'the solution from the link');
  }

  function copySolution() {
    const s = state.session;
    const { replay } = state;
    const lurd = s.historyLurd() + (replay.length ? replay.remaining() : '');
    if (!lurd) {
      page.status('No moves to copy yet.');
      return;
    }
    const text = $('rle').checked ? rleLurd(lurd) : lurd;
    share(text, state.view.solved || replay.length ? 'solution' : 'moves so far');
  }

  /** The Share card's Replay: typed or pasted moves, from here or from the start. */
  function replayTyped() {
    const text = $('lurd-text').value;
    if (!text.trim()) return page.status('Type or paste some moves first (LURD letters).', 'error');
    let p;
    try {
      p = parse(text);
    } catch (e) {
      return page.status(`Could not read the moves: ${e.message}`, 'error');
    }
    if (p.kind !== 'solution') return page.status('That is a level, not a list of moves; use Load for levels.', 'error');
    page.replayText(p.lurd);
  }

  const on = (id, fn) => $(id).addEventListener('click', fn);
  on('copy-link', () => share(state.session.shareUrl(location.origin + location.pathname), 'share link'));
  on('copy-solution', copySolution);
  on('copy-link-solution', copyLinkWithSolution);
  on('link-dismiss', hideSolution);
  on('replay', replayTyped);

  return { share, offerLinkSolution, showSolution, hideSolution };
}
