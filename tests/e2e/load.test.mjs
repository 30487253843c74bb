// Getting levels in: page URL parameters, pasting every format, collections (pasted and
// opened from a file), bad input, and the built-in levels on first open.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  assertNoErrors, boardGeometry, countDrawnBoxes, loadLevel, openPage, pasteText, press, useApp,
  statusText, view, waitCounters, waitStatus,
} from './helpers.mjs';
import { COLLECTION, FORMATS, ROOM } from './levels.mjs';

const app = useApp();

const SOKOPLAYER = '?w=4&h=9&lvl=HHHH|H__H|H__H|H__H|H__H|HH$H|_HaH|_H.H|_HHH';

test('first open shows the built-in levels', async () => {
  const page = await openPage(app);
  const items = await page.locator('#level-list li').count();
  assert.ok(items >= 3, `built-in list has ${items} levels`);
  assert.match(await page.textContent('#level-title'), /First Light/);
  assert.ok((await view(page)).boxCount >= 1);
  assertNoErrors(page);
  await page.context().close();
});

test('a SokoPlayer link in the page address opens its level', async () => {
  const page = await openPage(app, app.base + SOKOPLAYER);
  const g = await boardGeometry(page);
  assert.equal(g.cols, 4);
  assert.equal(g.rows, 9);
  assert.ok(g.cell > 10, `cell size ${g.cell}`);
  // One box is drawn (pixels), and the Session agrees.
  assert.deepEqual(await countDrawnBoxes(page), { box: 1, boxOnGoal: 0 });
  const v = await view(page);
  assert.equal(v.boxCount, 1);
  assert.equal(v.player, 6 * 4 + 2);
  // The level is playable: the player is below the box and pushes it up.
  await press(page, 'ArrowUp');
  await waitCounters(page, 1, 1);
  assertNoErrors(page);
  await page.context().close();
});

test('SokobanScript ?level= and ?base64= links in the page address open their levels', async () => {
  for (const f of FORMATS.filter((x) => x.name.startsWith('SokobanScript'))) {
    const query = f.text.slice(f.text.indexOf('?'));
    const page = await openPage(app, app.base + query);
    const g = await boardGeometry(page);
    assert.deepEqual([g.cols, g.rows], [f.cols, f.rows], f.name);
    assertNoErrors(page);
    await page.context().close();
  }
});

test('a bad level in the page address says why and shows a playable level', async () => {
  const page = await openPage(app, `${app.base}?w=4&h=3&lvl=HHHH|HaQH|HHHH`);
  assert.match(await statusText(page), /could not be read.*'Q'/);
  assert.ok((await view(page)).boxCount >= 1);
  await page.context().close();
});

test('pasting each format loads a level of the right size', async () => {
  const page = await openPage(app);
  for (const f of FORMATS) {
    await pasteText(page, f.text);
    const g = await boardGeometry(page);
    assert.deepEqual([g.cols, g.rows], [f.cols, f.rows], `${f.name}: ${await statusText(page)}`);
    assert.match(await statusText(page), /Loaded a \d+×\d+ level/);
  }
  // The Level box with the Load button reads the same formats.
  for (const f of FORMATS.slice(0, 3)) {
    await loadLevel(page, f.text);
    const g = await boardGeometry(page);
    assert.deepEqual([g.cols, g.rows], [f.cols, f.rows], f.name);
  }
  assertNoErrors(page);
  await page.context().close();
});

test('a pasted collection shows its levels, marks the invalid one, and Next/Previous work', async () => {
  const page = await openPage(app);
  await pasteText(page, COLLECTION);
  await waitStatus(page, /collection of 4 levels \(1 invalid/);
  const items = page.locator('#level-list li');
  assert.equal(await items.count(), 4);
  assert.match(await items.nth(0).textContent(), /Small Step/);
  assert.match(await items.nth(2).textContent(), /✗.*Broken.*1 box but 0 goals/);
  assert.match(await page.textContent('#level-title'), /Small Step.*Test Garden/);
  assert.deepEqual([(await boardGeometry(page)).cols, (await boardGeometry(page)).rows], [5, 3]);

  await page.getByRole('button', { name: 'Next', exact: true }).click();
  assert.match(await page.textContent('#level-title'), /Two Boxes/);
  // Next skips the invalid level.
  await page.getByRole('button', { name: 'Next', exact: true }).click();
  assert.match(await page.textContent('#level-title'), /Last One/);
  assert.equal(await page.getByRole('button', { name: 'Next', exact: true }).isDisabled(), true);
  await page.getByRole('button', { name: 'Previous' }).click();
  assert.match(await page.textContent('#level-title'), /Two Boxes/);
  // Clicking the invalid level says what is wrong and keeps the board.
  await items.nth(2).locator('button').click();
  assert.match(await statusText(page), /Level 3 cannot be played: .*0 goals/);
  assert.equal((await boardGeometry(page)).cols, 7);
  assertNoErrors(page);
  await page.context().close();
});

test('opening a collection file with the file picker shows the list; Next works', async () => {
  const page = await openPage(app);
  await page.setInputFiles('#file-input', {
    name: 'garden.sok',
    mimeType: 'text/plain',
    buffer: Buffer.from(COLLECTION),
  });
  await waitStatus(page, /collection of 4 levels/);
  assert.equal(await page.locator('#level-list li').count(), 4);
  assert.equal((await boardGeometry(page)).cols, 5);
  await page.getByRole('button', { name: 'Next', exact: true }).click();
  assert.match(await page.textContent('#level-title'), /Two Boxes/);
  const g = await boardGeometry(page);
  assert.deepEqual([g.cols, g.rows], [7, 4]);
  // The collection is still there after a reload.
  await page.reload();
  await page.waitForSelector('html[data-ready="true"]');
  assert.equal(await page.locator('#level-list li').count(), 4);
  assert.match(await page.textContent('#level-title'), /Two Boxes/);
  assertNoErrors(page);
  await page.context().close();
});

test('dropping a level file on the page opens it', async () => {
  const page = await openPage(app);
  await page.evaluate((text) => {
    const dt = new DataTransfer();
    dt.items.add(new File([text], 'garden.txt', { type: 'text/plain' }));
    const target = document.getElementById('board');
    for (const type of ['dragenter', 'dragover', 'drop']) {
      target.dispatchEvent(new DragEvent(type, { dataTransfer: dt, bubbles: true, cancelable: true }));
    }
  }, COLLECTION);
  await waitStatus(page, /collection of 4 levels/);
  assert.equal(await page.locator('#level-list li').count(), 4);
  assert.equal(await page.isVisible('#drop-hint'), false);
  assertNoErrors(page);
  await page.context().close();
});

test('a bad paste leaves the board and history as they were and says what is wrong', async () => {
  const page = await openPage(app);
  await pasteText(page, ROOM);
  await press(page, 'ArrowUp', 'ArrowLeft');
  await waitCounters(page, 2, 0);
  const before = await view(page);
  const history = await page.evaluate(() => window.app.history());

  await pasteText(page, '#####\n#@$.#\n##Q##');
  const msg = await statusText(page);
  assert.match(msg, /unknown character 'Q' at line 3/);
  assert.equal(await page.getAttribute('#status', 'data-kind'), 'error');
  await loadLevel(page, '#####\n#@$$.#\n#####');
  assert.match(await statusText(page), /2 boxes but 1 goal/);
  await loadLevel(page, '   ');
  assert.match(await statusText(page), /empty/);

  const afterView = await view(page);
  assert.deepEqual(afterView, before);
  assert.equal(await page.evaluate(() => window.app.history()), history);
  const g = await boardGeometry(page);
  assert.deepEqual([g.cols, g.rows], [7, 5]);
  assertNoErrors(page);
  await page.context().close();
});
