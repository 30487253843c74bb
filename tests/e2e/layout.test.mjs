// The page at first sight (issue 36): at laptop, desktop, tablet and phone sizes the board,
// the counters, Undo / Redo / Restart, Solve, Hint, Cancel, the solver's state line, Paste
// a level and Open file are inside the viewport without scrolling, on the first visit and
// after loading a tall, a wide and a big level; a running search's read-out is in view; the
// side cards are tabs that remember the open one; on a phone the action bar is at the
// bottom, Paste a level and Open file take one tap and Menu opens the other cards. Saves
// layout-<width>x<height>.png and layout-solving-<width>x<height>.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import {
  OUTPUT, assertNoErrors, counters, openCard, openPage, pasteText, press, shot, useApp, view, waitStatus,
} from './helpers.mjs';
import { BIG_OPEN, COLLECTION, ROOM, TEN_ROOMS } from './levels.mjs';

const app = useApp();
const button = (page, name) => page.getByRole('button', { name, exact: true });

const SIZES = [[1280, 720], [1366, 800], [1920, 1080], [768, 1024], [390, 844], [844, 390]];
const PHONE = { width: 390, height: 844 };
const isPhone = (w) => w <= 820; // style.css's narrow layout: the action bar at the bottom

const TALL = ['#####', ...Array.from({ length: 38 }, (_, i) => (i === 1 ? '#@$.#' : '#   #')), '#####'].join('\n');
const WIDE = `${'#'.repeat(60)}\n#@${' '.repeat(10)}$ .${' '.repeat(45)}#\n${'#'.repeat(60)}`;

/** A page of its own at `w`×`h` (a touch phone when narrow), with the built-in level. */
async function pageAt(w, h, extra = {}) {
  const touch = Math.min(w, h) < 500;
  const context = await app.browser.newContext({
    viewport: { width: w, height: h }, deviceScaleFactor: 1, isMobile: touch, hasTouch: touch, serviceWorkers: 'block', ...extra,
  });
  return openPage(app, app.base, { context });
}

/** The ids among `ids` whose element is not wholly inside the viewport (or not shown). */
const outside = (page, ids) => page.evaluate((list) => list.filter((id) => {
  const e = document.getElementById(id);
  const r = e.getBoundingClientRect();
  const shown = r.width > 0 && r.height > 0 && getComputedStyle(e).visibility !== 'hidden';
  return !shown || r.left < -0.5 || r.top < -0.5 || r.right > innerWidth + 0.5 || r.bottom > innerHeight + 0.5;
}), ids);

/** Whether the elements `a` and `b` overlap on the page. */
const overlap = (page, a, b) => page.evaluate(([x, y]) => {
  const p = document.getElementById(x).getBoundingClientRect();
  const q = document.getElementById(y).getBoundingClientRect();
  return p.left < q.right && q.left < p.right && p.top < q.bottom && q.top < p.bottom;
}, [a, b]);

const MAIN = ['board', 'moves', 'pushes', 'goals', 'undo', 'redo', 'restart', 'solve', 'hint', 's-state', 'paste-level', 'open-file'];

for (const [w, h] of SIZES) {
  test(`${w}×${h}: the main controls are in view on the first visit and after loading any level`, async () => {
    const page = await pageAt(w, h);
    // On a phone Cancel shows in the bar while a search runs (below); Menu holds the rest.
    const want = isPhone(w) ? [...MAIN, 'menu-toggle'] : [...MAIN, 'cancel', 'tab-levels', 'tab-progress'];
    assert.deepEqual(await outside(page, want), [], 'first visit');
    assert.equal(await page.evaluate(() => scrollY), 0);
    await shot(page, `layout-${w}x${h}.png`);
    for (const [name, level] of [['tall', TALL], ['wide', WIDE], ['big', BIG_OPEN], ['collection', COLLECTION]]) {
      await pasteText(page, level);
      await waitStatus(page, /Loaded|Opened a collection/);
      assert.deepEqual(await outside(page, want), [], `after the ${name} level`);
      // The board is not under the controls (the phone's bar sits below it).
      for (const id of ['undo', 'solve', 's-state']) assert.equal(await overlap(page, 'board', id), false, `${id} over the board (${name})`);
    }
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth - innerWidth), 0, 'nothing sticks out sideways');
    assertNoErrors(page);
    await page.context().close();
  });
}

for (const [w, h] of SIZES) {
  test(`${w}×${h}: a running search's read-out is in view, with Cancel`, async () => {
    const page = await pageAt(w, h);
    await pasteText(page, TEN_ROOMS);
    await waitStatus(page, /Loaded/);
    await button(page, 'Solve').click();
    await page.waitForFunction(() => Number(document.querySelector('#solver-stats').dataset.progress) >= 3, null, { timeout: 20000 });
    assert.match(await page.textContent('#s-state'), /Solving/);
    assert.deepEqual(await outside(page, ['board', 's-state', 's-packed', 's-positions', 's-strategy', 's-memory', 's-chart', 'cancel']), []);
    await shot(page, `layout-solving-${w}x${h}.png`);
    await button(page, 'Cancel').click();
    await page.waitForFunction(() => /Cancelled/.test(document.querySelector('#s-state').textContent), null, { timeout: 5000 });
    assert.deepEqual(await outside(page, ['solve', 'hint']), [], 'Solve and Hint are back');
    assertNoErrors(page);
    await page.context().close();
  });
}

test('Fewest pushes: the IDA*\'s read-out and the fast search alongside are in view at 1280×720', async () => {
  const page = await pageAt(1280, 720);
  await pasteText(page, TEN_ROOMS);
  await waitStatus(page, /Loaded/);
  await page.getByRole('radio', { name: 'Fewest pushes', exact: true }).check();
  await button(page, 'Solve').click();
  await page.waitForFunction(() => Number(document.querySelector('#solver-stats').dataset.progress) >= 2, null, { timeout: 20000 });
  const ids = ['s-state', 's-threshold', 's-nodes', 's-table', 's-chart', 'cancel'];
  if (await page.evaluate(() => navigator.hardwareConcurrency > 1)) ids.push('s-first');
  assert.deepEqual(await outside(page, ids), []);
  await button(page, 'Cancel').click();
  assertNoErrors(page);
  await page.context().close();
});

test('the side cards are tabs: one shown, the open one kept across a reload, arrows by keyboard only', async () => {
  const page = await pageAt(1280, 720);
  const shown = () => page.$$eval('#side [role="tabpanel"]', (l) => l.filter((p) => !p.hidden).map((p) => p.id));
  assert.deepEqual(await shown(), ['card-levels'], 'Levels first');
  await openCard(page, 'Progress');
  assert.deepEqual(await shown(), ['progress-card']);
  assert.equal(await page.getAttribute('#tab-progress', 'aria-selected'), 'true');
  assert.deepEqual(await outside(page, ['snap-save', 'export-progress']), []);
  // A clicked tab keeps the focus, and the arrows still play.
  await pasteText(page, ROOM);
  await waitStatus(page, /Loaded/);
  await page.click('#tab-share');
  await press(page, 'ArrowUp');
  assert.deepEqual(await counters(page), { moves: 1, pushes: 0 });
  assert.deepEqual(await shown(), ['card-share']);
  await page.reload();
  await page.waitForSelector('html[data-ready="true"]');
  assert.deepEqual(await shown(), ['card-share'], 'remembered');
  // Reached by the keyboard, the arrows go from tab to tab (and the player stays).
  await page.focus('#undo');
  for (let i = 0; i < 16 && (await page.evaluate(() => document.activeElement.id)) !== 'tab-share'; i++) await press(page, 'Tab');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'tab-share');
  await press(page, 'ArrowRight');
  assert.deepEqual(await shown(), ['card-help']);
  await press(page, 'Home');
  assert.deepEqual(await shown(), ['card-levels']);
  assert.equal(await page.evaluate(() => document.activeElement.id), 'tab-levels');
  assert.deepEqual(await counters(page), { moves: 1, pushes: 0 });
  // A stored tab that is not one of ours falls back to Levels.
  await page.evaluate(() => localStorage.setItem('sokoban.tab', '{"broken'));
  await page.reload();
  await page.waitForSelector('html[data-ready="true"]');
  assert.deepEqual(await shown(), ['card-levels']);
  assertNoErrors(page);
  await page.context().close();
});

test('phone: the bar is at the bottom, Menu opens the cards over the board, Esc and a level close them', async () => {
  const page = await pageAt(PHONE.width, PHONE.height);
  const bar = await page.locator('#actions').boundingBox();
  assert.ok(bar.y + bar.height >= PHONE.height - 1 && bar.y > PHONE.height - 90, `the bar at the bottom: ${JSON.stringify(bar)}`);
  const board = await page.locator('#board').boundingBox();
  assert.ok(board.y + board.height <= bar.y, 'the board above the bar');
  assert.equal(await page.isVisible('#side'), false);
  await button(page, 'Menu').click();
  assert.equal(await page.getAttribute('#menu-toggle', 'aria-expanded'), 'true');
  assert.deepEqual(await outside(page, ['side', 'tab-levels', 'tab-help', 'next']), []);
  assert.equal(await page.evaluate(() => document.activeElement.id), 'tab-levels', 'the focus goes into the sheet');
  await shot(page, 'layout-phone-menu.png');
  await press(page, 'Escape');
  assert.equal(await page.isVisible('#side'), false);
  assert.equal(await page.evaluate(() => document.activeElement.id), 'menu-toggle');
  // Picking a level closes the sheet: the board is what is wanted then.
  await button(page, 'Menu').click();
  await button(page, 'Next').click();
  await waitStatus(page, /Level 2/);
  assert.equal(await page.isVisible('#side'), false);
  assert.equal(await page.getAttribute('#menu-toggle', 'aria-expanded'), 'false');
  // While a search runs, Cancel takes the place of Solve and Hint in the bar.
  await pasteText(page, TEN_ROOMS);
  await button(page, 'Solve').click();
  await page.waitForFunction(() => document.body.classList.contains('solving'));
  assert.equal(await page.isVisible('#solve'), false);
  assert.deepEqual(await outside(page, ['cancel', 'undo', 'menu-toggle']), []);
  await button(page, 'Cancel').click();
  await page.waitForFunction(() => !document.body.classList.contains('solving'));
  assert.equal(await page.isVisible('#cancel'), false);
  assertNoErrors(page);
  await page.context().close();
});

test('Paste a level: one tap reads the clipboard where the page may', async () => {
  const page = await pageAt(PHONE.width, PHONE.height);
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(app.base).origin });
  await page.evaluate((t) => navigator.clipboard.writeText(t), ROOM);
  await button(page, 'Paste a level').click();
  await waitStatus(page, /Loaded a 7×5 level with 2 boxes/);
  assert.equal((await view(page)).width, 7);
  assertNoErrors(page);
  await page.context().close();
});

test('Paste a level where the clipboard cannot be read: the Level box, focused, with its message', async () => {
  const page = await pageAt(PHONE.width, PHONE.height);
  await page.evaluate(() => Object.defineProperty(navigator, 'clipboard', { value: undefined }));
  await button(page, 'Paste a level').click();
  await page.waitForFunction(() => document.activeElement.id === 'level-text');
  assert.deepEqual(await outside(page, ['level-text', 'paste-note', 'load']), []);
  assert.match(await page.textContent('#paste-note'), /may not read the clipboard.*Paste the level into this box/);
  await shot(page, 'layout-phone-paste.png');
  await page.fill('#level-text', ROOM);
  await button(page, 'Load').click();
  await waitStatus(page, /Loaded a 7×5 level/);
  assert.equal(await page.isVisible('#side'), false, 'the sheet closes on the new level');
  assert.doesNotMatch(await page.textContent('#paste-note'), /may not read/);
  // Text that is no level: said beside the box, and the board stays.
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(app.base).origin });
  const ctx = page.context();
  const other = await openPage(app, app.base, { context: ctx });
  await pasteText(other, ROOM);
  await other.evaluate(() => navigator.clipboard.writeText('#####\n#@$Q#\n#####'));
  await button(other, 'Paste a level').click();
  await other.waitForFunction(() => document.activeElement.id === 'level-text');
  assert.match(await other.textContent('#paste-note'), /unknown character 'Q'/);
  assert.equal((await view(other)).width, 7, 'the level on the board stays');
  assertNoErrors(page);
  assertNoErrors(other);
  await ctx.close();
});

test('Open file is one tap on a phone', async () => {
  const page = await pageAt(PHONE.width, PHONE.height);
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), button(page, 'Open file…').click()]);
  await chooser.setFiles({ name: 'room.xsb', mimeType: 'text/plain', buffer: Buffer.from(ROOM) });
  await waitStatus(page, /Loaded a 7×5 level/);
  assertNoErrors(page);
  await page.context().close();
});

test('phone, high contrast: the bar and the sheet keep the theme', async () => {
  const page = await pageAt(PHONE.width, PHONE.height);
  await button(page, 'Contrast').click();
  await button(page, 'Menu').click();
  const bg = (sel) => page.$eval(sel, (e) => getComputedStyle(e).backgroundColor);
  assert.equal(await bg('#actions'), 'rgb(255, 255, 255)');
  assert.equal(await bg('#side'), 'rgb(255, 255, 255)');
  await page.screenshot({ path: join(OUTPUT, 'layout-phone-contrast.png') });
  assertNoErrors(page);
  await page.context().close();
});
