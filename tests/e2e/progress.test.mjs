// Progress that lasts: solved marks and best solutions per level (keyed by the level, not
// by how it was written), the level list's marks, Next unsolved, replaying and copying a
// saved solution, snapshots, and export / import (a round trip into a fresh profile; a
// damaged or foreign file is refused and changes nothing). Saves progress*.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  OUTPUT, assertNoErrors, counters, openCard, openPage, pasteText, press, settle, shot, playing, useApp, statusText,
  view, waitCounters, waitStatus,
} from './helpers.mjs';
import { COLLECTION, ROOM } from './levels.mjs';

const app = useApp();
const button = (page, name) => page.getByRole('button', { name, exact: true });
const saved = (page) => page.evaluate(() => localStorage.getItem('sokoban.saved'));

/** Solve ROOM by keys: 14 moves, 4 pushes (with `detour` extra moves first: l then r). */
async function solveRoom(page, detour = 0) {
  for (let i = 0; i < detour; i++) await press(page, 'ArrowRight', 'ArrowLeft');
  await press(page, ...'ullddrRurruLLL'.split('').map((c) => ({ u: 'ArrowUp', d: 'ArrowDown', l: 'ArrowLeft', r: 'ArrowRight' })[c.toLowerCase()]));
  await waitStatus(page, /Solved in/);
}

test('a solved level keeps its mark and best solutions across a reload and another format', async () => {
  const page = await playing(app, ROOM);
  assert.equal(await page.textContent('#pg-state'), 'Not solved yet.');
  await solveRoom(page, 1);
  assert.match(await page.textContent('#pg-state'), /Solved/);
  assert.match(await page.textContent('#pg-best'), /Fewest moves and pushes: 16 moves, 4 pushes/);
  // A better solution replaces it, and says so.
  await press(page, 'r');
  await solveRoom(page);
  assert.match(await statusText(page), /A new best \(fewest moves and pushes\)/);
  assert.match(await page.textContent('#pg-best'), /14 moves, 4 pushes/);
  await page.reload();
  await page.waitForSelector('html[data-ready="true"]');
  assert.match(await page.textContent('#pg-best'), /Fewest moves and pushes: 14 moves, 4 pushes/);
  // The same level as a SokoPlayer link, with a margin: the same record.
  await pasteText(page, 'http://sokoban.ws/sokoplayer/?w=7&h=5&lvl=HHHHHHH|H.__$_H|H_Ha__H|H__$._H|HHHHHHH');
  await waitStatus(page, /Loaded/);
  assert.equal((await view(page)).moves, 14, 'its move history too');
  assert.match(await page.textContent('#pg-best'), /14 moves, 4 pushes/);
  // Replay the saved solution from the start; copy it.
  await press(page, 'Home', 'ArrowUp');
  await openCard(page, 'Progress');
  await page.locator('#pg-best li').getByRole('button', { name: 'Replay' }).click();
  await button(page, 'Skip to end').click();
  await settle(page);
  assert.deepEqual(await counters(page), { moves: 14, pushes: 4 });
  assert.equal((await view(page)).solved, true);
  await page.locator('#pg-best li').getByRole('button', { name: 'Copy' }).click();
  assert.equal(await page.inputValue('#output'), 'ullddrRurruLLL');
  // The restart before the replay is undoable: the move made before comes back.
  await button(page, 'Close').click();
  await press(page, 'Home', 'z');
  assert.deepEqual(await counters(page), { moves: 1, pushes: 0 });
  assertNoErrors(page);
  await page.context().close();
});

test('the level list marks solved levels with their best scores; Next unsolved skips them', async () => {
  const page = await openPage(app);
  await pasteText(page, COLLECTION);
  await waitStatus(page, /collection of 4 levels/);
  await press(page, 'ArrowRight'); // Small Step: R
  await waitStatus(page, /Solved in 1 moves/);
  assert.match(await statusText(page), /Next unsolved/);
  const items = page.locator('#level-list li button');
  assert.match(await items.nth(0).getAttribute('class'), /done/);
  assert.match(await items.nth(0).textContent(), /1\/1/);
  await button(page, 'Next unsolved').click();
  assert.match(await page.textContent('#level-pos'), /2 \/ 4/);
  await pasteText(page, 'uLrR');
  await button(page, 'Skip to end').click();
  await waitStatus(page, /Solved in 4 moves/);
  // Back to the first, then Next unsolved skips the two solved and the broken level.
  await items.nth(0).click();
  await button(page, 'Next unsolved').click();
  assert.match(await page.textContent('#level-pos'), /4 \/ 4/);
  await pasteText(page, 'LdR');
  await button(page, 'Skip to end').click();
  await waitStatus(page, /Solved in 3 moves/);
  assert.equal(await button(page, 'Next unsolved').isDisabled(), true);
  await page.reload();
  await page.waitForSelector('html[data-ready="true"]');
  assert.equal(await page.locator('#level-list .done').count(), 3);
  await shot(page, 'progress-list.png');
  assertNoErrors(page);
  await page.context().close();
});

test('snapshots: save, restore (undoable), delete, kept across a reload', async () => {
  const page = await playing(app, ROOM);
  await press(page, 'ArrowUp', 'ArrowLeft', 'ArrowLeft');
  await openCard(page, 'Progress');
  await page.fill('#snap-name', 'corner');
  await button(page, 'Save snapshot').click();
  assert.match(await statusText(page), /Saved the snapshot “corner” \(3 moves, 0 pushes\)/);
  await press(page, 'ArrowDown', 'ArrowDown', 'ArrowRight', 'ArrowRight');
  await button(page, 'Save snapshot').click(); // no name: one is made up
  assert.match(await statusText(page), /“Snapshot 2” \(7 moves, 1 push\)/);
  await page.reload();
  await page.waitForSelector('html[data-ready="true"]');
  assert.equal(await page.locator('#snap-list li').count(), 2);
  await press(page, 'ArrowUp');
  await page.locator('#snap-list li[data-name="corner"]').getByRole('button', { name: 'Restore' }).click();
  assert.deepEqual(await counters(page), { moves: 3, pushes: 0 });
  assert.equal(await page.evaluate(() => window.app.history()), 'ull');
  assert.match(await statusText(page), /Undo twice/);
  await press(page, 'z', 'z');
  assert.deepEqual(await counters(page), { moves: 8, pushes: 1 });
  await shot(page, 'progress-snapshots.png');
  await page.locator('#snap-list li[data-name="corner"]').getByRole('button', { name: 'Delete' }).click();
  assert.equal(await page.locator('#snap-list li').count(), 1);
  await page.reload();
  await page.waitForSelector('html[data-ready="true"]');
  assert.equal(await page.locator('#snap-list li').count(), 1);
  assertNoErrors(page);
  await page.context().close();
});

/** Export from `page` and return the file's text. */
async function exportFile(page) {
  await openCard(page, 'Progress');
  const [download] = await Promise.all([page.waitForEvent('download'), button(page, 'Export progress').click()]);
  assert.match(download.suggestedFilename(), /^sokoban-progress-\d{4}-\d\d-\d\d\.json$/);
  const path = join(OUTPUT, 'export.json');
  await download.saveAs(path);
  return readFile(path, 'utf8');
}

async function importFile(page, name, text) {
  await page.setInputFiles('#import-file', { name, mimeType: 'application/json', buffer: Buffer.from(text) });
}

test('export, then import into a fresh profile: everything comes back', async () => {
  const page = await playing(app, ROOM);
  await solveRoom(page);
  await press(page, 'Home', 'ArrowUp');
  await openCard(page, 'Progress');
  await page.fill('#snap-name', 'one step');
  await button(page, 'Save snapshot').click();
  const text = await exportFile(page);
  const file = JSON.parse(text);
  assert.equal(file.app, 'sokoban-player');
  assert.equal(Object.keys(file.levels).length, 1);

  const fresh = await openPage(app); // a new context: empty storage
  await pasteText(fresh, ROOM);
  await waitStatus(fresh, /Loaded/);
  assert.equal(await fresh.textContent('#pg-state'), 'Not solved yet.');
  await importFile(fresh, 'progress.json', text);
  await waitStatus(fresh, /Imported progress.json: 1 level \(1 solved, 1 new here\), 1 snapshot/);
  assert.match(await fresh.textContent('#pg-best'), /14 moves, 4 pushes/);
  assert.equal(await fresh.locator('#snap-list li[data-name="one step"]').count(), 1);
  // Importing the same file again adds nothing twice.
  await importFile(fresh, 'progress.json', text);
  await waitStatus(fresh, /1 level \(1 solved, 0 new here\), 0 snapshots/);
  assert.equal(await fresh.locator('#snap-list li').count(), 1);
  await fresh.reload();
  await fresh.waitForSelector('html[data-ready="true"]');
  assert.match(await fresh.textContent('#pg-best'), /14 moves, 4 pushes/);
  assertNoErrors(page);
  assertNoErrors(fresh);
  await page.context().close();
  await fresh.context().close();
});

test('a damaged or foreign file is refused with a clear message and changes nothing', async () => {
  const page = await playing(app, ROOM);
  await solveRoom(page);
  const good = JSON.parse(await exportFile(page));
  const before = await saved(page);
  const key = Object.keys(good.levels)[0];
  const tampered = (fn) => {
    const f = structuredClone(good);
    fn(f, f.levels[key]);
    return JSON.stringify(f);
  };
  const cases = [
    ['truncated.json', JSON.stringify(good).slice(0, 60), /damaged: it is not valid JSON/],
    ['other.json', JSON.stringify({ name: 'something else', levels: [] }), /not a Sokoban progress file/],
    ['newer.json', tampered((f) => (f.version = 99)), /newer version/],
    ['cheat.json', tampered((f, r) => (r.bestMoves.moves = 10)), /has 14 moves and 4 pushes, not the 10 and 4/],
    ['wrong.json', tampered((f, r) => (r.bestPushes.lurd = 'ullddrR')), /does not solve the level.*not a solution/],
    ['key.json', tampered((f, r) => (r.xsb = r.xsb.replace('@ ', ' @'))), /does not match its key/],
    ['snap.json', tampered((f, r) => r.snapshots.push({ name: 'x', line: 'rrrrrr' })), /snapshot “x”.*does not replay/],
  ];
  for (const [name, text, re] of cases) {
    await importFile(page, name, text);
    await waitStatus(page, /Nothing was imported/);
    const msg = await statusText(page);
    assert.match(msg, re, name);
    assert.match(msg, new RegExp(name.replace('.', '\\.')));
    assert.equal(await saved(page), before, `${name} changed nothing`);
  }
  await writeFile(join(OUTPUT, 'refused.txt'), await statusText(page));
  assert.match(await page.textContent('#pg-best'), /14 moves, 4 pushes/);
  assertNoErrors(page);
  await page.context().close();
});

test('the Progress card on a phone', async () => {
  const page = await openPage(app, app.base, { viewport: { width: 390, height: 844 } });
  await pasteText(page, ROOM);
  await waitStatus(page, /Loaded/);
  await solveRoom(page);
  await press(page, 'Home', 'ArrowUp');
  await openCard(page, 'Progress');
  await button(page, 'Save snapshot').click();
  await page.locator('#progress-card').scrollIntoViewIfNeeded();
  await page.locator('#progress-card').screenshot({ path: join(OUTPUT, 'progress-phone.png') });
  const box = await page.locator('#progress-card').boundingBox();
  assert.ok(box.width <= 390, 'fits the phone');
  assertNoErrors(page);
  await page.context().close();
});
