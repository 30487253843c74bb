// Korf's 100 in the browser: headless Chromium (Debian's, through playwright-core) opens
// the page and sends every instance to the page's solver worker through solver-client.js,
// one after another, as the Solve button does; wall-clock time per instance as the page
// sees it (worker messages and slices included), the first one building the databases.
//
//   ./build.sh build && node bench/puzzle-browser.mjs ../shared/puzzles/korf-100.csv [--first N]
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, startApp, openPage } from '../tests/e2e/helpers.mjs';

const args = process.argv.slice(2);
const file = args.find((a, i) => !a.startsWith('--') && !args[i - 1]?.startsWith('--')) ?? join(ROOT, '..', 'shared', 'puzzles', 'korf-100.csv');
const first = args.includes('--first') ? Number(args[args.indexOf('--first') + 1]) : 1000;
const lines = readFileSync(file, 'utf8').split('\n').filter((l) => l.trim());
const h = lines[0].split(',');
const rows = lines.slice(1, 1 + first).map((l) => Object.fromEntries(l.split(',').map((v, i) => [h[i], v])));

const app = await startApp();
try {
  const page = await openPage(app);
  const out = await page.evaluate(async (instances) => {
    const { SolverClient } = await import('./js/solver-client.js');
    const client = new SolverClient();
    const results = [];
    const t0 = performance.now();
    for (const r of instances) {
      const t = performance.now();
      const m = await client.solve({ puzzle: { tiles: r.tiles, goal: 'blank-first' }, options: {} });
      results.push({ id: r.id, type: m.type, length: m.length, want: Number(r.optimal_moves), nodes: m.nodes, ms: performance.now() - t, buildMs: m.dbCached < m.dbTables ? m.dbBuildMs : 0 });
    }
    return { results, total: performance.now() - t0 };
  }, rows);
  const r = out.results;
  const ok = r.filter((x) => x.type === 'solved' && x.length === x.want).length;
  const ms = r.map((x) => x.ms).sort((a, b) => a - b);
  console.log('id,status,moves,nodes,ms');
  for (const x of r) console.log(`${x.id},${x.type},${x.length ?? ''},${x.nodes},${x.ms.toFixed(1)}`);
  console.error(`${ok} of ${r.length} optimal in ${(out.total / 1000).toFixed(2)} s in all (Chromium, page worker; database build ${(r[0].buildMs / 1000).toFixed(2)} s within the first), median ${ms[ms.length >> 1].toFixed(1)} ms per instance`);
  await page.context().close();
} finally {
  await app.close();
}
