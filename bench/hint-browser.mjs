// Time to the first Hint in the browser: headless Chromium (Debian's, through
// playwright-core) opens the page, pastes each level, presses Hint on the start position
// and waits until the page gives the hint (the fast search ran in the page's worker, its
// solution was replayed by the rules engine, and the walk to the push starts). One fresh
// page per level, so every hint is a new search and includes the worker's start.
//
//   ./build.sh build
//   node bench/hint-browser.mjs ../shared/levels/xsokoban-90.xsb [--levels 1,2,5 | --solved native.csv] [--timeout 60] [--workers N] [--settle MS]
//
// --solved takes a `sokoban solve --csv` file and times the levels it solved; --workers N
// opens the page with `?workers=N` (default: the page's own choice, one per core); --settle
// MS waits that long after the level has loaded before pressing Hint, as a person looking
// at the level would (default 0: at once, while the workers may still load). Prints
// `level,status,ms,page_ms` and, on standard error, the medians over the hints given: `ms`
// from before the automated click to the hint seen (the click itself costs the automation
// 90-250 ms here), `page_ms` by the page's clock from the button's click event to the
// state line naming the hint.
import { readFileSync } from 'node:fs';
import { startApp, openPage, pasteText } from '../tests/e2e/helpers.mjs';
import { parse } from '../www/pkg/sokoban_wasm.js';
import { commandLine, loadWasm } from './cli.mjs';

loadWasm();
const { opt, file } = commandLine('node bench/hint-browser.mjs FILE [--levels A,B,...] [--solved native.csv] [--timeout S] [--workers N] [--settle MS]');
const settleMs = Number(opt('settle', '0'));
const workers = opt('workers');
const timeoutMs = Number(opt('timeout', '60')) * 1000;
const levels = parse(readFileSync(file, 'utf8')).levels;
let wanted = levels.map((_, i) => i + 1);
if (opt('levels')) wanted = opt('levels').split(',').map(Number);
if (opt('solved')) {
  wanted = readFileSync(opt('solved'), 'utf8').split('\n').slice(1)
    .map((l) => l.split(',')).filter((c) => c[1] === 'solved').map((c) => Number(c[0]));
}

const app = await startApp();
const times = [];
const pageTimes = [];
console.log('level,status,ms,page_ms');
try {
  for (const n of wanted) {
    const page = await openPage(app, workers ? `${app.base}?workers=${workers}` : app.base);
    await pasteText(page, levels[n - 1].xsb);
    await page.waitForFunction(() => /Loaded/.test(document.querySelector('#status').textContent));
    await page.evaluate((s) => { document.querySelector('#s-limit').value = s; }, String(timeoutMs / 1000));
    if (settleMs > 0) await new Promise((ok) => setTimeout(ok, settleMs));
    // The page's own clock: from the Hint button's click event to the state line naming the
    // hint (a mutation observer), without the automation's own delay in delivering the click.
    await page.evaluate(() => {
      const w = window;
      w.hintClock = { clicked: 0, shown: 0 };
      document.querySelector('#hint').addEventListener('click', () => { w.hintClock.clicked = performance.now(); }, { capture: true, once: true });
      const state = document.querySelector('#s-state');
      new MutationObserver((_, obs) => {
        if (/Hint: the next push/.test(state.textContent)) {
          w.hintClock.shown = performance.now();
          obs.disconnect();
        }
      }).observe(state, { childList: true, characterData: true, subtree: true });
    });
    const t0 = Date.now();
    await page.getByRole('button', { name: 'Hint', exact: true }).click();
    let status = 'hint';
    try {
      await page.waitForFunction(
        () => /Hint: the next push/.test(document.querySelector('#s-state').textContent),
        null,
        { timeout: timeoutMs + 5000, polling: 20 },
      );
    } catch {
      status = 'none';
    }
    const ms = Date.now() - t0;
    const clock = await page.evaluate(() => window.hintClock);
    const pageMs = status === 'hint' && clock.clicked && clock.shown ? Math.round(clock.shown - clock.clicked) : '';
    if (status === 'hint') {
      times.push(ms);
      pageTimes.push(pageMs);
    }
    console.log(`${n},${status},${ms},${pageMs}`);
    await page.context().close();
  }
} finally {
  await app.close();
}
times.sort((a, b) => a - b);
pageTimes.sort((a, b) => a - b);
console.error(`${times.length} of ${wanted.length} hints; median ${times[times.length >> 1] ?? '-'} ms, `
  + `${pageTimes[pageTimes.length >> 1] ?? '-'} ms by the page's clock from its click event (Chromium, ${workers ?? 'default'} workers, settle ${settleMs} ms)`);
