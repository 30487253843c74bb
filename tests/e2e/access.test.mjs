// Accessibility: the high-contrast, colour-blind-safe theme (colours on the board, a tick
// on boxes on goals, kept across a reload), a live region that says the counters after
// each action, and walks and drags that happen at once when the system asks for reduced
// motion. Saves contrast.png and contrast-phone.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  assertNoErrors, clickSquare, counters, dragSquare, openPage, pasteText, press, settle, shot, playing, useApp,
  waitStatus,
} from './helpers.mjs';
import { HALL, ROOM } from './levels.mjs';

const app = useApp();
const button = (page, name) => page.getByRole('button', { name, exact: true });

/** The colour [r, g, b] a little off the centre of the square at (row, col) of the board. */
function pixel(page, row, col) {
  return page.$eval('#board', (c, [r, k]) => {
    const d = c.dataset;
    const scale = c.width / c.getBoundingClientRect().width;
    const x = Math.round((Number(d.offsetX) + (k + 0.2) * Number(d.cellSize)) * scale);
    const y = Math.round((Number(d.offsetY) + (r + 0.5) * Number(d.cellSize)) * scale);
    return Array.from(c.getContext('2d').getImageData(x, y, 1, 1).data.slice(0, 3));
  }, [row, col]);
}

test('the high-contrast theme: board colours, a tick on boxes on goals, kept across a reload', async () => {
  const page = await playing(app, ROOM);
  await press(page, 'ArrowUp', 'ArrowLeft', 'ArrowLeft', 'ArrowDown', 'ArrowDown', 'ArrowRight', 'ArrowRight');
  const toggle = button(page, 'Contrast');
  assert.equal(await toggle.getAttribute('aria-pressed'), 'false');
  const wallBefore = await pixel(page, 0, 0);
  await toggle.click();
  assert.equal(await toggle.getAttribute('aria-pressed'), 'true');
  assert.deepEqual(await pixel(page, 0, 0), [0, 0, 0], 'walls are black');
  assert.notDeepEqual(wallBefore, [0, 0, 0]);
  const [r, g, b] = await pixel(page, 1, 4); // a box off its goal: orange
  assert.ok(r > 200 && g > 130 && g < 200 && b < 80, `orange box: ${[r, g, b]}`);
  const [r2, g2, b2] = await pixel(page, 3, 4); // a box on its goal: dark blue
  assert.ok(r2 < 80 && g2 > 90 && g2 < 160 && b2 > 150, `blue box on goal: ${[r2, g2, b2]}`);
  assert.equal(await page.evaluate(() => getComputedStyle(document.body).backgroundColor), 'rgb(255, 255, 255)');
  await shot(page, 'contrast.png');
  await page.reload();
  await page.waitForSelector('html[data-ready="true"]');
  assert.equal(await button(page, 'Contrast').getAttribute('aria-pressed'), 'true');
  assert.deepEqual(await pixel(page, 0, 0), [0, 0, 0]);
  await button(page, 'Contrast').click();
  assert.notDeepEqual(await pixel(page, 0, 0), [0, 0, 0]);
  assertNoErrors(page);
  await page.context().close();
});

test('the high-contrast theme on a phone', async () => {
  const page = await openPage(app, app.base, { viewport: { width: 390, height: 844 } });
  await pasteText(page, ROOM);
  await waitStatus(page, /Loaded/);
  await button(page, 'Contrast').click();
  await shot(page, 'contrast-phone.png');
  assertNoErrors(page);
  await page.context().close();
});

test('a live region says the counters after each move, walk and drag', async () => {
  const page = await playing(app, ROOM);
  const said = () => page.textContent('#announce');
  assert.equal(await page.getAttribute('#announce', 'aria-live'), 'polite');
  await press(page, 'ArrowUp');
  assert.equal(await said(), '1 move, 0 pushes, 0 of 2 boxes on goals.');
  await press(page, 'ArrowLeft', 'ArrowLeft', 'ArrowDown', 'ArrowDown', 'ArrowRight', 'ArrowRight');
  assert.equal(await said(), '7 moves, 1 push, 1 of 2 boxes on goals.');
  await clickSquare(page, 1, 5);
  await settle(page);
  assert.match(await said(), /^\d+ moves, 1 push, 1 of 2 boxes on goals\.$/);
  assert.notEqual(await said(), '7 moves, 1 push, 1 of 2 boxes on goals.');
  assertNoErrors(page);
  await page.context().close();
});

test('with reduced motion, walks and drags happen at once', async () => {
  const ctx = await app.browser.newContext({ viewport: { width: 1280, height: 800 }, reducedMotion: 'reduce', serviceWorkers: 'block' });
  const page = await openPage(app, app.base, { context: ctx });
  await pasteText(page, HALL);
  await waitStatus(page, /Loaded/);
  await clickSquare(page, 3, 1);
  assert.equal(await page.evaluate(() => window.app.busy()), false, 'no animation running');
  assert.deepEqual(await counters(page), { moves: 2, pushes: 0 });
  await press(page, 'z');
  await dragSquare(page, [2, 2], [3, 6]);
  assert.equal(await page.evaluate(() => window.app.busy()), false);
  assert.deepEqual(await counters(page), { moves: 8, pushes: 5 });
  assertNoErrors(page);
  await ctx.close();
});
