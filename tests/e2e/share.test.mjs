// Output and replay: Copy share link (and opening it), Copy solution (plain and
// run-length), replaying a pasted LURD with the replay controls, and bad move lists.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  assertNoErrors, boardGeometry, counters, openCard, openPage, pasteText, press, settle, playing, useApp, statusText,
  view, waitCounters, waitStatus,
} from './helpers.mjs';
import { ROOM } from './levels.mjs';

const SOLUTION = 'ullddrRurruLLL'; // ROOM: 14 moves, 4 pushes

const app = useApp();


const button = (page, name) => page.getByRole('button', { name, exact: true });

test('Copy share link gives a link to this page that opens the same level', async () => {
  const page = await playing(app, ROOM);
  await openCard(page, 'Share');
  await button(page, 'Copy share link').click();
  const link = await page.inputValue('#output');
  assert.equal(link, `${app.base}?w=7&h=5&lvl=HHHHHHH|H.__$_H|H_Ha__H|H__$._H|HHHHHHH`);
  await waitStatus(page, /share link/);
  const other = await openPage(app, link);
  const g = await boardGeometry(other);
  assert.deepEqual([g.cols, g.rows], [7, 5]);
  assert.deepEqual((await view(other)).boxes, (await view(page)).boxes);
  assertNoErrors(page);
  await page.context().close();
  await other.context().close();
});

test('Copy solution gives the moves so far, plain or run-length', async () => {
  const page = await playing(app, ROOM);
  await openCard(page, 'Share');
  await button(page, 'Copy solution').click();
  assert.match(await statusText(page), /No moves/);
  await press(page, 'ArrowUp', 'ArrowLeft', 'ArrowLeft', 'ArrowDown', 'ArrowDown', 'ArrowRight', 'ArrowRight');
  await button(page, 'Copy solution').click();
  assert.equal(await page.inputValue('#output'), 'ullddrR');
  await page.check('#rle');
  await button(page, 'Copy solution').click();
  assert.equal(await page.inputValue('#output'), 'u2l2drR');
  assertNoErrors(page);
  await page.context().close();
});

test('a pasted LURD replays, animated, with pause, step back and forward', async () => {
  const page = await playing(app, ROOM);
  await pasteText(page, SOLUTION);
  assert.equal(await page.isVisible('#replay-controls'), true);
  assert.match(await statusText(page), /Replaying the pasted moves: 14 moves/);
  await page.waitForFunction(() => Number(document.querySelector('[aria-label="moves"]').textContent) >= 2);
  await button(page, 'Pause').click();
  const at = (await counters(page)).moves;
  assert.ok(at < 14, 'animated, not all at once');
  await button(page, 'Back').click();
  assert.equal((await counters(page)).moves, at - 1);
  await button(page, 'Forward').click();
  await button(page, 'Forward').click();
  assert.equal((await counters(page)).moves, at + 1);
  assert.equal(await page.textContent('#r-pos'), `${at + 1} / 14`);
  await button(page, 'Play').click();
  await waitCounters(page, 14, 4);
  await settle(page);
  assert.equal((await view(page)).solved, true);
  assert.match(await page.textContent('#solved'), /Solved in 14 moves, 4 pushes/);
  assertNoErrors(page);
  await page.context().close();
});

test('moves typed into the replay box replay from the start when they do not fit here', async () => {
  const page = await playing(app, ROOM);
  await press(page, 'ArrowUp', 'ArrowLeft'); // now the moves do not fit from here
  await openCard(page, 'Share');
  await page.fill('#lurd-text', 'u2l2drR'); // run-length LURD
  await button(page, 'Replay').click();
  assert.match(await statusText(page), /from the start/);
  await button(page, 'Skip to end').click();
  assert.deepEqual(await counters(page), { moves: 7, pushes: 1 });
  // Moves that fit nowhere: a clear message, nothing changes.
  await button(page, 'Close').click();
  await page.fill('#lurd-text', 'rrrrrrrr');
  await button(page, 'Replay').click();
  assert.match(await statusText(page), /do not fit this level.*blocked/);
  assert.deepEqual(await counters(page), { moves: 7, pushes: 1 });
  // A level in the replay box is not a move list.
  await page.fill('#lurd-text', ROOM);
  await button(page, 'Replay').click();
  assert.match(await statusText(page), /level, not a list of moves/);
  assertNoErrors(page);
  await page.context().close();
});
