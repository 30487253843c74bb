// records.js — what was achieved on a level (progress.js keeps it under the level's key):
// a solve recorded and announced, the Progress card's best solutions (Replay, Copy) and
// snapshots (Save, Restore, Delete), and the export / import of it all. progress-panel.js
// draws the card; the wasm checks an imported file.
import { checkSolution, levelKey, rleLurd } from '../pkg/sokoban_wasm.js';
import { plural } from './level-list.js';
import * as io from './levelio.js';
import * as progress from './progress.js';
import { renderProgress, scoreText } from './progress-panel.js';
import { withSession } from './session.js';

const $ = (id) => document.getElementById(id);

/** Records: recordSolved(view), showProgress(). */
export function initRecords(page) {
  const { state } = page;

  /** The level was just solved on the board: keep the solution, say so (and if it is a best). */
  function recordSolved(v) {
    const s = state.session;
    const text = `Solved in ${v.moves} moves, ${v.pushes} pushes`;
    const r = progress.recordSolution(state.key, s.levelXsb(), state.title, { lurd: s.historyLurd(), moves: v.moves, pushes: v.pushes });
    const best = !r.first && (r.bestMoves || r.bestPushes)
      ? ` A new best (fewest ${r.bestMoves && r.bestPushes ? 'moves and pushes' : r.bestMoves ? 'moves' : 'pushes'})!` : '';
    const next = page.nextUnsolved() >= 0 ? ' Press Next unsolved for the next level to solve.' : '';
    const lost = r.saved ? '' : ' (This browser would not save it: its storage is full or disabled.)';
    page.status(`${text}!${best}${next}${lost}`, r.saved ? 'ok' : 'error');
    page.renderCollection();
    showProgress();
  }

  /** Redraw the Progress card for the level on the board (and My levels). */
  function showProgress() {
    page.showMyLevels();
    renderProgress(progress.record(state.key), {
      replayBest: (kind) => {
        const b = bestOf(kind);
        if (b) page.replayFromStart(b.lurd, `your best solution (fewest ${kind})`);
      },
      copyBest: (kind) => {
        const b = bestOf(kind);
        if (b) page.share($('rle').checked ? rleLurd(b.lurd) : b.lurd, `best solution (fewest ${kind}, ${scoreText(b)})`);
      },
      restore: restoreSnapshot,
      remove: (snap) => {
        const ok = progress.deleteSnapshot(state.key, snap.name);
        page.status(ok ? `Deleted the snapshot “${snap.name}”.` : 'This browser would not save the change: its storage is full or disabled.', ok ? '' : 'error');
        showProgress();
      },
    });
  }

  const bestOf = (kind) => progress.record(state.key)?.[kind === 'moves' ? 'bestMoves' : 'bestPushes'];

  function saveSnapshot() {
    page.interrupt();
    const s = state.session;
    const name = $('snap-name').value.trim() || progress.freeName(state.key);
    const r = progress.saveSnapshot(state.key, s.levelXsb(), state.title, name, { line: s.historyLurd(), moves: state.view.moves, pushes: state.view.pushes });
    if (!r.saved) page.status('This browser would not save the snapshot: its storage is full or disabled.', 'error');
    else page.status(`${r.replaced ? 'Replaced' : 'Saved'} the snapshot “${name}” (${scoreText(state.view)}).`, 'ok');
    $('snap-name').value = '';
    showProgress();
  }

  /** Put a snapshot's position on the board: a restart and its moves, so undo goes back. */
  function restoreSnapshot(snap) {
    if (state.pull) page.leavePull();
    page.interrupt();
    const s = state.session;
    try {
      withSession(s.levelXsb(), (fresh) => fresh.checkLurd(snap.line));
    } catch (e) {
      page.status(`The snapshot “${snap.name}” does not fit this level: ${e.message}`, 'error');
      return;
    }
    const undos = page.act(() => {
      const n = (state.view.moves > 0 && s.restart() ? 1 : 0) + (snap.line ? 1 : 0);
      if (snap.line) s.playLurd(snap.line);
      return n;
    });
    const back = undos === 2 ? ' Undo twice to go back to where you were.' : undos === 1 ? ' Undo goes back to where you were.' : '';
    page.status(`Restored the snapshot “${snap.name}” (${scoreText(state.view)}).${back}`, 'ok');
  }

  function exportProgress() {
    const text = progress.exportText(io.allHistory());
    const day = new Date().toISOString().slice(0, 10);
    io.downloadText(`sokoban-progress-${day}.json`, text);
    page.status('Exported your progress as a JSON file: import it in another browser to carry on there.', 'ok');
  }

  async function importProgress(file) {
    let text;
    try {
      text = await io.readFile(file);
    } catch (e) {
      page.status(`Could not read ${file.name}: ${e.message}`, 'error');
      return;
    }
    let r;
    try {
      r = progress.importText(text);
    } catch (e) {
      page.status(`Nothing was imported from ${file.name}. ${e.message}`, 'error');
      return;
    }
    if (!r.count.saved) {
      page.status(`Nothing was imported from ${file.name}: this browser would not save it (storage full or disabled).`, 'error');
      return;
    }
    const histories = io.mergeHistory(r.content.history);
    const c = r.count;
    page.status(`Imported ${file.name}: ${plural(c.levels, 'level', 'levels')} (${c.solved} solved, ${c.newSolved} new here), ${plural(c.snapshots, 'snapshot', 'snapshots')}, ${plural(c.myLevels, 'level of your own', 'levels of your own')}, ${plural(histories, 'move history', 'move histories')}.`, 'ok');
    page.renderCollection();
    showProgress();
  }

  // The wasm checks progress.js runs on an imported file.
  progress.setChecks({
    levelKey,
    checkSolution,
    checkHistory: (xsb, line, redo) => withSession(xsb, (s) => {
      const v = s.view();
      return { line: s.historyLurd(), moves: v.moves, pushes: v.pushes };
    }, line, redo),
  });

  const on = (id, fn) => $(id).addEventListener('click', fn);
  on('snap-save', saveSnapshot);
  $('snap-name').addEventListener('keydown', (e) => {
    if (e.key === 'Enter') saveSnapshot();
  });
  on('export-progress', exportProgress);
  on('import-progress', () => $('import-file').click());
  $('import-file').addEventListener('change', (e) => {
    const file = e.target.files[0];
    e.target.value = '';
    if (file) importProgress(file);
  });

  return { recordSolved, showProgress };
}
