// The level generator's benchmark in the page's wasm under Node: seconds to a level and
// its solution's pushes, per request. Usage:
//   node bench/generate.mjs 10x10-4-1 10x10-4-2 15x15-8-1 ...
// (the native figures: cargo run --release -p sokoban-gen --example generate -- SPECS)
import { GeneratorTask, parseGenSpec } from '../www/pkg/sokoban_wasm.js';
import { loadWasm } from './cli.mjs';

loadWasm();
const specs = process.argv.slice(2);
if (!specs.length) {
  console.error('usage: node bench/generate.mjs WxH-BOXES-SEED ...');
  process.exit(2);
}
for (const spec of specs) {
  const r = parseGenSpec(spec);
  const t0 = performance.now();
  const task = new GeneratorTask(r.width, r.height, r.boxes, r.seed);
  let m;
  do m = task.step(50);
  while (m.type === 'progress');
  task.free();
  const s = ((performance.now() - t0) / 1000).toFixed(3);
  if (m.type === 'generated') {
    console.log(`${spec}\t${s} s\t${m.pushes} pushes${m.optimal ? ' (optimal)' : ''}\t${m.moves} moves\t${m.proved} proved`);
  } else console.log(`${spec}\t${s} s\t${m.type}: ${m.message ?? ''}`);
}
