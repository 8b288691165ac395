// The panel's strain limit in the page (headless Chromium), on both solvers: the cloth starts with
// the core's default (0.2), and a value typed into the slider's box sets the core's limit, which the
// GPU solver copies into its step records (stats().strainLimit reads it back; the limit itself is
// tested against C in tests/gpu/parity.test.ts and tests/unit/test_behaviour.c).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp, openGpuApp, typeIntoPanel, useBrowser } from './harness.mjs';

const session = useBrowser({ webgpu: true });

for (const solver of ['wasm', 'gpu']) {
  test(`?scene=sphere&solver=${solver}: the strain limit box sets the core's strain limit`, async () => {
    const open = solver === 'gpu' ? openGpuApp : openApp;
    const { page, errors } = await open(session, `?scene=sphere&grid=24&solver=${solver}`);
    try {
      const before = await page.evaluate(() => window.weft.stats());
      assert.equal(before.solver, solver, `the ${solver} solver runs; page says: ${await page.textContent('#messages')}`);
      assert.ok(Math.abs(before.strainLimit - 0.2) < 1e-6, `default strain limit ${before.strainLimit}`);
      await typeIntoPanel(page, 'strain limit', '0.05');
      const after = await page.evaluate(async () => {
        window.weft.pause();
        await window.weft.step(30);
        return window.weft.stats();
      });
      assert.ok(Math.abs(after.strainLimit - 0.05) < 1e-6, `strain limit ${after.strainLimit}`);
      assert.equal(after.solver, solver, 'the solver kept running');
      // At 10 substeps the solve holds the limit: no frame-end sweeps (the gpu solver has none).
      assert.equal(after.strainSweeps, solver === 'wasm' ? 0 : null, `strain sweeps ${after.strainSweeps}`);
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });
}

// One substep on a fine cloth: the solve alone cannot hold it landing on the sphere, so the frames
// end with strain sweeps (src/strain_sweeps.c), which the page reports; the cloth stays whole.
test('?scene=sphere&grid=48, substeps typed to 1: the frame-end strain sweeps run and hold the cloth', async () => {
  const { page, errors } = await openApp(session, '?scene=sphere&grid=48');
  try {
    await typeIntoPanel(page, 'substeps', '1');
    const after = await page.evaluate(async () => {
      window.weft.pause();
      await window.weft.reset();
      await window.weft.step(60);
      // The longest grid edge over its rest length (the sphere scene: 2 m square, 48 × 48).
      const x = await window.weft.positions(),
        n = 48,
        rest = 2 / (n - 1);
      let stretch = 0;
      const edge = (p, q) => Math.hypot(x[4 * p] - x[4 * q], x[4 * p + 1] - x[4 * q + 1], x[4 * p + 2] - x[4 * q + 2]) / rest - 1;
      for (let p = 0; p < n * n; p++) {
        if ((p % n) + 1 < n) stretch = Math.max(stretch, edge(p, p + 1));
        if (p + n < n * n) stretch = Math.max(stretch, edge(p, p + n));
      }
      return { stats: window.weft.stats(), stretch };
    });
    assert.equal(after.stats.solver, 'wasm');
    assert.ok(after.stats.strainSweeps > 0, `strain sweeps ${after.stats.strainSweeps}`);
    assert.ok(after.stretch < 1, `max stretch ${after.stretch}`);
    assert.deepEqual(errors, []);
  } finally {
    await page.close();
  }
});
