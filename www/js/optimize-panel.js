// optimize-panel.js — the optimizer's read-out in the Solver card: moves and pushes now
// against the start (and box lines and changes, its tie-breakers), the method (building the vicinity of the solution, or searching it),
// how much of the solution it has gone through, elapsed time and memory; and a chart of
// moves and pushes over time. Why that chart: the optimizer's result is the two counts,
// and how they fell says whether waiting longer is worth it (a line that has been flat a
// while will most likely stay so). Each count has its own scale (moves on the left,
// pushes on the right), from its start at the top down to just below its best, so a gain
// of two pushes shows as clearly as one of twenty moves. Pure DOM; optimize.js feeds it.
import { fitCanvas } from './board.js';
import { fmtMiB, fmtTime } from './solver-panel.js';

const MAX_SAMPLES = 600; // older samples are thinned out past this
const MOVES = '#2f7de1';
const PUSHES = '#d98a2b';
const LABEL = 'rgba(127, 127, 127, 0.9)';

export class OptimizePanel {
  /** `els`: {state, stats, moves, pushes, lines, changes, method, done, time, memory, chart}. */
  constructor(els) {
    this.els = els;
    this.reset();
  }

  /** Clear the read-out for a new run. */
  reset() {
    this.samples = []; // [{t, moves, pushes}]
    this.start = null; // {moves, pushes}
    this.count = 0;
    const e = this.els;
    e.stats.dataset.progress = '0';
    for (const k of ['moves', 'pushes', 'lines', 'changes', 'method', 'done', 'time', 'memory']) {
      e[k].textContent = '–';
      e[k].removeAttribute('title');
      delete e[k].dataset.gain;
    }
    this.drawChart();
  }

  setState(text, kind = '') {
    this.els.state.textContent = text;
    this.els.state.dataset.kind = kind;
  }

  /** Show a message of the optimizer (progress or final). */
  update(m) {
    const e = this.els;
    if (m.type === 'progress') e.stats.dataset.progress = String(++this.count);
    this.start = { moves: m.startMoves, pushes: m.startPushes };
    e.moves.textContent = change(m.startMoves, m.moves);
    e.pushes.textContent = change(m.startPushes, m.pushes);
    e.moves.title = `${m.startMoves - m.moves} fewer than the ${m.startMoves} it started with`;
    e.pushes.title = `${m.startPushes - m.pushes} fewer than the ${m.startPushes} it started with`;
    e.moves.dataset.gain = String(m.startMoves - m.moves);
    e.pushes.dataset.gain = String(m.startPushes - m.pushes);
    // The tie-breakers: straight runs of one box's pushes, and switches to another box.
    e.lines.textContent = change(m.startBoxLines, m.boxLines);
    e.changes.textContent = change(m.startBoxChanges, m.boxChanges);
    e.lines.title = 'Box lines: straight runs of pushes of one box in one direction (fewer breaks a tie in moves and pushes)';
    e.changes.title = 'Box changes: how often the player starts pushing another box (fewer breaks a tie after box lines)';
    e.method.textContent = methodText(m);
    e.method.title = m.method === 'vicinity-build'
      ? `Collecting the box placements near the solution: ${m.boxes === 1 ? 'one box' : `${m.boxes} boxes at once`} on any of the ${m.nearest} squares nearest to it (${m.placements.toLocaleString('en')} so far)`
      : m.method === 'global'
        ? 'Nothing shorter near the solution: looking anywhere, through every box placement that could still beat the best. If it goes through all within its memory, the best is proved optimal'
        : `Looking for the shortest solution through the ${m.placements.toLocaleString('en')} box placements near it; ${m.gains} round${m.gains === 1 ? '' : 's'} with a gain so far`;
    e.done.textContent = `${Math.floor(100 * m.done)}%`;
    e.done.title = m.method === 'vicinity-build'
      ? 'How much of the solution the vicinity has been built along'
      : m.method === 'global'
        ? "How far the global search's lower bound has risen from the start towards the best's length"
        : 'How far along the solution the search has come';
    e.time.textContent = fmtTime(m.elapsedMs);
    e.memory.textContent = `${fmtMiB(m.memoryBytes).replace(' MiB', '')} / ${Math.round(m.memoryLimit / 1048576)} MiB`;
    e.memory.title = 'Memory the optimizer holds, of its budget (Solver options)';
    const s = { t: m.elapsedMs, moves: m.moves, pushes: m.pushes };
    const last = this.samples[this.samples.length - 1];
    if (last && s.t < last.t) this.samples = []; // a new run
    this.samples.push(s);
    if (this.samples.length > MAX_SAMPLES) this.samples = this.samples.filter((_, i) => i % 2 === 0 || i === this.samples.length - 1);
    this.drawChart();
  }

  drawChart() {
    const canvas = this.els.chart;
    const { dpr, rect } = fitCanvas(canvas);
    if (!rect.width || !rect.height) return; // hidden
    const ctx = canvas.getContext('2d');
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, rect.width, rect.height);
    ctx.font = '10px system-ui, sans-serif';
    draw(ctx, rect.width, rect.height, this.samples, this.start);
  }
}

/** "151 → 137", or "151" while nothing is gained. */
function change(start, now) {
  return now < start ? `${start} → ${now}` : String(now);
}

/** The optimizer's phase: building the vicinity (boxes moved at once × the nearest squares
 *  each may take), searching it, or the global search. */
function methodText(m) {
  if (m.method === 'vicinity-build') return `vicinity: ${m.boxes} box${m.boxes === 1 ? '' : 'es'} × ${m.nearest} squares`;
  if (m.method === 'global') return 'global search';
  return 'vicinity: searching';
}

/** Both counts over time, each on its own scale (see the top of the file). */
function draw(ctx, W, H, ss, start) {
  const left = 30, right = W - 30, bottom = H - 14, top = 8;
  const tMax = Math.max(1000, ...ss.map((s) => s.t));
  const x = (t) => left + ((right - left) * t) / tMax;
  const scale = (key) => {
    const hi = start ? start[key] : 1;
    const best = ss.length ? Math.min(...ss.map((s) => s[key])) : hi;
    const lo = Math.max(0, best - Math.max(1, Math.ceil((hi - best) * 0.15)));
    return { hi, lo, best, y: (v) => bottom - ((bottom - top) * (v - lo)) / Math.max(1, hi - lo) };
  };
  ctx.strokeStyle = 'rgba(127, 127, 127, 0.25)';
  for (const yy of [top, bottom]) {
    ctx.beginPath();
    ctx.moveTo(left, Math.round(yy) + 0.5);
    ctx.lineTo(right, Math.round(yy) + 0.5);
    ctx.stroke();
  }
  ctx.textBaseline = 'alphabetic';
  ctx.fillStyle = LABEL;
  ctx.textAlign = 'left';
  ctx.fillText('0', left, H - 2);
  ctx.textAlign = 'right';
  ctx.fillText(fmtTime(tMax), right, H - 2);
  ctx.textAlign = 'center';
  if (!ss.length || !start) {
    ctx.fillText('moves and pushes over time', (left + right) / 2, (top + bottom) / 2);
    return;
  }
  legend(ctx, (left + right) / 2, H - 5);
  // Pushes first: while both are flat at the top, the moves line is the one seen.
  const series = [['pushes', PUSHES, right + 4, 'left'], ['moves', MOVES, left - 4, 'right']];
  for (const [key, colour, ax, align] of series) {
    const sc = scale(key);
    // The axis: the start at the top, the best so far where it is.
    ctx.fillStyle = colour;
    ctx.textAlign = align;
    ctx.textBaseline = 'middle';
    ctx.fillText(String(sc.hi), ax, sc.y(sc.hi));
    if (sc.best < sc.hi) ctx.fillText(String(sc.best), ax, sc.y(sc.best));
    // A step line: a count only ever falls.
    ctx.beginPath();
    ctx.moveTo(x(0), sc.y(ss[0][key]));
    let prev = ss[0][key];
    for (const s of ss) {
      ctx.lineTo(x(s.t), sc.y(prev));
      ctx.lineTo(x(s.t), sc.y(s[key]));
      prev = s[key];
    }
    ctx.strokeStyle = colour;
    ctx.lineWidth = 2;
    ctx.stroke();
    ctx.lineWidth = 1;
  }
}

/** "— moves  — pushes" centred on (cx, y). */
function legend(ctx, cx, y) {
  const a = 'moves', b = 'pushes';
  const wa = ctx.measureText(a).width, wb = ctx.measureText(b).width;
  let x = cx - (14 + wa + 12 + 14 + wb) / 2;
  ctx.textAlign = 'left';
  ctx.textBaseline = 'middle';
  for (const [text, colour, w] of [[a, MOVES, wa], [b, PUSHES, wb]]) {
    ctx.strokeStyle = colour;
    ctx.lineWidth = 2;
    ctx.beginPath();
    ctx.moveTo(x, y);
    ctx.lineTo(x + 10, y);
    ctx.stroke();
    ctx.lineWidth = 1;
    ctx.fillStyle = LABEL;
    ctx.fillText(text, x + 14, y);
    x += 14 + w + 12;
  }
}
