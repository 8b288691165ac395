// The GPU solver with a mesh collider in the page (headless Chromium, WebGPU on SwiftShader):
// ?scene=bunny&solver=gpu runs mesh_collide.wgsl instead of refusing the scene, and step(n) +
// positions() agree with ?solver=wasm. The page runs the tiled schedule (another Gauss-Seidel
// order than C): folds slide differently (measured 0.19 m max difference at frame 60), so the
// agreement is physical: ≤ 1e-6 m after one frame (free fall); at frame 60 the centre vertex rests
// on the bunny's back at the same height (≤ 1 cm; measured 2.7 mm) and the cloth's mean height
// agrees (≤ 3 cm; measured 1.0 cm), where a cloth that fell through would lie on the ground, 0.6 m
// lower. The first load compiles the mesh kernel on SwiftShader: about 15 s.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp, startBrowser } from './harness.mjs';

let session;
before(async () => {
  session = await startBrowser({ webgpu: true });
});
after(async () => {
  await session?.close();
});

async function run(page, frames) {
  return page.evaluate(async (n) => {
    window.weft.pause();
    await window.weft.reset();
    await window.weft.step(n);
    return { positions: Array.from(await window.weft.positions()), stats: window.weft.stats() };
  }, frames);
}

const maxDifference = (a, b) => a.reduce((m, v, i) => (i % 4 === 3 ? m : Math.max(m, Math.abs(v - b[i]))), 0);

test('?scene=bunny&solver=gpu: the GPU collides with the bunny and agrees with ?solver=wasm (bunny 24)', async () => {
  const gpu = await openApp(session, '?solver=gpu&scene=bunny&grid=24');
  const wasm = await openApp(session, '?solver=wasm&scene=bunny&grid=24');
  try {
    const g1 = await run(gpu.page, 1), w1 = await run(wasm.page, 1);
    assert.equal(g1.stats.solver, 'gpu', 'the GPU solver runs the bunny scene (no fallback)');
    assert.equal(w1.stats.solver, 'wasm');
    assert.ok(maxDifference(g1.positions, w1.positions) <= 1e-6, `frame 1: ${maxDifference(g1.positions, w1.positions)} m`);
    const g60 = await run(gpu.page, 60), w60 = await run(wasm.page, 60);
    const height = (p, i) => p[4 * i + 1];
    const mean = (p) => p.reduce((m, v, i) => (i % 4 === 1 ? m + v : m), 0) / (p.length / 4);
    const centre = 12 * 24 + 12;
    const start = height(g1.positions, centre);
    console.error(`frame 60: centre ${height(g60.positions, centre)} vs ${height(w60.positions, centre)}; mean ${mean(g60.positions)} vs ${mean(w60.positions)}; max diff ${maxDifference(g60.positions, w60.positions)}`);
    // The centre vertex rests on the bunny: with no mesh collision it would be on the ground.
    assert.ok(start - height(w60.positions, centre) > 0.1, `the cloth fell onto the bunny (${start} → ${height(w60.positions, centre)} m)`);
    assert.ok(height(w60.positions, centre) > 0.2, 'the wasm cloth rests on the bunny, well above the ground');
    assert.ok(Math.abs(height(g60.positions, centre) - height(w60.positions, centre)) <= 1e-2, 'the centre rests at the same height');
    assert.ok(Math.abs(mean(g60.positions) - mean(w60.positions)) <= 3e-2, 'the cloth drapes to the same mean height');
    assert.equal(g60.stats.solver, 'gpu');
    assert.deepEqual(gpu.errors, []);
    assert.deepEqual(wasm.errors, []);
  } finally {
    await gpu.page.close();
    await wasm.page.close();
  }
});
