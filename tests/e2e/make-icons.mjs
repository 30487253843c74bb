// Renders www/icons/icon.svg in headless Chromium as the PNG icons of the web app
// manifest (192 and 512 pixels; a maskable one with a safe margin). Run by hand after
// changing the SVG: node tests/e2e/make-icons.mjs
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, ROOT } from './helpers.mjs';

const svg = await readFile(join(ROOT, 'www', 'icons', 'icon.svg'), 'utf8');
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
const page = await browser.newPage({ deviceScaleFactor: 1 });
for (const [size, name, pad, bg] of [[192, 'icon-192.png', 0, 'transparent'], [512, 'icon-512.png', 0, 'transparent'], [512, 'maskable-512.png', 0.1, '#2b303b']]) {
  await page.setViewportSize({ width: size, height: size });
  const inner = Math.round(size * (1 - 2 * pad));
  await page.setContent(`<body style="margin:0;background:${bg};display:grid;place-items:center;width:${size}px;height:${size}px">
    <div style="width:${inner}px;height:${inner}px">${svg.replace('<svg ', `<svg width="${inner}" height="${inner}" `)}</div></body>`);
  await page.screenshot({ path: join(ROOT, 'www', 'icons', name), omitBackground: bg === 'transparent' });
}
await browser.close();
