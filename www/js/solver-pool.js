// solver-pool.js — the fast search's portfolio: the same request in up to 8 workers (one
// SolverClient each), worker k running the schedule of portfolio lane k (the wasm's option
// `lane`: lane 0 the shipped schedule, the others `fast::lane_experiments`). The first
// 'solved' or 'unsolvable' wins and the others are cancelled at once; a worker that ends
// with 'error' (a crash, a trap, memory the browser would not give) or at its memory budget
// is dropped and the others go on. The memory budget is split: the workers together keep
// within the one budget a single worker had.
//
// Plain workers, no SharedArrayBuffer: the lanes share nothing (each searches on its own
// and only its final message matters), so the page needs no cross-origin isolation.
import { SolverClient } from './solver-client.js';

export const MAX_WORKERS = 8;
const MIB = 1024 * 1024;
/** Lanes other than 0 start this long after it: most levels a person plays are solved by
 *  lane 0 sooner, and a second lane set up beside it takes processor time and memory
 *  bandwidth from it (and from the page) on a machine of few cores. */
export const STAGGER_MS = 250;

/**
 * How many workers the portfolio runs: `?workers=N` in the page address (the tests force
 * 2 that way), else one per core; 1 to 8 either way.
 */
export function workerCount(loc = location, nav = navigator) {
  const forced = Number(new URLSearchParams(loc.search).get('workers'));
  const n = Number.isInteger(forced) && forced >= 1 ? forced : Math.floor(nav.hardwareConcurrency) || 2;
  return Math.max(1, Math.min(MAX_WORKERS, n));
}

/** Which ending says most about a portfolio without a winner: a limit, then a cancel, then an error. */
const RANK = { limit: 0, cancelled: 1, error: 2 };

export class SolverPool {
  /** `size` workers; `defaultMiB`, the budget they share when a request names none (the wasm's pageMemory). */
  constructor(size, defaultMiB) {
    this.clients = Array.from({ length: Math.max(1, size) }, () => new SolverClient());
    this.defaultMiB = defaultMiB;
    this.stagger = STAGGER_MS; // the tests change it (window.app.pool.setStagger)
    this.run = null; // {resolve, onProgress, workers: [{lane, state, msg, end}], failed}
  }

  get size() {
    return this.clients.length;
  }

  /** A portfolio search runs (workers cancelled after a win may still be stopping). */
  get busy() {
    return this.run !== null;
  }

  /** Workers that have run their warm-up search (for the tests). */
  get warmed() {
    return this.clients.filter((c) => c.warmedUp).length;
  }

  /** Workers still searching (for the tests: a cancel ends them all). */
  get live() {
    return this.clients.filter((c) => c.busy).length;
  }

  /** The lane-0 worker alone, for the single searches (Still solvable?, the fast search next to the IDA*). */
  get single() {
    return this.clients[0];
  }

  /** Start every worker ahead of the first search, so that Solve or Hint finds them with
   *  their wasm loaded and warmed up (a worker started at the click takes the others'
   *  processor time while it loads): lane 0 first, the others once it has warmed up, so
   *  that they find the wasm compiled. An idle worker holds a small wasm memory. */
  warm() {
    this.clients[0].warm(() => {
      for (const c of this.clients.slice(1)) c.warm();
    });
  }

  /**
   * Run the fast search `request` ({level, player, boxes, options}) in the portfolio.
   * Calls `onProgress(msg, workers)` with each worker's message (tagged with `lane`) and
   * the summary of every worker (see `summary`). Resolves with the winner's final message
   * (tagged with `lane`; `solvedBy` names its strategy) or, when every worker ended
   * without one, the most telling ending; either carries `workers` and `failed` (workers
   * dropped).
   */
  solve(request, onProgress = () => {}) {
    if (this.run) {
      const old = this.run;
      this.cancel();
      this.settle(old, { type: 'cancelled' });
    }
    const opts = request.options ?? {};
    const total = Math.max(1, Math.floor(Number(opts.memoryMiB) || this.defaultMiB));
    // Never more workers than MiB: each needs at least one, and the sum stays within the total.
    const n = Math.min(this.size, total);
    const each = Math.floor(total / n);
    return new Promise((resolve) => {
      const run = { resolve, onProgress, workers: [], failed: 0, budget: each * n * MIB };
      this.run = run;
      for (let lane = 0; lane < n; lane++) {
        const w = { lane, state: 'running', msg: null, end: null, budget: each * MIB, timer: 0, started: false };
        run.workers.push(w);
        const start = () => {
          w.timer = 0;
          w.started = true;
          const options = { ...opts, lane, memoryMiB: each };
          this.clients[lane].solve({ ...request, options }, (m) => {
            if (this.run !== run) return; // a worker still stopping after the run ended
            w.msg = m;
            run.onProgress({ ...m, lane }, summary(run));
          }).then((m) => this.ended(run, w, m));
        };
        if (lane === 0 || this.stagger <= 0) start();
        else w.timer = setTimeout(start, this.stagger);
      }
    });
  }

  /** Stop worker `w` of `run`: cancel its search, or, not started yet, end it as cancelled. */
  stop(run, w) {
    if (!this.halt(w)) this.ended(run, w, { type: 'cancelled' });
  }

  /** Cancel worker `w`'s search, or its start while it waits its turn; true when it had
   *  started (its search then ends with a message of its own). */
  halt(w) {
    if (!w.timer) {
      this.clients[w.lane].cancel();
      return true;
    }
    clearTimeout(w.timer);
    w.timer = 0;
    return false;
  }

  /** Cancel every worker of the running search; it resolves once they have all stopped. */
  cancel() {
    const run = this.run;
    if (!run) return;
    for (const w of run.workers) if (w.state === 'running') this.stop(run, w);
  }

  /** Stop worker `lane` as if it had crashed (the tests' way to check the others go on). */
  kill(lane) {
    const c = this.clients[lane];
    if (c?.busy) c.crash('The solver stopped unexpectedly (the worker was stopped).');
  }

  ended(run, w, m) {
    if (this.run !== run || w.state !== 'running') return;
    w.end = m;
    if (m.mode) w.msg = m;
    if (m.type === 'solved' || m.type === 'unsolvable') {
      w.state = m.type === 'solved' ? 'solved' : 'proved';
      for (const o of run.workers) {
        if (o.state !== 'running') continue;
        o.state = 'stopped';
        this.halt(o);
      }
      return this.settle(run, { ...m, lane: w.lane });
    }
    if (m.type === 'error' || (m.type === 'limit' && m.limit === 'memory')) {
      w.state = 'dropped';
      run.failed++;
    } else {
      w.state = m.type === 'cancelled' ? 'stopped' : 'ended';
    }
    if (run.workers.some((o) => o.state === 'running')) {
      run.onProgress({ ...m, lane: w.lane }, summary(run)); // the panel shows the worker's new state
      return;
    }
    const ends = run.workers.map((o) => o.end).filter((e) => e.type in RANK);
    ends.sort((a, b) => RANK[a.type] - RANK[b.type]);
    const best = { ...(ends[0] ?? { type: 'error', message: 'no worker answered' }) };
    // The portfolio's budget is all its workers': a memory ending names the total.
    if (best.memoryLimit) best.memoryLimit = run.budget;
    if (best.type === 'error' && run.workers.length > 1) best.message = `every worker failed (${best.message})`;
    this.settle(run, best);
  }

  settle(run, msg) {
    this.run = null;
    run.resolve({ ...msg, workers: summary(run), failed: run.failed });
  }
}

/**
 * Every worker of a run: {lane, state ('running', 'solved', 'proved' (unsolvable),
 * 'dropped', 'stopped' (cancelled), 'ended' (a time or node limit)), strategy, moves,
 * bestPacked, goals, solvedBy, started (false while it waits its turn, STAGGER_MS), budget (its memory budget, bytes), msg (its last message
 * with a read-out)}.
 */
function summary(run) {
  return run.workers.map((w) => ({
    lane: w.lane,
    state: w.state,
    strategy: w.end?.solvedBy ?? w.msg?.strategy ?? '',
    moves: w.msg?.nodes ?? 0,
    bestPacked: w.msg?.bestPacked ?? 0,
    goals: w.msg?.goals ?? 0,
    solvedBy: w.end?.solvedBy,
    started: w.started,
    budget: w.budget,
    msg: w.msg,
  }));
}

/**
 * One read-out for the panel from every worker's last message: best packed and elapsed
 * time the most any worker has, positions, moves, speed, cells and memory summed (memory
 * of the summed budget, counting workers yet to report), the strategy of the worker ahead (the winner, once there is one).
 * `m` is the message that came in; its type and, when final, its solution are kept.
 */
export function combine(m, workers) {
  const ms = workers.map((w) => w.msg).filter((x) => x?.mode === 'fast');
  if (workers.length < 2 || !ms.length) return m;
  const sum = (k) => ms.reduce((s, x) => s + (x[k] ?? 0), 0);
  const winner = workers.find((w) => w.state === 'solved' || w.state === 'proved');
  const lead = winner?.msg ?? ms.reduce((a, b) => (b.bestPacked > a.bestPacked ? b : a));
  return {
    ...m,
    mode: 'fast',
    elapsedMs: Math.max(...ms.map((x) => x.elapsedMs ?? 0)),
    bestPacked: Math.max(...ms.map((x) => x.bestPacked ?? 0)),
    goals: lead.goals,
    planRelaxed: lead.planRelaxed,
    positions: sum('positions'),
    nodes: sum('nodes'),
    nodesPerSecond: sum('nodesPerSecond'),
    cells: sum('cells'),
    memoryBytes: sum('memoryBytes'),
    memoryLimit: workers.reduce((s, w) => s + w.budget, 0),
    strategy: m.solvedBy ?? lead.strategy,
    strategyNumber: lead.strategyNumber,
    strategies: m.solvedBy ? 1 : lead.strategies,
  };
}
