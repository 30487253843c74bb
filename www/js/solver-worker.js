// solver-worker.js — module Web Worker that runs the wasm SolverTask (the fast search or
// the push-optimal IDA*, as `options.mode` says), for a sliding-tile puzzle the PuzzleTask,
// the level generator's GeneratorTask, or the solution optimizer's OptimizerTask, in 50 ms
// slices, posting every progress message, and yields to its event
// loop between slices so that a {type: 'cancel'} message can arrive. The puzzle's pattern
// databases stay in this worker's wasm memory between solves. Protocol (see
// solver-client.js):
//   in:  {type: 'warm'}: solve warm-up.js's levels silently (a real request stops them),
//        then answer {type: 'warmed'}
//        | {type: 'solve', id, level, player, boxes, options}
//        | {type: 'solve', id, puzzle: {tiles, width, height, goal}, options}
//        | {type: 'solve', id, generate: {width, height, boxes, seed}}
//        | {type: 'solve', id, optimize: {level, lurd, metric, memoryMiB, timeLimitMs}}
//        | {type: 'cancel', id}
//   out: {id, type: 'progress' | 'solved' | 'unsolvable' | 'limit' | 'cancelled' | 'error', ...}
//        (the generator ends with 'generated' | 'cancelled' | 'error'; the optimizer with
//        'finished' | 'limit' | 'cancelled' | 'error', an input error with the failing `step`)
import init, { GeneratorTask, OptimizerTask, PuzzleTask, Session, SolverTask } from '../pkg/sokoban_wasm.js';
import { WARM_UP } from './warm-up.js';

const ready = init();
let current = null; // the running job: {id, cancel}
let queue = Promise.resolve(); // one search at a time
let waiting = 0; // requests queued and not yet started: a warm-up then gives way

/** A warm-up search of level `xsb` (warm-up.js) from its start: its squares from a Session. */
function warmUpStart(xsb) {
  const s = new Session(xsb);
  try {
    return { level: xsb, player: s.player(), boxes: Array.from(s.boxSquares()), options: { mode: 'fast', memoryMiB: 16 } };
  } finally {
    s.free();
  }
}

self.onmessage = (e) => {
  const m = e.data;
  if (m.type === 'warm') {
    for (const xsb of WARM_UP) queue = queue.then(() => run({ id: 0, silent: true, warmUp: xsb }));
    queue = queue.then(() => self.postMessage({ type: 'warmed' }));
  } else if (m.type === 'cancel') {
    if (current && (m.id === undefined || m.id === current.id)) current.cancel = true;
  } else if (m.type === 'solve') {
    if (current) current.cancel = true;
    waiting++;
    queue = queue.then(() => {
      waiting--;
      return run(m);
    });
  }
};

const pause = () => new Promise((r) => setTimeout(r, 0));

/** The message for an exception: a trap of the wasm (most often memory the browser would
 *  not give) gets a word on what to do. */
function errorText(err) {
  const text = String(err?.message ?? err);
  if (typeof WebAssembly !== 'undefined' && err instanceof WebAssembly.RuntimeError) {
    return `the solver crashed (${text}); if the browser ran out of memory, lower the memory in the solver options`;
  }
  return text;
}

async function run(m) {
  if (m.silent && waiting > 0) return;
  const job = { id: m.id, cancel: false };
  current = job;
  const post = m.silent ? () => {} : (msg) => self.postMessage(msg);
  let task = null;
  try {
    await ready;
    if (m.warmUp) m = { ...m, ...warmUpStart(m.warmUp) };
    const p = m.puzzle;
    const g = m.generate;
    const o = m.optimize;
    if (o) task = new OptimizerTask(o.level, o.lurd, o.metric, o.memoryMiB ?? 0, o.timeLimitMs);
    else if (g) task = new GeneratorTask(g.width, g.height, g.boxes, String(g.seed));
    else if (p) task = new PuzzleTask(p.tiles, p.width ?? 0, p.height ?? 0, p.goal, m.options ?? {});
    else task = new SolverTask(m.level, m.player, Uint32Array.from(m.boxes), m.options ?? {});
    // A first, zero-length slice: the page sees the search's set-up read-out (its memory
    // budget, the boxes to pack) at once, even when the search then takes only a moment.
    let msg = task.step(0);
    for (;;) {
      post({ ...msg, id: job.id });
      if (msg.type !== 'progress') break;
      await pause();
      if (job.cancel) {
        post({ ...task.cancel(), id: job.id });
        break;
      }
      msg = task.step(50);
    }
  } catch (err) {
    post({ id: job.id, type: 'error', message: errorText(err), step: err?.step });
  } finally {
    try {
      task?.free();
    } catch {
      // a wasm that trapped may not free; the page drops this worker after an error
    }
    if (current === job) current = null;
  }
}
