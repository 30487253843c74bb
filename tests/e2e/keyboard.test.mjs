// Keyboard only: B chooses a box (the nearest first, then the next; Tab and Shift+Tab in
// box mode), the arrows move a target over the squares it can reach, Enter pushes it there
// by the same fewest-pushes path as a drag, Esc lets go; every step is said in the live
// region. In pull mode the same keys pull. Zoomed in, the view follows the target. Saves
// keyboard-box.png, keyboard-box-phone.png and keyboard-pull.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  assertNoErrors, boardGeometry, counters, dragSquare, playing, press, settle, shot, squareCenter, statusText,
  useApp, view,
} from './helpers.mjs';
import { BIG_OPEN, ROOM } from './levels.mjs';

const app = useApp();
const W = 7; // ROOM: player (2,3), boxes (1,4) and (3,3), goals (1,1) and (3,4)
const sq = (r, c) => r * W + c;
const said = (page) => page.textContent('#announce');
const button = (page, name) => page.getByRole('button', { name, exact: true });

test('keyboard only: choose a box, move the target over its reach, push it there; the level solved', async () => {
  const page = await playing(app, ROOM);
  // B: the box nearest the player first, then the next in reading order; Shift+B goes back.
  await press(page, 'b');
  assert.equal(await said(page), 'Box 2 of 2, row 4, column 4. It can be pushed to 4 squares: arrows choose one, Enter pushes it there, Escape lets go.');
  assert.match(await statusText(page), /Box mode: the arrows move the target/);
  await press(page, 'b');
  assert.match(await said(page), /^Box 1 of 2, row 2, column 5\./);
  await press(page, 'Shift+B');
  assert.match(await said(page), /^Box 2 of 2, row 4, column 4\./);
  // In box mode Tab goes through the boxes and keeps the focus where it is.
  const focused = () => page.evaluate(() => document.activeElement?.id || document.activeElement?.tagName);
  const before = await focused();
  await press(page, 'Tab');
  assert.match(await said(page), /^Box 1 of 2, row 2, column 5\./);
  await press(page, 'Shift+Tab', 'Tab');
  assert.match(await said(page), /^Box 1 of 2/);
  assert.equal(await focused(), before);

  // The arrows move the target over the lit squares; each says where and what it costs.
  await press(page, 'ArrowLeft');
  assert.equal(await said(page), 'Row 2, column 4: 1 push, 4 moves.');
  await press(page, 'ArrowUp');
  assert.equal(await said(page), 'No square further up that the box can reach.');
  await press(page, 'ArrowLeft', 'ArrowLeft');
  assert.equal(await said(page), 'Row 2, column 2, a goal: 3 pushes, 6 moves.');
  assert.deepEqual(await counters(page), { moves: 0, pushes: 0 }, 'nothing moved yet');
  await shot(page, 'keyboard-box.png');
  // Enter pushes it there, as one undo step, with the path a drag takes.
  await press(page, 'Enter');
  await settle(page);
  assert.deepEqual(await counters(page), { moves: 6, pushes: 3 });
  assert.equal((await view(page)).boxes[sq(1, 1)], 1);
  assert.equal(await said(page), 'Box pushed to row 2, column 2, a goal. 6 moves, 3 pushes, 1 of 2 boxes on goals.');
  const byKeys = await page.evaluate(() => window.app.history());
  const other = await playing(app, ROOM);
  await dragSquare(other, [1, 4], [1, 1]);
  await settle(other);
  assert.equal(await other.evaluate(() => window.app.history()), byKeys, 'the same moves as a drag');
  await other.context().close();
  // The box in the corner now cannot move: said so, and the arrows and Enter say why not.
  await press(page, 'b');
  assert.equal(await said(page), 'Box 1 of 2, row 2, column 2, on a goal. It cannot be pushed anywhere from here: B or Tab chooses another box, Escape lets go.');
  await press(page, 'ArrowRight');
  assert.equal(await said(page), 'No square further right that the box can reach.');
  await press(page, 'Enter');
  assert.equal(await said(page), 'Choose where the box goes with the arrows first, then press Enter. This box cannot move from here.');
  await press(page, 'z');
  assert.deepEqual(await counters(page), { moves: 0, pushes: 0 }, 'one undo takes the push back (and leaves box mode)');

  // Esc lets go: the arrows walk again.
  await press(page, 'b', 'Escape');
  assert.equal(await said(page), 'Box let go.');
  await press(page, 'ArrowRight');
  assert.deepEqual(await counters(page), { moves: 1, pushes: 0 });
  // A button with the focus keeps Enter outside box mode; in box mode Enter is the box's.
  await page.focus('#undo');
  await press(page, 'b', 'b');
  assert.match(await said(page), /^Box 2 of 2, row 4, column 4\./);
  await press(page, 'ArrowRight', 'Enter');
  await settle(page);
  assert.deepEqual(await counters(page), { moves: 9, pushes: 1 }, 'the box pushed, not an undo');
  assert.equal(await said(page), 'Box pushed to row 4, column 5, a goal. 9 moves, 1 push, 1 of 2 boxes on goals.');
  // Then the other box to its goal: the level is solved with the keyboard alone.
  await press(page, 'b'); // the nearest: the box just pushed
  assert.match(await said(page), /^Box 2 of 2, row 4, column 5, on a goal\./);
  await press(page, 'b');
  assert.match(await said(page), /^Box 1 of 2, row 2, column 5\./);
  await press(page, 'ArrowLeft', 'ArrowLeft', 'ArrowLeft', 'Enter');
  await settle(page);
  assert.equal((await view(page)).solved, true);
  assert.match(await said(page), /^Box pushed to row 2, column 2, a goal\. \d+ moves, 4 pushes, 2 of 2 boxes on goals\.$/);
  assert.equal(await page.isVisible('#solved'), true);
  // The help overlay lists the keys; while it is open, Tab and Enter are its own, even in box mode.
  await press(page, 'b', '?');
  const help = await page.textContent('#help-dialog');
  assert.match(help, /choose a box/);
  assert.match(help, /push the box to the target by the fewest pushes/);
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'help-close');
  const chosen = await said(page);
  await press(page, 'Tab');
  assert.equal(await said(page), chosen, 'Tab is the dialog\'s, not the next box');
  await page.focus('#help-close');
  await press(page, 'Enter');
  assert.equal(await page.isVisible('#help-dialog'), false, 'Enter presses its Close button');
  await press(page, 'Escape');
  assertNoErrors(page);
  await page.context().close();
});

test('keyboard only in pull mode: the same keys pull a box back', async () => {
  const page = await playing(app, ROOM);
  await button(page, 'Pull mode').click();
  // Boxes on the goals (1,1) and (3,4); the player on (2,3): the nearest is (3,4). The
  // marked squares are where the level starts its boxes.
  await press(page, 'b');
  assert.match(await said(page), /^Box 2 of 2, row 4, column 5\. It can be pulled to \d+ squares?: arrows choose one, Enter pulls it there/);
  await press(page, 'ArrowLeft');
  assert.match(await said(page), /^Row 4, column 4, a start square: 1 pull, \d+ moves\.$/);
  await shot(page, 'keyboard-pull.png');
  await press(page, 'Enter');
  await settle(page);
  assert.equal((await view(page)).boxes[sq(3, 3)], 1);
  assert.match(await said(page), /^Box pulled to row 4, column 4, a start square\. \d+ moves, 1 pull, 1 of 2 boxes back at the start\.$/);
  assertNoErrors(page);
  await page.context().close();
});

test('keyboard only on a phone, and zoomed in the view follows the target', async () => {
  const page = await playing(app, BIG_OPEN, { viewport: { width: 390, height: 844 } });
  for (let i = 0; i < 5; i++) await press(page, '+');
  // Player (5,9); the nearest box is (4,9), right above it.
  await press(page, 'b');
  assert.match(await said(page), /^Box \d+ of 11, row 5, column 10\./);
  for (let i = 0; i < 7; i++) await press(page, 'ArrowRight');
  const target = await said(page);
  const m = /^Row (\d+), column (\d+)/.exec(target);
  assert.ok(m, target);
  const [row, col] = [Number(m[1]) - 1, Number(m[2]) - 1];
  assert.ok(col >= 15, `the target went far right (${target})`);
  const g = await boardGeometry(page);
  const p = await squareCenter(page, row, col);
  const box = await page.$eval('#board', (c) => c.getBoundingClientRect().toJSON());
  assert.ok(g.cell > 30, 'zoomed in');
  assert.ok(p.x > box.left && p.x < box.right && p.y > box.top && p.y < box.bottom, 'the target is in view');
  await shot(page, 'keyboard-box-phone.png');
  await press(page, 'Enter');
  await settle(page);
  assert.equal((await view(page)).boxes[row * 20 + col], 1);
  assertNoErrors(page);
  await page.context().close();
});
