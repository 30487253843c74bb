// Solve sliding-tile puzzles with the solver compiled to wasm (www/pkg, as the page's
// worker runs it) under Node, one after another, and print the same CSV as
// `sokoban puzzle --csv`: id,status,moves,nodes,ms,solution. The pattern databases are
// built by the first position's search (its time is reported apart, as the CLI does) and
// kept for the others, as in the page's worker.
//
//   ./build.sh build
//   node bench/puzzle-wasm.mjs ../shared/puzzles/korf-100.csv --goal blank-first [--first N]
import { readFileSync } from 'node:fs';
import { PuzzleSession, PuzzleTask, puzzleCacheBytes } from '../www/pkg/sokoban_wasm.js';
import { commandLine, loadWasm } from './cli.mjs';

loadWasm();
const { opt, file } = commandLine('node bench/puzzle-wasm.mjs FILE.csv [--goal blank-first|blank-last] [--first N] [--heuristic auto|pdb|lc|manhattan]');
const goal = opt('goal', 'blank-last');
const first = Number(opt('first', '1000000'));
const heuristic = opt('heuristic', 'auto');

const lines = readFileSync(file, 'utf8').split('\n').filter((l) => l.trim());
const header = lines[0].split(',').map((h) => h.trim());
const col = (name) => header.indexOf(name);
const rows = lines.slice(1, 1 + first).map((l) => l.split(','));

console.log('id,status,moves,nodes,ms,solution');
let solved = 0, mismatches = 0, buildMs = 0;
const times = [];
for (const r of rows) {
  const tiles = r[col('tiles')];
  const task = new PuzzleTask(tiles, 0, 0, goal, { heuristic });
  let m;
  do {
    m = task.step(1000);
  } while (m.type === 'progress');
  task.free();
  // The time of the search alone; the database build (first position) apart.
  const built = m.dbTables > 0 && m.dbCached < m.dbTables;
  if (built) buildMs += m.dbBuildMs;
  const ms = m.elapsedMs - (built ? m.dbBuildMs : 0);
  times.push(ms);
  if (m.type === 'solved') {
    const s = new PuzzleSession(tiles, 0, 0, goal);
    s.playMoves(m.solution); // throws if the solution does not replay
    if (!s.view().solved) throw new Error(`${r[col('id')]}: the solution does not reach the goal`);
    s.free();
    solved++;
    const want = col('optimal_moves') >= 0 ? Number(r[col('optimal_moves')]) : null;
    if (want !== null && want !== m.length) {
      mismatches++;
      console.error(`${r[col('id')]}: MISMATCH: ${m.length} moves, expected ${want}`);
    }
  }
  console.log(`${r[col('id')]},${m.type},${m.length ?? ''},${m.nodes},${ms.toFixed(1)},${m.solution ?? ''}`);
}
times.sort((a, b) => a - b);
const total = times.reduce((a, b) => a + b, 0);
console.error(`${solved} of ${rows.length} solved in ${(total / 1000).toFixed(2)} s of search (median ${times[times.length >> 1].toFixed(1)} ms), plus ${(buildMs / 1000).toFixed(2)} s of database build (${(puzzleCacheBytes() / 2 ** 20).toFixed(1)} MiB), ${mismatches} length mismatches (wasm)`);
