// The panel's strain limit in the page (headless Chromium), on both solvers: the cloth starts with
// the core's default (0.2), and a value typed into the slider's box sets the core's limit, which the
// GPU solver copies into its step records (stats().strainLimit reads it back; the limit itself is
// tested against C in tests/gpu/parity.test.ts and tests/unit/test_behaviour.c).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp, openGpuApp, useBrowser } from './harness.mjs';

const session = useBrowser({ webgpu: true });

const controller = (page, name) =>
  page.locator('.lil-gui .lil-controller', { has: page.locator('.lil-name', { hasText: new RegExp(`^${name}$`) }) });

for (const solver of ['wasm', 'gpu']) {
  test(`?scene=sphere&solver=${solver}: the strain limit box sets the core's strain limit`, async () => {
    const open = solver === 'gpu' ? openGpuApp : openApp;
    const { page, errors } = await open(session, `?scene=sphere&grid=24&solver=${solver}`);
    try {
      const before = await page.evaluate(() => window.weft.stats());
      assert.equal(before.solver, solver, `the ${solver} solver runs; page says: ${await page.textContent('#messages')}`);
      assert.ok(Math.abs(before.strainLimit - 0.2) < 1e-6, `default strain limit ${before.strainLimit}`);
      const input = controller(page, 'strain limit').locator('input');
      await input.click();
      await page.keyboard.press('Control+A');
      await page.keyboard.type('0.05');
      await page.keyboard.press('Enter');
      const after = await page.evaluate(async () => {
        window.weft.pause();
        await window.weft.step(30);
        return window.weft.stats();
      });
      assert.ok(Math.abs(after.strainLimit - 0.05) < 1e-6, `strain limit ${after.strainLimit}`);
      assert.equal(after.solver, solver, 'the solver kept running');
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });
}
