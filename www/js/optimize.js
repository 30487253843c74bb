// optimize.js — Optimize: makes a solution of the level on the board shorter, fewer moves
// or fewer pushes, in a worker (solver-worker.js's OptimizerTask, through a SolverClient
// of its own, so a Solve or Hint is not disturbed). What it starts from: the Solver card's
// Optimize button takes the solution on the board (the one being replayed, e.g. the
// solver's answer, or the moves played when they solve the level), else the level's saved
// best for the chosen count; a best solution's row in the Progress card, and the moves
// typed in the Share card, have an Optimize button of their own. Every solution the
// optimizer reports is checked by the rules engine (the wasm's checkSolution) before it
// is kept; a shorter one becomes the level's best (progress.js keeps the fewest-moves and
// the fewest-pushes records apart) as soon as it is found, so Cancel, a crash or another
// level keeps what was gained. The optimizing itself is all Rust (sokoban-optimize).
import { SolverClient } from './solver-client.js';
import { OptimizePanel } from './optimize-panel.js';
import { fmtTime } from './solver-panel.js';
import { plural } from './level-list.js';
import { closeMenu } from './layout.js';
import * as progress from './progress.js';

const $ = (id) => document.getElementById(id);
const KEY_METRIC = 'sokoban.optimizeMetric';
const DEFAULT_MIB = 256; // the optimizer crate's default budget

const client = new SolverClient();
/**
 * From main.js: {level() -> {xsb, key, title} | null (none, or not the forward game),
 * boardSolution() -> {lurd, what} | null, checkSolution(xsb, lurd), replay(lurd, what),
 * share(text, what), rle(lurd) -> the text Copy gives, status(text, kind), saved() (after
 * a best changed: redraw the level list and the Progress card)}.
 */
let api = null;
let panel = null;
/** The run on screen: {level, metric, what, start, best: {lurd, moves, pushes}, busy}. */
let run = null;

const score = (c) => `${plural(c.moves, 'move', 'moves')}, ${plural(c.pushes, 'push', 'pushes')}`;

export function metric() {
  return document.querySelector('input[name="opt-metric"]:checked')?.value === 'pushes' ? 'pushes' : 'moves';
}

function loadMetric() {
  try {
    return localStorage.getItem(KEY_METRIC) === 'pushes' ? 'pushes' : 'moves';
  } catch {
    return 'moves';
  }
}

function saveMetric(m) {
  try {
    localStorage.setItem(KEY_METRIC, m);
  } catch {
    // storage full or disabled: the choice holds for this visit
  }
}

/** Show the optimizer's part of the Solver card in place of the solver's read-out: with
 *  `readout`, its own read-out; without, only its line (a message, nothing to read out). */
function show(readout = true) {
  $('opt').hidden = false;
  $('solver-card').dataset.show = readout ? 'optimize' : 'message';
  if (readout) panel.drawChart();
}

function setBusy(on) {
  $('opt-cancel').disabled = $('opt-cancel').hidden = !on;
  $('opt').dataset.running = String(on);
}

function memoryMiB() {
  const v = Number($('opt-memory-mib').value);
  return v >= 1 ? Math.min(Math.round(v), 3072) : DEFAULT_MIB;
}

function timeLimitMs() {
  const s = Number($('s-limit')?.value);
  return s > 0 ? s * 1000 : undefined;
}

/** The saved best for `m` ('moves' | 'pushes'), else the other one. */
function savedBest(key, m) {
  const r = progress.record(key);
  const b = m === 'pushes' ? r?.bestPushes ?? r?.bestMoves : r?.bestMoves ?? r?.bestPushes;
  return b ? { lurd: b.lurd, what: `your best solution (${score(b)})` } : null;
}

/** The Solver card's Optimize: the solution on the board, else the saved best. */
function optimizeBoard() {
  const level = api.level();
  if (!level) return say('Optimize works on the forward game: leave pull mode first (your saved best solutions can be optimized from the Progress card).', 'bad');
  let src = api.boardSolution();
  if (src) {
    try {
      api.checkSolution(level.xsb, src.lurd);
    } catch {
      src = null; // a replay of moves that do not solve it: not a solution to start from
    }
  }
  src ??= savedBest(level.key, metric());
  if (!src) {
    return say('Nothing to optimize yet: solve the level (by hand, or with Solve), or type a solution in the Share card and press its Optimize.', 'bad');
  }
  start(level, src.lurd, src.what, metric());
}

/** A saved best's Optimize (the Progress card): for the count it is best at. */
function optimizeBest(kind) {
  const level = api.level();
  if (!level) return say('Optimize works on the forward game: leave pull mode first.', 'bad');
  const r = progress.record(level.key);
  const b = kind === 'pushes' ? r?.bestPushes : r?.bestMoves;
  if (!b) return;
  setMetric(kind);
  start(level, b.lurd, `your best solution (fewest ${kind}: ${score(b)})`, kind);
}

/** The Share card's Optimize: the moves typed there, from the level's start. */
function optimizeTyped() {
  const level = api.level();
  const text = $('lurd-text').value.trim();
  if (!level) return say('Optimize works on the forward game: leave pull mode first.', 'bad');
  if (!text) return say('Type or paste a solution (LURD letters) in the Share card first.', 'bad');
  start(level, text, 'the moves typed in the Share card', metric());
}

function setMetric(m) {
  for (const r of document.querySelectorAll('input[name="opt-metric"]')) r.checked = r.value === m;
  saveMetric(m);
}

function say(text, kind) {
  show(false);
  panel.setState(text, kind);
}

/** Optimize `lurd` on `level` for `m` (a run going on is cancelled: the client starts the new one). */
async function start(level, lurd, what, m) {
  closeMenu(); // a phone: the read-out is under the board
  const mine = (run = { level, metric: m, what, start: null, best: null, busy: true });
  panel.reset();
  show();
  setBusy(true);
  $('opt-replay').hidden = $('opt-copy').hidden = true;
  const goal = m === 'pushes' ? 'fewer pushes' : 'fewer moves';
  panel.setState(`Optimizing ${what} for ${goal}…`, 'running');
  const msg = await client.solve(
    { optimize: { level: level.xsb, lurd, metric: m, memoryMiB: memoryMiB(), timeLimitMs: timeLimitMs() } },
    (p) => mine === run && progressOf(mine, p),
  );
  mine.busy = false;
  if (mine !== run) return; // another run took the read-out
  setBusy(false);
  if (msg.type === 'error') {
    const bad = msg.crashed ? `The optimizer stopped: ${msg.message}` : `${what[0].toUpperCase()}${what.slice(1)} cannot be optimized: ${msg.message}.`;
    panel.setState(bad.replace(/\.\.$/, '.'), 'bad');
    if (!mine.best) show(false); // nothing to read out
    return;
  }
  if (msg.lurd) keep(mine, msg);
  if (msg.startMoves !== undefined) panel.update(msg); // not a cancel the worker did not answer
  panel.setState(endText(mine, msg), msg.type === 'cancelled' || gained(mine) ? 'ok' : '');
}

/** A progress message: the read-out, and a new best kept at once. */
function progressOf(r, p) {
  if (api.level()?.key !== r.level.key) {
    // Another level (or pull mode) is on the board: stop, keeping what was gained.
    r.left = true;
    client.cancel();
    return;
  }
  if (p.lurd) keep(r, p);
  panel.update(p);
}

const gained = (r) => r.best && r.start && (r.best.moves < r.start.moves || r.best.pushes < r.start.pushes);

/** Check a reported solution by the rules engine and keep it (the level's best if better). */
function keep(r, m) {
  if (r.best?.lurd === m.lurd) return;
  let c;
  try {
    c = api.checkSolution(r.level.xsb, m.lurd);
  } catch (e) {
    panel.setState(`The optimizer's solution does not replay: ${e.message}`, 'bad');
    client.cancel();
    return;
  }
  r.start ??= { moves: m.startMoves, pushes: m.startPushes };
  r.best = { lurd: c.lurd, moves: c.moves, pushes: c.pushes };
  $('opt-replay').hidden = $('opt-copy').hidden = false;
  const rec = progress.recordSolution(r.level.key, r.level.xsb, r.level.title, r.best);
  if (!rec.saved) api.status('This browser would not save the solution: its storage is full or disabled.', 'error');
  else if (rec.bestMoves || rec.bestPushes) {
    const which = rec.bestMoves && rec.bestPushes ? 'moves and pushes' : rec.bestMoves ? 'moves' : 'pushes';
    if (gained(r)) api.status(`Optimize: a new best (fewest ${which}): ${score(c)}.`, 'ok');
  }
  api.saved();
}

/** How a run ended, in words. */
function endText(r, m) {
  const after = m.elapsedMs === undefined ? '' : ` after ${fmtTime(m.elapsedMs)}`;
  const from = r.start ? score(r.start) : 'the solution';
  const gain = gained(r) ? `${from} → ${score(r.best)}` : '';
  const more = m.memoryFull ? ' Its memory was full: more memory (Solver options) may find more.' : '';
  switch (m.type) {
    case 'finished': {
      // The global search went through every placement that could beat the best.
      const proof = m.optimal ? ` Proved optimal: no solution has fewer ${r.metric === 'pushes' ? 'pushes' : 'moves'}.` : '';
      return `Done${after}: ${gain ? `${gain}, now your best.` : m.optimal ? `this solution (${from}) is already the shortest.` : `nothing shorter is near this solution (${from}).`}${gain ? proof : ''}${more}`;
    }
    case 'limit':
      return `Stopped at the ${m.limit === 'nodes' ? 'work' : 'time'} limit${after}: ${gain ? `${gain}, now your best.` : `nothing shorter found than ${from}.`}${more}`;
    default: {
      const why = r.left ? 'Stopped when the level on the board changed' : 'Cancelled';
      const forced = m.forced ? ' (The optimizer did not answer, so it was stopped.)' : '';
      return `${why}${after}: ${gain ? `${gain}, kept as your best.` : `nothing shorter found than ${from}.`}${forced}`;
    }
  }
}

/** Stop the run; its best so far is already kept. */
export function cancel() {
  if (run?.busy) client.cancel();
}

export function initOptimize(pageApi) {
  api = pageApi;
  panel = new OptimizePanel({
    state: $('opt-state'),
    stats: $('opt-stats'),
    moves: $('opt-moves'),
    pushes: $('opt-pushes'),
    lines: $('opt-lines'),
    changes: $('opt-changes'),
    method: $('opt-method'),
    done: $('opt-progress'),
    time: $('opt-time'),
    memory: $('opt-memory'),
    chart: $('opt-chart'),
  });
  setMetric(loadMetric());
  $('optimize').addEventListener('click', optimizeBoard);
  $('opt-typed').addEventListener('click', optimizeTyped);
  $('opt-cancel').addEventListener('click', cancel);
  $('opt-close').addEventListener('click', () => {
    cancel();
    $('opt').hidden = true;
    delete $('solver-card').dataset.show;
  });
  // Replay and Copy: the run's best, for its level (the board may show another by now).
  const best = () => {
    if (run?.best && api.level()?.key === run.level.key) return run.best;
    if (run?.best) panel.setState('That solution is for another level than the one on the board: its best is kept in its Progress card.', 'bad');
    return null;
  };
  $('opt-replay').addEventListener('click', () => {
    const b = best();
    if (b) api.replay(b.lurd, `the optimized solution (${score(b)})`);
  });
  $('opt-copy').addEventListener('click', () => {
    const b = best();
    if (b) api.share(api.rle(b.lurd), `optimized solution (${score(b)})`);
  });
  // Another count while a run goes on: start again from its best for that count.
  for (const r of document.querySelectorAll('input[name="opt-metric"]')) {
    r.addEventListener('change', () => {
      saveMetric(metric());
      if (run?.busy && run.metric !== metric() && run.best) start(run.level, run.best.lurd, 'the best found so far', metric());
    });
  }
  // A best solution's Optimize button (progress-panel.js).
  $('pg-best').addEventListener('optimize-best', (e) => optimizeBest(e.detail.kind));
  // A search of the solver takes its read-out back; the optimizer's state line stays.
  for (const id of ['solve', 'hint', 'still-solvable']) {
    $(id).addEventListener('click', () => delete $('solver-card').dataset.show);
  }
  addEventListener('resize', () => panel.drawChart());
}
