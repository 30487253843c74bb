// theme.js — the high-contrast, colour-blind-safe theme (a toggle in the header, kept in
// localStorage) and the reduced-motion preference. The board's colours are board.js's;
// the page's are CSS variables under body[data-theme="contrast"].
import { setPalette } from './board.js';

const KEY = 'sokoban.theme';

/** True when the system asks for less motion (walks and drags then happen at once). */
export const reducedMotion = () => matchMedia('(prefers-reduced-motion: reduce)').matches;

/** Set up the toggle; `redraw()` runs after a change. */
export function initTheme(redraw) {
  const button = document.getElementById('theme-toggle');
  const apply = (name) => {
    setPalette(name);
    document.body.dataset.theme = name;
    button.setAttribute('aria-pressed', String(name === 'contrast'));
  };
  let name = 'standard';
  try {
    name = localStorage.getItem(KEY) === 'contrast' ? 'contrast' : 'standard';
  } catch {
    // storage disabled: the standard theme
  }
  apply(name);
  button.addEventListener('click', () => {
    name = name === 'contrast' ? 'standard' : 'contrast';
    apply(name);
    try {
      localStorage.setItem(KEY, name);
    } catch {
      // not kept: the theme still changes for this visit
    }
    redraw();
  });
}
