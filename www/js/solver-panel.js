// solver-panel.js — the live solver read-out: iteration threshold, nodes, speed, elapsed
// time, table fill, and a small canvas chart of nodes per iteration on a log scale that
// grows as iterations finish (the running iteration is drawn lighter).
import { fitCanvas } from './board.js';

export class SolverPanel {
  /** `els`: {state, stats, threshold, nodes, speed, time, table, chart} elements. */
  constructor(els) {
    this.els = els;
    this.iterations = []; // [{iteration, nodes, done}]
    this.reset();
  }

  reset() {
    this.iterations = [];
    this.progressCount = 0;
    this.els.stats.dataset.progress = '0';
    for (const k of ['threshold', 'nodes', 'speed', 'time', 'table']) this.els[k].textContent = '–';
    this.drawChart();
  }

  setState(text, kind = '') {
    this.els.state.textContent = text;
    this.els.state.dataset.kind = kind;
  }

  /** Say how a search without a solution ended (unsolvable, limit, cancelled, error). */
  showEnd(m, atStart) {
    const took = m.elapsedMs !== undefined ? ` after ${fmtTime(m.elapsedMs)}` : '';
    switch (m.type) {
      case 'unsolvable':
        return this.setState(atStart ? 'This level has no solution.' : 'No solution from this position: undo some moves and try again.', 'bad');
      case 'limit':
        return this.setState(`Stopped at the ${m.limit === 'nodes' ? 'node' : 'time'} limit${took} without a solution.`, 'bad');
      case 'cancelled':
        return this.setState(`Cancelled${took}.${m.forced ? ' (The solver did not answer, so it was stopped.)' : ''}`);
      default:
        return this.setState(`Solver error: ${m.message || 'unknown'}${m.crashed ? ' A fresh solver will be started next time.' : ''}`, 'bad');
    }
  }

  /** Show a message from the worker (progress or final). */
  update(m) {
    const e = this.els;
    if (m.type === 'progress') e.stats.dataset.progress = String(++this.progressCount);
    e.threshold.textContent = `${m.threshold} pushes (iteration ${m.iteration})`;
    e.nodes.textContent = fmtCount(m.nodes);
    e.speed.textContent = `${fmtCount(m.nodesPerSecond)}/s`;
    e.time.textContent = fmtTime(m.elapsedMs);
    const fill = m.tableCapacity ? (100 * m.tableUsed) / m.tableCapacity : 0;
    e.table.textContent = `${fill < 10 ? fill.toFixed(1) : fill.toFixed(0)}% full`;
    e.table.title = `${fmtCount(m.tableUsed)} of ${fmtCount(m.tableCapacity)} slots`;
    if (m.iteration > 0) {
      let it = this.iterations.find((x) => x.iteration === m.iteration);
      if (!it) this.iterations.push((it = { iteration: m.iteration, nodes: 0, done: false }));
      it.nodes = Math.max(it.nodes, m.nodesIteration);
      if (m.iterationDone || m.type !== 'progress') it.done = true;
    }
    this.drawChart();
  }

  drawChart() {
    const canvas = this.els.chart;
    const { dpr, rect } = fitCanvas(canvas);
    const ctx = canvas.getContext('2d');
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    const W = rect.width, H = rect.height;
    ctx.clearRect(0, 0, W, H);
    const its = this.iterations;
    const maxNodes = Math.max(10, ...its.map((x) => x.nodes));
    const decades = Math.ceil(Math.log10(maxNodes));
    const left = 30, bottom = H - 14, top = 6;
    const y = (n) => bottom - ((bottom - top) * Math.log10(Math.max(1, n))) / decades;
    ctx.font = '10px system-ui, sans-serif';
    ctx.textBaseline = 'middle';
    ctx.textAlign = 'right';
    const step = decades > 6 ? 2 : 1;
    for (let d = 0; d <= decades; d += step) {
      const yy = Math.round(y(10 ** d)) + 0.5;
      ctx.strokeStyle = 'rgba(127, 127, 127, 0.25)';
      ctx.beginPath();
      ctx.moveTo(left, yy);
      ctx.lineTo(W - 4, yy);
      ctx.stroke();
      ctx.fillStyle = 'rgba(127, 127, 127, 0.9)';
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
      ctx.fillStyle = it.done ? '#2f7de1' : 'rgba(47, 125, 225, 0.45)';
      ctx.fillRect(x, yy, bw * 0.7, bottom - yy);
      if (its.length <= 24 || i % 2 === 0) {
        ctx.fillStyle = 'rgba(127, 127, 127, 0.9)';
        ctx.fillText(String(it.iteration), x + bw * 0.35, H - 2);
      }
    });
  }
}

export function fmtCount(n) {
  if (!Number.isFinite(n)) return '–';
  if (n < 1000) return String(Math.round(n));
  if (n < 1e6) return `${(n / 1e3).toFixed(n < 1e4 ? 1 : 0)} k`;
  if (n < 1e9) return `${(n / 1e6).toFixed(n < 1e7 ? 2 : 1)} M`;
  return `${(n / 1e9).toFixed(2)} G`;
}

export function fmtTime(ms) {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60000) return `${(ms / 1000).toFixed(1)} s`;
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)} min ${s % 60} s`;
}
