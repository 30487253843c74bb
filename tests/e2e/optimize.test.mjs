// Optimize: a wasteful solution made shorter in a worker becomes the level's best and
// replays to solved; the solver's answer being replayed is what it takes; the fewest-moves and fewest-pushes records stay apart; Cancel keeps
// the best found so far; moves that are no solution get an error naming the move; the
// read-out is in view with Solve and Hint at laptop, desktop and phone sizes. Saves
// optimize-<width>x<height>.png (running), optimize-done.png and optimize-error.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  assertNoErrors, counters, openCard, openPage, pasteText, playing, settle, shot, useApp, view, waitStatus,
} from './helpers.mjs';
import { DOORWAY, ROOM } from './levels.mjs';

const app = useApp();
const button = (page, name) => page.getByRole('button', { name, exact: true });
const best = (page) => page.evaluate(() => Object.values(JSON.parse(localStorage.getItem('sokoban.saved') ?? '{"levels": {}}').levels)[0]);

/** ROOM solved in 40 moves and 6 pushes: detours, the upper box pushed off its way and back (14 and 4 at best). */
const ROOM_WASTEFUL = 'rlrludullddrRlrurrduuLrldldlluurRdrruLLL';

/** Two boxes, where two pushes more save four moves: 22 moves and 9 pushes, or 24 and 7. */
const TRADE = '#######\n#.    #\n#   . #\n# $$@ #\n#  ## #\n#######';
const TRADE_WASTEFUL = 'ududulllddrUUruLrrddLullddrUluRR'; // 32 moves, 7 pushes

/** DOORWAY as the fast search solved it: 151 moves, 61 pushes. The optimizer gains at
 *  once (141 moves natively in 0.4 s) and then takes minutes to finish. */
const DOORWAY_FAST = 'llullulDDDldRRRRRurDDDldRuuurrrruuuLLLulDDDDDDuurrrruurDrdLLLLLruulldDDldRuurrruruLLLulDDDDuuulllulDDldRRRurDDDDuuuuuluurDDDDDDuullluRRurDDDrurruLLulDD';

/** Wait until the optimizer's run has ended. */
const ended = (page, timeout = 30000) => page.waitForFunction(() => document.querySelector('#opt').dataset.running === 'false', null, { timeout });

/** Type moves in the Share card and press its Optimize. */
async function optimizeTyped(page, lurd) {
  await openCard(page, 'Share');
  await page.fill('#lurd-text', lurd);
  await page.locator('#opt-typed').click();
}

test('Optimize makes a wasteful solution shorter: it becomes the best and replays to solved', async () => {
  const page = await playing(app, ROOM);
  // Nothing to start from yet.
  await page.locator('#optimize').click();
  assert.match(await page.textContent('#opt-state'), /Nothing to optimize yet/);
  await pasteText(page, ROOM_WASTEFUL);
  await button(page, 'Skip to end').click();
  await waitStatus(page, /Solved in 40 moves, 6 pushes/);
  await openCard(page, 'Progress');
  assert.match(await page.textContent('#pg-best'), /Fewest moves and pushes: 40 moves, 6 pushes/);
  // The solution on the board.
  await page.locator('#optimize').click();
  await ended(page);
  assert.match(await page.textContent('#opt-state'), /Done after .*: 40 moves, 6 pushes → 14 moves, 4 pushes, now your best\. Proved optimal: no solution has fewer moves\./);
  assert.equal(await page.textContent('#opt-moves'), '40 → 14');
  assert.equal(await page.textContent('#opt-pushes'), '6 → 4');
  assert.equal(await page.textContent('#opt-lines'), '4 → 2');
  assert.equal(await page.textContent('#opt-changes'), '2');
  assert.match(await page.textContent('#status'), /Optimize: a new best \(fewest moves and pushes\): 14 moves, 4 pushes/);
  assert.match(await page.textContent('#pg-best'), /Fewest moves and pushes: 14 moves, 4 pushes/);
  const r = await best(page);
  assert.deepEqual([r.bestMoves.moves, r.bestMoves.pushes, r.bestPushes.moves], [14, 4, 14]);
  // Copy and replay it.
  await button(page, 'Copy the optimized solution').click();
  assert.equal(await page.inputValue('#output'), 'ullddrRurruLLL');
  await button(page, 'Replay the optimized solution').click();
  await button(page, 'Skip to end').click();
  await settle(page);
  assert.deepEqual(await counters(page), { moves: 14, pushes: 4 });
  assert.equal((await view(page)).solved, true);
  assertNoErrors(page);
  await page.context().close();
});

test('fewer moves and fewer pushes: the two records stay apart', async () => {
  const page = await playing(app, TRADE);
  await optimizeTyped(page, TRADE_WASTEFUL);
  await ended(page);
  assert.match(await page.textContent('#opt-state'), /32 moves, 7 pushes → 22 moves, 9 pushes/);
  let r = await best(page);
  assert.deepEqual([r.bestMoves.moves, r.bestMoves.pushes], [22, 9]);
  assert.deepEqual([r.bestPushes.moves, r.bestPushes.pushes], [32, 7], 'the input kept its fewer pushes');
  // The fewest-pushes best's own Optimize: for pushes.
  await openCard(page, 'Progress');
  await page.locator('#pg-best li', { hasText: 'Fewest pushes' }).getByRole('button', { name: 'Optimize' }).click();
  await ended(page);
  assert.equal(await page.isChecked('input[name="opt-metric"][value="pushes"]'), true);
  assert.match(await page.textContent('#opt-state'), /32 moves, 7 pushes → 24 moves, 7 pushes/);
  r = await best(page);
  assert.deepEqual([r.bestMoves.moves, r.bestMoves.pushes, r.bestPushes.moves, r.bestPushes.pushes], [22, 9, 24, 7]);
  assert.match(await page.textContent('#pg-best'), /Fewest moves: 22 moves, 9 pushes.*Fewest pushes: 24 moves, 7 pushes/);
  await shot(page, 'optimize-done.png');
  // The choice is remembered.
  await page.reload();
  await page.waitForSelector('html[data-ready="true"]');
  assert.equal(await page.isChecked('input[name="opt-metric"][value="pushes"]'), true);
  assertNoErrors(page);
  await page.context().close();
});

test('Cancel keeps the best found so far', async () => {
  const page = await playing(app, DOORWAY);
  await optimizeTyped(page, DOORWAY_FAST);
  // The first gain, then Cancel long before the optimizer would finish.
  await page.waitForFunction(() => Number(document.querySelector('#opt-moves').dataset.gain) > 0, null, { timeout: 30000 });
  assert.equal(await page.isDisabled('#opt-cancel'), false);
  await page.locator('#opt-cancel').click();
  await ended(page, 5000);
  const text = await page.textContent('#opt-state');
  const m = /Cancelled after .*: 151 moves, 61 pushes → (\d+) moves, (\d+) pushes, kept as your best/.exec(text);
  assert.ok(m, text);
  const r = await best(page);
  assert.equal(r.bestMoves.moves, Number(m[1]));
  assert.ok(r.bestMoves.moves < 151);
  assert.equal(r.bestMoves.lurd.length, r.bestMoves.moves);
  await button(page, 'Replay the optimized solution').click();
  await button(page, 'Skip to end').click();
  await settle(page);
  assert.deepEqual(await counters(page), { moves: Number(m[1]), pushes: Number(m[2]) });
  assert.equal((await view(page)).solved, true);
  assertNoErrors(page);
  await page.context().close();
});

test('the solver\'s answer, while it is replayed, is the solution Optimize takes', async () => {
  // One worker: the portfolio's lane 0, whose answer (151 moves) gains at once.
  const page = await openPage(app, `${app.base}?workers=1`);
  await pasteText(page, DOORWAY);
  await waitStatus(page, /Loaded/);
  await button(page, 'Solve').click();
  await waitStatus(page, /Replaying the solver’s solution/, 30000);
  await page.locator('#optimize').click();
  assert.match(await page.textContent('#opt-state'), /Optimizing the solution being replayed for fewer moves/);
  await page.waitForFunction(() => Number(document.querySelector('#opt-moves').dataset.gain) > 0, null, { timeout: 30000 });
  await page.locator('#opt-cancel').click();
  await ended(page, 5000);
  const m = /Cancelled after .*: (\d+) moves, \d+ pushes → (\d+) moves, \d+ pushes, kept as your best/.exec(await page.textContent('#opt-state'));
  assert.ok(m && Number(m[2]) < Number(m[1]));
  const r = await best(page);
  assert.equal(r.solved, true, 'the solver\'s answer, checked, counts as solved');
  assert.equal(r.bestMoves.moves, Number(m[2]));
  assertNoErrors(page);
  await page.context().close();
});

test('moves that are no solution: an error naming the move', async () => {
  const page = await playing(app, ROOM);
  await optimizeTyped(page, 'ulldlddrRurruLLL');
  await ended(page);
  assert.equal(await page.textContent('#opt-state'),
    "The moves typed in the Share card cannot be optimized: move 5 ('l') is blocked: a wall.");
  assert.equal(await page.getAttribute('#opt-state', 'data-kind'), 'bad');
  await shot(page, 'optimize-error.png');
  await optimizeTyped(page, 'ullddrR');
  await ended(page);
  assert.match(await page.textContent('#opt-state'), /cannot be optimized: the moves do not solve the level: after all 7 of them, 1 of 2 boxes are on goals/);
  assert.equal(await best(page), undefined, 'nothing saved');
  assertNoErrors(page);
  await page.context().close();
});

for (const [w, h] of [[1280, 720], [1366, 800], [390, 844]]) {
  test(`${w}×${h}: the optimizer's read-out is in view with Solve and Hint`, async () => {
    const touch = w < 500;
    const context = await app.browser.newContext({
      viewport: { width: w, height: h }, deviceScaleFactor: 1, isMobile: touch, hasTouch: touch, serviceWorkers: 'block',
    });
    const page = await openPage(app, app.base, { context });
    await pasteText(page, DOORWAY);
    await waitStatus(page, /Loaded/);
    await pasteText(page, DOORWAY_FAST);
    await button(page, 'Skip to end').click();
    await waitStatus(page, /Solved in 151 moves/);
    await page.locator('#optimize').click();
    await page.waitForFunction(() => Number(document.querySelector('#opt-moves').dataset.gain) > 0, null, { timeout: 30000 });
    await page.waitForFunction(() => Number(document.querySelector('#opt-stats').dataset.progress) >= 8, null, { timeout: 30000 });
    const outside = await page.evaluate((ids) => ids.filter((id) => {
      const r = document.getElementById(id).getBoundingClientRect();
      return !(r.width > 0 && r.height > 0) || r.left < 0 || r.top < 0 || r.right > innerWidth + 0.5 || r.bottom > innerHeight + 0.5;
    }), ['board', 'solve', 'hint', 'optimize', 'opt-state', 'opt-moves', 'opt-pushes', 'opt-chart', 'opt-cancel', 'opt-replay']);
    assert.deepEqual(outside, []);
    await shot(page, `optimize-${w}x${h}.png`);
    await page.locator('#opt-cancel').click();
    await ended(page, 5000);
    assertNoErrors(page);
    await context.close();
  });
}
