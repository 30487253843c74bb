// my-levels.js — the levels of one's own: what the editor (editor.js) may ask of the page
// (play a drawing, save it to My levels, share it), My levels opened as a collection and
// kept in step when one is saved or deleted, and Undo delete. progress.js stores them.
import { formatLevel, levelKey, parse } from '../pkg/sokoban_wasm.js';
import { closeMenu } from './layout.js';
import { plural } from './level-list.js';
import * as io from './levelio.js';
import * as progress from './progress.js';
import { myLevelTitle, renderMyLevels } from './progress-panel.js';
import { withSession } from './session.js';

const $ = (id) => document.getElementById(id);

/** My levels as the text of a collection. */
const myLevelsText = (mine) => `; My levels\n\n${mine.map((l, i) => `; ${myLevelTitle(l, i)}\n${l.xsb}`).join('\n\n')}\n`;

/** My levels: editorApi (for initEditor), showMyLevels(). */
export function initMyLevels(page) {
  const { state } = page;

  /** What the editor may ask of the page. */
  const editorApi = {
    parse,
    formatLevel,
    viewOf: (xsb) => withSession(xsb, (s) => s.view()),
    play(xsb, title) {
      page.openAlone(xsb, title || 'My level', 'Playing the level from the editor. Edit this level takes you back to it.');
    },
    save(xsb, title) {
      const r = progress.saveMyLevel(levelKey(xsb), xsb, title);
      if (!r.saved) page.status('This browser would not save the level: its storage is full or disabled. The drawing stays in the editor.', 'error');
      else page.status(`${r.replaced ? 'Updated' : 'Saved'} “${title || 'Untitled level'}” in My levels (${plural(progress.myLevels().length, 'level', 'levels')}).`, 'ok');
      refreshMine();
      page.showProgress();
    },
    share: (text, what) => page.share(text, what),
    status: (text, kind) => page.status(text, kind),
  };

  /** The My levels list of the Progress card. */
  const showMyLevels = () => renderMyLevels(progress.myLevels(), { play: openMyLevels, remove: deleteMyLevel });

  /** Open My levels as a collection, at level `at` (the first by default). */
  function openMyLevels(at = 0) {
    const mine = progress.myLevels();
    if (!mine.length) {
      page.status('No levels of your own yet: draw one with New level, then Save to my levels.', 'error');
      return;
    }
    if (!page.loadText(myLevelsText(mine), 'my levels')) return;
    const col = state.collection;
    if (!col) return; // a single level
    col.mine = true;
    io.saveCollection({ title: col.title, levels: col.levels, mine: true });
    if (at > 0 && at !== col.index) page.goToLevel(at);
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
    const index = levels.findIndex((l) => page.keyOf(l) === state.key);
    state.collection = index < 0 ? null : { title: col.title, levels, index, mine: true };
    io.saveCollection(state.collection && { title: col.title, levels, mine: true });
    page.save();
    page.showTitle();
    page.renderCollection();
  }

  function deleteMyLevel(l, i) {
    const name = myLevelTitle(l, i);
    const r = progress.deleteMyLevel(l.key);
    if (!r.saved) {
      page.status('This browser would not save the change: its storage is full or disabled. Nothing was deleted.', 'error');
      return;
    }
    state.undoDelete = r.entry && { entry: r.entry, index: r.index, name };
    $('my-undo-text').textContent = `Deleted “${name}”.`;
    $('my-undo').hidden = !state.undoDelete;
    page.status(`Deleted “${name}” from My levels (${plural(progress.myLevels().length, 'level', 'levels')} left). Undo delete brings it back.`, 'ok');
    refreshMine();
    page.showProgress();
    if (state.undoDelete) $('my-undo-button').focus(); // the focused Delete button is gone
  }

  function undoDeleteMyLevel() {
    const u = state.undoDelete;
    if (!u) return;
    if (!progress.restoreMyLevel(u.entry, u.index)) {
      page.status('This browser would not save the change: its storage is full or disabled.', 'error');
      return;
    }
    state.undoDelete = null;
    $('my-undo').hidden = true;
    page.status(`“${u.name}” is back in My levels.`, 'ok');
    refreshMine();
    page.showProgress();
    document.querySelector(`#my-list li[data-key="${CSS.escape(u.entry.key)}"] button`)?.focus();
  }

  const on = (id, fn) => $(id).addEventListener('click', fn);
  on('edit-level', () => {
    page.interrupt();
    closeMenu();
    page.openEditor(state.session.levelXsb(), state.title);
  });
  on('new-level', () => {
    page.interrupt();
    closeMenu();
    page.openEditor('');
  });
  on('my-levels', () => openMyLevels());
  on('my-undo-button', undoDeleteMyLevel);

  return { editorApi, showMyLevels };
}
