// The fast search's portfolio in the page (solver-pool.js), with the worker count forced
// to 2 by ?workers=2: Solve runs both lanes, the first solution replays and the panel
// names the worker that found it; Cancel ends both workers; a worker stopped mid-search
// (window.app.pool.kill, as a crash would) is dropped, the other goes on, and an ending
// without a solution counts the dropped; lane 1 waits its turn (STAGGER_MS) and a search
// that ends before then never starts it. Saves
// portfolio-running.png (the page at 1366×800 while two workers search).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import {
  OUTPUT, assertNoErrors, counters, openPage, pasteText, settle, useApp, view, waitStatus,
} from './helpers.mjs';
import { DOZEN, SIX_ROOMS, TEN_ROOMS } from './levels.mjs';

const app = useApp();

const button = (page, name) => page.getByRole('button', { name, exact: true });
const live = (page) => page.evaluate(() => window.app.pool.live());
/** The panel's line per worker: {lane, state, strategy, moves}. */
const lines = (page) => page.$$eval('#s-worker-list li', (l) => l.map((li) => ({
  lane: Number(li.dataset.lane),
  state: li.dataset.state,
  strategy: li.querySelector('.w-strategy').textContent,
  moves: li.querySelector('.w-moves').textContent,
})));

async function waitSolverState(page, re, timeout = 30000) {
  await page.waitForFunction(
    ([src, flags]) => new RegExp(src, flags).test(document.querySelector('#s-state').textContent),
    [re.source, re.flags],
    { timeout },
  );
}

/** A page with two workers, playing `level`. */
async function twoWorkers(level, viewport = { width: 1280, height: 800 }) {
  const page = await openPage(app, `${app.base}?workers=2`, { viewport });
  await pasteText(page, level);
  await waitStatus(page, /Loaded/);
  assert.equal(await page.evaluate(() => window.app.pool.size()), 2);
  return page;
}

/** Wait until both workers search and have reported a strategy. */
async function bothSearching(page) {
  try {
    await page.waitForFunction(() => {
      const li = [...document.querySelectorAll('#s-worker-list li')];
      return window.app.pool.live() === 2 && li.length === 2
        && li.every((x) => x.dataset.state === 'running' && !/starting/.test(x.textContent));
    }, null, { timeout: 30000 });
  } catch (e) {
    const seen = `${await page.textContent('#s-state')} ${JSON.stringify(await lines(page))}, ${await live(page)} live`;
    throw new Error(`both workers did not report: ${seen}`, { cause: e });
  }
}

/** The solution the state line `state` names replays (checked by the rules engine) to solved. */
async function replaysToSolved(page, state) {
  const [, pushes, moves] = state.match(/Solved: (\d+) pushes, (\d+) moves/).map(Number);
  await button(page, 'Skip to end').click();
  await settle(page);
  assert.equal((await view(page)).solved, true);
  assert.deepEqual(await counters(page), { moves, pushes });
}

test('?workers=N sets the worker count; a bad value falls back to one per core, up to 8', async () => {
  const page = await openPage(app, `${app.base}?workers=3`);
  assert.equal(await page.evaluate(() => window.app.pool.size()), 3);
  const cores = await page.evaluate(() => Math.min(8, navigator.hardwareConcurrency || 2));
  for (const [q, want] of [['?workers=99', 8], ['?workers=0', cores], ['?workers=x', cores], ['?workers=-2', cores], ['', cores]]) {
    await page.goto(`${app.base}${q}`);
    await page.waitForSelector('html[data-ready="true"]');
    assert.equal(await page.evaluate(() => window.app.pool.size()), want, q || 'no parameter');
  }
  assertNoErrors(page);
  await page.context().close();
});

test('every worker warms its solver up after the page opens, lane 0 first; a Solve during the warm-up still solves', async () => {
  const page = await openPage(app, `${app.base}?workers=2`);
  // At once, while the workers still load and warm up: the search still runs and replays.
  await pasteText(page, DOZEN);
  await waitStatus(page, /Loaded/);
  await button(page, 'Solve').click();
  await waitSolverState(page, /^Solved: /);
  await replaysToSolved(page, await page.textContent('#s-state'));
  await page.waitForFunction(() => window.app.pool.warmed() === 2, null, { timeout: 30000 });
  assertNoErrors(page);
  await page.context().close();
});

test('two workers: Solve replays the first solution and the panel names the worker that found it', async () => {
  const page = await twoWorkers(DOZEN);
  await button(page, 'Solve').click();
  await waitSolverState(page, /Solved: \d+ pushes/);
  const state = await page.textContent('#s-state');
  const by = state.match(/Solved by worker (\d) \(([^)]+)\)\./);
  assert.ok(by, state);
  assert.equal(await page.textContent('#s-workers'), '2');
  const ws = await lines(page);
  assert.deepEqual(ws.map((w) => w.lane), [0, 1]);
  const won = ws.filter((w) => w.state === 'solved');
  assert.equal(won.length, 1, JSON.stringify(ws));
  assert.equal(won[0].lane + 1, Number(by[1]));
  assert.equal(won[0].strategy, by[2]);
  assert.match(await page.textContent('#s-strategy'), new RegExp(by[2].replace(/[()]/g, '\\$&')));
  // The two budgets add up to the one the options give.
  assert.match(await page.textContent('#s-memory'), /\/ 512 MiB$/);
  // The other worker is stopped at once.
  await page.waitForFunction(() => window.app.pool.live() === 0, null, { timeout: 3000 });
  await replaysToSolved(page, state);
  assertNoErrors(page);
  await page.context().close();
});

test('two workers: Cancel during a long search stops both', async () => {
  const page = await twoWorkers(TEN_ROOMS, { width: 1366, height: 800 });
  await button(page, 'Solve').click();
  await bothSearching(page);
  await page.waitForFunction(() => Number(document.querySelector('#solver-stats').dataset.progress) >= 6, null, { timeout: 10000 });
  await page.screenshot({ path: join(OUTPUT, 'portfolio-running.png') });
  assert.match(await page.textContent('#s-state'), /Solving \(fast/);
  assert.equal(await page.textContent('#s-workers'), '2');
  const t0 = Date.now();
  await button(page, 'Cancel').click();
  await waitSolverState(page, /^Cancelled after/, 3000);
  await page.waitForFunction(() => window.app.pool.live() === 0, null, { timeout: 2500 });
  assert.ok(Date.now() - t0 < 2500, `both stopped in ${Date.now() - t0} ms`);
  assert.deepEqual((await lines(page)).map((w) => w.state), ['stopped', 'stopped']);
  assert.equal(await button(page, 'Solve').isDisabled(), false);
  assert.equal(await button(page, 'Cancel').isDisabled(), true);
  assertNoErrors(page);
  await page.context().close();
});

test('two workers: a worker stopped mid-search is dropped and the other goes on to a solution', async () => {
  const page = await twoWorkers(SIX_ROOMS);
  // Lane 1 at once, not after the stagger: lane 0 solves the six rooms in about a second,
  // at times before a staggered lane 1 has reported (a loaded machine).
  await page.evaluate(() => window.app.pool.setStagger(0));
  await button(page, 'Solve').click();
  await bothSearching(page);
  await page.evaluate(() => window.app.pool.kill(0));
  await page.waitForFunction(() => document.querySelector('#s-worker-list li[data-lane="0"]')?.dataset.state === 'dropped', null, { timeout: 3000 });
  assert.equal(await live(page), 1);
  assert.match(await page.textContent('#s-state'), /Solving \(fast/, 'the search goes on');
  // Lane 1 solves alone: solved by worker 2.
  await waitSolverState(page, /Solved: \d+ pushes/, 90000);
  const state = await page.textContent('#s-state');
  assert.match(state, /Solved by worker 2 \(/);
  assert.deepEqual((await lines(page)).map((w) => w.state), ['dropped', 'solved']);
  await replaysToSolved(page, state);
  // The next search has both workers again (a fresh one in place of the dropped one): on
  // the long level, since lane 0 solves the six rooms in about a second, at times before
  // the fresh worker's first report.
  await pasteText(page, TEN_ROOMS);
  await waitStatus(page, /Loaded/);
  await button(page, 'Solve').click();
  await bothSearching(page);
  await button(page, 'Cancel').click();
  await waitSolverState(page, /^Cancelled after/, 3000);
  assertNoErrors(page);
  await page.context().close();
});

test('two workers: lane 1 waits its turn — a search lane 0 ends sooner never starts it', async () => {
  const page = await twoWorkers(TEN_ROOMS);
  await page.evaluate(() => window.app.pool.setStagger(60000));
  await button(page, 'Solve').click();
  await page.waitForFunction(() => Number(document.querySelector('#solver-stats').dataset.progress) >= 2, null, { timeout: 10000 });
  assert.equal(await live(page), 1, 'lane 0 alone searches');
  let ws = await lines(page);
  assert.deepEqual([ws[1].state, ws[1].strategy, ws[1].moves], ['running', 'not started', '0 moves']);
  await button(page, 'Cancel').click();
  await waitSolverState(page, /^Cancelled after/, 3000);
  await page.waitForFunction(() => window.app.pool.live() === 0, null, { timeout: 2500 });
  assert.deepEqual((await lines(page)).map((w) => w.state), ['stopped', 'stopped']);
  // Won by lane 0 before lane 1's turn: lane 1 is stopped without having run.
  await pasteText(page, DOZEN);
  await waitStatus(page, /Loaded/);
  await button(page, 'Solve').click();
  await waitSolverState(page, /Solved by worker 1 \(/);
  ws = await lines(page);
  assert.deepEqual(ws.map((w) => [w.state, w.strategy === 'not started']), [['solved', false], ['stopped', true]]);
  await replaysToSolved(page, await page.textContent('#s-state'));
  assertNoErrors(page);
  await page.context().close();
});

test('two workers: a search cancelled after a worker was dropped says so', async () => {
  const page = await twoWorkers(TEN_ROOMS);
  await button(page, 'Solve').click();
  await bothSearching(page);
  await page.evaluate(() => window.app.pool.kill(1));
  await page.waitForFunction(() => window.app.pool.live() === 1, null, { timeout: 3000 });
  await button(page, 'Cancel').click();
  await waitSolverState(page, /^Cancelled after .* 1 of 2 workers were dropped/, 3000);
  assert.deepEqual((await lines(page)).map((w) => w.state), ['stopped', 'dropped']);
  assertNoErrors(page);
  await page.context().close();
});
