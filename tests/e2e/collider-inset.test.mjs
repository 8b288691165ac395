// The bunny under its settled cloth, as a user sees it from four sides: the collider is drawn inset by
// the collision margin (web/src/render/collider-inset.ts), so its ridges and ear tips, sharper than
// the cloth's spacing, no longer show through between the particles as white slivers. Drawn where it
// is, the mesh showed through in every view.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp, useBrowser } from './harness.mjs';
import { installDecoder } from './pixels.mjs';

const session = useBrowser({ webgpu: false });
const POSES = [
  { yaw: -0.4, pitch: 0.22, distance: 1.6 },
  { yaw: 1.2, pitch: 0.4, distance: 1.4 },
  { yaw: 2.8, pitch: 0.3, distance: 1.4 },
  { yaw: -1.9, pitch: 0.7, distance: 1.3 },
];

/** Pixels of the collider's light, unsaturated colour in a capture (the cloth is saturated red, the
 *  ground a darker grey), `within` the cloth: with cloth pixels at most 8 px away on all four sides
 *  (not the bunny's feet under the hem). */
async function colliderPixels(page, within) {
  await installDecoder(page);
  return page.evaluate(async (within) => {
    const { data, width, height } = await window.__weftDecodePng(await window.weft.capture());
    const at = (x, y) => 4 * (y * width + x);
    const light = (i) => {
      const lo = Math.min(data[i], data[i + 1], data[i + 2]);
      return lo > 170 && Math.max(data[i], data[i + 1], data[i + 2]) - lo < 40;
    };
    const cloth = (x, y) => x >= 0 && y >= 0 && x < width && y < height && data[at(x, y)] > data[at(x, y) + 1] + 40;
    const clothToward = (x, y, dx, dy) => {
      for (let k = 1; k <= 8; ++k) if (cloth(x + k * dx, y + k * dy)) return true;
      return false;
    };
    let n = 0;
    for (let y = 0; y < height; ++y)
      for (let x = 0; x < width; ++x)
        if (
          light(at(x, y)) &&
          (!within || (clothToward(x, y, 1, 0) && clothToward(x, y, -1, 0) && clothToward(x, y, 0, 1) && clothToward(x, y, 0, -1)))
        )
          n++;
    return n;
  }, within);
}

test('the bunny does not show through its settled cloth (64², 10 s, four views); it shows before the cloth lands', async () => {
  const { page, errors } = await openApp(session, '?renderer=webgl2&scene=bunny&grid=64', { width: 800, height: 600 });
  try {
    await page.evaluate(async () => {
      window.weft.pause();
      await window.weft.reset();
    });
    await page.evaluate((pose) => window.weft.setCamera(pose), POSES[0]);
    const uncovered = await colliderPixels(page, false);
    await page.evaluate(() => window.weft.step(600));
    const covered = [];
    for (const pose of POSES) {
      await page.evaluate((p) => window.weft.setCamera(p), pose);
      covered.push(await colliderPixels(page, true));
    }
    assert.ok(uncovered > 5000, `the bunny is drawn before the cloth lands: ${uncovered} pixels`);
    // Drawn where it is: 9, 129, 47 and 20 pixels; inset: 0, 12, 4 and 0.
    const through = covered.reduce((a, b) => a + b, 0);
    assert.ok(through < 50, `collider pixels through the settled cloth: ${through} (per view ${covered.join(', ')})`);
    assert.deepEqual(errors, []);
  } finally {
    await page.close();
  }
});
