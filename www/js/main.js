// main.js — the Sokoban page's entry: loads the wasm (every rule lives there: the page
// never decides what is legal), makes the one state (state.js) and the page's API, and
// wires the job modules. Each job module gets the API object `page` at init, offers its
// calls to the others by returning them, and reaches the others only through `page`, never
// by importing them; its own buttons it wires itself. The API, by module:
//
//   state                       state.js: everything that changes (the one state object)
//   status say announce deadlockText                                     messages.js
//   draw render save fitBoardHeight                                      render.js
//   act interrupt stopPlay animate startReplay updateReplayUi replayText
//     replayFromStart busy                                               play.js
//   openLevel openAlone loadText goToLevel keyOf nextUnsolved renderCollection
//     showTitle openFirstLevel openGenerated                             collection.js
//   recordSolved showProgress                                            records.js
//   leavePull resumeSavedPull renderPull placeStart                      pull-mode.js
//   editorApi showMyLevels                                               my-levels.js
//   solving setSolving stopSearches resetSolverCard                      solve.js
//   share offerLinkSolution showSolution hideSolution                    share.js
//   editorActive openEditor (editor.js), openGenLink (generator.js), stopEverything (here)
//
// The other modules are leaves the job modules may import: board.js (drawing), input.js
// (keys, mouse, touch), levelio.js (files, links, clipboard, storage), replay.js (animated
// moves), level-list.js, progress.js + progress-panel.js, solver-client.js +
// solver-pool.js + solver-panel.js, session.js (a temporary Session), layout.js, theme.js;
// editor.js, generator.js, optimize.js (Optimize) and puzzle.js (the sliding-tile mode) are
// wired here.
import init, { checkSolution, rleLurd } from '../pkg/sokoban_wasm.js';
import { Board } from './board.js';
import { editorActive, editorText, initEditor, openEditor } from './editor.js';
import { initGenerator, openGenLink } from './generator.js';
import { initHelp } from './help.js';
import { initLayout } from './layout.js';
import { registerOffline } from './offline.js';
import { initPuzzle } from './puzzle.js';
import { createState } from './state.js';
import { initTheme } from './theme.js';
import { initCollection } from './collection.js';
import { initMessages } from './messages.js';
import { initMyLevels } from './my-levels.js';
import { initOptimize } from './optimize.js';
import { initPlay } from './play.js';
import { initPullMode } from './pull-mode.js';
import { initRecords } from './records.js';
import { initRender } from './render.js';
import { initShare } from './share.js';
import { initSolve } from './solve.js';

const $ = (id) => document.getElementById(id);

const state = createState();
const page = { state };

/** Add a module's calls to the page's API; a name offered twice is a wiring mistake. */
function join(calls) {
  for (const name of Object.keys(calls)) {
    if (name in page) throw new Error(`page.${name} is offered twice`);
  }
  Object.assign(page, calls);
}

join({
  editorActive,
  openEditor,
  openGenLink,
  /** Another level or game comes: drop the walk, the replay, the searches and any offer. */
  stopEverything() {
    page.hideSolution();
    page.stopPlay();
    page.stopSearches();
  },
});
join(initMessages(page)); // first: a page that cannot start says so

async function main() {
  initLayout(); // first: the remembered card shows while the wasm loads
  await init();
  state.board = new Board($('board'));
  initHelp(); // first: its key handler runs before the modes'
  initTheme(() => state.view && page.draw());
  join(initRender(page));
  join(initPlay(page));
  join(initCollection(page));
  join(initRecords(page));
  join(initPullMode(page));
  join(initMyLevels(page));
  join(initSolve(page));
  join(initShare(page));
  // Optimize (optimize.js): the solution on the board is the one being replayed (the
  // solver's answer, a best, pasted moves), else the moves made when they solve the level.
  initOptimize({
    level: () =>
      state.session && !state.pull
        ? { xsb: state.session.levelXsb(), key: state.key, title: state.title }
        : null,
    boardSolution() {
      const s = state.session;
      if (!s || state.pull) return null;
      const rest = state.replay.remaining();
      if (rest) return { lurd: s.historyLurd() + rest, what: 'the solution being replayed' };
      return state.view.solved ? { lurd: s.historyLurd(), what: 'the solution on the board' } : null;
    },
    checkSolution,
    replay: (lurd, what) => page.replayFromStart(lurd, what),
    share: (text, what) => page.share(text, what),
    rle: (lurd) => ($('rle').checked ? rleLurd(lurd) : lurd),
    status: (text, kind) => page.status(text, kind),
    saved: () => {
      page.renderCollection();
      page.showProgress();
    },
  });
  initGenerator({
    openGenerated: page.openGenerated,
    replaySolution: (lurd) => page.replayFromStart(lurd, 'the generated level\'s solution'),
    share: page.share,
  });
  page.openFirstLevel();
  // For tests and the curious: read-only access to the game state.
  const { pool } = state.solvers;
  window.app = {
    view: () => state.session.view(),
    history: () => state.session.historyLurd(),
    levelXsb: () => state.session.levelXsb(),
    busy: () => page.busy() || page.solving(),
    searches: () => state.searches,
    editorText: () => editorText(),
    openEditor: () => openEditor(),
    // The fast portfolio's workers: how many, how many still search, and a way to stop one.
    pool: {
      size: () => pool.size,
      live: () => pool.live,
      warmed: () => pool.warmed,
      kill: (lane) => pool.kill(lane),
      setStagger: (ms) => { pool.stagger = ms; },
    },
  };
  initPuzzle(); // the sliding-tile mode (its tab, or a ?puzzle= link)
  initEditor(page.editorApi);
  registerOffline(() => {
    $('offline-state').hidden = false;
  });
  // The fast search's workers load and warm up their wasm now, while the person looks at
  // the level: the first Hint or Solve does not wait for it.
  pool.warm();
  document.documentElement.dataset.ready = 'true';
}

main().catch((e) => {
  page.status(`The game could not start: ${e.message}`, 'error');
  throw e;
});
