// solver-panel.js — the live solver read-out, for either search.
//
// Fewest pushes (IDA*): threshold, nodes, speed, elapsed time, table fill, and a chart of
// nodes per iteration on a log scale that grows as iterations finish (the running
// iteration is drawn lighter).
//
// Sliding-tile puzzles (mode 'puzzle'): the same read-out in moves, with the pattern
// databases (being built, their size and build time, or found in the worker's cache) in
// place of the table; the same chart.
//
// Fast (the feature space search): boxes packed in plan order by the best position found
// ("best packed k / n"), positions stored, speed (moves and pulls per second), elapsed time,
// memory used of its budget, feature-space cells, strategy. Its chart plots best packed
// over time as a step line, over the memory used as a shaded area. Why these two: the fast
// search has no threshold that climbs towards the answer; best packed is its own measure
// of how close it has come (n of n is a solution), and a line that stays flat says it is
// stuck, which no count of positions says. The memory area says how near the search is to
// its budget, where it gives up: the other way it ends. Positions over time would be a
// near-straight line saying only that it runs. With several workers (solver-pool.js) the
// figures are theirs together, and a short line per worker gives its strategy and moves.
import { fitCanvas } from './board.js';

const MIB = 1024 * 1024;
const MAX_SAMPLES = 600; // fast chart: older samples are thinned out past this

export class SolverPanel {
  /**
   * `els`: {state, stats, chart, first, threshold, nodes, speed, time, table, packed,
   * positions, memory, cells, strategy, workers, workerList} elements (workers and
   * workerList: the portfolio's worker count and its list, optional).
   */
  constructor(els) {
    this.els = els;
    this.mode = 'optimal';
    this.reset();
  }

  /** Clear the read-out for a search in `mode` ('fast' or 'optimal'). */
  reset(mode = this.mode) {
    this.mode = mode;
    this.iterations = []; // optimal: [{iteration, nodes, done}]
    this.samples = []; // fast: [{t, packed, goals, mem, limit}]
    this.progressCount = 0;
    const e = this.els;
    e.stats.dataset.progress = '0';
    e.stats.dataset.mode = mode;
    for (const k of ['threshold', 'nodes', 'speed', 'time', 'table', 'packed', 'positions', 'memory', 'cells', 'strategy', 'search']) {
      if (!e[k]) continue; // a panel without this read-out
      e[k].textContent = '–';
      e[k].removeAttribute('title');
    }
    e.chart.setAttribute('aria-label', mode === 'fast'
      ? 'Boxes packed in plan order by the best position found, over time, over the memory used'
      : 'Nodes per iteration, log scale');
    this.setFirst('');
    this.setWorkers([]);
    this.drawChart();
  }

  /** The portfolio's workers ({lane, state, strategy, moves}, solver-pool.js): their
   *  count, and one line each when there are several. */
  setWorkers(workers) {
    const { workers: count, workerList: list } = this.els;
    if (!count || !list) return;
    count.textContent = workers.length ? String(workers.length) : '–';
    list.hidden = workers.length < 2;
    while (list.children.length > workers.length) list.lastChild.remove();
    workers.forEach((w, i) => {
      let li = list.children[i];
      if (!li) {
        li = document.createElement('li');
        for (const c of ['w-lane', 'w-strategy', 'w-moves', 'w-state']) li.appendChild(document.createElement('span')).className = c;
        list.appendChild(li);
      }
      li.dataset.lane = String(w.lane);
      li.dataset.state = w.state;
      const [lane, strategy, moves, state] = li.children;
      lane.textContent = String(w.lane + 1);
      const idle = w.started === false ? 'not started' : 'starting…';
      strategy.textContent = w.strategy || idle;
      strategy.title = `Worker ${w.lane + 1}, portfolio lane ${w.lane}: ${w.strategy || idle}`;
      moves.textContent = `${fmtCount(w.moves)} moves`;
      state.textContent = STATE_WORDS[w.state] ?? w.state;
    });
  }

  setState(text, kind = '') {
    this.els.state.textContent = text;
    this.els.state.dataset.kind = kind;
  }

  /** The line about the fast search that runs next to the IDA* ('' hides it). */
  setFirst(text, kind = '') {
    const el = this.els.first;
    if (!el) return;
    el.textContent = text;
    el.dataset.kind = kind;
    el.hidden = !text;
  }

  /** Say how a search without a solution ended (unsolvable, limit, cancelled, error),
   *  and how many of the portfolio's workers were dropped on the way. */
  showEnd(m, atStart) {
    const more = m.limit === 'memory' ? ' More memory (Solver options) may get further.' : '';
    const n = m.workers?.length ?? 0;
    // Not when every worker failed: the error, or the memory ending, says it then.
    const dropped = m.failed && n > 1 && m.type !== 'error' && !(m.limit === 'memory' && m.failed === n)
      ? ` ${m.failed} of ${n} workers were dropped (a crash, or their memory full).` : '';
    this.setState(endText(m, atStart) + more + dropped, m.type === 'cancelled' ? '' : 'bad');
  }

  /** Show a message from the worker (progress or final). */
  update(m) {
    const e = this.els;
    if (m.type === 'progress') e.stats.dataset.progress = String(++this.progressCount);
    e.time.textContent = fmtTime(m.elapsedMs);
    if (m.mode === 'fast') this.updateFast(m);
    else this.updateOptimal(m);
    this.drawChart();
  }

  updateOptimal(m) {
    const e = this.els;
    const puzzle = m.mode === 'puzzle';
    const unit = puzzle ? 'moves' : 'pushes';
    e.threshold.textContent = puzzle && m.phase === 'building' ? 'building the databases…'
      : `${m.threshold} ${unit} (${puzzle && m.algorithm === 'A*' ? 'A*' : `iteration ${m.iteration}`})`;
    e.nodes.textContent = fmtCount(m.nodes);
    e.speed.textContent = `${fmtCount(m.nodesPerSecond)}/s`;
    e.speed.title = 'Nodes generated per second';
    if (puzzle) {
      if (e.search) e.search.textContent = `${m.algorithm}, ${m.heuristic}`;
      e.table.textContent = dbText(m);
      e.table.title = m.dbTables ? `Additive pattern databases ${m.dbPartition}${m.dbMirrored ? ', also looked up for the mirror image across the diagonal' : ''}` : '';
    } else {
      const fill = m.tableCapacity ? (100 * m.tableUsed) / m.tableCapacity : 0;
      e.table.textContent = `${fill < 10 ? fill.toFixed(1) : fill.toFixed(0)}% full`;
      e.table.title = `${fmtCount(m.tableUsed)} of ${fmtCount(m.tableCapacity)} slots`;
    }
    if (m.iteration > 0) {
      let it = this.iterations.find((x) => x.iteration === m.iteration);
      if (!it) this.iterations.push((it = { iteration: m.iteration, nodes: 0, done: false }));
      it.nodes = Math.max(it.nodes, m.nodesIteration);
      if (m.iterationDone || m.type !== 'progress') it.done = true;
    }
  }

  updateFast(m) {
    const e = this.els;
    // A solution packs every box, whatever the best position before it did.
    const packed = m.type === 'solved' ? m.goals : m.bestPacked;
    e.packed.textContent = `${packed} / ${m.goals} boxes`;
    e.packed.title = 'Most boxes any position found has on goals in the order the packing plan gives'
      + (m.planRelaxed ? ` (${m.planRelaxed} step${m.planRelaxed === 1 ? '' : 's'} of the plan relaxed)` : '');
    e.positions.textContent = fmtCount(m.positions);
    e.positions.title = `${fmtCount(m.nodes)} moves tried and pulls made backward`;
    e.speed.textContent = `${fmtCount(m.nodesPerSecond)} moves/s`;
    e.speed.title = 'Moves tried and pulls made backward, per second';
    e.memory.textContent = `${fmtMiB(m.memoryBytes).replace(' MiB', '')} / ${Math.round(m.memoryLimit / MIB)} MiB`;
    e.memory.title = 'Memory the search holds, of its budget: it stops when the budget is full';
    e.cells.textContent = fmtCount(m.cells);
    e.cells.title = 'Cells of the feature space in use';
    e.strategy.textContent = m.strategies > 1 ? `${m.strategy} (${m.strategyNumber} of ${m.strategies})` : m.strategy;
    const s = { t: m.elapsedMs, packed, goals: m.goals, mem: m.memoryBytes, limit: m.memoryLimit };
    const last = this.samples[this.samples.length - 1];
    if (last && s.t < last.t) this.samples = []; // a new search
    this.samples.push(s);
    if (this.samples.length > MAX_SAMPLES) this.samples = this.samples.filter((_, i) => i % 2 === 0 || i === this.samples.length - 1);
  }

  drawChart() {
    const canvas = this.els.chart;
    const { dpr, rect } = fitCanvas(canvas);
    const ctx = canvas.getContext('2d');
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, rect.width, rect.height);
    ctx.font = '10px system-ui, sans-serif';
    if (this.mode === 'fast') this.drawFast(ctx, rect.width, rect.height);
    else this.drawOptimal(ctx, rect.width, rect.height);
  }

  drawOptimal(ctx, W, H) {
    const its = this.iterations;
    const maxNodes = Math.max(10, ...its.map((x) => x.nodes));
    const decades = Math.ceil(Math.log10(maxNodes));
    const left = 30, bottom = H - 14, top = 6;
    const y = (n) => bottom - ((bottom - top) * Math.log10(Math.max(1, n))) / decades;
    ctx.textBaseline = 'middle';
    ctx.textAlign = 'right';
    const step = decades > 6 ? 2 : 1;
    for (let d = 0; d <= decades; d += step) {
      const yy = Math.round(y(10 ** d)) + 0.5;
      gridLine(ctx, left, W - 4, yy);
      ctx.fillStyle = LABEL;
      ctx.fillText(d === 0 ? '1' : `1e${d}`, left - 4, yy);
    }
    ctx.textAlign = 'center';
    ctx.textBaseline = 'alphabetic';
    if (!its.length) {
      ctx.fillText('nodes per iteration (log scale)', (left + W) / 2, (top + bottom) / 2);
      return;
    }
    const slots = Math.max(its.length, 12);
    const bw = (W - 4 - left) / slots;
    its.forEach((it, i) => {
      const x = left + i * bw + bw * 0.15;
      const yy = y(it.nodes);
      ctx.fillStyle = it.done ? BLUE : 'rgba(47, 125, 225, 0.45)';
      ctx.fillRect(x, yy, bw * 0.7, bottom - yy);
      if (its.length <= 24 || i % 2 === 0) {
        ctx.fillStyle = LABEL;
        ctx.fillText(String(it.iteration), x + bw * 0.35, H - 2);
      }
    });
  }

  drawFast(ctx, W, H) {
    const ss = this.samples;
    const left = 30, right = W - 38, bottom = H - 14, top = 8;
    const goals = ss.length ? Math.max(1, ss[ss.length - 1].goals) : 1;
    const tMax = Math.max(1000, ...ss.map((s) => s.t));
    const x = (t) => left + ((right - left) * t) / tMax;
    const y = (k) => bottom - ((bottom - top) * k) / goals;
    // Left axis: boxes packed (0 .. n), at most 5 lines.
    ctx.textBaseline = 'middle';
    ctx.textAlign = 'right';
    const step = Math.max(1, Math.ceil(goals / 4));
    for (let k = 0; k <= goals; k += step) {
      const yy = Math.round(y(k)) + 0.5;
      gridLine(ctx, left, right, yy);
      ctx.fillStyle = LABEL;
      ctx.fillText(String(k), left - 4, yy);
    }
    if (goals % step) {
      gridLine(ctx, left, right, Math.round(y(goals)) + 0.5);
      ctx.fillText(String(goals), left - 4, y(goals));
    }
    // Right axis: memory used, % of the budget.
    ctx.textAlign = 'left';
    for (const pct of [0, 50, 100]) ctx.fillText(`${pct}%`, right + 8, bottom - ((bottom - top) * pct) / 100);
    // Time axis: start and end.
    ctx.textBaseline = 'alphabetic';
    ctx.textAlign = 'left';
    ctx.fillText('0', left, H - 2);
    ctx.textAlign = 'right';
    ctx.fillText(fmtTime(tMax), right, H - 2);
    ctx.textAlign = 'center';
    if (!ss.length) {
      ctx.fillText('boxes packed over time; memory used (shaded)', (left + right) / 2, (top + bottom) / 2);
      return;
    }
    legend(ctx, (left + right) / 2, H - 5);
    // Memory used, shaded.
    ctx.beginPath();
    ctx.moveTo(x(ss[0].t), bottom);
    for (const s of ss) ctx.lineTo(x(s.t), bottom - ((bottom - top) * Math.min(1, s.mem / Math.max(1, s.limit))));
    ctx.lineTo(x(ss[ss.length - 1].t), bottom);
    ctx.closePath();
    ctx.fillStyle = 'rgba(217, 138, 43, 0.28)';
    ctx.fill();
    // Best packed, a step line (it only ever rises).
    ctx.beginPath();
    ctx.moveTo(x(0), y(ss[0].packed));
    let prev = ss[0].packed;
    for (const s of ss) {
      ctx.lineTo(x(s.t), y(prev));
      ctx.lineTo(x(s.t), y(s.packed));
      prev = s.packed;
    }
    ctx.strokeStyle = BLUE;
    ctx.lineWidth = 2;
    ctx.stroke();
    ctx.lineWidth = 1;
    const lastS = ss[ss.length - 1];
    ctx.fillStyle = BLUE;
    ctx.beginPath();
    ctx.arc(x(lastS.t), y(lastS.packed), 3, 0, 2 * Math.PI);
    ctx.fill();
  }
}

const STATE_WORDS = { running: '', solved: '✓ solved', proved: '✓ no solution', dropped: 'dropped', stopped: 'stopped', ended: 'ended' };

const BLUE = '#2f7de1';
const LABEL = 'rgba(127, 127, 127, 0.9)';

/** "— best packed  ■ memory" centred on (cx, y). */
function legend(ctx, cx, y) {
  const a = 'best packed', b = 'memory';
  const wa = ctx.measureText(a).width, wb = ctx.measureText(b).width;
  let x = cx - (14 + wa + 12 + 10 + wb) / 2;
  ctx.textAlign = 'left';
  ctx.textBaseline = 'middle';
  ctx.strokeStyle = BLUE;
  ctx.lineWidth = 2;
  ctx.beginPath();
  ctx.moveTo(x, y);
  ctx.lineTo(x + 10, y);
  ctx.stroke();
  ctx.lineWidth = 1;
  ctx.fillStyle = LABEL;
  ctx.fillText(a, x + 14, y);
  x += 14 + wa + 12;
  ctx.fillStyle = 'rgba(217, 138, 43, 0.5)';
  ctx.fillRect(x, y - 4, 8, 8);
  ctx.fillStyle = LABEL;
  ctx.fillText(b, x + 10, y);
}

function gridLine(ctx, x0, x1, y) {
  ctx.strokeStyle = 'rgba(127, 127, 127, 0.25)';
  ctx.beginPath();
  ctx.moveTo(x0, y);
  ctx.lineTo(x1, y);
  ctx.stroke();
}

/** The pattern databases of a puzzle search, in words. */
function dbText(m) {
  if (!m.dbTables) return 'none';
  const size = fmtMiB(m.dbBytes);
  if (m.phase === 'building') return `${m.dbPartition}: building ${m.dbReady + 1} of ${m.dbTables}, ${Math.round(100 * m.dbBuilding)}%`;
  if (m.dbCached === m.dbTables) return `${m.dbPartition}, ${size} (kept from before)`;
  return `${m.dbPartition}, ${size}, built in ${fmtTime(m.dbBuildMs)}`;
}

/** What a search that found no solution ended with, in words. */
export function endText(m, atStart) {
  const took = m.elapsedMs !== undefined ? ` after ${fmtTime(m.elapsedMs)}` : '';
  switch (m.type) {
    case 'unsolvable':
      return atStart ? 'This level has no solution.' : 'No solution from this position: undo some moves and try again.';
    case 'limit':
      if (m.limit === 'memory') {
        return `Stopped${took}: the search used its ${Math.round(m.memoryLimit / MIB)} MiB without finding a solution.`;
      }
      return `Stopped at the ${m.limit === 'nodes' ? 'node' : 'time'} limit${took} without a solution.`;
    case 'cancelled':
      return `Cancelled${took}.${m.forced ? ' (The solver did not answer, so it was stopped.)' : ''}`;
    default:
      return `Solver error: ${m.message || 'unknown'}${m.crashed ? ' A fresh solver will be started next time.' : ''}`;
  }
}

export function fmtCount(n) {
  if (!Number.isFinite(n)) return '–';
  if (n < 1000) return String(Math.round(n));
  if (n < 1e6) return `${(n / 1e3).toFixed(n < 1e4 ? 1 : 0)} k`;
  if (n < 1e9) return `${(n / 1e6).toFixed(n < 1e7 ? 2 : 1)} M`;
  return `${(n / 1e9).toFixed(2)} G`;
}

export function fmtMiB(bytes) {
  if (!Number.isFinite(bytes)) return '–';
  const mib = bytes / MIB;
  return `${mib < 10 && mib > 0 ? mib.toFixed(1) : Math.round(mib)} MiB`;
}

export function fmtTime(ms) {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60000) return `${(ms / 1000).toFixed(1)} s`;
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)} min ${s % 60} s`;
}
