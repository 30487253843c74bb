// Sum up sliding-tile benchmark runs against Korf's 100 instances: instances solved, every
// length against the listed optimum, total and median search time, nodes against the
// node counts of Korf's 1985 IDA* with the Manhattan distance.
//
//   node bench/puzzle-summary.mjs ../shared/puzzles/korf-100.csv bench/out/puzzle-native.csv [more runs...] [--table]
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
const table = args.includes('--table');
const [korfFile, ...runs] = args.filter((a) => !a.startsWith('--'));
const csv = (file) => {
  const [head, ...rows] = readFileSync(file, 'utf8').split('\n').filter((l) => l.trim());
  const h = head.split(',');
  return rows.map((r) => Object.fromEntries(r.split(',').map((v, i) => [h[i], v])));
};
const korf = new Map(csv(korfFile).map((r) => [r.id, r]));
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const fmt = (n) => n.toLocaleString('en-US', { maximumFractionDigits: 1 });
const ratio = (x) => x.toFixed(x < 10 ? 2 : 0);

for (const file of runs) {
  const rows = csv(file);
  const solved = rows.filter((r) => r.status === 'solved');
  const wrong = solved.filter((r) => Number(r.moves) !== Number(korf.get(r.id)?.optimal_moves));
  const ms = rows.map((r) => Number(r.ms));
  const nodes = solved.map((r) => Number(r.nodes));
  const korfNodes = solved.map((r) => Number(korf.get(r.id).korf1985_ida_md_nodes));
  const ratios = solved.map((r, i) => korfNodes[i] / Math.max(1, nodes[i]));
  console.log(`${file}:`);
  console.log(`  solved ${solved.length} of ${rows.length}; lengths equal to the optimum: ${solved.length - wrong.length}${wrong.length ? ` (wrong: ${wrong.map((r) => r.id).join(' ')})` : ''}`);
  console.log(`  search time: total ${(ms.reduce((a, b) => a + b, 0) / 1000).toFixed(2)} s, median ${median(ms).toFixed(1)} ms, max ${Math.max(...ms).toFixed(0)} ms`);
  console.log(`  nodes: total ${fmt(nodes.reduce((a, b) => a + b, 0))}, median ${fmt(median(nodes))}; Korf 1985 (Manhattan): total ${fmt(korfNodes.reduce((a, b) => a + b, 0))}, median ${fmt(median(korfNodes))}`);
  console.log(`  Korf's nodes / ours: ${ratio(korfNodes.reduce((a, b) => a + b, 0) / nodes.reduce((a, b) => a + b, 0))} in total, median ${ratio(median(ratios))} per instance (min ${ratio(Math.min(...ratios))}, max ${ratio(Math.max(...ratios))})`);
  if (table) {
    console.log('  id  optimal  moves      nodes    korf_nodes      ms');
    for (const r of rows) {
      const k = korf.get(r.id);
      console.log(`  ${r.id.padStart(3)}  ${k.optimal_moves.padStart(7)}  ${r.moves.padStart(5)}  ${r.nodes.padStart(9)}  ${k.korf1985_ida_md_nodes.padStart(12)}  ${Number(r.ms).toFixed(1).padStart(7)}`);
    }
  }
}
