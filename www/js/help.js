// help.js — the help overlay: a modal <dialog> listing every key, opened by the ? key or
// the ? button in the header, closed by Esc, ?, the Close button or a click outside it.
// While it is open no key reaches the game behind it.
import { isFormField } from './input.js';

export function initHelp() {
  const dialog = document.getElementById('help-dialog');
  const open = () => {
    if (!dialog.open) dialog.showModal();
  };
  const close = () => dialog.open && dialog.close();
  document.getElementById('help-open').addEventListener('click', open);
  document.getElementById('help-close').addEventListener('click', close);
  dialog.addEventListener('click', (e) => {
    if (e.target === dialog) close(); // the backdrop
  });
  // Capture on window, registered before the modes' handlers: runs first.
  window.addEventListener('keydown', (e) => {
    if (dialog.open) {
      if (e.key === '?' || e.key === 'Escape') {
        e.preventDefault();
        close();
      }
      // Tab, Enter and Space work inside the dialog; nothing reaches the game behind it.
      if (e.key !== 'Tab' && e.key !== 'Enter' && e.key !== ' ') e.stopImmediatePropagation();
      return;
    }
    if (e.key === '?' && !e.ctrlKey && !e.metaKey && !e.altKey && !isFormField(e.target)) {
      e.preventDefault();
      e.stopImmediatePropagation();
      open();
    }
  }, { capture: true });
}
