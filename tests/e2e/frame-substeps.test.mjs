// The page reports the substeps a frame took (stats().frameSubsteps, headless Chromium): on the
// wasm solver a frame where the cloth near the bunny or the sphere falls or slides fast takes more
// than the panel's substeps (up to the world's max_substeps, 32: src/frame_substeps.c; near the
// bunny more than 0.1 spacing a substep, near the sphere more than one); without a collider every
// frame takes the panel's, and so does every frame with the panel's "max substeps" at 0.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp, typeIntoPanel, useBrowser } from './harness.mjs';

const session = useBrowser();

/** Pauses, resets and steps `frames` frames one at a time: stats().frameSubsteps after each. */
const substepsOfFrames = (page, frames) =>
  page.evaluate(async (count) => {
    window.weft.pause();
    await window.weft.reset();
    const taken = [];
    for (let f = 0; f < count; f++) {
      await window.weft.step(1);
      taken.push(window.weft.stats().frameSubsteps);
    }
    return taken;
  }, frames);

for (const [scene, adapts] of [
  ['bunny', true],
  ['sphere', true],
  ['hang', false],
]) {
  test(`?scene=${scene}&grid=48, substeps typed to 2: stats().frameSubsteps ${adapts ? 'grows near the collider' : 'stays 2'}`, async () => {
    const { page, errors } = await openApp(session, `?scene=${scene}&grid=48`);
    try {
      await typeIntoPanel(page, 'substeps', '2');
      const taken = await substepsOfFrames(page, 50);
      assert.equal(taken[0], 2, `the first frame: ${taken[0]} substeps`);
      const most = Math.max(...taken);
      if (adapts) {
        assert.ok(most > 2 && most <= 32, `landing on the ${scene}: up to ${most} substeps a frame (${taken.join(' ')})`);
        // The panel's "max substeps" at 0: every frame takes the panel's substeps.
        await typeIntoPanel(page, 'max substeps', '0');
        const fixed = await substepsOfFrames(page, 30);
        assert.deepEqual([...new Set(fixed)], [2], `max substeps 0: ${fixed.join(' ')}`);
      } else {
        assert.equal(most, 2, `no collider: ${taken.join(' ')}`);
      }
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });
}
