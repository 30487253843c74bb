// render.js — the game on screen: after each change, read the Session's view and show the
// counters, the buttons, the deadlock warning, the solved banner and the board (board.js
// draws it); save the history; size the board to the level on a phone.
import * as io from './levelio.js';
import * as progress from './progress.js';

const $ = (id) => document.getElementById(id);

/** Drawing: draw(), render(), fitBoardHeight(view). */
export function initRender(page) {
  const { state } = page;

  /** Draw the board as the state has it (the selection, a drag, the deadlocks). */
  function draw() {
    const { board } = state;
    // The view follows the player, or the keyboard's target cursor in box mode.
    const follow = state.cursor >= 0 ? state.cursor : state.view.player;
    if (state.view.width === board.cols && state.view.height === board.rows) board.follow(follow);
    board.draw(state.view, {
      reach: state.reach,
      target: state.target,
      selected: state.selected,
      cursor: state.cursor,
      drag: state.drag?.clientX === undefined ? null : state.drag,
      dead: state.dead,
      facing: state.facing,
    });
  }

  /** Read the Session after a change: counters, buttons, warnings, board; then save. */
  function render() {
    const s = state.session;
    const v = (state.view = s.view());
    $('moves').textContent = v.moves;
    $('pushes').textContent = v.pushes;
    $('goals').textContent = `${v.boxesOnGoals}/${v.boxCount}`;
    $('undo').disabled = !v.canUndo;
    $('redo').disabled = !v.canRedo;
    $('restart').disabled = v.moves === 0;

    const dead = v.solved ? [] : s.deadlocks();
    state.dead = new Map(dead.map((d) => [d.square, d.kind]));
    $('deadlock').textContent = page.deadlockText(dead);

    const banner = $('solved');
    banner.hidden = !v.solved;
    if (state.pull) {
      page.renderPull(v);
    } else if (v.solved) {
      banner.textContent = `✓ Solved in ${v.moves} moves, ${v.pushes} pushes`;
      if (!state.wasSolved) page.recordSolved(v);
    }
    state.wasSolved = v.solved;
    draw();
    save();
    page.updateReplayUi();
  }

  function save() {
    const s = state.session;
    if (state.pull) {
      // The reverse game is not a history of the level: kept on its own, for a reload.
      io.savePull({ xsb: s.levelXsb(), start: state.pull.start, line: s.historyLurd(), redo: s.redoLurd() });
      return;
    }
    const xsb = s.levelXsb();
    io.saveCurrent({ xsb, title: state.title, index: state.collection ? state.collection.index : -1 });
    io.saveProgress(xsb, s.historyLurd(), s.redoLurd(), progress.isSolved(state.key));
  }

  /**
   * On a narrow (phone) page the board is as tall as the level fitted to its width needs,
   * not more: the square size the board will choose (whole device pixels, at most 72 CSS
   * pixels) times the rows, so no empty band is left above or below the level. A level too
   * tall for the room above the action bar is shrunk by the page's flex layout (it fits its
   * height then); a very wide one keeps a strip of at least 96 pixels to zoom into.
   */
  function fitBoardHeight(v = state.view) {
    const wrap = $('board-wrap');
    if (!v || !matchMedia('(max-width: 820px)').matches) {
      wrap.style.height = '';
      return;
    }
    const dpr = devicePixelRatio || 1;
    const cell = Math.floor(Math.min(wrap.clientWidth / v.width, 72) * dpr) / dpr;
    wrap.style.height = `${Math.floor(Math.max(96, cell * v.height))}px`;
  }

  addEventListener('resize', () => fitBoardHeight());
  new ResizeObserver(() => {
    if (!state.view) return;
    state.board.layout(state.view.width, state.view.height);
    draw();
    state.panel.drawChart();
  }).observe($('board-wrap'));

  return { draw, render, save, fitBoardHeight };
}
