// solver-client.js — the page's side of the solver worker: starts a search, forwards
// progress, resolves with the final message, cancels (and terminates a worker that does
// not answer a cancel within a second), and notices a worker that dies or hangs. After
// a crash, a hang or an error the worker is dropped and a fresh one starts next time.
// A worker whose search took much memory is dropped too when the search ends: a wasm
// memory never shrinks, and an idle worker should not keep hundreds of MiB.

const HANG_MS = 15000; // no message for this long while searching = hung
const CANCEL_MS = 1000;
const KEEP_BYTES = 128 * 1024 * 1024; // a worker that used more is not kept for the next search

/** Bytes a search's store held, from its last message (fast: memoryBytes; IDA*: table). */
function bytesUsed(msg) {
  return msg.memoryBytes ?? (msg.tableCapacity ?? 0) * 16;
}

export class SolverClient {
  constructor() {
    this.worker = null;
    this.job = null; // {id, resolve, onProgress, watchdog, cancelTimer}
    this.nextId = 1;
    this.onWarmed = null;
    this.warmedUp = false; // this worker has run its warm-up search
  }

  get busy() {
    return this.job !== null;
  }

  /** Start the worker ahead of the first search and have it warm its solver up on a level
   *  of its own, so that Solve or Hint does not wait for it to load and compile the wasm (a
   *  worker that fails to start is started again then). Calls `onWarmed` once it has. */
  warm(onWarmed = () => {}) {
    if (!this.worker) this.spawn();
    this.onWarmed = onWarmed;
    this.worker.postMessage({ type: 'warm' });
  }

  spawn() {
    const w = new Worker(new URL('./solver-worker.js', import.meta.url), { type: 'module' });
    w.onmessage = (e) => this.onMessage(e.data);
    w.onerror = (e) => {
      e.preventDefault();
      this.crash(`The solver stopped unexpectedly${e.message ? ` (${e.message})` : ''}.`);
    };
    w.onmessageerror = () => this.crash('The solver sent a message the page could not read.');
    this.worker = w;
  }

  /**
   * Search from a position: `request` is {level, player, boxes, options}. Calls
   * `onProgress(msg)` for each progress message and resolves with the final message
   * ({type: 'solved' | 'unsolvable' | 'limit' | 'cancelled' | 'error', ...}).
   */
  solve(request, onProgress = () => {}) {
    if (this.job) this.end({ type: 'cancelled' });
    if (!this.worker) this.spawn();
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.job = { id, resolve, onProgress, watchdog: 0, cancelTimer: 0 };
      this.kick();
      this.worker.postMessage({ type: 'solve', id, ...request });
    });
  }

  /** Ask the worker to stop; if it does not answer within a second, terminate it. */
  cancel() {
    const job = this.job;
    if (!job || job.cancelTimer) return;
    this.worker?.postMessage({ type: 'cancel', id: job.id });
    job.cancelTimer = setTimeout(() => {
      if (this.job !== job) return;
      this.kill();
      this.end({ type: 'cancelled', forced: true });
    }, CANCEL_MS);
  }

  kick() {
    const job = this.job;
    clearTimeout(job.watchdog);
    job.watchdog = setTimeout(() => {
      if (this.job === job) this.crash('The solver stopped responding.');
    }, HANG_MS);
  }

  onMessage(msg) {
    if (msg.type === 'warmed') {
      this.warmedUp = true;
      this.onWarmed?.();
      this.onWarmed = null;
      return;
    }
    const job = this.job;
    if (!job || msg.id !== job.id) return; // a late message from an older search
    if (msg.type === 'progress') {
      this.kick();
      job.onProgress(msg);
      return;
    }
    // After an error its wasm may be in a bad state; after a big search it holds memory.
    if (msg.type === 'error' || bytesUsed(msg) > KEEP_BYTES) this.kill();
    this.end(msg);
  }

  end(msg) {
    const job = this.job;
    if (!job) return;
    clearTimeout(job.watchdog);
    clearTimeout(job.cancelTimer);
    this.job = null;
    job.resolve(msg);
  }

  crash(message) {
    this.kill();
    this.end({ type: 'error', crashed: true, message });
  }

  kill() {
    this.worker?.terminate();
    this.worker = null;
    this.warmedUp = false;
  }
}
