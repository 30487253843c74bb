// Shared helpers of the end-to-end tests: serve www/, launch Debian's headless Chromium
// through playwright-core, open the page, and map board squares to page pixels with the
// canvas's data-* hooks.
import { after, before } from 'node:test';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { startServer } from '../serve.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
export const ROOT = join(HERE, '..', '..');
export const OUTPUT = join(ROOT, 'tests', 'output');
mkdirSync(OUTPUT, { recursive: true });

export const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--disable-quic',
];

/** Start the static server and the browser; `close()` stops both. */
export async function startApp() {
  const server = await startServer(join(ROOT, 'www'), 0);
  const base = `http://127.0.0.1:${server.address().port}/`;
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
  });
  return {
    base,
    browser,
    async close() {
      await browser.close();
      await new Promise((ok) => server.close(ok));
    },
  };
}

/**
 * Start the app before the calling file's tests and stop it after them. Returns the app
 * object, filled in (base, browser, close) once the `before` hook has run.
 */
export function useApp() {
  const app = {};
  before(async () => {
    Object.assign(app, await startApp());
  });
  after(async () => {
    await app.close?.();
  });
  return app;
}

/** A fresh page playing `level` (pasted, and loaded). */
export async function playing(app, level, opts) {
  const page = await openPage(app, app.base, opts);
  await pasteText(page, level);
  await waitStatus(page, /Loaded/);
  return page;
}

/**
 * A fresh page (its own storage) at `url`, waiting until the game has started. Page
 * errors fail the test through `page.errors`. Service workers are blocked (page.route
 * does not see requests a service worker answers); offline.test.mjs tests the service
 * worker in a profile of its own.
 */
export async function openPage(app, url = app.base, { viewport = { width: 1280, height: 800 }, context } = {}) {
  const ctx = context ?? (await app.browser.newContext({ viewport, deviceScaleFactor: 1, serviceWorkers: 'block' }));
  const page = await ctx.newPage();
  page.errors = [];
  page.on('pageerror', (e) => page.errors.push(String(e)));
  page.on('console', (m) => {
    if (m.type() === 'error') page.errors.push(m.text());
  });
  await page.goto(url);
  await page.waitForSelector('html[data-ready="true"]');
  return page;
}

/** The canvas hooks: {cols, rows, cell, ox, oy, left, top} (page CSS pixels). */
export async function boardGeometry(page) {
  return page.$eval('#board', (c) => {
    const r = c.getBoundingClientRect();
    const d = c.dataset;
    return {
      cols: Number(d.cols), rows: Number(d.rows), cell: Number(d.cellSize),
      ox: Number(d.offsetX), oy: Number(d.offsetY), left: r.left, top: r.top,
    };
  });
}

/** Page coordinates of the centre of the square at (row, col). */
export async function squareCenter(page, row, col) {
  const g = await boardGeometry(page);
  return { x: g.left + g.ox + (col + 0.5) * g.cell, y: g.top + g.oy + (row + 0.5) * g.cell };
}

export async function clickSquare(page, row, col) {
  const p = await squareCenter(page, row, col);
  await page.mouse.click(p.x, p.y);
}

/** Drag the box on (r1, c1) to (r2, c2) with the mouse; `mid` runs while it is held. */
export async function dragSquare(page, [r1, c1], [r2, c2], mid = async () => {}) {
  const a = await squareCenter(page, r1, c1);
  const b = await squareCenter(page, r2, c2);
  await page.mouse.move(a.x, a.y);
  await page.mouse.down();
  await page.mouse.move((a.x + b.x) / 2, (a.y + b.y) / 2, { steps: 5 });
  await page.mouse.move(b.x, b.y, { steps: 5 });
  await mid();
  await page.mouse.up();
}

export const view = (page) => page.evaluate(() => window.app.view());

export async function counters(page) {
  const moves = Number(await page.textContent('[aria-label="moves"]'));
  const pushes = Number(await page.textContent('[aria-label="pushes"]'));
  return { moves, pushes };
}

/** Wait until walks and replays are over. */
export async function settle(page) {
  await page.waitForFunction(() => !window.app.busy(), null, { timeout: 20000 });
}

/** Wait for the counters to show exactly these numbers. */
export async function waitCounters(page, moves, pushes, timeout = 10000) {
  await page.waitForFunction(
    ([m, p]) => document.querySelector('[aria-label="moves"]').textContent === String(m)
      && document.querySelector('[aria-label="pushes"]').textContent === String(p),
    [moves, pushes],
    { timeout },
  );
}

/** Paste text onto the page (a paste event with clipboard data, as Ctrl+V would fire). */
export async function pasteText(page, text) {
  await page.evaluate((t) => {
    const dt = new DataTransfer();
    dt.setData('text/plain', t);
    document.body.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
  }, text);
}

/** Load a level through the Level text box and the Load button. */
export async function loadLevel(page, text) {
  await page.fill('#level-text', text);
  await page.getByRole('button', { name: 'Load', exact: true }).click();
}

export const statusText = (page) => page.textContent('#status');

/**
 * Show the side card behind the tab `name` (Levels, Generate, Progress, Share, Help); on a
 * phone the Menu button of the action bar opens their sheet first.
 */
export async function openCard(page, name) {
  const menu = page.locator('#menu-toggle');
  if ((await menu.isVisible()) && (await menu.getAttribute('aria-expanded')) !== 'true') await menu.click();
  await page.getByRole('tab', { name, exact: true }).click();
}

/** Wait until the status line matches `re`. */
export async function waitStatus(page, re, timeout = 5000) {
  await page.waitForFunction(
    ([src, flags]) => new RegExp(src, flags).test(document.querySelector('#status').textContent),
    [re.source, re.flags],
    { timeout },
  );
}

/** Press a key with the board focused (the body, not a text field). */
export async function press(page, ...keys) {
  for (const k of keys) await page.keyboard.press(k);
}

/**
 * Sample the centre pixel of every square from the board canvas and classify it:
 * 'box' (orange), 'boxOnGoal' (green), or 'other'. Returns counts.
 */
export async function countDrawnBoxes(page) {
  return page.$eval('#board', (c) => {
    const d = c.dataset;
    const scale = c.width / c.getBoundingClientRect().width;
    const ctx = c.getContext('2d');
    let box = 0, boxOnGoal = 0;
    for (let r = 0; r < Number(d.rows); r++) {
      for (let col = 0; col < Number(d.cols); col++) {
        // A point inside the crate but off its centre (the player or goal never reach it).
        const x = Math.round((Number(d.offsetX) + (col + 0.5) * Number(d.cellSize)) * scale);
        const y = Math.round((Number(d.offsetY) + (r + 0.5) * Number(d.cellSize)) * scale);
        const [R, G, B] = ctx.getImageData(x, y, 1, 1).data;
        if (R > 180 && G > 110 && G < 200 && B < 120) box++;
        else if (G > 140 && R < 150 && B < 170 && G > R + 30) boxOnGoal++;
      }
    }
    return { box, boxOnGoal };
  });
}

export function assertNoErrors(page) {
  if (page.errors.length) throw new Error(`page errors:\n${page.errors.join('\n')}`);
}

export const shot = (page, name) => page.screenshot({ path: join(OUTPUT, name) });
