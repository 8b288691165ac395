// The GPU solver in the page, as a user meets it (a second review): switching the solver in the
// panel mid-run, the HUD's timing line, a simulation error on the GPU solver. Real panel clicks and
// keys; WebGPU is SwiftShader in headless Chromium (slow, so the cloths are small).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp, panelController, useBrowser, waitFor } from './harness.mjs';

const session = useBrowser({ webgpu: true });

/** Records, every animation frame, the solver that runs, its ms/step, how it was measured and the HUD's timing line. */
const startSampling = (page) =>
  page.evaluate(() => {
    window.__samples = [];
    const sample = () => {
      const s = window.weft.stats();
      const line = document.querySelector('#hud .text').textContent.split('\n')[1];
      window.__samples.push({ solver: s.solver, simMs: s.simMs, simTiming: s.simTiming, line });
      window.__sampling = requestAnimationFrame(sample);
    };
    sample();
  });
const stopSampling = (page) =>
  page.evaluate(() => {
    cancelAnimationFrame(window.__sampling);
    return window.__samples;
  });

describe('switching the solver in the panel', () => {
  test("the HUD's ms/step is the new solver's own: never the old solver's figure under the new one's name", async () => {
    const { page, errors } = await openApp(session, '?solver=gpu&scene=hang&grid=32', { width: 1100, height: 700 });
    const solver = panelController(page, 'solver').locator('select');
    try {
      await waitFor(page, () => window.weft.stats().solver === 'gpu' && window.weft.stats().simTiming !== 'cpu', undefined, 60_000);
      // The GPU (SwiftShader) takes milliseconds a step; the C core a fraction of one at 32².
      await waitFor(page, () => window.weft.stats().simMs > 3, undefined, 60_000);
      await startSampling(page);
      await solver.selectOption('wasm');
      await waitFor(page, () => window.weft.stats().solver === 'wasm' && window.weft.stats().frame > 30);
      let samples = await stopSampling(page);
      const wasm = samples.filter((s) => s.solver === 'wasm');
      assert.ok(wasm.length > 0);
      // A figure carried over would be a running mean seeded with the GPU's last one: at least 0.8 of
      // it on the first wasm step. The C core's own steps at 32² take a fraction of a millisecond, so
      // a wasm figure above both 3 ms and half the GPU's is the GPU's (a bound relative to the GPU's
      // figure, which SwiftShader runs on the same busy cores, and not a clock alone).
      const gpuLast = samples.filter((s) => s.solver === 'gpu').at(-1)?.simMs ?? 0;
      const bound = Math.max(3, 0.5 * gpuLast);
      const worst = Math.max(...wasm.map((s) => s.simMs));
      assert.ok(worst < bound, `on wasm, stats().simMs (cpu) read ${worst} ms, the GPU's last ${gpuLast}: its figure carried over`);
      for (const s of wasm.filter((s) => s.line.includes('wasm, wall'))) {
        const shown = Number(/sim\s+([\d.]+) ms/.exec(s.line)?.[1]);
        assert.ok(shown < bound, `the HUD said "${s.line}" on the wasm solver (the GPU's last figure ${gpuLast} ms)`);
      }

      // And back: until the GPU solver has measured a step, the HUD says it is measuring, not the
      // C core's fraction of a millisecond labelled "GPU".
      await startSampling(page);
      await solver.selectOption('gpu');
      await waitFor(page, () => window.weft.stats().solver === 'gpu' && window.weft.stats().frame > 10, undefined, 60_000);
      samples = await stopSampling(page);
      const first = samples.find((s) => s.solver === 'gpu');
      assert.equal(first.simMs, 0, `the GPU solver's first stats() read ${first.simMs} ms (${first.simTiming}) before it measured a step`);
      const gpuLines = samples.filter((s) => /GPU/.test(s.line));
      assert.ok(gpuLines.length > 0);
      for (const s of gpuLines) {
        const shown = Number(/sim\s+([\d.]+) ms/.exec(s.line)?.[1]);
        assert.ok(shown > 1, `the HUD said "${s.line}": the wasm figure under the GPU's name`);
      }
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });
});

describe('a simulation error', () => {
  test('pauses the page and ticks the panel\'s "paused" box, so Space (or the box) resumes as it says', async () => {
    const { page, errors } = await openApp(session, '?solver=gpu&scene=hang&grid=16', { width: 1100, height: 700 });
    const paused = panelController(page, 'paused \\(Space\\)').locator('input');
    try {
      await waitFor(page, () => window.weft.stats().solver === 'gpu' && window.weft.stats().frame > 5, undefined, 60_000);
      assert.equal(await paused.isChecked(), false);
      // A fault in the GPU solver's step (a driver refusing the work): the next frame's step throws.
      await page.evaluate(() => {
        const create = GPUDevice.prototype.createCommandEncoder;
        window.__restoreEncoder = () => (GPUDevice.prototype.createCommandEncoder = create);
        GPUDevice.prototype.createCommandEncoder = function (descriptor) {
          if (descriptor?.label === 'weft frame') throw new Error('injected GPU fault');
          return create.call(this, descriptor);
        };
      });
      await waitFor(page, () => window.weft.stats().paused);
      const message = page.locator('#messages .message.error', { hasText: 'Simulation stopped' });
      await message.waitFor();
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      assert.equal(await paused.isChecked(), true, 'the panel says paused, as the page is');
      // R alone resets but leaves the page paused: the message says what runs it again.
      assert.match(await message.textContent(), /R to reset.*Space/);
      await page.evaluate(() => window.__restoreEncoder());
      await page.locator('#view').focus();
      await page.keyboard.press('r');
      await message.waitFor({ state: 'detached' });
      await waitFor(page, () => window.weft.stats().frame === 0);
      await page.keyboard.press('Space');
      await waitFor(page, () => !window.weft.stats().paused && window.weft.stats().frame > 2, undefined, 60_000);
      assert.equal(await paused.isChecked(), false, 'Space resumed, and the box says so');
      assert.ok(
        errors.every((e) => /injected GPU fault/.test(e)),
        `console: ${errors.join(' | ')}`,
      );
    } finally {
      await page.close();
    }
  });
});
