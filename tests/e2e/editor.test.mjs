// The level editor: a level built from scratch with the mouse and played at once; the
// keyboard alone; live checks with the paste messages, an impossible level refused (and
// kept, across a reload); undo/redo; touch strokes on a phone; Save to my levels, My
// levels, export / import of them, deleting one (and undoing that); Copy XSB, run-length
// and link. Saves editor*.png and my-levels*.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { readFile } from 'node:fs/promises';
import {
  OUTPUT, assertNoErrors, counters, openCard, openPage, pasteText, press, shot, useApp, statusText, view, waitStatus,
} from './helpers.mjs';
import { HALL, ROOM } from './levels.mjs';

const app = useApp();
const button = (page, name) => page.getByRole('button', { name, exact: true });
const check = (page) => page.textContent('#ed-check');

/** Page coordinates of the centre of the editor square at (row, col). */
async function edSquare(page, row, col) {
  return page.$eval('#ed-board', (c, [r, k]) => {
    const b = c.getBoundingClientRect();
    const d = c.dataset;
    return { x: b.left + Number(d.offsetX) + (k + 0.5) * Number(d.cellSize), y: b.top + Number(d.offsetY) + (r + 0.5) * Number(d.cellSize) };
  }, [row, col]);
}

async function clickAt(page, row, col) {
  const p = await edSquare(page, row, col);
  await page.mouse.click(p.x, p.y);
}

const tool = (page, name) => page.locator(`#ed-tools input[value="${name}"]`).check({ force: true });

test('a level built from scratch with the mouse, checked live, played at once', async () => {
  const page = await openPage(app);
  await button(page, 'New level').click();
  assert.equal(await page.isVisible('#editor-mode'), true);
  assert.equal(await page.isVisible('#sokoban-mode'), false);
  // A new level is a walled 10 x 8 room: not playable yet, with the paste's message.
  assert.match(await check(page), /Not playable yet: the level has no player \(@ or \+\)/);
  assert.equal(await button(page, 'Play').isDisabled(), true);
  await tool(page, 'player');
  await clickAt(page, 2, 2);
  assert.match(await check(page), /no boxes/);
  await tool(page, 'box');
  await clickAt(page, 3, 3);
  assert.match(await check(page), /1 box but 0 goals/);
  await tool(page, 'goal');
  await clickAt(page, 3, 5);
  assert.match(await check(page), /✓ A valid 10×8 level with 1 box/);
  // A wall stroke by dragging: one undo takes it back.
  await tool(page, 'wall');
  const a = await edSquare(page, 5, 1), b = await edSquare(page, 5, 4);
  await page.mouse.move(a.x, a.y);
  await page.mouse.down();
  await page.mouse.move(b.x, b.y, { steps: 6 });
  await page.mouse.up();
  const xsb = async () => page.evaluate(() => window.app.editorText());
  assert.match(await xsb(), /#####/);
  await shot(page, 'editor.png');
  await press(page, 'z');
  assert.doesNotMatch((await xsb()).split('|')[5], /##/);
  await press(page, 'y');
  assert.match((await xsb()).split('|')[5], /#####/);
  await page.fill('#ed-title', 'First try');
  await button(page, 'Play').click();
  assert.equal(await page.isVisible('#sokoban-mode'), true);
  assert.match(await page.textContent('#level-title'), /First try/);
  await press(page, 'ArrowDown', 'ArrowRight', 'ArrowRight');
  assert.deepEqual(await counters(page), { moves: 3, pushes: 2 });
  assert.equal((await view(page)).solved, true);
  // Back to the editor with the same level.
  await button(page, 'Edit this level').click();
  assert.match(await check(page), /✓ A valid/);
  assert.equal(await page.inputValue('#ed-title'), 'First try');
  assertNoErrors(page);
  await page.context().close();
});

test('the keyboard alone draws a level; an impossible one is refused and kept across a reload', async () => {
  const page = await openPage(app);
  await button(page, 'New level').click();
  await page.focus('#ed-board');
  await press(page, 'ArrowDown', 'ArrowRight'); // the cursor to (1, 1)
  await press(page, '@', 'ArrowRight', '$', 'ArrowRight', '.');
  assert.match(await check(page), /✓ A valid/);
  await press(page, 'z');
  assert.match(await check(page), /1 box but 0 goals/);
  await press(page, 'y');
  // An opening in the outer wall: open level, refused with the paste's message.
  await press(page, 'ArrowUp', 'Delete');
  assert.match(await check(page), /Not playable yet: the level is open/);
  assert.equal(await button(page, 'Play').isDisabled(), true);
  // Nothing is lost on a reload: the drawing comes back as it was, still invalid.
  const before = await page.evaluate(() => window.app.editorText());
  await page.reload();
  await page.waitForSelector('html[data-ready="true"]');
  await page.evaluate(() => window.app.openEditor());
  assert.equal(await page.evaluate(() => window.app.editorText()), before);
  assert.match(await check(page), /the level is open/);
  // Tools by number keys, Enter draws with the tool at the cursor.
  await page.focus('#ed-board');
  await press(page, '1', 'ArrowRight', 'ArrowRight', 'ArrowRight', 'Enter');
  assert.match(await check(page), /✓ A valid/);
  assertNoErrors(page);
  await page.context().close();
});

test('Save to my levels, My levels, Copy XSB / run-length / link; my levels travel in an export', async () => {
  const page = await openPage(app);
  await button(page, 'New level').click();
  await page.focus('#ed-board');
  await press(page, 'ArrowDown', 'ArrowRight', '@', 'ArrowRight', '$', 'ArrowRight', '.');
  await page.fill('#ed-title', 'Tiny');
  await button(page, 'Save to my levels').click();
  assert.match(await page.textContent('#ed-status'), /Saved “Tiny” in My levels \(1 level\)/);
  await button(page, 'Copy XSB').click();
  const xsb = await page.inputValue('#output');
  assert.equal(xsb.split('\n')[1], '#@$.     #');
  await button(page, 'Copy run-length').click();
  assert.match(await page.inputValue('#output'), /^10#\|#@\$\.5-#\|/);
  await button(page, 'Copy link').click();
  assert.match(await page.inputValue('#output'), new RegExp(`^${app.base.replace(/[.?]/g, '\\$&')}\\?w=10&h=8&lvl=`));
  await button(page, 'Back to the game').click();
  await button(page, 'My levels').click();
  assert.match(await page.textContent('#level-title'), /Tiny/);
  assert.equal((await view(page)).width, 10);

  await openCard(page, 'Progress');
  const [download] = await Promise.all([page.waitForEvent('download'), button(page, 'Export progress').click()]);
  const path = join(OUTPUT, 'export-my-levels.json');
  await download.saveAs(path);
  const fresh = await openPage(app);
  await button(fresh, 'My levels').click();
  assert.match(await statusText(fresh), /No levels of your own yet/);
  await fresh.setInputFiles('#import-file', path);
  await waitStatus(fresh, /1 level of your own/);
  await button(fresh, 'My levels').click();
  assert.match(await fresh.textContent('#level-title'), /Tiny/);
  assertNoErrors(page);
  assertNoErrors(fresh);
  await page.context().close();
  await fresh.context().close();
});

test('on a phone, a finger draws a stroke; the editor fits the screen', async () => {
  const ctx = await app.browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, hasTouch: true, isMobile: true });
  const page = await openPage(app, app.base, { context: ctx });
  await openCard(page, 'Levels');
  await button(page, 'New level').click();
  await tool(page, 'box');
  const cdp = await ctx.newCDPSession(page);
  const touch = (type, p) => cdp.send('Input.dispatchTouchEvent', { type, touchPoints: p ? [{ x: p.x, y: p.y, id: 1 }] : [] });
  const a = await edSquare(page, 2, 2), b = await edSquare(page, 2, 6);
  await touch('touchStart', a);
  for (let i = 1; i <= 8; i++) await touch('touchMove', { x: a.x + ((b.x - a.x) * i) / 8, y: a.y });
  await touch('touchEnd');
  assert.equal((await page.evaluate(() => window.app.editorText())).split('|')[2], '#-$$$$$--#');
  assert.match(await check(page), /no player/);
  const box = await page.locator('#ed-board').boundingBox();
  assert.ok(box.width <= 390);
  await shot(page, 'editor-phone.png');
  assertNoErrors(page);
  await ctx.close();
});

/** Open `level` on the board, then Edit this level, give it `title` and save it. */
async function saveMine(page, level, title) {
  await pasteText(page, level);
  await waitStatus(page, /Loaded/);
  await openCard(page, 'Levels');
  await button(page, 'Edit this level').click();
  await page.fill('#ed-title', title);
  await button(page, 'Save to my levels').click();
  await page.waitForFunction(() => /in My levels/.test(document.getElementById('ed-status').textContent));
  await button(page, 'Back to the game').click();
}

const myNames = (page) => page.$$eval('#my-list li .what', (l) => l.map((e) => e.textContent));
const myRow = (page, name) => page.locator('#my-list li', { hasText: name });
const listed = (page) => page.$$eval('#level-list li', (l) => l.length);

test('a level of my levels can be deleted, with an undo; the list, the collection and an export follow', async () => {
  const page = await openPage(app);
  await openCard(page, 'Progress');
  assert.equal(await page.isVisible('#my-none'), true, 'says there are none yet');
  const LINE = '#######\n#@ $ .#\n#######';
  await saveMine(page, ROOM, 'Alpha');
  await saveMine(page, HALL, 'Beta');
  await saveMine(page, LINE, 'Gamma');
  assert.deepEqual(await myNames(page), ['Alpha', 'Beta', 'Gamma']);
  await openCard(page, 'Progress');
  assert.equal(await page.isVisible('#my-none'), false);
  await openCard(page, 'Levels');
  await button(page, 'My levels').click();
  assert.equal(await listed(page), 3);
  assert.match(await page.textContent('#level-title'), /Alpha — My levels · 1 of 3/);

  // Delete Beta: gone from the list and from the open collection; Undo delete is offered.
  await openCard(page, 'Progress');
  await myRow(page, 'Beta').getByRole('button', { name: 'Delete' }).click();
  assert.deepEqual(await myNames(page), ['Alpha', 'Gamma']);
  assert.match(await statusText(page), /Deleted “Beta” from My levels \(2 levels left\)/);
  assert.equal(await page.isVisible('#my-undo'), true);
  assert.equal(await listed(page), 2);
  assert.match(await page.textContent('#level-title'), /Alpha — My levels · 1 of 2/);
  await page.locator('#progress-card').screenshot({ path: join(OUTPUT, 'my-levels-deleted.png') });
  // Undo puts it back where it was; the keyboard is on Undo delete (the Delete button is gone).
  assert.equal(await page.evaluate(() => document.activeElement.id), 'my-undo-button');
  await press(page, 'Enter');
  assert.deepEqual(await myNames(page), ['Alpha', 'Beta', 'Gamma']);
  assert.match(await statusText(page), /“Beta” is back in My levels/);
  assert.equal(await page.isVisible('#my-undo'), false);
  assert.equal(await listed(page), 3);
  // Play from the list opens that level within My levels.
  await myRow(page, 'Gamma').getByRole('button', { name: 'Play' }).click();
  assert.match(await page.textContent('#level-title'), /Gamma — My levels · 3 of 3/);
  assert.equal((await view(page)).width, 7);

  // Delete again; it stays deleted across a reload and is not in an export.
  await myRow(page, 'Beta').getByRole('button', { name: 'Delete' }).click();
  await page.reload();
  await page.waitForSelector('html[data-ready="true"]');
  assert.deepEqual(await myNames(page), ['Alpha', 'Gamma']);
  assert.equal(await page.isVisible('#my-undo'), false, 'the undo does not outlive the page');
  assert.equal(await listed(page), 2);
  const [download] = await Promise.all([page.waitForEvent('download'), button(page, 'Export progress').click()]);
  const path = join(OUTPUT, 'export-my-levels-deleted.json');
  await download.saveAs(path);
  assert.deepEqual(JSON.parse(await readFile(path, 'utf8')).myLevels.map((l) => l.title), ['Alpha', 'Gamma']);
  const fresh = await openPage(app);
  await fresh.setInputFiles('#import-file', path);
  await waitStatus(fresh, /2 levels of your own/);
  assert.deepEqual(await myNames(fresh), ['Alpha', 'Gamma']);

  // Deleting the level on the board keeps it there, played on its own.
  await myRow(page, 'Gamma').getByRole('button', { name: 'Delete' }).click();
  assert.equal((await view(page)).width, 7);
  assert.equal(await listed(page), 0);
  assert.equal(await page.textContent('#level-pos'), 'single level');
  await myRow(page, 'Alpha').getByRole('button', { name: 'Delete' }).click();
  assert.deepEqual(await myNames(page), []);
  assert.equal(await page.isVisible('#my-none'), true);
  await openCard(page, 'Levels');
  await button(page, 'My levels').click();
  assert.match(await statusText(page), /No levels of your own yet/);
  assertNoErrors(page);
  assertNoErrors(fresh);
  await page.context().close();
  await fresh.context().close();
});

test('my levels on a phone: the list with Play and Delete, and the undo', async () => {
  const page = await openPage(app, app.base, { viewport: { width: 390, height: 844 } });
  await saveMine(page, ROOM, 'A level with a long name that wraps on a phone');
  await saveMine(page, HALL, 'Hall');
  await openCard(page, 'Progress');
  await myRow(page, 'Hall').getByRole('button', { name: 'Delete' }).click();
  await page.locator('#my-undo').scrollIntoViewIfNeeded();
  await shot(page, 'my-levels-phone.png');
  const box = await page.locator('#progress-card').boundingBox();
  assert.ok(box.x >= 0 && box.x + box.width <= 390, 'the card fits the width');
  assertNoErrors(page);
  await page.context().close();
});
