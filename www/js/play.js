// play.js — playing the level: moves and undo by key or button, walks and box drags by
// click, tap, drag or the keyboard's box mode (each animated as one undo group), and the
// replay of a move list with its controls. Every move is the Session's to allow; the
// page only asks it (walkTo, boxReach, boxPath, step) and plays what it answers.
import { attachInput, zoomBoard } from './input.js';
import { boxText, noneText, pickBox, squareText, stepTarget } from './box-keys.js';
import { plural } from './level-list.js';
import { closeMenu } from './layout.js';
import { Playback } from './replay.js';
import { withSession } from './session.js';
import { reducedMotion } from './theme.js';

const $ = (id) => document.getElementById(id);
const SPEEDS = [1, 2, 4, 8, 15, 30, 60, 120]; // replay moves per second
const WALK_MS = 25; // per step of a walk or a box drag

/**
 * Playing: act(fn), interrupt(), stopPlay(), animate(lurd), startReplay(lurd, what),
 * updateReplayUi(), replayText(lurd), replayFromStart(lurd, what), busy().
 */
export function initPlay(page) {
  const { state } = page;

  // `letter` (from a move list) says whether to pull in pull mode: uppercase pulls; without
  // one a pull-mode step pulls the box behind the player, if any.
  const stepFacing = (dir, letter) => {
    const made = state.session.step(dir, letter === undefined ? undefined : letter !== letter.toLowerCase());
    if (made !== undefined) state.facing = dir;
    return made;
  };
  // A walk or box drag is one undo group: it starts in animate() and closes when the
  // animation ends, is finished early by another input, or is dropped.
  const endGroup = () => state.session?.endGroup();
  const walk = (state.walk = new Playback({
    step: stepFacing,
    undo: () => state.session.undo(),
    onChange: () => page.render(),
    onEnd: (why) => {
      endGroup();
      if (why === 'blocked') walk.stop();
      page.announce();
    },
  }));
  const replay = (state.replay = new Playback({
    step: stepFacing,
    undo: () => state.session.undo(),
    onChange: () => page.render(),
    onEnd: (why, i) => {
      if (why === 'blocked') page.status(`Replay stopped: move ${i + 1} is blocked.`, 'error');
      else if (!state.view.solved) page.status('Replay finished.');
      updateReplayUi();
      page.announce();
    },
  }));

  function clearSelection() {
    state.selected = -1;
    state.reach = null;
    state.drag = null;
    state.target = -1;
    state.cursor = -1;
  }

  /** A new input first finishes a walk and ends a replay, then acts on the Session. */
  function interrupt() {
    walk.finish();
    endGroup();
    if (replay.length) closeReplay();
    clearSelection();
  }

  /** Drop a walk and a replay where they are (another level or game comes). */
  function stopPlay() {
    walk.stop();
    endGroup();
    closeReplay();
    clearSelection();
  }

  /** The one way a change reaches the game: finish what runs, change, redraw and save. Returns fn's value. */
  function act(fn) {
    interrupt();
    const r = fn();
    page.render();
    return r;
  }

  /** An input's handler: act on the game, then say the counters. */
  const input = (fn) => (arg) => {
    act(() => fn(arg));
    page.announce();
  };

  const actions = {
    move: input((dir) => {
      if (stepFacing(dir) === undefined) state.facing = dir;
    }),
    // Shift+arrow: in pull mode a step that pulls nothing; otherwise a plain move.
    moveOnly: input((dir) => {
      if (stepFacing(dir, 'urdl'[dir]) === undefined) state.facing = dir;
    }),
    undo: input(() => state.session.undo()),
    redo: input(() => state.session.redo()),
    restart: input(() => {
      if (state.session.restart()) page.status('Restarted. Undo brings your moves back.');
    }),
    home: input(() => state.session.undoAll()),
    end: input(() => state.session.redoAll()),
    escape() {
      walk.finish();
      if (state.selected >= 0 || state.drag) {
        clearSelection();
        page.status('Box let go.');
        page.say('Box let go.');
        page.draw();
      }
    },
    // Box mode: the keyboard's way to choose a box and where it goes (box-keys.js).
    boxMode: () => state.cursor >= 0,
    chooseBox(step) {
      const current = state.cursor >= 0 ? state.selected : -1;
      interrupt();
      const v = state.view;
      const sq = pickBox(v, current, step);
      if (sq < 0) {
        page.say('There is no box to choose.');
        return;
      }
      state.selected = state.cursor = sq;
      state.reach = new Set(state.session.boxReach(sq));
      if (current < 0) {
        page.status(`Box mode: the arrows move the target over the lit squares, Enter ${state.pull ? 'pulls' : 'pushes'} the box there, B or Tab chooses the next box, Esc lets go.`);
      }
      page.say(boxText(v, sq, state.reach.size, !!state.pull));
      page.draw();
    },
    target(dir) {
      const v = state.view;
      const next = stepTarget(state.reach, state.cursor, dir, v.width);
      if (next < 0) {
        page.say(noneText(dir));
        return;
      }
      state.cursor = next;
      state.target = next === state.selected ? -1 : next;
      if (next === state.selected) page.say(`${squareText(v, next, !!state.pull)}: where the box is now.`);
      else {
        const path = state.session.boxPath(state.selected, next) ?? '';
        const pushes = path.replace(/[a-z]/g, '').length;
        page.say(`${squareText(v, next, !!state.pull)}: ${plural(pushes, state.pull ? 'pull' : 'push', state.pull ? 'pulls' : 'pushes')}, ${plural(path.length, 'move', 'moves')}.`);
      }
      page.draw();
    },
    pushTarget() {
      const from = state.selected, to = state.cursor;
      if (to === from) {
        page.say(`Choose where the box goes with the arrows first, then press Enter. ${state.reach.size > 1 ? '' : 'This box cannot move from here.'}`.trim());
        return;
      }
      state.saidFirst = `Box ${state.pull ? 'pulled' : 'pushed'} to ${squareText(state.view, to, !!state.pull).replace(/^R/, 'r')}. `;
      if (!pushBox(from, to)) state.saidFirst = '';
      page.draw();
    },
    zoom: (how) => zoomBoard(state.board, how, page.draw, state.view.player),
    redraw: () => page.draw(),
    hasBox: (sq) => !!state.view.boxes[sq],
    click(sq) {
      const selected = state.selected;
      interrupt();
      const v = state.view;
      if (selected >= 0) {
        if (sq === selected) page.status('Box let go.');
        else if (v.boxes[sq]) selectBox(sq);
        else pushBox(selected, sq);
        page.draw();
        return;
      }
      if (v.boxes[sq]) selectBox(sq);
      else if (v.cells[sq] === 2 && sq !== v.player) {
        const path = state.session.walkTo(sq);
        if (path !== undefined) animate(path);
        else if (state.pull && v.moves === 0 && act(() => page.placeStart(sq))) page.status('The player starts here.');
        else page.status('The player cannot get there.', 'error');
      }
      page.draw();
    },
    dragStart(sq) {
      interrupt();
      if (!state.view.boxes[sq]) return false; // it moved: an animation was just finished
      state.reach = new Set(state.session.boxReach(sq));
      state.drag = { from: sq };
      return true;
    },
    dragMove(sq, clientX, clientY) {
      if (!state.drag) return;
      Object.assign(state.drag, { clientX, clientY });
      state.target = state.reach.has(sq) && sq !== state.drag.from ? sq : -1;
      page.draw();
    },
    drop(sq) {
      const from = state.drag?.from;
      if (from === undefined) return;
      clearSelection();
      if (sq !== from) pushBox(from, sq);
      page.draw();
    },
    dragCancel() {
      clearSelection();
      page.draw();
    },
  };

  function selectBox(sq) {
    state.selected = sq;
    state.reach = new Set(state.session.boxReach(sq));
    const push = state.pull ? 'pull' : 'push';
    page.status(state.reach.size > 1 ? `Box selected: click a lit square to ${push} it there (Esc lets go).` : `This box cannot be ${push}ed anywhere from here.`);
  }

  /** Push the box on `from` to `to` by the best box path, animated; explain when impossible. */
  function pushBox(from, to) {
    const path = to >= 0 ? state.session.boxPath(from, to) : undefined;
    clearSelection();
    if (path === undefined) {
      page.status(`The box cannot be ${state.pull ? 'pulled' : 'pushed'} there.`, 'error');
      return false;
    }
    page.status('');
    animate(path);
    return true;
  }

  /** Play a walk or a box drag (LURD) as one undo group, animated unless motion is reduced. */
  function animate(lurd) {
    if (!lurd) return;
    walk.load(lurd, WALK_MS);
    state.session.beginGroup();
    walk.play();
    if (reducedMotion()) walk.finish(); // no animation: the walk or drag happens at once
  }

  // ------------------------------------------------ replay

  function startReplay(lurd, what) {
    interrupt();
    closeMenu();
    replay.load(lurd, 1000 / SPEEDS[$('r-speed').value]);
    $('replay-controls').hidden = false;
    page.status(`Replaying ${what}: ${lurd.length} moves.`);
    replay.play();
    updateReplayUi();
  }

  function closeReplay() {
    replay.stop();
    $('replay-controls').hidden = true;
  }

  function updateReplayUi() {
    if ($('replay-controls').hidden) return;
    const n = replay.length, at = replay.pos;
    $('r-play').textContent = replay.playing ? 'Pause' : 'Play';
    $('r-play').disabled = at >= n;
    $('r-forward').disabled = at >= n;
    $('r-end').disabled = at >= n;
    $('r-back').disabled = at === 0;
    $('r-progress').max = Math.max(1, n);
    $('r-progress').value = at;
    $('r-pos').textContent = `${at} / ${n}`;
  }

  /** Replay pasted moves: from the current position if they fit, else from the start. */
  function replayText(lurd) {
    if (state.pull) page.leavePull();
    const s = state.session;
    try {
      startReplay(s.checkLurd(lurd), 'the pasted moves');
      return true;
    } catch (here) {
      if (state.view.moves === 0) {
        page.status(`These moves do not fit this level: ${here.message}`, 'error');
        return false;
      }
      let moves;
      try {
        moves = withSession(s.levelXsb(), (fresh) => fresh.checkLurd(lurd));
      } catch (e) {
        page.status(`These moves do not fit this level, from here or from the start: ${e.message}`, 'error');
        return false;
      }
      act(() => s.restart());
      startReplay(moves, 'the pasted moves from the start');
      return true;
    }
  }

  /** Replay a solution from the level's start: a restart first (undo brings the moves back). */
  function replayFromStart(lurd, what) {
    if (state.pull) page.leavePull();
    interrupt();
    const s = state.session;
    let moves;
    try {
      moves = withSession(s.levelXsb(), (fresh) => fresh.checkLurd(lurd));
    } catch (e) {
      page.status(`That solution does not replay on this level: ${e.message}`, 'error');
      return;
    }
    act(() => state.view.moves > 0 && s.restart());
    startReplay(moves, what);
  }

  // ------------------------------------------------ wiring

  attachInput($('board'), state.board, actions);
  const on = (id, fn) => $(id).addEventListener('click', fn);
  on('undo', () => actions.undo());
  on('redo', () => actions.redo());
  on('restart', () => actions.restart());
  on('zoom-in', () => actions.zoom('in'));
  on('zoom-out', () => actions.zoom('out'));
  on('zoom-fit', () => actions.zoom('fit'));
  on('r-play', () => {
    if (replay.playing) replay.pause();
    else replay.play();
    updateReplayUi();
  });
  on('r-back', () => replay.back());
  on('r-forward', () => {
    replay.pause();
    replay.forward();
    updateReplayUi();
  });
  on('r-end', () => replay.finish());
  on('r-close', () => closeReplay());
  const speed = () => {
    const mps = SPEEDS[$('r-speed').value];
    $('r-speed-text').textContent = `${mps} moves/s`;
    replay.setDelay(1000 / mps);
  };
  $('r-speed').addEventListener('input', speed);
  speed();

  return {
    act, interrupt, stopPlay, animate, startReplay, updateReplayUi, replayText, replayFromStart,
    busy: () => walk.active || replay.playing,
  };
}
