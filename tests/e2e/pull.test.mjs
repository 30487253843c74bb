// Pull mode: the boxes start on the goals and the player pulls them back to where the
// level starts them; undo/redo and counters work, a drag pulls a box along a pull path,
// Shift+arrow steps without pulling, the player may start anywhere before the first move,
// and reaching the start yields a forward solution that the rules engine accepts (replayed
// on the forward board, kept with the best solutions); pull mode and its history survive
// a reload. Saves pull.png, pull-phone.png, pull-reloaded.png and pull-reloaded-phone.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  assertNoErrors, clickSquare, counters, dragSquare, openPage, pasteText, press, settle, shot, playing, useApp,
  statusText, view, waitStatus,
} from './helpers.mjs';
import { ROOM } from './levels.mjs';

const app = useApp();
const button = (page, name) => page.getByRole('button', { name, exact: true });
const W = 7; // ROOM's width
const sq = (r, c) => r * W + c;

test('pull mode solves a small level by keys and a drag, and yields a forward solution', async () => {
  const page = await playing(app, ROOM);
  await press(page, 'ArrowUp'); // a forward move, kept while pull mode plays
  await button(page, 'Pull mode').click();
  let v = await view(page);
  // Boxes on the goals; the marked squares are where the level starts its boxes.
  assert.deepEqual([v.boxes[sq(1, 1)], v.boxes[sq(3, 4)]], [1, 1]);
  assert.deepEqual([v.goals[sq(1, 4)], v.goals[sq(3, 3)], v.goals[sq(1, 1)]], [1, 1, 0]);
  assert.equal(await page.textContent('#pushes-label'), 'Pulls');
  assert.equal(await button(page, 'Solve').isDisabled(), true);
  // Shift+arrow steps away from a box without pulling it.
  await press(page, 'ArrowUp', 'ArrowLeft', 'Shift+ArrowRight');
  assert.deepEqual(await counters(page), { moves: 3, pushes: 0 });
  assert.equal((await view(page)).boxes[sq(1, 1)], 1);
  await press(page, 'z');
  // The upper box: pull it right three times.
  await press(page, 'ArrowRight', 'ArrowRight', 'ArrowRight');
  assert.deepEqual(await counters(page), { moves: 5, pushes: 3 });
  assert.equal(await page.textContent('#goals'), '1/2');
  // Undo and redo a pull.
  await press(page, 'z');
  assert.deepEqual(await counters(page), { moves: 4, pushes: 2 });
  await press(page, 'y');
  assert.deepEqual(await counters(page), { moves: 5, pushes: 3 });
  await shot(page, 'pull.png');
  // The lower box by a drag: from its goal (3,4) to (3,3), one pull.
  await dragSquare(page, [3, 4], [3, 3]);
  await settle(page);
  v = await view(page);
  assert.equal(v.solved, true);
  assert.equal(v.pushes, 4);
  assert.match(await page.textContent('#solved'), /Back at the start/);
  assert.match(await statusText(page), /forward solution: \d+ moves, 4 pushes/);
  assert.match(await page.textContent('#pg-best'), /4 pushes/);
  // Play it forward: pull mode ends and the solution replays on the level.
  await button(page, 'Play it forward').click();
  assert.equal(await page.textContent('#pushes-label'), 'Pushes');
  await button(page, 'Skip to end').click();
  await settle(page);
  v = await view(page);
  assert.equal(v.solved, true);
  assert.equal(v.pushes, 4);
  const sol = await page.evaluate(() => window.app.history());
  assert.equal(sol.replace(/[a-z]/g, '').length, 4);
  // The forward history from before pull mode is still there behind the restart.
  await press(page, 'Home', 'z');
  assert.deepEqual(await counters(page), { moves: 1, pushes: 0 });
  assertNoErrors(page);
  await page.context().close();
});

// Goal (1,5), box (1,3): in the reverse game the box on (1,5) walls (1,6) off.
const LINE = '########\n#@ $ . #\n########';
const at = (r, c) => r * 8 + c;

test('in pull mode the player may start anywhere free before the first move; leaving restores the game', async () => {
  const page = await playing(app, LINE);
  await button(page, 'Pull mode').click();
  await clickSquare(page, 1, 6);
  assert.equal((await view(page)).player, at(1, 6));
  assert.match(await statusText(page), /starts here/);
  await clickSquare(page, 1, 2); // out of reach again, and still no move: placed there
  assert.equal((await view(page)).player, at(1, 2));
  await press(page, 'ArrowRight', 'ArrowRight', 'ArrowLeft', 'ArrowLeft');
  assert.deepEqual(await counters(page), { moves: 4, pushes: 2 });
  assert.equal((await view(page)).solved, true);
  assert.match(await statusText(page), /forward solution: 3 moves, 2 pushes/);
  // After a move the player can no longer jump.
  await clickSquare(page, 1, 6);
  assert.match(await statusText(page), /cannot get there/);
  await button(page, 'Leave pull mode').click();
  const v = await view(page);
  assert.deepEqual([v.moves, v.player], [0, at(1, 1)]);
  assert.equal(await button(page, 'Solve').isDisabled(), false);
  // A pasted level leaves pull mode too.
  await button(page, 'Pull mode').click();
  await pasteText(page, ROOM);
  await waitStatus(page, /Loaded/);
  assert.equal(await page.textContent('#pushes-label'), 'Pushes');
  assertNoErrors(page);
  await page.context().close();
});

test('pull mode on a phone', async () => {
  const page = await openPage(app, app.base, { viewport: { width: 390, height: 844 } });
  await pasteText(page, ROOM);
  await waitStatus(page, /Loaded/);
  await button(page, 'Pull mode').click();
  await press(page, 'ArrowUp', 'ArrowLeft', 'ArrowRight');
  await shot(page, 'pull-phone.png');
  assert.deepEqual(await counters(page), { moves: 3, pushes: 1 });
  await page.reload(); // and back in pull mode after a reload
  await page.waitForSelector('html[data-ready="true"]');
  assert.deepEqual(await counters(page), { moves: 3, pushes: 1 });
  assert.equal(await page.textContent('#pushes-label'), 'Pulls');
  await shot(page, 'pull-reloaded-phone.png');
  assertNoErrors(page);
  await page.context().close();
});

const reload = async (page) => {
  await page.reload();
  await page.waitForSelector('html[data-ready="true"]');
};

test('pull mode, its moves, its redo list and where the player started survive a reload', async () => {
  const page = await playing(app, ROOM);
  await press(page, 'ArrowUp'); // the forward game: one move
  await button(page, 'Pull mode').click();
  await press(page, 'ArrowUp', 'ArrowLeft', 'Shift+ArrowRight', 'z'); // a step without a pull, undone
  await press(page, 'ArrowRight', 'ArrowRight', 'ArrowRight', 'z'); // three pulls, one undone
  const before = await view(page);
  assert.deepEqual([before.moves, before.pushes], [4, 2]);
  await reload(page);
  assert.equal(await page.textContent('#pushes-label'), 'Pulls');
  assert.equal(await button(page, 'Leave pull mode').getAttribute('aria-pressed'), 'true');
  assert.equal(await button(page, 'Solve').isDisabled(), true);
  assert.match(await statusText(page), /Pull mode, as you left it/);
  const after = await view(page);
  assert.deepEqual([after.moves, after.pushes, after.player, after.boxes], [before.moves, before.pushes, before.player, before.boxes]);
  assert.deepEqual(await counters(page), { moves: 4, pushes: 2 });
  await shot(page, 'pull-reloaded.png');
  // The redo list came back: the undone pull is redone, then the level is finished by a drag.
  await press(page, 'y');
  assert.deepEqual(await counters(page), { moves: 5, pushes: 3 });
  await dragSquare(page, [3, 4], [3, 3]);
  await settle(page);
  assert.equal((await view(page)).solved, true);
  assert.match(await statusText(page), /forward solution/);
  // Reloaded when back at the start: still there, with the forward solution on offer.
  await reload(page);
  assert.equal((await view(page)).solved, true);
  assert.equal(await page.isVisible('#link-solution'), true);
  // Undo goes back move by move.
  const done = await counters(page);
  await press(page, 'z');
  assert.equal((await counters(page)).moves, done.moves - 1);
  // Leaving pull mode: the forward game as it was; a reload stays forward.
  await button(page, 'Leave pull mode').click();
  assert.deepEqual(await counters(page), { moves: 1, pushes: 0 });
  await reload(page);
  assert.equal(await page.textContent('#pushes-label'), 'Pushes');
  assert.deepEqual(await counters(page), { moves: 1, pushes: 0 });
  assertNoErrors(page);
  await page.context().close();
});

test('a reload keeps the square the player was placed on; a damaged saved game starts afresh', async () => {
  const page = await playing(app, LINE);
  await button(page, 'Pull mode').click();
  await clickSquare(page, 1, 6); // out of reach: the player starts there
  await clickSquare(page, 1, 3); // out of reach again, away from its start square (1,1)
  await press(page, 'ArrowLeft'); // one step (no box behind to pull)
  assert.deepEqual(await counters(page), { moves: 1, pushes: 0 });
  await reload(page);
  assert.equal((await view(page)).player, at(1, 2));
  await press(page, 'r'); // restart: back to where the player was placed
  assert.equal((await view(page)).player, at(1, 3));
  await press(page, 'z');
  assert.equal((await view(page)).player, at(1, 2));

  // A saved game whose moves do not fit: pull mode starts afresh and says so.
  await page.evaluate(() => {
    const p = JSON.parse(localStorage.getItem('sokoban.pull'));
    localStorage.setItem('sokoban.pull', JSON.stringify({ ...p, line: 'LLLLLLLLq' }));
  });
  await reload(page);
  assert.equal(await page.textContent('#pushes-label'), 'Pulls');
  assert.deepEqual(await counters(page), { moves: 0, pushes: 0 });
  assert.match(await statusText(page), /does not fit this level any more: pull mode starts afresh/);
  // Garbage, or a game of another level: ignored, no error.
  for (const bad of ['{not json', '[1,2]', JSON.stringify({ xsb: 5, start: 'x' }), JSON.stringify({ xsb: ROOM, start: 1, line: '', redo: '' })]) {
    await page.evaluate((b) => localStorage.setItem('sokoban.pull', b), bad);
    await reload(page);
    assert.equal(await page.textContent('#pushes-label'), 'Pushes', bad);
    assert.equal((await view(page)).width, 8);
  }
  assertNoErrors(page);
  await page.context().close();
});
