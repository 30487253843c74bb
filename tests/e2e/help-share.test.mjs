// The help overlay (?), share links that carry a solution, and "Still solvable?" (yes
// with the pushes left and a kept hint, no when proved, don't know in time, cancel).
// Saves help.png, help-phone.png, link-solution.png, solvable.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import {
  OUTPUT, assertNoErrors, counters, openCard, openPage, press, settle, shot, playing, useApp, statusText, view,
  waitStatus,
} from './helpers.mjs';
import { ROOM, TEN_ROOMS } from './levels.mjs';

const app = useApp();
const button = (page, name) => page.getByRole('button', { name, exact: true });
const keys = (lurd) => lurd.split('').map((c) => ({ u: 'ArrowUp', d: 'ArrowDown', l: 'ArrowLeft', r: 'ArrowRight' })[c.toLowerCase()]);

test('? opens the help overlay with every key; keys do not reach the game; Esc closes it', async () => {
  const page = await playing(app, ROOM);
  await press(page, '?');
  const dialog = page.getByRole('dialog', { name: 'Keys' });
  assert.equal(await dialog.isVisible(), true);
  const text = await dialog.textContent();
  for (const k of ['WASD', 'Home', 'End', 'Esc', 'Ctrl', 'Shift', 'Tab', '?']) assert.ok(text.replace(/\s/g, '').includes(k), k);
  await press(page, 'ArrowUp', 'r', 'z');
  assert.deepEqual(await counters(page), { moves: 0, pushes: 0 });
  await shot(page, 'help.png');
  await press(page, 'Escape');
  assert.equal(await dialog.isVisible(), false);
  await press(page, 'ArrowUp');
  assert.deepEqual(await counters(page), { moves: 1, pushes: 0 });
  // The ? button opens it, ? closes it; a ? typed in a text field is only text.
  await page.getByRole('button', { name: 'Help: every key' }).click();
  assert.equal(await dialog.isVisible(), true);
  await press(page, '?');
  assert.equal(await dialog.isVisible(), false);
  await page.focus('#level-text');
  await page.keyboard.type('?');
  assert.equal(await dialog.isVisible(), false);
  assert.equal(await page.inputValue('#level-text'), '?');
  assertNoErrors(page);
  await page.context().close();
});

test('the help overlay on a phone', async () => {
  const page = await openPage(app, app.base, { viewport: { width: 390, height: 844 } });
  await page.getByRole('button', { name: 'Help: every key' }).click();
  const dialog = page.getByRole('dialog', { name: 'Keys' });
  const box = await dialog.boundingBox();
  assert.ok(box.x >= 0 && box.x + box.width <= 390, 'fits the width');
  await shot(page, 'help-phone.png');
  await button(page, 'Close').click();
  assert.equal(await dialog.isVisible(), false);
  assertNoErrors(page);
  await page.context().close();
});

test('a share link can carry a solution: opening it offers to replay it', async () => {
  const page = await playing(app, ROOM);
  await openCard(page, 'Share');
  await button(page, 'Copy link with solution').click();
  assert.match(await statusText(page), /no solution to put in the link/);
  await press(page, ...keys('ullddrRurruLLL'));
  await waitStatus(page, /Solved/);
  await button(page, 'Copy link with solution').click();
  const link = await page.inputValue('#output');
  assert.equal(link, `${app.base}?w=7&h=5&lvl=HHHHHHH|H.__$_H|H_Ha__H|H__$._H|HHHHHHH&solution=u2l2drRu2ru3L`);
  // The saved best goes in the link when the board is not solved.
  await press(page, 'Home');
  await button(page, 'Copy link with solution').click();
  assert.equal(await page.inputValue('#output'), link);

  const other = await openPage(app, link, { viewport: { width: 390, height: 844 } });
  assert.match(await other.textContent('#link-solution'), /This link carries a solution: 14 moves, 4 pushes/);
  await shot(other, 'link-solution.png');
  await button(other, 'Replay it').click();
  await button(other, 'Skip to end').click();
  await settle(other);
  assert.equal((await view(other)).solved, true);
  assert.equal(await other.isVisible('#link-solution'), false);
  await other.context().close();

  // A solution that does not solve the level: the level opens, the message says why.
  const bad = await openPage(app, link.replace(/solution=.*/, 'solution=uuu'));
  assert.match(await statusText(bad), /link's solution does not solve this level.*blocked/);
  assert.equal(await bad.isVisible('#link-solution'), false);
  assert.equal((await view(bad)).width, 7);
  assertNoErrors(page);
  assertNoErrors(bad);
  await page.context().close();
  await bad.context().close();
});

test('Still solvable? answers yes (kept for Hint), no when proved, and don\'t know in time', async () => {
  const page = await playing(app, ROOM);
  await press(page, 'ArrowUp');
  await button(page, 'Still solvable?').click();
  await page.waitForFunction(() => /^Yes/.test(document.querySelector('#s-state').textContent), null, { timeout: 20000 });
  assert.match(await page.textContent('#s-state'), /^Yes: 4 pushes left/);
  assert.match(await statusText(page), /^Yes: 4 pushes left/);
  await shot(page, 'solvable.png');
  // Hint follows the kept solution: no new search.
  const searches = await page.evaluate(() => window.app.searches());
  await button(page, 'Hint').click();
  await settle(page);
  assert.equal((await counters(page)).pushes, 1);
  assert.equal(await page.evaluate(() => window.app.searches()), searches);

  // A box in a corner: no, proved at once.
  await press(page, 'r', 'ArrowUp', 'ArrowRight');
  await page.waitForFunction(() => document.querySelector('#deadlock').textContent !== '');
  await button(page, 'Still solvable?').click();
  assert.match(await page.textContent('#s-state'), /^No, proved:/);
  assertNoErrors(page);
  await page.context().close();
});

test('Still solvable? on a level too big to settle in time: don\'t know; Cancel stops it', async () => {
  const page = await playing(app, TEN_ROOMS);
  await button(page, 'Still solvable?').click();
  await page.waitForFunction(() => /^Don't know/.test(document.querySelector('#s-state').textContent), null, { timeout: 20000 });
  assert.match(await page.textContent('#s-state'), /within 5 s/);
  await button(page, 'Still solvable?').click();
  await page.waitForFunction(() => !document.querySelector('#cancel').disabled);
  await button(page, 'Cancel').click();
  await page.waitForFunction(() => /^Cancelled/.test(document.querySelector('#s-state').textContent), null, { timeout: 5000 });
  assert.equal(await button(page, 'Still solvable?').isDisabled(), false);
  assertNoErrors(page);
  await page.context().close();
});
