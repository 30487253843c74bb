// Installable and offline: the manifest and service worker make the page installable
// (Chromium reports no installability errors), the service worker keeps every file of
// the app, and after one visit the page opens, plays and solves with the server gone and
// the browser offline. Saves offline.png and offline-phone.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { startServer } from '../serve.mjs';
import {
  CHROMIUM_ARGS, ROOT, assertNoErrors, counters, pasteText, press, shot, waitStatus,
} from './helpers.mjs';
import { ROOM } from './levels.mjs';

test('the service worker lists every file of the app', async () => {
  const sw = await readFile(join(ROOT, 'www', 'sw.js'), 'utf8');
  const listed = new Set([...sw.matchAll(/^\s+'([^']+)',$/gm)].map((m) => m[1]));
  for (const dir of ['js', 'pkg', 'icons']) {
    for (const f of await readdir(join(ROOT, 'www', dir))) {
      if (/\.(js|wasm|png|svg)$/.test(f)) assert.ok(listed.has(`${dir}/${f}`), `sw.js lists ${dir}/${f}`);
    }
  }
  for (const f of ['./', 'index.html', 'style.css', 'manifest.webmanifest']) assert.ok(listed.has(f), f);
});

for (const [name, viewport] of [['desktop', { width: 1280, height: 800 }], ['phone', { width: 390, height: 844 }]]) {
  test(`installable; after one visit it opens, plays and solves offline (${name})`, async () => {
    const server = await startServer(join(ROOT, 'www'), 0);
    const base = `http://127.0.0.1:${server.address().port}/`;
    // A persistent profile: Chromium offers no install in an incognito context.
    const profile = await mkdtemp(join(tmpdir(), 'sokoban-offline-'));
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: CHROMIUM_ARGS, viewport, deviceScaleFactor: 1,
    });
    try {
      const page = await context.newPage();
      page.errors = [];
      page.on('pageerror', (e) => page.errors.push(String(e)));
      await page.goto(base);
      await page.waitForSelector('html[data-ready="true"]');
      await page.waitForSelector('html[data-offline="ready"]');
      assert.equal(await page.isVisible('#offline-state'), true);
      // Chromium's own verdict on installability (manifest, icons, service worker).
      const cdp = await context.newCDPSession(page);
      const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
      assert.deepEqual(installabilityErrors, []);
      const manifest = await page.evaluate(async () => (await fetch('manifest.webmanifest')).json());
      assert.equal(manifest.display, 'standalone');

      // The network goes away: the server stops and the browser is offline.
      await new Promise((ok) => server.close(ok));
      server.closeAllConnections?.();
      await context.setOffline(true);
      await assert.rejects(fetch(base), 'the server is gone');
      await page.reload();
      await page.waitForSelector('html[data-ready="true"]');
      await pasteText(page, ROOM);
      await waitStatus(page, /Loaded/);
      await press(page, 'ArrowUp', 'ArrowLeft');
      assert.deepEqual(await counters(page), { moves: 2, pushes: 0 });
      // The solver's worker and the wasm come from the cache too.
      await page.getByRole('button', { name: 'Solve', exact: true }).click();
      await page.waitForFunction(() => document.querySelector('#s-state').textContent.startsWith('Solved'), null, { timeout: 30000 });
      await page.waitForFunction(() => window.app.view().solved, null, { timeout: 30000 });
      // A link with a level in its address opens offline as well.
      const other = await context.newPage();
      await other.goto(`${base}?w=7&h=5&lvl=HHHHHHH|H.__$_H|H_Ha__H|H__$._H|HHHHHHH`);
      await other.waitForSelector('html[data-ready="true"]');
      assert.match(await other.textContent('#status'), /Opened the level from the link/);
      await shot(page, `offline-${name}.png`);
      assertNoErrors(page);
    } finally {
      await context.close();
      server.close();
      await rm(profile, { recursive: true, force: true });
    }
  });
}
