// progress-panel.js — the Progress card: whether the level on the board was solved, its
// best solutions (fewest moves, fewest pushes) with Replay, Copy and Optimize, its snapshots with
// Restore and Delete, and the levels saved from the editor (My levels) with Play and
// Delete. Pure DOM; records.js and my-levels.js say what to show and what the buttons do.

import { plural } from './level-list.js';

const $ = (id) => document.getElementById(id);

export const scoreText = (b) => `${plural(b.moves, 'move', 'moves')}, ${plural(b.pushes, 'push', 'pushes')}`;

function button(text, title, onClick) {
  const b = document.createElement('button');
  b.type = 'button';
  b.textContent = text;
  if (title) b.title = title;
  b.addEventListener('click', onClick);
  return b;
}

function row(label, ...buttons) {
  const li = document.createElement('li');
  const what = document.createElement('span');
  what.className = 'what';
  what.textContent = label;
  li.append(what, ...buttons);
  return li;
}

/** A best solution's Optimize: an `optimize-best` event ({kind}) that optimize.js handles. */
function optimizeButton(kind) {
  return button('Optimize', `Make this solution shorter: fewer ${kind} (the Solver card shows the progress)`, (e) => {
    e.currentTarget.dispatchEvent(new CustomEvent('optimize-best', { bubbles: true, detail: { kind } }));
  });
}

/**
 * Show a level's record (from progress.js; null when nothing is saved). `h` has
 * replayBest(kind), copyBest(kind) with kind 'moves' | 'pushes', restore(snapshot),
 * remove(snapshot).
 */
export function renderProgress(record, h) {
  const state = $('pg-state');
  const best = $('pg-best');
  const solved = !!record?.solved;
  state.dataset.kind = solved ? 'ok' : '';
  state.textContent = !solved ? 'Not solved yet.'
    : record.bestMoves ? '✓ Solved. Your best solutions:' : '✓ Solved (no solution was kept).';
  const rows = [];
  const bm = record?.bestMoves, bp = record?.bestPushes;
  const same = bm && bp && bm.lurd === bp.lurd;
  if (bm) {
    const label = same ? `Fewest moves and pushes: ${scoreText(bm)}` : `Fewest moves: ${scoreText(bm)}`;
    rows.push(row(label,
      button('Replay', 'Replay this solution from the start', () => h.replayBest('moves')),
      button('Copy', 'Copy this solution (LURD)', () => h.copyBest('moves')),
      optimizeButton('moves')));
  }
  if (bp && !same) {
    rows.push(row(`Fewest pushes: ${scoreText(bp)}`,
      button('Replay', 'Replay this solution from the start', () => h.replayBest('pushes')),
      button('Copy', 'Copy this solution (LURD)', () => h.copyBest('pushes')),
      optimizeButton('pushes')));
  }
  best.replaceChildren(...rows);

  const snaps = record?.snapshots ?? [];
  $('snap-list').replaceChildren(...snaps.map((s) => {
    const li = row(`${s.name} — ${scoreText(s)}`,
      button('Restore', 'Put this position on the board (undo takes you back)', () => h.restore(s)),
      button('Delete', 'Delete this snapshot', () => h.remove(s)));
    li.dataset.name = s.name;
    return li;
  }));
}

/** The name a level of my levels goes by (its title, else its place in the list). */
export const myLevelTitle = (l, i) => l.title.replace(/[\r\n]+/g, ' ') || `My level ${i + 1}`;

/**
 * Show the levels saved from the editor (progress.myLevels()). `h` has play(index) and
 * remove(level, index).
 */
export function renderMyLevels(levels, h) {
  $('my-none').hidden = levels.length > 0;
  $('my-list').replaceChildren(...levels.map((l, i) => {
    const name = myLevelTitle(l, i);
    const li = row(name,
      button('Play', `Open “${name}” with the rest of My levels`, () => h.play(i)),
      button('Delete', `Delete “${name}” from My levels (it can be undone)`, () => h.remove(l, i)));
    li.dataset.key = l.key;
    return li;
  }));
}
