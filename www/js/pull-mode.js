// pull-mode.js — the level played backwards (a PullSession in place of the Session): the
// boxes start on the goals, the player pulls them back to where the level starts them.
// The rules and the conversion to a forward solution are the wasm's; here: swapping the
// sessions, the read-out, keeping the game over a reload, and offering the forward solution.
import { checkSolution, PullSession } from '../pkg/sokoban_wasm.js';
import * as io from './levelio.js';
import * as progress from './progress.js';
import { scoreText } from './progress-panel.js';

const $ = (id) => document.getElementById(id);
const PULL_OFF = ['solve', 'hint', 'still-solvable', 'snap-save', 'copy-solution', 'copy-link-solution'];

/** Pull mode: leavePull(), resumeSavedPull(), renderPull(view), placeStart(square). */
export function initPullMode(page) {
  const { state } = page;

  /** Pull mode on the level on the board; `saved` (from io.loadPull) resumes a game kept over a reload. */
  function enterPull(saved = null) {
    if (state.pull) return;
    page.stopEverything();
    const xsb = state.session.levelXsb();
    let p;
    try {
      p = new PullSession(xsb);
    } catch (e) {
      page.status(`Pull mode cannot start here: ${e.message}`, 'error');
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
    page.act(() => {
      state.pull = { forward: state.session, announced: false, start };
      state.session = p;
      pullUi(true);
    });
    if (resumed === 'ok') page.status('Pull mode, as you left it: the level is played backwards (Leave pull mode returns to the forward game).');
    else if (resumed === 'lost') page.status('The pull-mode game kept in this browser does not fit this level any more: pull mode starts afresh.', 'error');
    else page.status('Pull mode: the boxes start on the goals. Pull them back to the marked squares, where the level starts them: moving away from a box pulls it (Shift+arrow steps without pulling); drag a box to pull it along. Before the first move, click any free square to start there.');
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
    page.stopEverything();
    page.act(() => {
      state.session.free();
      state.session = state.pull.forward;
      state.pull = null;
      io.savePull(null);
      pullUi(false);
      state.wasSolved = true; // do not announce the forward game's state again
    });
  }

  /** After a reload: back into pull mode when the level on the board was left in it. */
  function resumeSavedPull() {
    const saved = io.loadPull();
    if (!saved) return;
    if (saved.xsb === state.session.levelXsb()) enterPull(saved);
    else io.savePull(null); // another level is on the board now
  }

  /** Before the first pull: the player starts on `square` instead (true when it may). */
  function placeStart(square) {
    if (!state.session.placePlayer(square)) return false;
    state.pull.start = square;
    return true;
  }

  function pullUi(on) {
    document.body.classList.toggle('pull', on);
    const b = $('pull-mode');
    b.setAttribute('aria-pressed', String(on));
    b.textContent = on ? 'Leave pull mode' : 'Pull mode';
    $('pushes-label').textContent = on ? 'Pulls' : 'Pushes';
    for (const id of PULL_OFF) $(id).disabled = on;
    if (!on) page.setSolving(page.solving());
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
      page.status(`The reverse moves do not make a forward solution: ${e.message}`, 'error');
      return;
    }
    const r = progress.recordSolution(state.key, s.levelXsb(), state.title, { lurd: c.lurd, moves: c.moves, pushes: c.pushes });
    const best = r.bestMoves || r.bestPushes ? ' It is kept with your best solutions.' : '';
    page.status(`The boxes are back where the level starts them! Read backwards, your pulls are a forward solution: ${scoreText(c)}.${best}`, 'ok');
    page.showSolution(`Forward solution from pull mode: ${scoreText(c)}.`, 'Play it forward', c.lurd, 'the solution found in pull mode');
    page.renderCollection();
    page.showProgress();
  }

  $('pull-mode').addEventListener('click', () => (state.pull ? leavePull() : enterPull()));

  return { leavePull, resumeSavedPull, renderPull, placeStart };
}
