// The level generator: a fixed seed gives the same level twice (from the form and from a
// ?gen= link), the level is proved solvable (its solution replays to solved on the board)
// and shows its difficulty; a request with more boxes than fit is refused with a clear
// message and changes nothing; Stop cancels a long generation. Saves generator.png and
// generator-phone.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assertNoErrors, openCard, openPage, settle, shot, useApp, view } from './helpers.mjs';

const app = useApp();
const button = (page, name) => page.getByRole('button', { name, exact: true });
const xsb = (page) => page.evaluate(() => window.app.levelXsb());

async function generate(page, w, h, boxes, seed) {
  await openCard(page, 'Generate');
  await page.fill('#gen-w', String(w));
  await page.fill('#gen-h', String(h));
  await page.fill('#gen-boxes', String(boxes));
  await page.fill('#gen-seed', String(seed));
  await button(page, 'Generate').click();
  await page.waitForFunction(() => !document.getElementById('gen-go').disabled, null, { timeout: 60000 });
  return page.textContent('#gen-state');
}

test('a fixed seed gives the same level twice, with its difficulty, and it is solved', async () => {
  const page = await openPage(app);
  const text = await generate(page, 10, 10, 4, 12345);
  assert.match(text, /Difficulty: \d+ pushes \(the fewest possible\), \d+ moves/);
  assert.match(await page.textContent('#level-title'), /Generated 10x10-4-12345/);
  const first = await xsb(page);
  const v = await view(page);
  assert.equal(v.width, 10);
  assert.equal(v.height, 10);
  assert.equal(v.boxes.filter(Boolean).length, 4);
  assert.equal(v.solved, false);
  const pushes = Number(await page.getAttribute('#gen-state', 'data-pushes'));
  // Another level in between, then the same seed again.
  await generate(page, 10, 10, 4, 999);
  assert.notEqual(await xsb(page), first);
  await generate(page, 10, 10, 4, 12345);
  assert.equal(await xsb(page), first);
  // The shown solution replays to solved, with the pushes the difficulty says.
  await button(page, 'Replay its solution').click();
  await button(page, 'Skip to end').click();
  await settle(page);
  const end = await view(page);
  assert.equal(end.solved, true);
  assert.equal(end.pushes, pushes);
  assertNoErrors(page);
  await page.context().close();
});

test('a ?gen= link reproduces the level; a phone sees the card', async () => {
  const desk = await openPage(app);
  await generate(desk, 10, 10, 4, 777);
  const want = await xsb(desk);
  await shot(desk, 'generator.png');
  await desk.context().close();
  const page = await openPage(app, `${app.base}?gen=10x10-4-777`, { viewport: { width: 390, height: 844 } });
  await page.waitForFunction(() => /Difficulty/.test(document.getElementById('gen-state').textContent), null, { timeout: 60000 });
  assert.equal(await xsb(page), want);
  // The link is not kept in the address: a reload opens the saved level, no new generation.
  assert.equal(new URL(page.url()).search, '');
  await openCard(page, 'Generate');
  await page.locator('#gen-card').scrollIntoViewIfNeeded();
  await shot(page, 'generator-phone.png');
  assertNoErrors(page);
  await page.context().close();
});

test('more boxes than fit: a clear message, and nothing changes', async () => {
  const page = await openPage(app);
  const before = await xsb(page);
  const text = await generate(page, 10, 10, 99, 1);
  assert.match(text, /99 boxes do not fit a 10×10 level: at most 10\. The level on the board is unchanged\./);
  assert.equal(await page.getAttribute('#gen-state', 'data-kind'), 'error');
  assert.equal(await xsb(page), before);
  const small = await generate(page, 3, 10, 1, 1);
  assert.match(small, /width must be from 5 to 30/);
  assert.equal(await xsb(page), before);
  assertNoErrors(page);
  await page.context().close();
});

test('a long generation shows progress and Stop cancels it, the board unchanged', async () => {
  const page = await openPage(app);
  const before = await xsb(page);
  await openCard(page, 'Generate');
  await page.fill('#gen-w', '30');
  await page.fill('#gen-h', '30');
  await page.fill('#gen-boxes', '20');
  await page.fill('#gen-seed', '1');
  await button(page, 'Generate').click();
  await page.waitForFunction(() => /candidates proved solvable/.test(document.getElementById('gen-state').textContent), null, { timeout: 30000 });
  // The page answers while the worker generates.
  assert.equal(await page.evaluate(() => 1 + 1), 2);
  await button(page, 'Stop').click();
  await page.waitForFunction(() => !document.getElementById('gen-go').disabled, null, { timeout: 10000 });
  assert.match(await page.textContent('#gen-state'), /Cancelled; the level on the board is unchanged/);
  assert.equal(await xsb(page), before);
  assertNoErrors(page);
  await page.context().close();
});
