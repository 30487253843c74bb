// Zoom and pan: keys (+, -, 0), the wheel and the buttons change the square size; clicks
// and drags still reach the right squares zoomed in and panned; Fit restores the whole
// level; a 100x100 level opens fitted and stays playable zoomed in, the view following the
// player. Saves zoom-desktop.png and zoom-phone.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  assertNoErrors, boardGeometry, clickSquare, dragSquare, playing, press, settle, shot, squareCenter,
  useApp, view, waitCounters,
} from './helpers.mjs';
import { BIG_OPEN } from './levels.mjs';

const app = useApp();

/** A 100x100 level: an open room with three boxes; player (50,50), box (50,52), goal (50,60). */
function hundred() {
  const rows = [];
  for (let r = 0; r < 100; r++) {
    const row = [];
    for (let c = 0; c < 100; c++) row.push(r === 0 || c === 0 || r === 99 || c === 99 ? '#' : ' ');
    rows.push(row);
  }
  rows[50][50] = '@';
  rows[50][52] = '$';
  rows[50][60] = '.';
  rows[20][20] = '$';
  rows[20][25] = '.';
  rows[80][80] = '$';
  rows[80][85] = '.';
  return rows.map((r) => r.join('').replace(/ +$/, '')).join('\n');
}

/** The canvas's CSS box. */
const canvasBox = (page) => page.$eval('#board', (c) => {
  const r = c.getBoundingClientRect();
  return { left: r.left, top: r.top, width: r.width, height: r.height };
});

/** True when the square's centre is on the canvas. */
async function visible(page, row, col) {
  const p = await squareCenter(page, row, col);
  const b = await canvasBox(page);
  return p.x > b.left && p.y > b.top && p.x < b.left + b.width && p.y < b.top + b.height;
}

test('keys, wheel and buttons zoom; 0 and Fit restore the fitted board', async () => {
  const page = await playing(app, BIG_OPEN);
  const fit = await boardGeometry(page);
  assert.equal(await page.$eval('#board', (c) => c.dataset.zoom), '1');
  await press(page, '+');
  const one = await boardGeometry(page);
  assert.ok(one.cell > fit.cell, `+ grows the squares (${fit.cell} -> ${one.cell})`);
  await press(page, '=', '+');
  const three = await boardGeometry(page);
  assert.ok(three.cell > one.cell);
  await press(page, '-');
  assert.ok((await boardGeometry(page)).cell < three.cell, '- shrinks them');
  await press(page, '0');
  assert.deepEqual(await boardGeometry(page), fit);

  // The wheel zooms about the pointer: the square under it stays under it.
  const at = await squareCenter(page, 3, 5);
  await page.mouse.move(at.x, at.y);
  await page.mouse.wheel(0, -400);
  await page.waitForFunction((c) => Number(document.getElementById('board').dataset.cellSize) > c, fit.cell);
  const wheel = await boardGeometry(page);
  assert.ok(wheel.cell > fit.cell);
  const col = Math.floor((at.x - wheel.left - wheel.ox) / wheel.cell);
  const row = Math.floor((at.y - wheel.top - wheel.oy) / wheel.cell);
  assert.deepEqual([row, col], [3, 5]);
  await page.mouse.wheel(0, 2000); // all the way out: fitted again, not smaller
  await page.waitForFunction((c) => Number(document.getElementById('board').dataset.cellSize) === c, fit.cell);

  await page.getByRole('button', { name: 'Zoom in' }).click();
  assert.ok((await boardGeometry(page)).cell > fit.cell);
  await page.getByRole('button', { name: 'Zoom out' }).click();
  await page.getByRole('button', { name: 'Zoom in' }).click();
  await page.getByRole('button', { name: 'Zoom in' }).click();
  assert.ok((await boardGeometry(page)).cell > fit.cell);
  await page.getByRole('button', { name: 'Fit to window' }).click();
  assert.deepEqual(await boardGeometry(page), fit);

  // The help overlay lists the zoom keys.
  await press(page, '?');
  assert.match(await page.textContent('#help-dialog'), /zoom in \/ out; fit the level to the window/);
  await press(page, 'Escape');
  assertNoErrors(page);
  await page.context().close();
});

test('zoomed in and panned, a click walks to the clicked square and a drag pushes the box', async () => {
  const page = await playing(app, hundred());
  for (let i = 0; i < 8; i++) await press(page, '+');
  const zoomed = await boardGeometry(page);
  assert.ok(zoomed.ox < 0 && zoomed.oy < 0, 'the level is bigger than the view');
  // Pan by dragging empty floor (left and up: the view moves right and down the level).
  const from = await squareCenter(page, 47, 47);
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move(from.x - 60, from.y - 45, { steps: 6 });
  await page.mouse.up();
  const panned = await boardGeometry(page);
  assert.equal(panned.cell, zoomed.cell);
  assert.ok(Math.abs(panned.ox - (zoomed.ox - 60)) <= 1 && Math.abs(panned.oy - (zoomed.oy - 45)) <= 1,
    `panned by the drag (${zoomed.ox},${zoomed.oy} -> ${panned.ox},${panned.oy})`);
  await settle(page);
  assert.equal((await view(page)).moves, 0, 'a pan is not a walk');
  // Shift+drag pans too, even from a box.
  const box = await squareCenter(page, 50, 52);
  await page.keyboard.down('Shift');
  await page.mouse.move(box.x, box.y);
  await page.mouse.down();
  await page.mouse.move(box.x + 30, box.y, { steps: 4 });
  await page.mouse.up();
  await page.keyboard.up('Shift');
  assert.ok(Math.abs((await boardGeometry(page)).ox - (panned.ox + 30)) <= 1);
  assert.equal((await view(page)).moves, 0);

  // A click walks to the square under it.
  assert.ok(await visible(page, 53, 48));
  await clickSquare(page, 53, 48);
  await waitCounters(page, 5, 0);
  assert.equal((await view(page)).player, 53 * 100 + 48);
  // A drag pushes the box to where it is dropped: (50,52) to the goal (50,55).
  assert.ok(await visible(page, 50, 55));
  await dragSquare(page, [50, 52], [50, 55]);
  await settle(page);
  const v = await view(page);
  assert.equal(v.boxes[50 * 100 + 55], 1);
  assert.equal(v.pushes, 3);
  assertNoErrors(page);
  await page.context().close();
});

for (const [name, viewport] of [['desktop', { width: 1280, height: 800 }], ['phone', { width: 390, height: 844 }]]) {
  test(`a 100x100 level opens fitted and plays zoomed in, the view following the player (${name})`, async () => {
    const page = await playing(app, hundred(), { viewport });
    const fit = await boardGeometry(page);
    const b = await canvasBox(page);
    assert.equal(fit.cols, 100);
    assert.equal(fit.rows, 100);
    assert.ok(fit.ox >= 0 && fit.oy >= 0 && fit.ox + 100 * fit.cell <= b.width + 0.5 && fit.oy + 100 * fit.cell <= b.height + 0.5,
      'the whole level is in view');
    assert.ok(await visible(page, 0, 0) && await visible(page, 99, 99));

    for (let i = 0; i < 6; i++) await press(page, '+');
    const g = await boardGeometry(page);
    assert.ok(g.cell >= 4 * fit.cell || g.cell >= 24, `zoomed in (${fit.cell} -> ${g.cell})`);
    assert.ok(!(await visible(page, 0, 0)));
    assert.ok(await visible(page, 50, 50), 'zooming with keys keeps the player in view');

    // Push with keys: two steps right push the box once (player (50,52), box (50,53)).
    await press(page, 'ArrowRight', 'ArrowRight');
    await waitCounters(page, 2, 1);
    // Walk far with keys: the view follows.
    for (let i = 0; i < 30; i++) await press(page, 'ArrowDown');
    await waitCounters(page, 32, 1);
    assert.equal((await view(page)).player, 80 * 100 + 52);
    assert.ok(await visible(page, 80, 52), 'the player is still in view');
    assert.ok(await visible(page, 82, 52) && await visible(page, 80, 50), 'with room around it');
    // A click walks; then keys walk on towards the box at (80,80), out of view until then.
    await clickSquare(page, 81, 53);
    await waitCounters(page, 34, 1);
    assert.equal((await view(page)).player, 81 * 100 + 53);
    for (let i = 0; i < 25; i++) await press(page, 'ArrowRight');
    await waitCounters(page, 59, 1);
    assert.ok(await visible(page, 81, 78));
    assert.ok(await visible(page, 80, 80), 'the box at (80,80) came into view');
    // The box is near the right edge of the view: drag the floor to pan, then drag the box.
    const floor = await squareCenter(page, 81, 70);
    await page.mouse.move(floor.x, floor.y);
    await page.mouse.down();
    await page.mouse.move(floor.x - 150, floor.y, { steps: 5 });
    await page.mouse.up();
    assert.ok(await visible(page, 80, 80) && await visible(page, 80, 84));
    await dragSquare(page, [80, 80], [80, 83]);
    await settle(page);
    assert.equal((await view(page)).boxes[80 * 100 + 83], 1);
    await shot(page, `zoom-${name}.png`);

    await press(page, '0');
    assert.deepEqual(await boardGeometry(page), fit);
    assertNoErrors(page);
    await page.context().close();
  });
}

/** Send one CDP touch event with the fingers at `points` ([x, y] page pixels). */
const touch = (cdp, type, points) => cdp.send('Input.dispatchTouchEvent', {
  type, touchPoints: points.map(([x, y], id) => ({ x, y, id, radiusX: 4, radiusY: 4, force: 1 })),
});

/**
 * Two fingers about (cx, cy): put down `from` pixels apart (horizontally), move in `steps`
 * to `to` pixels apart, lift.
 */
async function pinch(cdp, cx, cy, from, to, steps = 8) {
  const at = (d) => [[cx - d / 2, cy], [cx + d / 2, cy]];
  await touch(cdp, 'touchStart', at(from));
  for (let i = 1; i <= steps; i++) await touch(cdp, 'touchMove', at(from + ((to - from) * i) / steps));
  await touch(cdp, 'touchEnd', []);
}

test('two fingers pinch: real touch events zoom in about the fingers and back out to fit (phone)', async () => {
  const ctx = await app.browser.newContext({
    viewport: { width: 390, height: 844 }, deviceScaleFactor: 1, hasTouch: true, isMobile: true, serviceWorkers: 'block',
  });
  const page = await playing(app, BIG_OPEN, { context: ctx });
  const cdp = await page.context().newCDPSession(page);
  const zoom = () => page.$eval('#board', (c) => Number(c.dataset.zoom));
  const fit = await boardGeometry(page);
  assert.equal(await zoom(), 1);
  // Spread two fingers about the centre of the square (3, 5), a floor square.
  const mid = await squareCenter(page, 3, 5);
  await pinch(cdp, mid.x, mid.y, 40, 160);
  const spread = await boardGeometry(page);
  assert.ok(await zoom() > 2, `spreading the fingers zooms in (data-zoom ${await zoom()})`);
  assert.ok(spread.cell > 2 * fit.cell, `the squares grow (${fit.cell} -> ${spread.cell})`);
  // The square between the fingers stays between them.
  const col = Math.floor((mid.x - spread.left - spread.ox) / spread.cell);
  const row = Math.floor((mid.y - spread.top - spread.oy) / spread.cell);
  assert.deepEqual([row, col], [3, 5]);
  // A pinch is neither a walk nor a push.
  await settle(page);
  assert.deepEqual([(await view(page)).moves, (await view(page)).pushes], [0, 0]);
  await shot(page, 'pinch-phone.png');
  // Pinching in shrinks the squares again, never below fitting the level.
  await pinch(cdp, mid.x, mid.y, 200, 60);
  const closer = await boardGeometry(page);
  assert.ok(closer.cell < spread.cell, `pinching in shrinks them (${spread.cell} -> ${closer.cell})`);
  await pinch(cdp, mid.x, mid.y, 300, 20);
  assert.equal(await zoom(), 1);
  assert.deepEqual(await boardGeometry(page), fit);
  // One finger still plays: a tap walks.
  const tap = await squareCenter(page, 1, 3);
  await touch(cdp, 'touchStart', [[tap.x, tap.y]]);
  await touch(cdp, 'touchEnd', []);
  await settle(page);
  assert.ok((await view(page)).moves > 0, 'a one-finger tap walks');
  assertNoErrors(page);
  await ctx.close();
});
