// The solver panel in Fewest pushes mode (the IDA*): Solve (live progress, then an
// animated replay that ends solved), Cancel of a long search, Hint, the unsolvable / limit
// messages, the worker started with the page, a worker that dies. Fast mode (the default)
// is in fast-solver.test.mjs. Saves solver.png (the whole page), solver-panel.png (the
// panel after solving) and solver-running.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import {
  OUTPUT, assertNoErrors, counters, openCard, pasteText, settle, shot, playing, useApp, view,
} from './helpers.mjs';
import { BIG_OPEN, DOORWAY, ROOM } from './levels.mjs';

const app = useApp();

/** Choose what Solve looks for: 'Fast' or 'Fewest pushes'. */
const chooseMode = (page, name) => page.getByRole('radio', { name, exact: true }).check();

const solverState = (page) => page.textContent('#s-state');
const progressCount = (page) => page.$eval('#solver-stats', (e) => Number(e.dataset.progress || 0));
const button = (page, name) => page.getByRole('button', { name, exact: true });

async function waitSolverState(page, re, timeout = 30000) {
  await page.waitForFunction(
    ([src, flags]) => new RegExp(src, flags).test(document.querySelector('#s-state').textContent),
    [re.source, re.flags],
    { timeout },
  );
}

test('Solve shows live progress, then replays the solution until the level is solved', async () => {
  const page = await playing(app, DOORWAY);
  await chooseMode(page, 'Fewest pushes');
  await button(page, 'Solve').click();
  assert.equal(await button(page, 'Cancel').isDisabled(), false);
  assert.equal(await button(page, 'Solve').isDisabled(), true);
  await waitSolverState(page, /Solved: \d+ pushes/);
  assert.ok((await progressCount(page)) >= 1, 'progress updates while searching');
  assert.notEqual(await page.textContent('#s-nodes'), '–');
  assert.match(await page.textContent('#s-speed'), /\/s$/);
  assert.match(await page.textContent('#s-table'), /% full/);
  assert.match(await page.textContent('#s-threshold'), /\d+ pushes \(iteration \d+\)/);
  const [, pushes, moves] = (await solverState(page)).match(/Solved: (\d+) pushes, (\d+) moves/).map(Number);
  assert.equal(pushes, 59);

  // The solution is being replayed, animated, with the replay controls.
  assert.equal(await page.isVisible('#replay-controls'), true);
  await page.waitForFunction(() => Number(document.querySelector('[aria-label="moves"]').textContent) > 0);
  await shot(page, 'solver.png');
  await page.locator('section[aria-labelledby="h-solver"]').screenshot({ path: join(OUTPUT, 'solver-panel.png') });
  // Speed up, then skip to the end.
  await page.$eval('#r-speed', (el) => {
    el.value = el.max;
    el.dispatchEvent(new Event('input', { bubbles: true }));
  });
  assert.match(await page.textContent('#r-speed-text'), /120 moves\/s/);
  await button(page, 'Skip to end').click();
  await settle(page);
  const v = await view(page);
  assert.equal(v.solved, true);
  assert.deepEqual(await counters(page), { moves, pushes });
  assert.match(await page.textContent('#solved'), new RegExp(`Solved in ${moves} moves, ${pushes} pushes`));
  // Copy solution gives the whole solution.
  await openCard(page, 'Share');
  await button(page, 'Copy solution').click();
  assert.equal((await page.inputValue('#output')).length, moves);
  assertNoErrors(page);
  await page.context().close();
});

test('Cancel stops a long search and the page stays responsive', async () => {
  const page = await playing(app, BIG_OPEN);
  await chooseMode(page, 'Fewest pushes');
  await button(page, 'Solve').click();
  await page.waitForFunction(() => Number(document.querySelector('#solver-stats').dataset.progress) >= 3, null, { timeout: 10000 });
  await page.locator('section[aria-labelledby="h-solver"]').screenshot({ path: join(OUTPUT, 'solver-running.png') });
  // The page is not blocked while the worker searches: moving works.
  await page.keyboard.press('ArrowLeft');
  assert.equal((await counters(page)).moves, 1);
  const t0 = Date.now();
  await button(page, 'Cancel').click();
  await waitSolverState(page, /Cancelled/, 3000);
  assert.ok(Date.now() - t0 < 2500, 'cancelled quickly');
  assert.equal(await button(page, 'Solve').isDisabled(), false);
  assert.equal(await button(page, 'Cancel').isDisabled(), true);
  assert.equal((await counters(page)).moves, 1);
  // The next search works (Hint on a small level).
  await pasteText(page, ROOM);
  await button(page, 'Hint').click();
  await waitSolverState(page, /Hint/);
  await settle(page);
  const c = await counters(page);
  assert.equal(c.pushes, 1, 'a hint plays exactly one push');
  assert.ok(c.moves >= 1);
  assert.equal(await page.isVisible('#replay-controls'), false);
  assertNoErrors(page);
  await page.context().close();
});

test('the solver says when there is no solution, and when a time limit stops it', async () => {
  const page = await playing(app, '#####\n#$  #\n#  .#\n# @ #\n#####');
  await chooseMode(page, 'Fewest pushes');
  await button(page, 'Solve').click();
  await waitSolverState(page, /This level has no solution/);
  await pasteText(page, ROOM);
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowRight'); // box into a corner
  await button(page, 'Solve').click();
  await waitSolverState(page, /No solution from this position/);

  await pasteText(page, BIG_OPEN);
  await page.click('#solver-options summary');
  await page.fill('#s-limit', '1');
  await button(page, 'Solve').click();
  await waitSolverState(page, /Stopped at the time limit/, 10000);
  assertNoErrors(page);
  await page.context().close();
});

test('the fast search\'s worker starts with the page, before any search', async () => {
  const page = await playing(app, ROOM);
  for (let i = 0; i < 100 && page.workers().length === 0; i++) await page.waitForTimeout(20);
  assert.equal(page.workers().length, 1, 'one worker, started as the page loaded');
  assert.equal(await page.evaluate(() => window.app.searches()), 0, 'no search yet');
  // The first Solve uses it (lane 0). The other lanes' workers start once lane 0 has
  // warmed up, which may come after lane 0 alone has solved this small level.
  const size = await page.evaluate(() => window.app.pool.size());
  await button(page, 'Solve').click();
  await waitSolverState(page, /Solved: 4 pushes/);
  for (let i = 0; i < 250 && page.workers().length < size; i++) await page.waitForTimeout(20);
  assert.equal(page.workers().length, size, 'one worker per lane of the portfolio');
  assertNoErrors(page);
  await page.context().close();
});

test('a solver worker that dies or does not answer is replaced by a fresh one (fast mode)', async () => {
  // A worker that fails to start (the page starts one as it loads, and again for the
  // search): the page says so.
  const ctx = await app.browser.newContext({ viewport: { width: 1280, height: 800 }, serviceWorkers: 'block' });
  await ctx.route('**/solver-worker.js', (route) => route.fulfill({
    contentType: 'text/javascript', body: 'throw new Error("worker broke");',
  }));
  const page = await playing(app, ROOM, { context: ctx });
  assert.doesNotMatch(await solverState(page), /stopped unexpectedly/, 'no word of the worker before a search');
  await button(page, 'Solve').click();
  await waitSolverState(page, /stopped unexpectedly.*fresh solver/, 10000);
  assert.equal(await button(page, 'Solve').isDisabled(), false);
  // A worker that ignores every message: Cancel terminates it after a second.
  await ctx.unroute('**/solver-worker.js');
  await ctx.route('**/solver-worker.js', (route) => route.fulfill({
    contentType: 'text/javascript', body: 'self.onmessage = () => {};',
  }));
  await button(page, 'Solve').click();
  await page.waitForTimeout(200);
  await button(page, 'Cancel').click();
  await waitSolverState(page, /Cancelled.*did not answer/, 3000);
  // The real worker again: solving works.
  await ctx.unroute('**/solver-worker.js');
  await button(page, 'Solve').click();
  await waitSolverState(page, /Solved: 4 pushes/);
  await button(page, 'Skip to end').click();
  assert.equal((await view(page)).solved, true);
  await page.context().close();
});
