// solver-worker.js — module Web Worker that runs the wasm SolverTask in 50 ms slices,
// posting every progress message, and yields to its event loop between slices so that a
// {type: 'cancel'} message can arrive. Protocol (see solver-client.js):
//   in:  {type: 'solve', id, level, player, boxes, options} | {type: 'cancel', id}
//   out: {id, type: 'progress' | 'solved' | 'unsolvable' | 'limit' | 'cancelled' | 'error', ...}
import init, { SolverTask } from '../pkg/sokoban_wasm.js';

const ready = init();
let current = null; // the running job: {id, cancel}
let queue = Promise.resolve(); // one search at a time

self.onmessage = (e) => {
  const m = e.data;
  if (m.type === 'cancel') {
    if (current && (m.id === undefined || m.id === current.id)) current.cancel = true;
  } else if (m.type === 'solve') {
    if (current) current.cancel = true;
    queue = queue.then(() => run(m));
  }
};

const pause = () => new Promise((r) => setTimeout(r, 0));

async function run(m) {
  const job = { id: m.id, cancel: false };
  current = job;
  let task = null;
  try {
    await ready;
    task = new SolverTask(m.level, m.player, Uint32Array.from(m.boxes), m.options ?? {});
    for (;;) {
      if (job.cancel) {
        self.postMessage({ ...task.cancel(), id: job.id });
        break;
      }
      const msg = task.step(50);
      self.postMessage({ ...msg, id: job.id });
      if (msg.type !== 'progress') break;
      await pause();
    }
  } catch (err) {
    self.postMessage({ id: job.id, type: 'error', message: String(err?.message ?? err) });
  } finally {
    task?.free();
    if (current === job) current = null;
  }
}
