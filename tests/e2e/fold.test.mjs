// The fold scene and the self-collision switch in the page (headless Chromium): ?scene=fold is on
// the scene list (it comes from the core), the panel's switch turns self-collision off and on with
// a real click on both solvers (stats().selfCollision follows), and the settled pile of the GPU
// solver lies where the wasm solver's does. Captures of both piles go to $WEFT_CAPTURE_DIR (default
// /tmp) as weft-fold-wasm.png and weft-fold-gpu.png, to look at.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openApp, openGpuApp, runFrames, useBrowser } from './harness.mjs';

const FRAMES = 360;
const captureDir = process.env.WEFT_CAPTURE_DIR ?? '/tmp';

const session = useBrowser({ webgpu: true });

const centroid = (x) => {
  const c = [0, 0, 0];
  for (let k = 0; k < x.length; k += 4) for (let a = 0; a < 3; ++a) c[a] += x[k + a] / (x.length / 4);
  return c;
};

/** Clicks the panel's self-collision switch and returns stats().selfCollision after it. */
async function clickSwitch(page) {
  await page.locator('.lil-gui .lil-controller', { hasText: 'self-collision' }).locator('input[type=checkbox]').click();
  return page.evaluate(() => window.weft.stats().selfCollision);
}

async function saveCapture(page, name) {
  const url = await page.evaluate(() => window.weft.capture());
  const path = join(captureDir, name);
  writeFileSync(path, Buffer.from(url.replace(/^data:image\/png;base64,/, ''), 'base64'));
  return path;
}

const piles = {};

for (const solver of ['wasm', 'gpu']) {
  test(`?scene=fold&solver=${solver}: the switch flips self-collision with a click; the cloth settles in a pile on the floor`, async () => {
    const open = solver === 'gpu' ? openGpuApp : openApp;
    const { page, errors } = await open(session, `?scene=fold&grid=40&solver=${solver}`);
    try {
      const stats = await page.evaluate(() => window.weft.stats());
      assert.equal(stats.solver, solver, `page says: ${await page.textContent('#messages')}`);
      // The panel's scene menu (lil-gui: a <select> in the controller named "scene").
      const scenes = await page.evaluate(() => {
        const controller = [...document.querySelectorAll('.lil-gui .lil-controller')].find(
          (c) => c.querySelector('.lil-name')?.textContent === 'scene',
        );
        return [...(controller?.querySelectorAll('option') ?? [])].map((o) => o.textContent);
      });
      assert.ok(scenes.includes('fold'), `scene list: ${scenes}`);
      assert.equal(stats.selfCollision, true, 'fold starts with self-collision on');
      assert.equal(await clickSwitch(page), false, 'one click turns it off');
      assert.equal(await clickSwitch(page), true, 'another turns it back on');
      const { positions } = await runFrames(page, FRAMES);
      const c = centroid(positions);
      piles[solver] = c;
      console.log(
        `fold 40² ${solver}: centroid ${c.map((v) => v.toFixed(4))}, capture ${await saveCapture(page, `weft-fold-${solver}.png`)}`,
      );
      assert.ok(c[1] < 0.2, `the cloth lies on the floor (centroid y ${c[1]} m)`);
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });
}

test('the GPU pile lies where the wasm pile does (centroid ≤ 1 cm)', () => {
  assert.ok(piles.wasm && piles.gpu, 'both runs finished');
  const d = Math.hypot(...piles.gpu.map((v, a) => v - piles.wasm[a]));
  assert.ok(d <= 0.01, `centroids ${piles.gpu} and ${piles.wasm} differ by ${d} m`);
});
