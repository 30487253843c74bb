// Playing: keyboard moves and counters, undo/redo/restart/Home/End, click-to-walk, box
// drag and click-click pushes, touch drag on a phone-sized page, solving by hand, the
// deadlock warning, history kept across a reload, and a phone layout with no empty band
// under the board. Saves page.png, drag.png, layout-phone.png and layout-phone-messages.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  assertNoErrors, boardGeometry, clickSquare, counters, dragSquare, loadLevel, openCard, openPage, pasteText,
  press, settle, shot, squareCenter, playing, useApp, statusText, view, waitCounters,
} from './helpers.mjs';
import { HALL, ROOM } from './levels.mjs';

const app = useApp();


test('keyboard moves update the counters; blocked moves do nothing', async () => {
  const page = await playing(app, ROOM);
  await press(page, 'ArrowUp');
  assert.deepEqual(await counters(page), { moves: 1, pushes: 0 });
  await press(page, 'ArrowUp'); // wall
  assert.deepEqual(await counters(page), { moves: 1, pushes: 0 });
  await press(page, 'a', 'a', 's', 's', 'd'); // WASD
  assert.deepEqual(await counters(page), { moves: 6, pushes: 0 });
  await press(page, 'ArrowRight'); // pushes the box onto its goal
  assert.deepEqual(await counters(page), { moves: 7, pushes: 1 });
  assert.equal(await page.textContent('#goals'), '1/2');
  // Keys typed into a text field are not moves.
  await page.focus('#level-text');
  await press(page, 'ArrowUp', 'w');
  assert.deepEqual(await counters(page), { moves: 7, pushes: 1 });
  assertNoErrors(page);
  await page.context().close();
});

test('undo, redo, restart, Home and End (keys and buttons)', async () => {
  const page = await playing(app, ROOM);
  await press(page, 'ArrowUp', 'ArrowLeft', 'ArrowLeft');
  assert.equal((await counters(page)).moves, 3);
  await press(page, 'z');
  assert.equal((await counters(page)).moves, 2);
  await press(page, 'Control+z');
  assert.equal((await counters(page)).moves, 1);
  await press(page, 'y');
  assert.equal((await counters(page)).moves, 2);
  await press(page, 'Control+y');
  assert.equal((await counters(page)).moves, 3);
  await press(page, 'z', 'Shift+Control+z');
  assert.equal((await counters(page)).moves, 3);
  assert.equal(await page.getByRole('button', { name: 'Redo' }).isDisabled(), true);

  await press(page, 'r');
  assert.equal((await counters(page)).moves, 0);
  assert.match(await statusText(page), /Restarted/);
  await press(page, 'z'); // undo the restart: moves come back
  assert.equal((await counters(page)).moves, 3);
  await press(page, 'Home');
  assert.equal((await counters(page)).moves, 0);
  await press(page, 'End');
  assert.equal((await counters(page)).moves, 3);

  await page.getByRole('button', { name: 'Undo' }).click();
  await page.getByRole('button', { name: 'Undo' }).click();
  assert.equal((await counters(page)).moves, 1);
  await page.getByRole('button', { name: 'Redo' }).click();
  assert.equal((await counters(page)).moves, 2);
  await page.getByRole('button', { name: 'Restart' }).click();
  assert.equal((await counters(page)).moves, 0);
  assert.equal(await page.getByRole('button', { name: 'Restart' }).isDisabled(), true);
  await page.getByRole('button', { name: 'Undo' }).click();
  assert.equal((await counters(page)).moves, 2);
  assert.equal(await page.getByRole('button', { name: 'Redo' }).isDisabled(), false);
  assertNoErrors(page);
  await page.context().close();
});

test('clicking a square walks the player there by a shortest path, animated', async () => {
  const page = await playing(app, ROOM);
  await clickSquare(page, 3, 1);
  // Animated: not there at once, but after a few 25 ms steps.
  await waitCounters(page, 5, 0);
  assert.equal((await view(page)).player, 3 * 7 + 1);
  // Clicking a wall or an unreachable spot does not move.
  await clickSquare(page, 2, 2);
  await settle(page);
  assert.equal((await counters(page)).moves, 5);
  // A key pressed during a walk finishes the walk first, then moves.
  await clickSquare(page, 1, 3); // 4 steps back up
  await press(page, 'ArrowLeft');
  await settle(page);
  assert.deepEqual(await counters(page), { moves: 10, pushes: 0 });
  assert.equal((await view(page)).player, 1 * 7 + 2);
  assertNoErrors(page);
  await page.context().close();
});

test('dragging a box to a far square pushes it there by the best box path', async () => {
  const page = await playing(app, HALL);
  // While dragging: the reachable squares light up and the box follows the pointer.
  let midDrag;
  await dragSquare(page, [2, 2], [3, 6], async () => {
    midDrag = await page.evaluate(() => {
      const c = document.getElementById('board');
      return { cols: c.dataset.cols };
    });
    await shot(page, 'drag.png');
  });
  assert.equal(midDrag.cols, '8');
  // Fewest pushes (5), then fewest moves (8).
  await waitCounters(page, 8, 5);
  await settle(page);
  const v = await view(page);
  assert.equal(v.boxes[3 * 8 + 6], 1);
  assert.equal(v.solved, true);
  assert.match(await page.textContent('#solved'), /Solved in 8 moves, 5 pushes/);
  assert.match(await statusText(page), /Solved in 8 moves, 5 pushes/);
  // The whole drag is one undo step, and one redo step.
  await press(page, 'z');
  await settle(page);
  assert.deepEqual(await counters(page), { moves: 0, pushes: 0 });
  await press(page, 'y');
  await settle(page);
  assert.deepEqual(await counters(page), { moves: 8, pushes: 5 });
  assertNoErrors(page);
  await page.context().close();
});

test('dropping a box where it cannot go changes nothing and says why', async () => {
  const page = await playing(app, HALL);
  await dragSquare(page, [2, 2], [0, 3]); // onto the wall
  await settle(page);
  assert.deepEqual(await counters(page), { moves: 0, pushes: 0 });
  assert.match(await statusText(page), /cannot be pushed there/);
  // A short drag back onto its own square does nothing either.
  await dragSquare(page, [2, 2], [2, 2]);
  assert.deepEqual(await counters(page), { moves: 0, pushes: 0 });
  assertNoErrors(page);
  await page.context().close();
});

test('click a box, then a square: the same push as a drag; Esc and a second click deselect', async () => {
  const page = await playing(app, HALL);
  await clickSquare(page, 2, 2);
  assert.match(await statusText(page), /Box selected/);
  await press(page, 'Escape');
  await clickSquare(page, 1, 6); // walks: the box is no longer selected
  await waitCounters(page, 5, 0);
  await press(page, 'Home');
  await clickSquare(page, 2, 2);
  await clickSquare(page, 2, 2); // deselect
  await clickSquare(page, 2, 2);
  await clickSquare(page, 2, 6); // 4 pushes right after one step down
  await waitCounters(page, 5, 4);
  assert.equal((await view(page)).boxes[2 * 8 + 6], 1);
  assertNoErrors(page);
  await page.context().close();
});

test('solving a level by hand shows the solved message', async () => {
  const page = await playing(app, ROOM);
  await press(page, 'ArrowUp', 'ArrowLeft', 'ArrowLeft', 'ArrowDown', 'ArrowDown', 'ArrowRight', 'ArrowRight');
  await press(page, 'ArrowUp', 'ArrowRight', 'ArrowRight', 'ArrowUp', 'ArrowLeft', 'ArrowLeft', 'ArrowLeft');
  assert.deepEqual(await counters(page), { moves: 14, pushes: 4 });
  assert.equal(await page.isVisible('#solved'), true);
  assert.equal(await page.textContent('#solved'), '✓ Solved in 14 moves, 4 pushes');
  assert.match(await statusText(page), /Solved in 14 moves, 4 pushes/);
  assert.equal(await page.textContent('#goals'), '2/2');
  await page.waitForTimeout(400); // the banner's pop-in
  await shot(page, 'solved.png');
  await press(page, 'z');
  assert.equal(await page.isVisible('#solved'), false);
  assertNoErrors(page);
  await page.context().close();
});

test('a box pushed into a corner that is not a goal is marked, with an explanation', async () => {
  const page = await playing(app, ROOM);
  assert.equal(await page.textContent('#deadlock'), '');
  await press(page, 'ArrowUp', 'ArrowRight'); // box (1,4) into the corner (1,5)
  assert.equal((await counters(page)).pushes, 1);
  assert.match(await page.textContent('#deadlock'), /This box is on a square from which no goal can be reached/);
  // The box is outlined in red on the board.
  const red = await page.$eval('#board', (c) => {
    const d = c.dataset;
    const x = Math.round(Number(d.offsetX) + 5 * Number(d.cellSize) + 0.04 * Number(d.cellSize) + 1);
    const y = Math.round(Number(d.offsetY) + 1.5 * Number(d.cellSize));
    const [r, g, b] = c.getContext('2d').getImageData(x, y, 1, 1).data;
    return r > 180 && g < 90 && b < 110;
  });
  assert.equal(red, true, 'red outline on the deadlocked box');
  await shot(page, 'deadlock.png');
  await press(page, 'z');
  assert.equal(await page.textContent('#deadlock'), '');
  // Two boxes side by side against a wall: frozen.
  await loadLevel(page, '#######\n#.$   #\n#  $  #\n#  @ .#\n#######');
  assert.equal(await page.textContent('#deadlock'), '');
  await press(page, 'ArrowUp');
  assert.match(await page.textContent('#deadlock'), /frozen/);
  assertNoErrors(page);
  await page.context().close();
});

test('a reload keeps the level and the move history (including redo)', async () => {
  const page = await playing(app, ROOM);
  await press(page, 'ArrowUp', 'ArrowLeft', 'ArrowLeft', 'ArrowDown', 'z');
  const before = await page.evaluate(() => window.app.history());
  assert.equal(before, 'ull');
  await page.reload();
  await page.waitForSelector('html[data-ready="true"]');
  assert.deepEqual(await counters(page), { moves: 3, pushes: 0 });
  assert.equal(await page.evaluate(() => window.app.history()), 'ull');
  await press(page, 'y'); // the redo list survived too
  assert.equal((await counters(page)).moves, 4);
  // Opening a link to the same level keeps the history; another level starts fresh.
  await openCard(page, 'Share');
  await page.getByRole('button', { name: 'Copy share link' }).click();
  const link = await page.inputValue('#output');
  assert.match(link, /\?w=7&h=5&lvl=/);
  await page.goto(link);
  await page.waitForSelector('html[data-ready="true"]');
  assert.equal((await counters(page)).moves, 4);
  await page.goto(`${app.base}?w=4&h=9&lvl=HHHH|H__H|H__H|H__H|H__H|HH$H|_HaH|_H.H|_HHH`);
  await page.waitForSelector('html[data-ready="true"]');
  assert.equal((await counters(page)).moves, 0);
  assertNoErrors(page);
  await page.context().close();
});

test('full page screenshot on a desktop window', async () => {
  const page = await openPage(app);
  await press(page, 'ArrowRight');
  await shot(page, 'page.png');
  const g = await boardGeometry(page);
  // The level fits the canvas.
  const box = await page.locator('#board').boundingBox();
  assert.ok(g.ox >= 0 && g.oy >= 0 && g.ox * 2 + g.cols * g.cell <= box.width + 1);
  assertNoErrors(page);
  await page.context().close();
});

test('on a phone-sized touch screen, dragging a box with a finger pushes it', async () => {
  const ctx = await app.browser.newContext({
    viewport: { width: 390, height: 780 }, deviceScaleFactor: 2, hasTouch: true, isMobile: true,
  });
  const page = await openPage(app, app.base, { context: ctx });
  await pasteText(page, HALL);
  const g = await boardGeometry(page);
  assert.ok(g.cell * g.cols <= 390, 'the board fits the phone width');
  const a = await squareCenter(page, 2, 2);
  const b = await squareCenter(page, 2, 6);
  const cdp = await ctx.newCDPSession(page);
  const touch = (type, p) => cdp.send('Input.dispatchTouchEvent', {
    type, touchPoints: p ? [{ x: p.x, y: p.y, id: 1 }] : [],
  });
  await touch('touchStart', a);
  for (let i = 1; i <= 8; i++) await touch('touchMove', { x: a.x + ((b.x - a.x) * i) / 8, y: a.y });
  await shot(page, 'phone-drag.png');
  await touch('touchEnd');
  await waitCounters(page, 5, 4);
  // A tap walks.
  await page.touchscreen.tap(...Object.values(await squareCenter(page, 1, 1)));
  await settle(page);
  assert.equal((await view(page)).player, 1 * 8 + 1);
  await shot(page, 'phone.png');
  assertNoErrors(page);
  await ctx.close();
});

/** On the page: the drawn level's top and bottom, the board box's, the next card's (the solver's) top. */
const layoutOf = (page) => page.evaluate(() => {
  const box = (s) => document.querySelector(s).getBoundingClientRect();
  const d = document.getElementById('board').dataset;
  const top = box('#board').top + Number(d.offsetY);
  return {
    drawn: [top, top + Number(d.rows) * Number(d.cellSize)], wrap: [box('#board-wrap').top, box('#board-wrap').bottom],
    panel: box('#solver-card').top, status: box('#status').height,
  };
});

test('on a phone the board is as tall as the level: no empty band under it', async () => {
  const WIDE = `${'#'.repeat(24)}\n#@          $ .        #\n${'#'.repeat(24)}`;
  for (const scale of [1, 3]) {
    const ctx = await app.browser.newContext({
      viewport: { width: 390, height: 844 }, deviceScaleFactor: scale, isMobile: scale > 1, hasTouch: scale > 1, serviceWorkers: 'block',
    });
    const page = await openPage(app, app.base, { context: ctx });
    for (const level of [null, ROOM, HALL, WIDE]) {
      if (level) await pasteText(page, level);
      await page.evaluate(() => (document.getElementById('status').textContent = '')); // as after the message fades
      const l = await layoutOf(page);
      if (level === WIDE) {
        // 24x3 squares of 15 px: a strip of 96 px, the level in its middle.
        assert.equal(Math.round(l.wrap[1] - l.wrap[0]), 96);
      } else {
        assert.ok(Math.abs(l.drawn[0] - l.wrap[0]) < 1.5 && Math.abs(l.drawn[1] - l.wrap[1]) < 1.5,
          `the level fills its box from top to bottom (${level ? level.split('\n')[0].length : 'built-in'} wide, x${scale}: ${JSON.stringify(l)})`);
      }
      assert.equal(l.status, 0, 'an empty status line takes no room');
      assert.ok(l.panel - l.wrap[1] <= 12, `the panel follows the board closely (${l.panel - l.wrap[1]} px)`);
      if (level === null && scale === 3) await shot(page, 'layout-phone.png');
    }
    // A message takes one line under the board; a deadlock warning another.
    await pasteText(page, HALL);
    await press(page, 'ArrowDown', 'ArrowDown', 'ArrowRight', 'ArrowUp'); // the box against the top wall: dead
    await page.waitForFunction(() => document.getElementById('deadlock').textContent !== '');
    const l = await layoutOf(page);
    assert.ok(l.status > 0 && l.panel - l.wrap[1] < 120, JSON.stringify(l));
    if (scale === 1) await shot(page, 'layout-phone-messages.png');
    assertNoErrors(page);
    await ctx.close();
  }
});
