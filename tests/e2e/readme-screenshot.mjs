// The README screenshot (docs/screenshot.png): a fast Solve of a twelve-box room written
// for the project, its solution being replayed, with the fast search's panel. Not a test:
//   ./build.sh build && node tests/e2e/readme-screenshot.mjs
import { join } from 'node:path';
import { ROOT, openPage, pasteText, startApp, waitStatus } from './helpers.mjs';

// Twelve boxes in the room of levels.mjs's DOZEN, placed so that the fast search takes a
// few seconds (about 2 s natively when written): its chart then has something to show.
const LEVEL = `################
#      #       #
#   @$ # $ # $ #
#  ## $    # $ #
#      ##      #
##  # $  $ ##  #
#   #  # $   $ #
#      # $ #   #
######  ...#   #
     # $...  ###
     # $...  #
     #  ...  #
     #########`;

const app = await startApp();
try {
  const context = await app.browser.newContext({ viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1 });
  const page = await openPage(app, app.base, { context });
  await pasteText(page, LEVEL);
  await waitStatus(page, /Loaded/);
  await page.getByRole('radio', { name: 'Fast', exact: true }).check();
  await page.getByRole('button', { name: 'Solve', exact: true }).click();
  await page.waitForFunction(() => /^Solved/.test(document.querySelector('#s-state').textContent), null, { timeout: 120000 });
  // Let the replay play a few pushes, then hold it there.
  await page.waitForFunction(() => Number(document.querySelector('[aria-label="pushes"]').textContent) >= 4, null, { timeout: 60000 });
  await page.getByRole('button', { name: 'Pause', exact: true }).click();
  await page.evaluate(() => document.querySelector('.side-cards').scrollTo(0, 0));
  await page.mouse.move(0, 0);
  await page.screenshot({ path: join(ROOT, 'docs', 'screenshot.png') });
  console.log(`docs/screenshot.png: ${await page.textContent('#s-state')}`);
  await context.close();
} finally {
  await app.close();
}
