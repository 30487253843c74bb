// Solve in the browser: headless Chromium (Debian's, through playwright-core) opens the
// page with N workers (`?workers=N`, the portfolio of solver-pool.js), pastes each level,
// sets the time limit, presses Solve (fast mode) and waits for the page's answer: the
// solution found by a worker, replayed by the rules engine, and named with the worker that
// found it. One fresh page per level, so every search includes the workers' start.
//
//   ./build.sh build
//   node bench/solve-browser.mjs ../shared/levels/xsokoban-90.xsb [--workers 2] [--timeout 60] [--levels 1,2,5]
//
// Prints `level,status,ms,pushes,moves,worker,search_ms` (status: solved, limit — none
// within the limit; search_ms: the time the winning worker's search reports, so `ms` minus
// it is the page's and the worker's start) and, on standard error, how many were solved,
// their total time and median.
import { readFileSync } from 'node:fs';
import { startApp, openPage, pasteText } from '../tests/e2e/helpers.mjs';
import { parse } from '../www/pkg/sokoban_wasm.js';
import { commandLine, loadWasm } from './cli.mjs';

loadWasm();
const { opt, file } = commandLine('node bench/solve-browser.mjs FILE [--workers N] [--timeout S] [--levels A,B,...]');
const timeoutMs = Number(opt('timeout', '60')) * 1000;
const workers = Number(opt('workers', '2'));
const levels = parse(readFileSync(file, 'utf8')).levels;
let wanted = levels.map((_, i) => i + 1);
if (opt('levels')) wanted = opt('levels').split(',').map(Number);

const app = await startApp();
const times = [];
console.log('level,status,ms,pushes,moves,worker,search_ms');
try {
  for (const n of wanted) {
    const page = await openPage(app, `${app.base}?workers=${workers}`);
    await pasteText(page, levels[n - 1].xsb);
    await page.waitForFunction(() => /Loaded/.test(document.querySelector('#status').textContent));
    await page.evaluate((s) => { document.querySelector('#s-limit').value = s; }, String(timeoutMs / 1000));
    const t0 = Date.now();
    await page.getByRole('button', { name: 'Solve', exact: true }).click();
    // The answer, or the end of the search without one (the limit).
    await page.waitForFunction(
      () => /^(Solved:|Stopped|This level has no solution|No solution|Cancelled|Solver error)/.test(document.querySelector('#s-state').textContent),
      null,
      { timeout: timeoutMs + 15000, polling: 20 },
    ).catch(() => {});
    const ms = Date.now() - t0;
    const state = await page.textContent('#s-state');
    const m = state.match(/^Solved: (\d+) pushes, (\d+) moves/);
    const by = state.match(/Solved by worker (\d)/);
    const took = state.match(/found in ([\d.]+) (ms|s)/);
    const searchMs = took ? Math.round(Number(took[1]) * (took[2] === 's' ? 1000 : 1)) : '';
    if (m) times.push(ms);
    console.log(`${n},${m ? 'solved' : 'limit'},${ms},${m ? m[1] : ''},${m ? m[2] : ''},${by ? by[1] : ''},${searchMs}`);
    await page.context().close();
  }
} finally {
  await app.close();
}
times.sort((a, b) => a - b);
const total = times.reduce((a, b) => a + b, 0);
console.error(`${times.length} of ${wanted.length} solved; ${(total / 1000).toFixed(1)} s on the solved, median ${times[times.length >> 1] ?? '-'} ms (Chromium, ${workers} workers)`);
