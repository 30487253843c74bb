// The sliding-tile mode: the tab and the ?puzzle= link, sliding by keys and clicks,
// undo/redo, scramble, paste, Solve in the worker with live progress and the databases'
// read-out, the replay reaching the goal, unsolvable positions, Cancel, and the Sokoban
// mode untouched around it. Saves puzzle.png, puzzle-solved.png, puzzle-phone.png and
// puzzle-dark.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assertNoErrors, openPage, pasteText, shot, useApp } from './helpers.mjs';

const app = useApp();

const pview = (page) => page.evaluate(() => window.puzzle.view());
const button = (page, name) => page.getByRole('button', { name, exact: true });
const movesShown = async (page) => Number(await page.textContent('#p-moves'));

async function waitState(page, re, timeout = 60000) {
  await page.waitForFunction(
    ([src, flags]) => new RegExp(src, flags).test(document.querySelector('#p-s-state').textContent),
    [re.source, re.flags],
    { timeout },
  );
}

async function waitStatus(page, re, timeout = 5000) {
  await page.waitForFunction(
    ([src, flags]) => new RegExp(src, flags).test(document.querySelector('#p-status').textContent),
    [re.source, re.flags],
    { timeout },
  );
}

/** Page coordinates of the centre of a cell of the puzzle board. */
async function cellCenter(page, cell) {
  return page.$eval('#p-board', (c, i) => {
    const r = c.getBoundingClientRect();
    const d = c.dataset;
    const [cols, size] = [Number(d.cols), Number(d.cellSize)];
    return {
      x: r.left + Number(d.offsetX) + ((i % cols) + 0.5) * size,
      y: r.top + Number(d.offsetY) + (Math.floor(i / cols) + 0.5) * size,
    };
  }, cell);
}

async function puzzlePage(opts) {
  const page = await openPage(app, app.base, opts);
  await page.getByRole('tab', { name: 'Sliding tiles' }).click();
  await page.waitForFunction(() => window.puzzle.active());
  return page;
}

/** Load a position through the text box (size chosen first when not square). */
async function loadPosition(page, tiles) {
  await page.fill('#p-text', tiles);
  await button(page, 'Load').last().click();
  await waitStatus(page, /Loaded/);
}

test('the tab opens the puzzle; keys and clicks slide tiles, with undo and redo', async () => {
  const page = await puzzlePage();
  assert.equal(await page.isVisible('#sokoban-mode'), false);
  assert.equal(await page.getAttribute('#tab-tiles', 'aria-selected'), 'true');
  assert.match(page.url(), /\?puzzle=4x4$/);
  await page.fill('#p-text', '1 2 3 4 5 6 0 7 8');
  await page.click('#p-load');
  await waitStatus(page, /Loaded a 8-puzzle/);
  await page.locator('#p-text').blur();
  // Left arrow: the tile right of the gap (7) slides left.
  await page.keyboard.press('ArrowLeft');
  let v = await pview(page);
  assert.deepEqual(v.tiles, [1, 2, 3, 4, 5, 6, 7, 0, 8]);
  assert.equal(await movesShown(page), 1);
  // A click on 8 slides it into the gap: solved.
  const c = await cellCenter(page, 8);
  await page.mouse.click(c.x, c.y);
  v = await pview(page);
  assert.equal(v.solved, true);
  assert.match(await page.textContent('#p-solved'), /Solved in 2 moves/);
  await page.keyboard.press('z');
  await page.keyboard.press('Control+z');
  assert.equal(await movesShown(page), 0);
  await button(page, 'Redo').first().click();
  assert.equal(await movesShown(page), 1);
  await page.keyboard.press('y');
  assert.equal((await pview(page)).solved, true);
  // The Sokoban game did not see any of those keys.
  assert.equal(await page.evaluate(() => window.app.history()), '');
  assert.match(await page.getAttribute('#p-board', 'aria-label'), /8-puzzle, solved; row 1: 1, 2, 3/);
  // A click in neither the gap's row nor its column moves nothing.
  await page.keyboard.press('ArrowDown'); // 6 slides down: gap at cell 5
  const c0 = await cellCenter(page, 0);
  await page.mouse.click(c0.x, c0.y);
  assert.equal(await movesShown(page), 3);
  await shot(page, 'puzzle.png');
  assertNoErrors(page);
  await page.context().close();
});

test('scramble a 15-puzzle and solve it: live progress, databases, replay to the goal', async () => {
  const page = await puzzlePage();
  await page.selectOption('#p-size', '4x4');
  await page.selectOption('#p-goal', 'blank-first');
  await page.selectOption('#p-mix', '40');
  await page.click('#p-scramble');
  await waitStatus(page, /A new 15-puzzle: 40 random moves/);
  const start = await pview(page);
  assert.equal(start.solvable, true);
  assert.deepEqual(start.goal, [...Array(16).keys()]);
  await page.click('#p-solve');
  assert.equal(await button(page, 'Cancel').last().isDisabled(), false);
  await waitState(page, /Solved: \d+ moves, the fewest/, 90000);
  const progress = await page.$eval('#p-solver-stats', (e) => Number(e.dataset.progress));
  assert.ok(progress >= 2, `progress messages seen: ${progress}`);
  assert.match(await page.textContent('#p-s-db'), /6-6-3, 16 MiB, built in/);
  assert.match(await page.textContent('#p-s-threshold'), /\d+ moves \(iteration \d+\)/);
  assert.match(await page.textContent('#p-s-search'), /IDA\*, pattern databases/);
  assert.notEqual(await page.textContent('#p-s-nodes'), '–');
  const length = Number((await page.textContent('#p-s-state')).match(/Solved: (\d+) moves/)[1]);
  assert.ok(length <= 40 && length % 2 === 0);
  assert.equal(await page.isVisible('#p-replay-controls'), true);
  await page.waitForFunction(() => Number(document.querySelector('#p-moves').textContent) > 0);
  await shot(page, 'puzzle-solving.png');
  await button(page, 'Skip to end').last().click();
  await page.waitForFunction(() => !window.puzzle.busy());
  const v = await pview(page);
  assert.equal(v.solved, true);
  assert.equal(await movesShown(page), length);
  await shot(page, 'puzzle-solved.png');
  // A second solve finds the databases kept in the worker.
  await page.click('#p-scramble');
  await page.click('#p-solve');
  await waitState(page, /Solved/, 60000);
  assert.match(await page.textContent('#p-s-db'), /kept from before/);
  assertNoErrors(page);
  await page.context().close();
});

test('a link opens the puzzle; the 8-puzzle is solved by A*; unsolvable positions are said', async () => {
  const page = await openPage(app, `${app.base}?puzzle=8&tiles=8,6,7,2,5,4,3,0,1`);
  assert.equal(await page.evaluate(() => window.puzzle.active()), true);
  assert.equal(await page.isVisible('#puzzle-mode'), true);
  assert.deepEqual((await pview(page)).tiles, [8, 6, 7, 2, 5, 4, 3, 0, 1]);
  await page.click('#p-solve');
  await waitState(page, /Solved: 31 moves, the fewest \(A\*\)/);
  await button(page, 'Skip to end').last().click();
  assert.equal((await pview(page)).solved, true);
  // Two tiles swapped: no solution, and no search.
  await page.locator('#p-text').fill('2 1 3 4 5 6 7 8 0');
  await page.click('#p-load');
  await waitStatus(page, /cannot reach the goal/);
  await page.click('#p-solve');
  await waitState(page, /No solution: this position cannot reach the goal/);
  assert.equal(await page.textContent('#p-s-nodes'), '0');
  // Paste a position anywhere.
  await pasteText(page, '1 2 3 0 5 6 7 4 9 10 11 8 13 14 15 12');
  await waitStatus(page, /Loaded a 15-puzzle/);
  // Copy link: this position (shown to copy by hand when the clipboard is not there).
  await page.click('#p-copy-link');
  await page.waitForFunction(() => /\?puzzle=4x4&tiles=1%2C2%2C3%2C0/.test(document.querySelector('#p-output').value));
  // Restart and Home/End through the history.
  await page.keyboard.press('ArrowUp'); // the gap is in the top row: a tile comes up
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('r');
  assert.equal(await movesShown(page), 4, 'restart is two moves back, as one undoable group');
  await page.keyboard.press('Home');
  assert.equal(await movesShown(page), 0);
  await page.keyboard.press('End');
  assert.equal(await movesShown(page), 4);
  await page.keyboard.press('Home');
  // Back to Sokoban: the link goes, and the arrows play Sokoban again.
  await page.getByRole('tab', { name: 'Sokoban' }).click();
  assert.equal(await page.isVisible('#sokoban-mode'), true);
  assert.doesNotMatch(page.url(), /puzzle/);
  const before = await page.evaluate(() => window.app.view().moves);
  for (const k of ['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown']) await page.keyboard.press(k);
  assert.ok((await page.evaluate(() => window.app.view().moves)) > before, 'the Sokoban player moves');
  // A reload remembers the mode and the position.
  await page.getByRole('tab', { name: 'Sliding tiles' }).click();
  await page.reload();
  await page.waitForSelector('html[data-ready="true"]');
  assert.equal(await page.evaluate(() => window.puzzle.active()), true);
  assert.deepEqual((await pview(page)).tiles, [1, 2, 3, 0, 5, 6, 7, 4, 9, 10, 11, 8, 13, 14, 15, 12]);
  assertNoErrors(page);
  await page.context().close();
});

test('Cancel stops a 24-puzzle search while its databases are built', async () => {
  const page = await puzzlePage();
  await page.selectOption('#p-size', '5x5');
  await page.selectOption('#p-mix', '0');
  await page.click('#p-scramble');
  await page.click('#p-solve');
  await page.waitForFunction(() => Number(document.querySelector('#p-solver-stats').dataset.progress) >= 3, null, { timeout: 20000 });
  assert.match(await page.textContent('#p-s-db'), /5-5-5-5-4: building/);
  // The page answers while the worker works.
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowRight');
  assert.ok((await movesShown(page)) >= 1);
  await button(page, 'Cancel').last().click();
  await waitState(page, /Cancelled/, 3000);
  assert.equal(await button(page, 'Solve').last().isDisabled(), false);
  assertNoErrors(page);
  await page.context().close();
});

test('phone layout and dark mode', async () => {
  const phone = await app.browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
  const page = await openPage(app, `${app.base}?puzzle=15`, { context: phone });
  const box = await page.locator('#p-board').boundingBox();
  assert.ok(box.width > 300 && box.height > 300, `board ${box.width}x${box.height}`);
  const cell = Number(await page.getAttribute('#p-board', 'data-cell-size'));
  assert.ok(cell >= 60, `cells of ${cell} px are big enough to tap`);
  // Tap a tile next to the gap.
  const v = await pview(page);
  const next = [v.blank - 1, v.blank + 1, v.blank - 4, v.blank + 4].find((c) => c >= 0 && c < 16 && (Math.abs(c - v.blank) === 4 || Math.floor(c / 4) === Math.floor(v.blank / 4)));
  const c = await cellCenter(page, next);
  await page.touchscreen.tap(c.x, c.y);
  assert.equal(await movesShown(page), 1);
  await shot(page, 'puzzle-phone.png');
  await phone.close();
  const dark = await app.browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme: 'dark' });
  const dpage = await openPage(app, `${app.base}?puzzle=24`, { context: dark });
  assert.equal((await pview(dpage)).width, 5);
  await shot(dpage, 'puzzle-dark.png');
  assertNoErrors(dpage);
  await dark.close();
});
