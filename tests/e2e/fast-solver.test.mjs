// The fast search in the page: Solve in Fast mode (the default) streams its read-out and
// ends solved on the board; Hint plays one push of a fast solution and follows it without
// a new search, also from a square the player walked to; Cancel of a long fast search; its
// memory budget, and the default budgets the options start at; Fewest pushes with the fast
// search alongside offering a first solution; the mode is remembered; the panel on a
// phone and in dark mode. Saves fast-panel.png (the panel while a fast search runs),
// fast-panel-phone.png and fast-panel-dark.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import {
  OUTPUT, assertNoErrors, clickSquare, counters, openPage, pasteText, playing, settle, useApp, view,
} from './helpers.mjs';
import { BIG_OPEN, DOZEN, ROOM, TEN_ROOMS } from './levels.mjs';

const app = useApp();

const button = (page, name) => page.getByRole('button', { name, exact: true });
const radio = (page, name) => page.getByRole('radio', { name, exact: true });
const text = (page, sel) => page.textContent(sel);
const progressCount = (page) => page.$eval('#solver-stats', (e) => Number(e.dataset.progress || 0));
const searches = (page) => page.evaluate(() => window.app.searches());

async function waitText(page, sel, re, timeout = 30000) {
  await page.waitForFunction(
    ([s, src, flags]) => new RegExp(src, flags).test(document.querySelector(s).textContent),
    [sel, re.source, re.flags],
    { timeout },
  );
}
const waitSolverState = (page, re, timeout) => waitText(page, '#s-state', re, timeout);

test('Fast Solve (the default) on twelve boxes: live read-out, then the solution replays to solved', async () => {
  const page = await playing(app, DOZEN);
  assert.equal(await radio(page, 'Fast').isChecked(), true, 'Fast is the default mode');
  // The panel shows the fast search's fields, not the IDA*'s.
  assert.equal(await page.isVisible('#s-packed'), true);
  assert.equal(await page.isVisible('#s-threshold'), false);
  await button(page, 'Solve').click();
  await waitSolverState(page, /Solved: \d+ pushes/);
  assert.ok((await progressCount(page)) >= 1, 'progress messages reached the panel');
  assert.match(await text(page, '#s-state'), /fast search: not necessarily the fewest pushes/);
  assert.equal(await text(page, '#s-packed'), '12 / 12 boxes');
  assert.notEqual(await text(page, '#s-positions'), '–');
  assert.match(await text(page, '#s-speed'), /moves\/s$/);
  assert.match(await text(page, '#s-time'), /\d+ (ms|s)$/);
  assert.match(await text(page, '#s-memory'), /^[\d.]+ \/ 512 MiB$/);
  assert.match(await text(page, '#s-cells'), /^\d/);
  assert.match(await text(page, '#s-strategy'), /FESS|Greedy/);
  const [, pushes, moves] = (await text(page, '#s-state')).match(/Solved: (\d+) pushes, (\d+) moves/).map(Number);
  // When the shortening pass gained, the panel says what the search found: longer.
  const found = (await text(page, '#s-state')).match(/shortened from (\d+) pushes, (\d+) moves/);
  if (found) {
    const [fp, fm] = [Number(found[1]), Number(found[2])];
    assert.ok(fp > pushes || (fp === pushes && fm > moves), `shortened from ${fp}/${fm} to ${pushes}/${moves}`);
  }
  // Replayed on the board (checked by the rules engine first).
  assert.equal(await page.isVisible('#replay-controls'), true);
  await button(page, 'Skip to end').click();
  await settle(page);
  assert.equal((await view(page)).solved, true);
  assert.deepEqual(await counters(page), { moves, pushes });
  assertNoErrors(page);
  await page.context().close();
});

test('Hint plays one push of a fast solution, follows it without a new search, and the level stays solvable', async () => {
  const page = await playing(app, DOZEN);
  await page.keyboard.press('ArrowRight'); // a push of our own first: the hint starts from here
  assert.deepEqual(await counters(page), { moves: 1, pushes: 1 });
  const t0 = Date.now();
  await button(page, 'Hint').click();
  await waitSolverState(page, /Hint: the next push/, 10000);
  await settle(page);
  assert.ok(Date.now() - t0 < 5000, `the hint took ${Date.now() - t0} ms`);
  assert.equal((await counters(page)).pushes, 2, 'a hint plays exactly one push');
  assert.equal(await searches(page), 1);
  assert.equal(await page.isVisible('#replay-controls'), false);

  // The next Hint follows the solution found: at once, no worker call.
  const before = await counters(page);
  const t1 = Date.now();
  await button(page, 'Hint').click();
  await waitSolverState(page, /no new search/, 2000);
  await settle(page);
  assert.equal((await counters(page)).pushes, 3);
  assert.ok((await counters(page)).moves > before.moves);
  assert.equal(await searches(page), 1, 'no new search');
  assert.ok(Date.now() - t1 < 2000);
  // Walking around (no push) keeps the player on the solution: still no search.
  await page.keyboard.press('z'); // undo the last hint's walk and push
  await settle(page);
  assert.equal((await counters(page)).pushes, 2);
  await button(page, 'Hint').click();
  await waitSolverState(page, /no new search/, 2000);
  await settle(page);
  assert.equal((await counters(page)).pushes, 3);
  assert.equal(await searches(page), 1);

  // Off the solution (back at the start, before our own push): a new search.
  await page.keyboard.press('Home');
  await settle(page);
  assert.deepEqual(await counters(page), { moves: 0, pushes: 0 });
  await button(page, 'Hint').click();
  await waitSolverState(page, /Hint: the next push \(\d+ pushes to go with the solution found\)/, 10000);
  await settle(page);
  assert.equal((await counters(page)).pushes, 1);
  assert.equal(await searches(page), 2);

  // Still solvable: a fast Solve from here succeeds and ends solved on the board.
  await button(page, 'Solve').click();
  await waitSolverState(page, /Solved: \d+ pushes/);
  await button(page, 'Skip to end').click();
  await settle(page);
  assert.equal((await view(page)).solved, true);
  assertNoErrors(page);
  await page.context().close();
});

test('Hint follows the kept solution from wherever the player walked: to the next push, no new search', async () => {
  const page = await playing(app, ROOM);
  await button(page, 'Hint').click();
  await waitSolverState(page, /Hint: the next push \(\d+ pushes? to go with the solution found\)/, 10000);
  await settle(page);
  assert.equal((await counters(page)).pushes, 1);
  assert.equal(await searches(page), 1);
  // Walk somewhere else (no push): the boxes are still where the solution has them.
  const v = await view(page);
  const free = [...v.cells.keys()].filter((sq) => v.cells[sq] === 2 && !v.boxes[sq] && sq !== v.player);
  let walked = false;
  for (const sq of free) {
    await clickSquare(page, Math.floor(sq / v.width), sq % v.width);
    await settle(page);
    if ((await view(page)).player === sq) {
      walked = true;
      break;
    }
  }
  assert.ok(walked, 'the player walked to another square');
  assert.equal((await counters(page)).pushes, 1, 'a walk pushes nothing');
  // Each Hint walks from here to where the next push is made, and makes it.
  for (let pushes = 2; !(await view(page)).solved; pushes++) {
    assert.ok(pushes <= 10, 'the kept solution ends');
    await button(page, 'Hint').click();
    await waitSolverState(page, /no new search/, 2000);
    await settle(page);
    assert.equal((await counters(page)).pushes, pushes);
  }
  assert.equal(await searches(page), 1, 'no new search');
  assertNoErrors(page);
  await page.context().close();
});

test('Cancel stops a long fast search at once, and the page stays responsive', async () => {
  const page = await playing(app, TEN_ROOMS);
  await button(page, 'Solve').click();
  await page.waitForFunction(() => Number(document.querySelector('#solver-stats').dataset.progress) >= 5, null, { timeout: 10000 });
  await page.locator('section[aria-labelledby="h-solver"]').screenshot({ path: join(OUTPUT, 'fast-panel.png') });
  assert.match(await text(page, '#s-state'), /Solving \(fast/);
  assert.match(await text(page, '#s-packed'), /^\d+ \/ 120 boxes$/);
  await page.keyboard.press('ArrowLeft'); // the board still answers
  assert.equal((await counters(page)).moves, 1);
  const t0 = Date.now();
  await button(page, 'Cancel').click();
  await waitSolverState(page, /^Cancelled after/, 3000);
  assert.ok(Date.now() - t0 < 2500, 'cancelled quickly');
  assert.equal(await button(page, 'Solve').isDisabled(), false);
  assert.equal(await button(page, 'Hint').isDisabled(), false);
  assert.equal(await button(page, 'Cancel').isDisabled(), true);
  assert.equal((await counters(page)).moves, 1);
  assertNoErrors(page);
  await page.context().close();
});

test('the fast search says when it used its memory budget without a solution', async () => {
  const page = await playing(app, TEN_ROOMS);
  await page.click('#solver-options summary');
  // 2 MiB fill in a few seconds (8 MiB took 20-27 s natively once positions got smaller).
  await page.fill('#s-memory-mib', '2');
  await button(page, 'Solve').click();
  await waitSolverState(page, /the search used its 2 MiB without finding a solution/, 30000);
  assert.match(await text(page, '#s-memory'), /\/ 2 MiB$/);
  assert.equal(await button(page, 'Solve').isDisabled(), false);
  // Bad option values fall back to the defaults, never an error.
  await page.fill('#s-memory-mib', '-5');
  await pasteText(page, DOZEN);
  await button(page, 'Solve').click();
  await waitSolverState(page, /Solved: \d+ pushes/);
  assert.match(await text(page, '#s-memory'), /\/ 512 MiB$/);
  assertNoErrors(page);
  await page.context().close();
});

test('the solver options start at the default budgets, 512 MiB fast and a 64 MiB table, and say them', async () => {
  const page = await playing(app, ROOM);
  await page.click('#solver-options summary');
  assert.equal(await page.inputValue('#s-memory-mib'), '512');
  assert.equal(await page.inputValue('#s-table-mib'), '64');
  const words = await text(page, '#solver-options p');
  assert.match(words, /sharing up to 512 MiB;/);
  assert.match(words, /with a 64 MiB table/);
  assertNoErrors(page);
  await page.context().close();
});

test('Fewest pushes runs the fast search alongside: its first solution is offered while the IDA* goes on', async () => {
  const page = await playing(app, BIG_OPEN);
  await radio(page, 'Fewest pushes').check();
  await button(page, 'Solve').click();
  const cores = await page.evaluate(() => navigator.hardwareConcurrency);
  if (cores < 2) {
    // One core: no second worker; the IDA* alone.
    await page.waitForTimeout(1000);
    assert.equal(await page.isVisible('#s-first'), false);
  } else {
    await waitText(page, '#s-first', /First solution: \d+ pushes/, 15000);
    assert.match(await text(page, '#s-state'), /Solving \(fewest pushes\)/, 'the IDA* goes on');
    assert.equal(await page.isVisible('#s-threshold'), true, 'the panel shows the IDA*');
    const pushes = Number((await text(page, '#s-first')).match(/First solution: (\d+) pushes/)[1]);
    // Replay it while the IDA* runs.
    await button(page, 'Replay first solution').click();
    assert.equal(await page.isVisible('#replay-controls'), true);
    await button(page, 'Skip to end').click();
    await page.waitForFunction(() => !document.querySelector('#r-end') || document.querySelector('#r-end').disabled);
    assert.equal((await view(page)).solved, true);
    assert.equal((await counters(page)).pushes, pushes);
    assert.equal(await button(page, 'Cancel').isDisabled(), false, 'the IDA* still runs');
  }
  await button(page, 'Cancel').click();
  await waitSolverState(page, /Cancelled/, 3000);
  assert.equal(await button(page, 'Solve').isDisabled(), false);
  assertNoErrors(page);
  await page.context().close();
});

test('the Solve mode is remembered', async () => {
  const page = await playing(app, DOZEN);
  await radio(page, 'Fewest pushes').check();
  assert.equal(await page.isVisible('#s-threshold'), true);
  const again = await openPage(app, app.base, { context: page.context() });
  assert.equal(await radio(again, 'Fewest pushes').isChecked(), true);
  assert.equal(await radio(again, 'Fast').isChecked(), false);
  await radio(again, 'Fast').check();
  const third = await openPage(app, app.base, { context: page.context() });
  assert.equal(await radio(third, 'Fast').isChecked(), true);
  assertNoErrors(page);
  await page.context().close();
});

test('the fast panel fits a phone screen, in light and dark mode', async () => {
  for (const [name, colorScheme] of [['fast-panel-phone.png', 'light'], ['fast-panel-dark.png', 'dark']]) {
    const context = await app.browser.newContext({
      viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true, colorScheme,
    });
    const page = await openPage(app, app.base, { context });
    await pasteText(page, TEN_ROOMS);
    await button(page, 'Solve').click();
    await page.waitForFunction(() => Number(document.querySelector('#solver-stats').dataset.progress) >= 5, null, { timeout: 10000 });
    const panel = page.locator('section[aria-labelledby="h-solver"]');
    await panel.screenshot({ path: join(OUTPUT, name) });
    // Nothing sticks out sideways, and each read-out fits on its line.
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), 0);
    for (const id of ['s-packed', 's-positions', 's-speed', 's-memory', 's-cells', 's-strategy']) {
      // As tall as its one-line label.
      const [dd, dt] = await page.$eval(`#${id}`, (e) => [e, e.previousElementSibling].map((x) => x.getBoundingClientRect().height));
      assert.ok(dd < dt * 1.5, `#${id} wraps (${dd} px high, its label ${dt} px)`);
    }
    await button(page, 'Cancel').click();
    await waitSolverState(page, /Cancelled/, 3000);
    assertNoErrors(page);
    await context.close();
  }
});
