// Run the solver compiled to wasm (www/pkg, as the page's worker uses it) on a level
// collection under Node, one level after another, and print the same CSV as
// `sokoban solve --csv`. Used to measure the wasm / native time ratio.
//
//   ./build.sh build
//   node bench/wasm-solve.mjs ../shared/levels/microban-1.xsb --timeout 10 [--levels A-B]
//   node bench/wasm-solve.mjs FILE --levels 93,99,139 --warmup 99
//   node bench/wasm-solve.mjs ../shared/levels/xsokoban-90.xsb --mode fast --timeout 60
//
// --levels takes a range A-B or a comma list; --warmup N solves level N first, unreported,
// so that V8 has compiled the solver with its optimizing tier before the timed levels (the
// page's worker compiles once and keeps the module).
import { readFileSync } from 'node:fs';
import { parse, Session, SolverTask } from '../www/pkg/sokoban_wasm.js';
import { commandLine, loadWasm } from './cli.mjs';

loadWasm();
const { opt, file } = commandLine('node bench/wasm-solve.mjs FILE [--mode optimal|fast] [--timeout S] [--levels A-B|A,B,...] [--memory MIB] [--warmup N]');
const timeoutMs = Number(opt('timeout', '10')) * 1000;
const mode = opt('mode', 'optimal');
// The CLI's defaults: a 256 MiB table for the optimal search, 1024 MiB for the fast one.
const memoryMiB = Number(opt('memory', mode === 'fast' ? '1024' : '256'));
const memory = mode === 'fast' ? { memoryMiB } : { tableMiB: memoryMiB };
const spec = opt('levels', '1-999999');
const [lo, hi] = spec.split('-').map(Number);
const wanted = spec.includes(',') ? new Set(spec.split(',').map(Number)) : null;
const inRange = (n) => (wanted ? wanted.has(n) : n >= lo && n <= (hi || lo));

// Solve a level to the end; returns the session (the caller frees it) and the last message.
const solveLevel = (xsb) => {
  const s = new Session(xsb);
  const task = new SolverTask(xsb, s.player(), s.boxSquares(), { timeLimitMs: timeoutMs, mode, ...memory });
  let m;
  do {
    m = task.step(1000);
  } while (m.type === 'progress');
  task.free();
  return [s, m];
};

const coll = parse(readFileSync(file, 'utf8'));
const warmup = opt('warmup', null);
if (warmup !== null) {
  const l = coll.levels.find((x) => x.number === Number(warmup));
  if (!l?.xsb) throw new Error(`no level ${warmup} to warm up with`);
  solveLevel(l.xsb)[0].free();
}
console.log('level,status,pushes,moves,nodes,ms,lurd');
let solved = 0;
let total = 0;
let ms = 0;
for (const l of coll.levels) {
  if (!inRange(l.number)) continue;
  total++;
  if (!l.xsb) {
    console.log(`${l.number},error,,,,,`);
    continue;
  }
  const [s, m] = solveLevel(l.xsb);
  if (m.type === 'solved') {
    s.playLurd(m.lurd); // throws if the solution does not replay
    if (!s.view().solved) throw new Error(`level ${l.number}: solution does not solve`);
    solved++;
  }
  ms += m.elapsedMs;
  const st = m.type === 'cancelled' ? 'limit' : m.type;
  console.log(`${l.number},${st},${m.pushes ?? ''},${m.moves ?? ''},${m.nodes},${Math.round(m.elapsedMs)},${m.lurd ?? ''}`);
  s.free();
}
console.error(`${solved} of ${total} solved in ${(ms / 1000).toFixed(1)} s (wasm)`);
