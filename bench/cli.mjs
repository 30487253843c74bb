// Shared by the Node benchmark scripts: load the page's wasm (www/pkg) under Node, and
// read `FILE --name value` style arguments.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { initSync } from '../www/pkg/sokoban_wasm.js';

const here = dirname(fileURLToPath(import.meta.url));

/** Instantiate the wasm module the page's worker uses. */
export function loadWasm() {
  initSync({ module: readFileSync(join(here, '../www/pkg/sokoban_wasm_bg.wasm')) });
}

/**
 * The command line: `opt(name, default)` reads `--name value`; `file` is the first
 * argument that is neither a flag nor a flag's value. Without a file, prints `usage` and
 * exits with status 2.
 */
export function commandLine(usage) {
  const args = process.argv.slice(2);
  const opt = (name, dflt) => {
    const i = args.indexOf(`--${name}`);
    return i >= 0 ? args[i + 1] : dflt;
  };
  const file = args.find((a, i) => !a.startsWith('--') && !args[i - 1]?.startsWith('--'));
  if (!file) {
    console.error(`usage: ${usage}`);
    process.exit(2);
  }
  return { args, opt, file };
}
