// layout.js — where the Sokoban page keeps what is not the game: the side cards (levels,
// generator, progress, share, help) one at a time behind tabs, the open one kept in
// localStorage; on a phone (the narrow layout of style.css) those cards are a sheet that
// the Menu button of the action bar opens over the board.

const KEY_TAB = 'sokoban.tab';
const NARROW = '(max-width: 820px)'; // style.css's phone layout

const $ = (id) => document.getElementById(id);
let tabs = [];

/** The tab buttons of the side column and the cards they show. */
const panelOf = (tab) => $(tab.getAttribute('aria-controls'));

/** Show the card of `tab` (a tab button), hide the others; `remember` keeps it for the next visit. */
function select(tab, remember = true) {
  for (const t of tabs) {
    const on = t === tab;
    t.setAttribute('aria-selected', String(on));
    t.tabIndex = on ? 0 : -1;
    panelOf(t).hidden = !on;
  }
  if (!remember) return;
  try {
    localStorage.setItem(KEY_TAB, JSON.stringify(tab.id));
  } catch {
    // storage full or disabled: the tab stays open for this visit
  }
}

function storedTab() {
  try {
    const id = JSON.parse(localStorage.getItem(KEY_TAB));
    return tabs.find((t) => t.id === id) ?? null;
  } catch {
    return null; // nothing kept, or not ours
  }
}

const menuOpen = () => $('side').classList.contains('open');

/** Open or close the phone's sheet of side cards. */
function setMenu(open) {
  $('side').classList.toggle('open', open);
  $('menu-toggle').setAttribute('aria-expanded', String(open));
}

/** Close the phone's sheet (after a level opens or a replay starts: the board is wanted). */
export function closeMenu() {
  if (menuOpen()) setMenu(false);
}

/**
 * Bring `el` (inside a side card) into view: its tab selected and, on a phone, the sheet
 * open. For controls the page focuses itself (the paste box, the copied text).
 */
export function reveal(el) {
  const tab = tabs.find((t) => panelOf(t).contains(el));
  if (tab && tab.getAttribute('aria-selected') !== 'true') select(tab);
  if (matchMedia(NARROW).matches) setMenu(true);
  el.scrollIntoView({ block: 'nearest' });
}

export function initLayout() {
  tabs = Array.from(document.querySelectorAll('#side [role="tab"]'));
  const kept = storedTab();
  if (kept) select(kept, false);
  for (const t of tabs) t.addEventListener('click', () => select(t));
  document.querySelector('#side [role="tablist"]').addEventListener('keydown', (e) => {
    // Arrows go to the game unless the tab was reached by the keyboard (a clicked tab
    // keeps the focus, and the arrows must still move the player then).
    if (!e.target.matches(':focus-visible')) return;
    const i = tabs.indexOf(e.target);
    const to = { ArrowLeft: i - 1, ArrowRight: i + 1, Home: 0, End: tabs.length - 1 }[e.key];
    if (i < 0 || to === undefined) return;
    e.preventDefault();
    const tab = tabs[(to + tabs.length) % tabs.length];
    select(tab);
    tab.focus();
  });

  const toggle = $('menu-toggle');
  toggle.addEventListener('click', () => {
    setMenu(!menuOpen());
    if (menuOpen()) tabs.find((t) => t.tabIndex === 0)?.focus();
  });
  $('side').addEventListener('keydown', (e) => {
    if (e.key !== 'Escape' || !menuOpen() || !matchMedia(NARROW).matches) return;
    e.preventDefault(); // the game's Esc (let go of a box) waits for the next press
    setMenu(false);
    toggle.focus();
  });
  // A tap outside the sheet closes it (and still does what it does there).
  document.addEventListener('pointerdown', (e) => {
    if (menuOpen() && !$('side').contains(e.target) && !toggle.contains(e.target)) setMenu(false);
  });
}
