// Compare two `level,status,pushes,moves,nodes,ms,lurd` CSV files (native and wasm runs of
// the same levels on the same machine): per-level time ratio over levels both solved,
// total time ratio, node rates, and any push-count disagreement.
//
//   node bench/compare.mjs native.csv wasm.csv
import { readFileSync } from 'node:fs';

const load = (f) => new Map(readFileSync(f, 'utf8').trim().split('\n').slice(1).map((l) => {
  const [level, status, pushes, moves, nodes, ms] = l.split(',');
  return [level, { status, pushes, moves, nodes: Number(nodes), ms: Number(ms) }];
}));
const [a, b] = process.argv.slice(2).map(load);
const median = (xs) => { const s = [...xs].sort((x, y) => x - y); return s.length ? s[Math.floor(s.length / 2)] : NaN; };
let ta = 0, tb = 0, na = 0, nb = 0, both = 0;
const ratios = [];
for (const [level, x] of a) {
  const y = b.get(level);
  if (!y || x.status !== 'solved' || y.status !== 'solved') continue;
  both++;
  if (x.pushes !== y.pushes) console.log(`level ${level}: pushes differ (${x.pushes} vs ${y.pushes})`);
  ta += x.ms; tb += y.ms; na += x.nodes; nb += y.nodes;
  if (x.ms >= 20) ratios.push(y.ms / x.ms);
}
console.log(`levels solved by both: ${both}`);
console.log(`total time: ${(ta / 1000).toFixed(1)} s vs ${(tb / 1000).toFixed(1)} s, ratio ${(tb / ta).toFixed(2)}`);
console.log(`median per-level ratio (levels >= 20 ms, n=${ratios.length}): ${median(ratios).toFixed(2)}`);
console.log(`node rate: ${(na / ta / 1000).toFixed(2)} M/s vs ${(nb / tb / 1000).toFixed(2)} M/s`);
