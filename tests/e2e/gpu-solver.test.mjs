// The GPU solver in the page (headless Chromium, WebGPU on SwiftShader): ?solver=gpu runs the WGSL
// kernels on the renderer's device and draws from their buffers; step(n) then positions() agrees
// with ?solver=wasm (the C core) on the same scene. The page uses the tiled schedule (a different
// Gauss-Seidel order than C, see web/src/gpu/schedule.ts), so agreement is physical: ≤ 2e-2 m
// after 30 frames on a 2 m cloth, and ≤ 1e-6 m after one frame (still mostly free fall).
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { maxDifference, openApp, openGpuApp, runFrames, useBrowser } from './harness.mjs';

const session = useBrowser({ webgpu: true });

test('?solver=gpu: step(n) + positions() agree with ?solver=wasm (hang 24)', async () => {
  const gpu = await openGpuApp(session, '?solver=gpu&scene=hang&grid=24');
  const wasm = await openApp(session, '?solver=wasm&scene=hang&grid=24');
  try {
    const g1 = await runFrames(gpu.page, 1),
      w1 = await runFrames(wasm.page, 1);
    assert.equal(g1.stats.solver, 'gpu', `the GPU solver runs (no fallback); page says: ${await gpu.page.textContent('#messages')}`);
    assert.equal(g1.stats.renderer, 'webgpu');
    assert.equal(w1.stats.solver, 'wasm');
    assert.equal(g1.stats.frame, 1);
    assert.equal(g1.positions.length, 24 * 24 * 4);
    assert.ok(maxDifference(g1.positions, w1.positions) <= 1e-6, `frame 1: ${maxDifference(g1.positions, w1.positions)} m`);
    const g30 = await runFrames(gpu.page, 30),
      w30 = await runFrames(wasm.page, 30);
    const wasmObjHeader = (await wasm.page.evaluate(() => window.weft.obj())).split('\n')[0];
    const start = await wasm.page.evaluate(async () => {
      await window.weft.reset();
      return Array.from(await window.weft.positions());
    });
    const motion = maxDifference(w30.positions, start);
    const diff = maxDifference(g30.positions, w30.positions);
    assert.ok(motion > 0.5, `the cloth moved (${motion} m)`);
    assert.ok(diff <= 2e-2, `frame 30: max |gpu − wasm| = ${diff} m`);
    // The OBJ of the GPU solver's cloth: its positions, and its frame and time in the first line
    // (the core world it was read back into has not stepped: it said frame 0), as the wasm page's.
    const gpuObj = (await gpu.page.evaluate(() => window.weft.obj())).split('\n');
    assert.equal(gpuObj[0], `# weft cloth, frame ${g30.stats.frame}, t = ${(g30.stats.frame / 60).toFixed(4)} s`);
    assert.equal(gpuObj[0], wasmObjHeader);
    const v = gpuObj.filter((l) => l.startsWith('v ')).flatMap((l) => l.split(' ').slice(1).map(Number));
    assert.equal(v.length, 24 * 24 * 3);
    assert.ok(
      v.every((x, k) => Math.abs(x - g30.positions[4 * Math.floor(k / 3) + (k % 3)]) < 1e-6),
      "the OBJ holds the GPU solver's positions",
    );
    assert.deepEqual(gpu.errors, []);
    assert.deepEqual(wasm.errors, []);
  } finally {
    await gpu.page.close();
    await wasm.page.close();
  }
});

test('?solver=gpu without WebGPU falls back to wasm and says so', async () => {
  const { page, errors } = await openApp(session, '?solver=gpu&renderer=webgl2&scene=hang&grid=16');
  try {
    const stats = await page.evaluate(() => window.weft.stats());
    assert.equal(stats.solver, 'wasm');
    const text = await page.textContent('#messages');
    // This browser has WebGPU: the page says the WebGL2 renderer asked for is why (it said WebGPU was missing).
    assert.match(text, /GPU solver needs WebGPU, and this page renders with WebGL2 \(renderer=webgl2 in the address/);
    assert.deepEqual(errors, []);
  } finally {
    await page.close();
  }
});
