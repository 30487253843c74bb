// level-list.js — the list of an open collection's levels: one button per level with its
// number, title and size, invalid levels marked with their error, the current level
// highlighted, solved levels ticked with their best scores. Pure DOM; collection.js says what
// to show and what a click does.

export const levelTitle = (l, fallback) => l.title || fallback || `Level ${l.number}`;
export const plural = (n, one, many) => `${n} ${n === 1 ? one : many}`;

/**
 * Show `col` ({levels, index}) in the `<ol>` element `list` (empty when `col` is null).
 * `pick(i)` is called when level i is clicked; `isSolved(level)` ticks a level and
 * `best(level)` gives the text of its best scores ('' for none).
 */
export function renderLevelList(list, col, { pick, isSolved, best = () => '' }) {
  if (!col) {
    list.replaceChildren();
    list.levels = null;
    return;
  }
  if (list.levels !== col.levels) {
    list.levels = col.levels;
    list.replaceChildren(...col.levels.map((l, i) => item(l, () => pick(i))));
  }
  [...list.children].forEach((li, i) => {
    const b = li.firstChild;
    if (i === col.index) b.setAttribute('aria-current', 'true');
    else b.removeAttribute('aria-current');
    const l = col.levels[i];
    const done = !l.error && isSolved(l);
    b.classList.toggle('done', done);
    const text = done ? best(l) : '';
    let span = b.querySelector('.best');
    if (text && !span) {
      span = document.createElement('span');
      span.className = 'best';
      b.prepend(span);
    }
    if (span) span.textContent = text;
  });
  list.children[col.index]?.firstChild.scrollIntoView({ block: 'nearest' });
}

function item(l, onClick) {
  const li = document.createElement('li');
  const b = document.createElement('button');
  b.type = 'button';
  b.textContent = `${l.number}. ${levelTitle(l)}`;
  if (l.error) {
    b.classList.add('invalid');
    b.textContent = `✗ ${b.textContent}`;
    const why = document.createElement('span');
    why.className = 'why';
    why.textContent = l.error;
    b.append(why);
  } else {
    b.textContent += ` (${l.width}×${l.height}, ${plural(l.boxes, 'box', 'boxes')})`;
  }
  b.addEventListener('click', onClick);
  li.append(b);
  return li;
}
