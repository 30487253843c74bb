// collection.js — which level is on the board: opening a level (with its saved history),
// reading pasted, dropped, opened or typed text (a level, a collection, or moves to
// replay), the open collection's navigation and list, and the first level when the page
// starts (from the address, else the one open last time, else the built-in levels).
import { parse, levelKey, Session } from '../pkg/sokoban_wasm.js';
import { isFormField } from './input.js';
import { closeMenu, reveal } from './layout.js';
import { levelTitle, plural, renderLevelList } from './level-list.js';
import * as io from './levelio.js';
import { BUILTIN } from './levels.js';
import * as progress from './progress.js';

const $ = (id) => document.getElementById(id);
const CLIPBOARD_MS = 5000; // a browser may ask the person first: wait that long for the answer

/**
 * Levels: openLevel(xsb, title), openAlone(xsb, title, said), loadText(text, source),
 * goToLevel(i), keyOf(level), nextUnsolved(), renderCollection(), showTitle(),
 * openFirstLevel(), openGenerated(xsb, title).
 */
export function initCollection(page) {
  const { state } = page;
  const PASTE_NOTE = $('paste-note').textContent;

  /** Put a level on the board, with its saved history when it has one. */
  function openLevel(xsb, title) {
    if (state.pull) page.leavePull();
    page.stopEverything();
    const saved = io.loadProgress(xsb);
    let session;
    try {
      session = saved ? Session.restore(xsb, saved.line, saved.redo) : new Session(xsb);
    } catch {
      session = new Session(xsb); // saved history that no longer fits: start fresh
    }
    page.act(() => {
      state.session?.free();
      state.session = session;
      state.key = session.levelKey();
      if (saved?.solved) progress.markSolved(state.key, session.levelXsb()); // saved before solutions were
      state.title = title || '';
      state.facing = 2;
      state.wasSolved = true; // do not announce a level that was left solved
      closeMenu();
      page.resetSolverCard();
      $('paste-note').textContent = PASTE_NOTE;
      $('paste-note').dataset.kind = '';
      page.fitBoardHeight(session.view());
      state.board.fit(); // a level opens fitted to the window
      state.board.followed = -1;
      showTitle();
    });
    renderCollection();
    page.showProgress();
  }

  /** Open a level on its own (no collection), saying `said`. */
  function openAlone(xsb, title, said) {
    clearUrlLevel();
    state.collection = null;
    io.saveCollection(null);
    openLevel(xsb, title);
    page.status(said);
  }

  /** The header: the level's title and its place in the collection. */
  function showTitle() {
    const col = state.collection;
    const where = col ? `${col.title ? `${col.title} · ` : ''}${col.index + 1} of ${col.levels.length}` : '';
    $('level-title').textContent = [state.title, where].filter(Boolean).join(' — ') || 'Untitled level';
    document.title = `${state.title || 'Sokoban'} · Sokoban`;
  }

  /**
   * Read pasted, dropped or typed text: a level, a collection or a LURD solution. On bad
   * input the board stays as it was and the message says what is wrong.
   */
  function loadText(text, source) {
    if (!text.trim()) {
      page.status(`Nothing to load: the ${source} is empty.`, 'error');
      return false;
    }
    let p;
    try {
      p = parse(text);
    } catch (e) {
      page.status(`Could not read the ${source}: ${e.message}`, 'error');
      return false;
    }
    if (p.kind === 'solution') return page.replayText(p.lurd);
    const valid = p.levels.filter((l) => !l.error);
    if (p.levels.length === 1) {
      const l = p.levels[0];
      if (l.error) {
        page.status(`That level cannot be played: ${l.error}`, 'error');
        return false;
      }
      openAlone(l.xsb, levelTitle(l, p.title || 'Untitled level'), `Loaded a ${l.width}×${l.height} level with ${plural(l.boxes, 'box', 'boxes')} (${p.format}).`);
      return true;
    }
    if (!valid.length) {
      page.status(`None of the ${p.levels.length} levels can be played: ${p.levels[0].error}`, 'error');
      return false;
    }
    clearUrlLevel();
    const first = p.levels.indexOf(valid[0]);
    state.collection = { title: p.title || '', levels: p.levels, index: first };
    io.saveCollection({ title: state.collection.title, levels: p.levels });
    openLevel(valid[0].xsb, levelTitle(valid[0]));
    const bad = p.levels.length - valid.length;
    page.status(`Opened a collection of ${p.levels.length} levels${bad ? ` (${bad} invalid, marked in the list)` : ''}.`);
    return true;
  }

  /** After the user picks another level, the page URL should no longer name the old one. */
  function clearUrlLevel() {
    if (io.urlHasLevel()) history.replaceState(null, '', location.pathname);
  }

  function goToLevel(i) {
    const col = state.collection;
    const l = col?.levels[i];
    if (!l) return;
    if (l.error) {
      page.status(`Level ${l.number} cannot be played: ${l.error}`, 'error');
      return;
    }
    clearUrlLevel();
    col.index = i;
    openLevel(l.xsb, levelTitle(l));
    page.status(`Level ${l.number}: ${levelTitle(l)}.`);
  }

  /** A collection level's key (computed once; older saved collections have none). */
  function keyOf(l) {
    if (l.key === undefined) {
      try {
        l.key = levelKey(l.xsb);
      } catch {
        l.key = null;
      }
    }
    return l.key;
  }

  /** Index of the next playable level of the collection not solved yet (wrapping round), or -1. */
  function nextUnsolved() {
    const col = state.collection;
    if (!col) return -1;
    const n = col.levels.length;
    for (let k = 1; k < n; k++) {
      const i = (col.index + k) % n;
      const l = col.levels[i];
      if (!l.error && !progress.isSolved(keyOf(l))) return i;
    }
    return -1;
  }

  /** Index of the next (+1) or previous (-1) playable level of the collection, or -1. */
  function nextValid(dir) {
    const col = state.collection;
    if (!col) return -1;
    for (let i = col.index + dir; i >= 0 && i < col.levels.length; i += dir) if (!col.levels[i].error) return i;
    return -1;
  }

  function renderCollection() {
    const col = state.collection;
    $('prev').disabled = nextValid(-1) < 0;
    $('next').disabled = nextValid(1) < 0;
    $('next-unsolved').disabled = nextUnsolved() < 0;
    $('level-pos').textContent = col ? `${col.index + 1} / ${col.levels.length}` : 'single level';
    renderLevelList($('level-list'), col, {
      pick: goToLevel,
      isSolved: (l) => progress.isSolved(keyOf(l)),
      best: (l) => {
        const r = progress.record(keyOf(l));
        if (!r?.bestMoves) return '';
        const m = r.bestMoves, p = r.bestPushes;
        return m === p || m.lurd === p.lurd ? `${m.moves}/${m.pushes}` : `${m.moves}/${m.pushes} · ${p.moves}/${p.pushes}`;
      },
    });
  }

  /**
   * The Paste a level button: the clipboard's text where the browser lets the page read it;
   * else (no permission, nothing there, not a level) the Level box, in view and focused,
   * with a note saying why and how to paste by hand.
   */
  async function pasteLevel() {
    let text = '';
    try {
      const timeout = new Promise((_, fail) => setTimeout(() => fail(new Error('timeout')), CLIPBOARD_MS));
      text = await Promise.race([navigator.clipboard.readText(), timeout]);
    } catch {
      text = ''; // no clipboard API, refused, or no answer in time
    }
    if (text.trim() && loadText(text, 'clipboard text')) return;
    const why = text.trim() ? $('status').textContent : 'The page may not read the clipboard here (or it is empty).';
    const box = $('level-text');
    reveal(box);
    box.focus();
    $('paste-note').textContent = `${why} Paste the level into this box (Ctrl+V, or touch and hold, then Paste) and press Load.`;
    $('paste-note').dataset.kind = text.trim() ? 'error' : '';
  }

  // ------------------------------------------------ the first level

  /** First level: from the URL, else what was open last time, else the built-in levels. */
  function openFirstLevel() {
    const urlError = openUrlLevel();
    if (urlError === null) return page.resumeSavedPull();
    openSavedOrBuiltIn();
    page.resumeSavedPull();
    if (urlError) page.status(urlError, 'error');
    else page.openGenLink(); // a ?gen= link: the generated level replaces this one when ready
  }

  /** Open the level the page address names: null when opened, else the error or ''. */
  function openUrlLevel() {
    if (io.urlHasLevel()) {
      try {
        const p = parse(location.href);
        const l = p.kind === 'levels' && p.levels.find((x) => !x.error);
        if (!l) throw new Error(p.levels?.[0]?.error || 'no level in the link');
        io.saveCollection(null);
        openLevel(l.xsb, levelTitle(l, p.title || 'Level from the link'));
        page.status(`Opened the level from the link (${p.format}).`);
        const sol = new URLSearchParams(location.search).get('solution');
        if (sol) page.offerLinkSolution(l.xsb, sol);
        return null;
      } catch (e) {
        return `The level in the page address could not be read: ${e.message}`;
      }
    }
    return '';
  }

  function openSavedOrBuiltIn() {
    const cur = io.loadCurrent();
    if (cur?.xsb) {
      try {
        const col = io.loadCollection();
        if (col?.levels?.[cur.index]?.xsb === cur.xsb) state.collection = { ...col, index: cur.index };
        openLevel(cur.xsb, cur.title);
        return;
      } catch {
        state.collection = null;
      }
    }
    const p = parse(BUILTIN);
    state.collection = { title: p.title || 'Built-in levels', levels: p.levels, index: 0 };
    io.saveCollection({ title: state.collection.title, levels: p.levels });
    openLevel(p.levels[0].xsb, levelTitle(p.levels[0]));
    page.status('Welcome! Push every box onto a goal. Arrow keys move; you can also click, tap and drag.');
  }

  /** A level from the generator (generator.js): opened alone, like a pasted level. */
  const openGenerated = (xsb, title) => openAlone(xsb, title, `Opened a new generated level: ${title.replace(/^Generated /, '')}.`);

  // ------------------------------------------------ wiring

  const on = (id, fn) => $(id).addEventListener('click', fn);
  on('prev', () => goToLevel(nextValid(-1)));
  on('next', () => goToLevel(nextValid(1)));
  on('next-unsolved', () => {
    const i = nextUnsolved();
    if (i < 0) page.status('Every level of this collection is solved.', 'ok');
    else goToLevel(i);
  });
  on('load', () => loadText($('level-text').value, 'level text'));
  on('open-file', () => $('file-input').click());
  on('paste-level', pasteLevel);
  $('file-input').addEventListener('change', async (e) => {
    const file = e.target.files[0];
    if (file) loadText(await io.readFile(file), `file ${file.name}`);
    e.target.value = '';
  });

  // Paste anywhere (but not into a text field, which keeps its own paste).
  document.addEventListener('paste', (e) => {
    if (isFormField(e.target)) return;
    const text = e.clipboardData?.getData('text/plain') ?? '';
    e.preventDefault();
    loadText(text, 'pasted text');
  });

  // Drop a level file (or dragged text) anywhere on the page.
  const hint = $('drop-hint');
  document.addEventListener('dragenter', (e) => {
    if (!e.dataTransfer?.types.includes('Files')) return;
    state.dropDepth++;
    hint.hidden = false;
  });
  document.addEventListener('dragleave', () => {
    if (state.dropDepth > 0 && --state.dropDepth === 0) hint.hidden = true;
  });
  document.addEventListener('dragover', (e) => e.preventDefault());
  document.addEventListener('drop', async (e) => {
    state.dropDepth = 0;
    hint.hidden = true;
    if (isFormField(e.target) && !e.dataTransfer.files.length) return;
    e.preventDefault();
    const file = e.dataTransfer.files[0];
    if (file) loadText(await io.readFile(file), `file ${file.name}`);
    else loadText(e.dataTransfer.getData('text/plain'), 'dropped text');
  });

  return {
    openLevel, openAlone, loadText, goToLevel, keyOf, nextUnsolved, renderCollection, showTitle,
    openFirstLevel, openGenerated,
  };
}
