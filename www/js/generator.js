// generator.js — the "Generate a level" card: asks the solver worker (its own
// SolverClient, so a Solve on the board is not disturbed) for a level of a size, a number
// of boxes and a seed; shows the progress, the difficulty the solver measured, a link
// that reproduces the level (?gen=WxH-BOXES-SEED) and the solution it was proved with.
// The generating, the checking of the request and the proof are all in Rust
// (sokoban-gen, through the wasm GeneratorTask); the page never blocks.
import { SolverClient } from './solver-client.js';
import { plural } from './level-list.js';

const $ = (id) => document.getElementById(id);
const client = new SolverClient();
let api = null; // {openGenerated(xsb, title), replaySolution(lurd), status(text, kind), share(text, what)}
let last = null; // the last level generated: {spec, lurd}

const whole = (v) => /^\s*\d+\s*$/.test(v);

function setBusy(on) {
  $('gen-go').disabled = on;
  $('gen-cancel').disabled = !on;
}

function say(text, kind = '') {
  const el = $('gen-state');
  el.textContent = text;
  el.dataset.kind = kind;
}

function randomSeed() {
  return String(Math.floor(Math.random() * 1e9));
}

/** The form's request, or null (and a message) when a field is not a whole number. */
function readForm() {
  const fields = [['gen-w', 'width'], ['gen-h', 'height'], ['gen-boxes', 'number of boxes']];
  for (const [id, name] of fields) {
    if (!whole($(id).value)) {
      say(`The ${name} must be a whole number.`, 'error');
      return null;
    }
  }
  if (!$('gen-seed').value.trim()) $('gen-seed').value = randomSeed();
  return {
    width: Number($('gen-w').value),
    height: Number($('gen-h').value),
    boxes: Number($('gen-boxes').value),
    seed: $('gen-seed').value.trim(),
  };
}

const specOf = (r) => `${r.width}x${r.height}-${r.boxes}-${r.seed}`;

function difficultyText(m) {
  const how = m.optimal ? 'the fewest possible' : 'found by the fast search';
  return `Difficulty: ${plural(m.pushes, 'push', 'pushes')} (${how}), ${plural(m.moves, 'move', 'moves')}`;
}

/** Generate `req` in the worker; on success the level replaces the one on the board. */
export async function generate(req) {
  if (client.busy) client.cancel();
  setBusy(true);
  $('gen-done').hidden = true;
  const spec = specOf(req);
  say(`Generating ${spec}…`);
  const t0 = performance.now();
  const m = await client.solve({ generate: req }, (p) => {
    const best = p.bestPushes == null ? '' : `, hardest so far ${plural(p.bestPushes, 'push', 'pushes')}`;
    say(`Generating ${spec}: ${p.proved} of ${p.wanted} candidates proved solvable${best}…`);
  });
  setBusy(false);
  if (m.type === 'cancelled') {
    say('Cancelled; the level on the board is unchanged.');
    return false;
  }
  if (m.type !== 'generated') {
    say(`No level: ${m.message ?? m.type}. The level on the board is unchanged.`, 'error');
    return false;
  }
  const secs = ((performance.now() - t0) / 1000).toFixed(1);
  last = { spec, lurd: m.lurd };
  api.openGenerated(m.xsb, `Generated ${spec}`);
  say(`${difficultyText(m)}. The hardest of ${m.proved} candidates, each proved solvable by the solver; ${secs} s.`);
  $('gen-state').dataset.pushes = m.pushes;
  $('gen-done').hidden = false;
  return true;
}

/** A link to this page that generates the same level. */
export function genLink(spec) {
  const url = new URL(location.pathname, location.href);
  url.searchParams.set('gen', spec);
  return url.href;
}

/** Open the `?gen=` level of the page address; true when the address has one. */
export function openGenLink() {
  const spec = new URLSearchParams(location.search).get('gen');
  if (spec == null) return false;
  const m = /^\s*(\d+)\s*[x×X]\s*(\d+)\s*-\s*(\d+)\s*-\s*(.+)$/.exec(spec);
  if (!m) {
    say(`The link's level request '${spec}' is not WIDTHxHEIGHT-BOXES-SEED (e.g. 10x10-4-7).`, 'error');
    return true;
  }
  $('gen-w').value = m[1];
  $('gen-h').value = m[2];
  $('gen-boxes').value = m[3];
  $('gen-seed').value = m[4].trim();
  generate({ width: Number(m[1]), height: Number(m[2]), boxes: Number(m[3]), seed: m[4].trim() }).then((ok) => {
    // The level is now the page's current one (saved); a reload need not generate again.
    if (ok) history.replaceState(null, '', location.pathname);
  });
  return true;
}

export function initGenerator(pageApi) {
  api = pageApi;
  $('gen-go').addEventListener('click', () => {
    const req = readForm();
    if (req) generate(req);
  });
  $('gen-random').addEventListener('click', () => {
    $('gen-seed').value = randomSeed();
    const req = readForm();
    if (req) generate(req);
  });
  $('gen-cancel').addEventListener('click', () => client.cancel());
  $('gen-solution').addEventListener('click', () => last && api.replaySolution(last.lurd));
  $('gen-link').addEventListener('click', () => last && api.share(genLink(last.spec), 'link to the generated level'));
}
