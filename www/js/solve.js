// solve.js — the solver's buttons: Solve (fast: the portfolio; fewest pushes: the IDA*
// with a fast search alongside), Hint (the next push of a solution, kept between Hints),
// Still solvable? (a short fast search), Cancel, the mode switch, and the panel's read-out
// and offered solution. The searches run in workers (solver-client.js, solver-pool.js);
// every solution is checked by the wasm from the position it was asked for before it is
// kept, offered or replayed.
import { pageMemory } from '../pkg/sokoban_wasm.js';
import { plural } from './level-list.js';
import * as io from './levelio.js';
import { SolverClient } from './solver-client.js';
import { SolverPanel, endText, fmtCount, fmtTime } from './solver-panel.js';
import { SolverPool, combine, workerCount } from './solver-pool.js';
import { withSession } from './session.js';

const $ = (id) => document.getElementById(id);
const ALONGSIDE_MIB = 256; // the fast search next to the IDA* (see solveFewest)
const SOLVABLE_MS = 5000; // how long "Still solvable?" looks

/**
 * The solver: solving(), setSolving(on), stopSearches(), resetSolverCard(); the
 * searches, the panel and the default memory go into the state.
 */
export function initSolve(page) {
  const { state } = page;
  // The default budgets are the solver crate's (sokoban_solver::memory), as the CLI's are.
  const memory = (state.memory = pageMemory());
  $('s-memory-mib').defaultValue = memory.fastMiB;
  $('s-table-mib').defaultValue = memory.tableMiB;
  for (const el of document.querySelectorAll('[data-mib]')) el.textContent = memory[el.dataset.mib];
  const pool = new SolverPool(workerCount(), memory.fastMiB); // Fast Solve and Hint: the portfolio
  state.solvers = {
    pool,
    single: pool.single, // Still solvable? and the fast search next to the IDA*: lane 0 alone
    optimal: new SolverClient(), // Fewest pushes (IDA*): single-threaded, one worker
  };
  const { single, optimal } = state.solvers;
  const panel = (state.panel = new SolverPanel({
    state: $('s-state'),
    stats: $('solver-stats'),
    threshold: $('s-threshold'),
    nodes: $('s-nodes'),
    speed: $('s-speed'),
    time: $('s-time'),
    table: $('s-table'),
    packed: $('s-packed'),
    positions: $('s-positions'),
    memory: $('s-memory'),
    cells: $('s-cells'),
    strategy: $('s-strategy'),
    workers: $('s-workers'),
    workerList: $('s-worker-list'),
    first: $('s-first'),
    chart: $('s-chart'),
  }));

  const solving = () => pool.busy || single.busy || optimal.busy;

  /** 'fast' or 'optimal', as the Solve mode switch says. */
  function solveMode() {
    return document.querySelector('input[name="s-mode"]:checked')?.value === 'optimal' ? 'optimal' : 'fast';
  }

  function mibInput(id, fallback, max) {
    const v = Number($(id).value);
    return v >= 1 ? Math.min(Math.round(v), max) : fallback;
  }

  const fastMiB = () => mibInput('s-memory-mib', memory.fastMiB, 3072);

  function solverOptions(mode) {
    const opts = { mode };
    const limit = Number($('s-limit').value);
    if (limit > 0) opts.timeLimitMs = limit * 1000;
    if (mode === 'fast') opts.memoryMiB = fastMiB();
    else opts.tableMiB = mibInput('s-table-mib', memory.tableMiB, 1024);
    return opts;
  }

  function setSolving(on) {
    document.body.classList.toggle('solving', on); // the phone's bar swaps Solve and Hint for Cancel
    if (on) $('solver-card').dataset.searched = 'true';
    $('solve').disabled = on;
    $('hint').disabled = on;
    $('still-solvable').disabled = on;
    $('cancel').disabled = !on;
  }

  /** A level opened: the phone shows the read-out again once a search runs. */
  const resetSolverCard = () => delete $('solver-card').dataset.searched;

  function cancelSearches() {
    pool.cancel();
    single.cancel();
    optimal.cancel();
  }

  function stopSearches() {
    cancelSearches();
    dropOffer();
  }

  // A verified solution is kept (state.plan) with the positions it passes after each push
  // (the wasm's pushPoints): while the position on the board is one of them, Hint plays the
  // next push from it with no new search. The position after a push does not depend on the
  // walk to it, so pushing the same boxes the same way by hand follows the solution too;
  // any other push leaves it, and the next Hint drops it and searches again.

  /** Keep a solution checked by verifyFrom ({moves, points}) for Hint. */
  function keepSolution(session, { moves, points }) {
    state.plan = { session, moves, points: points.map((p) => ({ ...p, key: p.boxes.join(',') })) };
  }

  /** The next push along the kept solution from here: {moves, toGo}, or null (plan dropped). */
  function hintFromPlan() {
    const plan = state.plan;
    const s = state.session;
    if (!plan || plan.session !== s) return null;
    const key = s.boxSquares().join(',');
    const player = s.player();
    // The latest point with these boxes whose next push the player can walk to.
    for (let k = plan.points.length - 2; k >= 0; k--) {
      const at = plan.points[k];
      if (at.key !== key) continue;
      const next = plan.points[k + 1];
      let moves = plan.moves.slice(at.at, next.at);
      if (player !== at.player) {
        const walk = at.stand === player ? '' : s.walkTo(at.stand);
        if (walk === undefined) continue;
        moves = walk + moves[moves.length - 1];
      }
      try {
        moves = s.checkLurd(moves); // never trust, verify
      } catch {
        continue;
      }
      return { moves, toGo: plan.points.length - 1 - k };
    }
    state.plan = null;
    return null;
  }

  function playHint(moves, toGo, kept) {
    const rest = `${toGo} push${toGo === 1 ? '' : 'es'} to go`;
    panel.setState(`Hint: the next push (${rest}${kept ? ' along the solution found before; no new search' : ' with the solution found'}).`, 'ok');
    page.status('Hint: walking to the next push.');
    page.animate(moves.slice(0, moves.search(/[A-Z]/) + 1));
  }

  /**
   * Check a solution found from the search's start position: against the board when it is
   * still there, else against a copy of the game at that position. Returns the moves with
   * their push flags and the positions after each push ({moves, points}); throws when they
   * do not replay.
   */
  function verifyFrom(start, lurd) {
    const s = state.session;
    const check = (game) => {
      const moves = game.checkLurd(lurd);
      return { moves, points: game.pushPoints(moves) };
    };
    if (s === start.session && s.historyLurd() === start.history) return check(s);
    return withSession(start.xsb, check, start.history);
  }

  // A solution the panel offers with its Replay button (a first solution, or one found
  // after the position changed): {session, history, moves, what}.
  function offer(start, moves, label, what) {
    state.offer = { session: start.session, history: start.history, moves, what };
    $('s-replay').textContent = label;
    $('s-offer').hidden = false;
  }

  function dropOffer() {
    state.offer = null;
    $('s-offer').hidden = true;
  }

  /** Replay the offered solution, first taking back the moves made since its search started
   *  when they only went on from there (the replay of another solution, say). */
  function replayOffer() {
    const o = state.offer;
    const s = state.session;
    if (!o || o.session !== s) return dropOffer();
    const h = page.act(() => {
      let line = s.historyLurd();
      while (line !== o.history && line.length > o.history.length && line.startsWith(o.history) && s.undo()) line = s.historyLurd();
      return line;
    });
    if (h !== o.history) {
      page.status('The position has changed since this solution was found, and undoing does not get back there: press Solve again.', 'error');
      return;
    }
    page.startReplay(o.moves, o.what);
  }

  /** The position a search starts from (and whether it is the level's start). */
  function startOf(s) {
    return {
      session: s, xsb: s.levelXsb(), history: s.historyLurd(), player: s.player(),
      boxes: Array.from(s.boxSquares()), atStart: state.view.moves === 0,
    };
  }

  /** Announce a search in the panel: reset for `mode`, `text` as its state. */
  function beginSearch(mode, text) {
    dropOffer();
    panel.reset(mode);
    panel.setState(text, 'running');
    setSolving(true);
    state.searches++;
  }

  async function runSolver(kind) {
    if (solving()) return;
    page.act(() => {});
    const s = state.session;
    if (state.view.solved) {
      panel.setState('The level is already solved.', 'ok');
      return;
    }
    if (kind === 'hint') {
      const h = hintFromPlan();
      if (h) return playHint(h.moves, h.toGo, true);
    }
    const mode = kind === 'hint' ? 'fast' : solveMode();
    const start = startOf(s);
    const request = (options) => ({ level: start.xsb, player: start.player, boxes: start.boxes, options });
    beginSearch(mode, kind === 'hint' ? 'Looking for a solution to take the next push from…'
      : mode === 'fast' ? 'Solving (fast: any solution)…' : 'Solving (fewest pushes)…');
    let msg;
    if (mode === 'fast') {
      const show = (m, workers) => {
        const all = combine(m, workers);
        if (all.mode) panel.update(all); // a crashed worker's message has no read-out
        panel.setWorkers(workers);
      };
      msg = await pool.solve(request(solverOptions('fast')), show);
      if (msg.mode) show(msg, msg.workers);
    } else {
      msg = await solveFewest(start, request);
    }
    setSolving(false);
    if (msg.type !== 'solved') {
      if (!msg.shown) panel.showEnd(msg, start.atStart);
      return;
    }
    const by = msg.workers?.length > 1 ? ` Solved by worker ${msg.lane + 1} (${msg.solvedBy ?? 'its strategy'}).` : '';
    let found;
    try {
      found = verifyFrom(start, msg.lurd);
    } catch (e) {
      panel.setState(`The solver's answer does not replay: ${e.message}`, 'bad');
      return;
    }
    if (start.session !== state.session) return; // another level since
    keepSolution(s, found);
    const shortened = msg.foundPushes != null ? `, shortened from ${msg.foundPushes} pushes, ${msg.foundMoves} moves` : '';
    const how = mode === 'fast' ? `fast search: not necessarily the fewest pushes${shortened}` : msg.proven ? 'fewest pushes, proven' : 'fewest pushes';
    const text = `${msg.pushes} pushes, ${msg.moves} moves (${how}), ${msg.proven ? 'in' : 'found in'} ${fmtTime(msg.elapsedMs)}`;
    if (s.historyLurd() !== start.history) {
      if (kind !== 'hint') offer(start, found.moves, 'Replay it', 'the solver’s solution');
      panel.setState(kind === 'hint'
        ? `Found a solution (${msg.pushes} pushes), but the position has changed since: press Hint again.`
        : `Found a solution: ${text}. The position has changed since: Replay goes back there, if undoing can, and plays it.`, 'bad');
      return;
    }
    if (kind === 'hint') return playHint(found.moves, msg.pushes, false);
    panel.setState(`Solved: ${text}.${by}`, 'ok');
    page.startReplay(found.moves, 'the solver’s solution');
  }

  /**
   * Is this still solvable? A short fast search from the position on the board: yes (with
   * the pushes left; the solution is kept for Hint), no (proved: a deadlock the rules
   * engine sees at once, or a search that ran out of positions), or don't know in time.
   */
  async function checkSolvable() {
    if (solving()) return;
    page.act(() => {});
    const s = state.session;
    const tell = (text, kind) => {
      panel.setState(text, kind);
      page.status(text, kind === 'bad' ? 'error' : kind);
    };
    if (state.view.solved) return tell('The level is solved.', 'ok');
    if (state.dead.size) return tell(`No, proved: ${page.deadlockText(s.deadlocks()).replace(/^⚠ /, '')}`, 'bad');
    const start = startOf(s);
    beginSearch('fast', `Is this still solvable? Looking for up to ${SOLVABLE_MS / 1000} s…`);
    const options = { mode: 'fast', timeLimitMs: SOLVABLE_MS, memoryMiB: Math.min(ALONGSIDE_MIB, fastMiB()) };
    const msg = await single.solve({ level: start.xsb, player: start.player, boxes: start.boxes, options }, (m) => panel.update(m));
    if (msg.mode) panel.update(msg);
    setSolving(false);
    if (start.session !== state.session) return;
    const changed = s.historyLurd() !== start.history ? ' (for the position when you asked; it has changed since)' : '';
    if (msg.type === 'solved') {
      let found;
      try {
        found = verifyFrom(start, msg.lurd);
      } catch (e) {
        return tell(`The solver's answer does not replay: ${e.message}`, 'bad');
      }
      keepSolution(s, found);
      return tell(`Yes: ${plural(msg.pushes, 'push', 'pushes')} left${changed}, by a solution the fast search found (not necessarily the fewest). Hint plays its next push.`, 'ok');
    }
    if (msg.type === 'unsolvable') return tell(`No, proved: no moves from here${changed} solve the level. Undo to go back.`, 'bad');
    if (msg.type === 'limit') {
      return tell(`Don't know: no answer within ${msg.limit === 'memory' ? 'the memory allowed' : `${SOLVABLE_MS / 1000} s`}. Solve searches as long as it takes.`, '');
    }
    if (msg.type === 'cancelled') return tell('Cancelled: no answer.', '');
    panel.showEnd(msg, false);
  }

  /**
   * Fewest pushes: the IDA* in its worker and, where the machine has more than one core, the
   * fast search in a second worker at the same time. Why both: the IDA* can take minutes or
   * hours on a level the fast search solves in a second, so the fast one's solution is
   * offered at once as a first answer while the IDA* goes on; and since the IDA* threshold
   * is a proven lower bound, once it reaches that solution's push count the first answer is
   * known to have the fewest pushes and the IDA* can stop. The fast search alongside gets at
   * most 256 MiB so that the two stay well within a tab's memory (64 MiB table + 256 MiB);
   * on one core it would only slow the IDA* down, so it does not run. Resolves with the
   * IDA*'s final message, or a solved / unsolvable one made from the fast search's.
   */
  async function solveFewest(start, request) {
    const run = { first: null, proven: false, unsolvable: null, threshold: 0 };
    const proveFirst = () => {
      if (run.first && !run.proven && run.threshold >= run.first.pushes) {
        run.proven = true;
        optimal.cancel();
      }
    };
    const ida = optimal.solve(request(solverOptions('optimal')), (m) => {
      panel.update(m);
      run.threshold = Math.max(run.threshold, m.threshold);
      proveFirst();
    });
    let alongside = Promise.resolve();
    if (navigator.hardwareConcurrency > 1) {
      const opts = solverOptions('fast');
      opts.memoryMiB = Math.min(opts.memoryMiB, ALONGSIDE_MIB);
      panel.setFirst('A fast search runs alongside for a first solution…');
      alongside = single.solve(request(opts), (m) => {
        if (!run.first) panel.setFirst(`Fast search alongside: best packed ${m.bestPacked} / ${m.goals}, ${fmtCount(m.positions)} positions, ${fmtTime(m.elapsedMs)}…`);
      }).then((m) => {
        if (m.type === 'solved') {
          let found;
          try {
            found = verifyFrom(start, m.lurd);
          } catch (e) {
            panel.setFirst(`The fast search's answer does not replay: ${e.message}`);
            return;
          }
          run.first = m;
          if (start.session !== state.session) return;
          keepSolution(start.session, found);
          panel.setFirst(`First solution: ${m.pushes} pushes, ${m.moves} moves (fast search, ${fmtTime(m.elapsedMs)}); looking for fewer pushes…`, 'ok');
          offer(start, found.moves, 'Replay first solution', 'the first solution');
          proveFirst();
        } else if (m.type === 'unsolvable') {
          run.unsolvable = m; // proven by the fast search: the IDA* need not go on
          optimal.cancel();
        } else if (m.type !== 'cancelled') {
          panel.setFirst(`Fast search alongside: ${endText(m, start.atStart)}`);
        }
      });
    }
    const msg = await ida;
    if (msg.mode) panel.update(msg);
    single.cancel();
    await alongside;
    if (run.proven) {
      panel.setFirst(`The fast search found it in ${fmtTime(run.first.elapsedMs)}; then the IDA* proved that no solution has fewer pushes.`, 'ok');
      dropOffer();
      return { ...run.first, proven: true, elapsedMs: msg.elapsedMs ?? run.first.elapsedMs };
    }
    if (run.unsolvable) return run.unsolvable;
    if (run.first && msg.type === 'solved') {
      panel.setFirst(`First solution: ${run.first.pushes} pushes (fast search); the fewest are ${msg.pushes}.`, 'ok');
      dropOffer();
    }
    if (run.first && msg.type !== 'solved') {
      // The first solution stays on offer; say how the IDA* ended.
      panel.setState(`${endText(msg, start.atStart).replace(/ without a solution\.$/, '.')} The fewest pushes are not proven; the first solution (${run.first.pushes} pushes) can be replayed.`, msg.type === 'cancelled' ? '' : 'bad');
      return { ...msg, shown: true };
    }
    return msg;
  }

  const on = (id, fn) => $(id).addEventListener('click', fn);
  on('solve', () => runSolver('solve'));
  on('hint', () => runSolver('hint'));
  on('still-solvable', checkSolvable);
  on('s-replay', replayOffer);
  for (const r of document.querySelectorAll('input[name="s-mode"]')) {
    r.checked = r.value === io.loadSolveMode();
    r.addEventListener('change', () => {
      io.saveSolveMode(solveMode());
      if (!solving()) panel.reset(solveMode());
    });
  }
  on('cancel', () => {
    cancelSearches();
    panel.setState('Cancelling…', 'running');
  });
  panel.reset(solveMode());

  return { solving, setSolving, stopSearches, resetSolverCard };
}
