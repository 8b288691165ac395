// The GPU solver with a mesh collider in the page (headless Chromium, WebGPU on SwiftShader):
// ?scene=bunny&solver=gpu runs mesh_collide.wgsl instead of refusing the scene, and step(n) +
// positions() agree with ?solver=wasm; a user's OBJ (window.weft.loadObj) keeps the GPU solver. The page runs the tiled schedule (another Gauss-Seidel
// order than C): folds slide differently (measured 0.19 m max difference at frame 60), so the
// agreement is physical: ≤ 1e-6 m after one frame (free fall); at frame 60 the centre vertex rests
// on the bunny's back at the same height (≤ 1 cm; measured 2.7 mm) and the cloth's mean height
// agrees (≤ 3 cm; measured 1.0 cm), where a cloth that fell through would lie on the ground, 0.6 m
// lower. Both pages run 10 substeps (typed into the panel), where these tolerances were measured:
// the scene's own 40 (its ears pierced a fine cloth at 10) slide the fold a little farther apart
// (1.1 cm at the centre). The GPU solver has no ridge lifts (mesh_ridge_lifts.c) and keeps its
// substeps in every frame: the wasm page turns the lifts off with the panel's switch and types its
// max substeps to 0 (else it adds substeps while the cloth lands: the centre 1.8 cm higher). The first load compiles the mesh kernel on SwiftShader: about 15 s.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { maxDifference, openApp, openGpuApp, runFrames, typeIntoPanel, useBrowser } from './harness.mjs';

const session = useBrowser({ webgpu: true });

test('?scene=bunny&solver=gpu: the GPU collides with the bunny and agrees with ?solver=wasm (bunny 24)', async () => {
  const gpu = await openGpuApp(session, '?solver=gpu&scene=bunny&grid=24');
  const wasm = await openApp(session, '?solver=wasm&scene=bunny&grid=24');
  try {
    await typeIntoPanel(gpu.page, 'substeps', '10');
    await typeIntoPanel(wasm.page, 'substeps', '10');
    await typeIntoPanel(wasm.page, 'max substeps', '0');
    assert.equal(await gpu.page.locator('.lil-gui .lil-controller', { hasText: 'max substeps' }).isVisible(), false);
    // The GPU has no ridge lifts: the wasm page turns them off with the panel's switch (a user's click),
    // so both run the same physics; the GPU page has no such switch.
    assert.equal(await wasm.page.evaluate(() => window.weft.stats().ridgeLifts), true, 'the wasm solver lifts by default');
    await wasm.page.locator('.lil-gui .lil-controller', { hasText: 'ridge lifts' }).locator('input[type=checkbox]').click();
    assert.equal(await wasm.page.evaluate(() => window.weft.stats().ridgeLifts), false, 'the switch turned the lifts off');
    assert.equal(await gpu.page.evaluate(() => window.weft.stats().ridgeLifts), null, 'the GPU solver has no lifts');
    assert.equal(await gpu.page.locator('.lil-gui .lil-controller', { hasText: 'ridge lifts' }).isVisible(), false);
    const g1 = await runFrames(gpu.page, 1),
      w1 = await runFrames(wasm.page, 1);
    assert.equal(
      g1.stats.solver,
      'gpu',
      `the GPU solver runs the bunny scene (no fallback); page says: ${await gpu.page.textContent('#messages')}`,
    );
    assert.equal(w1.stats.solver, 'wasm');
    assert.ok(maxDifference(g1.positions, w1.positions) <= 1e-6, `frame 1: ${maxDifference(g1.positions, w1.positions)} m`);
    const g60 = await runFrames(gpu.page, 60),
      w60 = await runFrames(wasm.page, 60);
    const height = (p, i) => p[4 * i + 1];
    const mean = (p) => p.reduce((m, v, i) => (i % 4 === 1 ? m + v : m), 0) / (p.length / 4);
    const centre = 12 * 24 + 12;
    const start = height(g1.positions, centre);
    console.error(
      `frame 60: centre ${height(g60.positions, centre)} vs ${height(w60.positions, centre)}; mean ${mean(g60.positions)} vs ${mean(w60.positions)}; max diff ${maxDifference(g60.positions, w60.positions)}`,
    );
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

// A unit box, counter-clockwise from outside (fitted under the cloth by the core: 0.96 m wide and tall).
const BOX = readFileSync(new URL('./fixtures/box.obj', import.meta.url), 'utf8');

test('a user OBJ as the collider keeps ?solver=gpu, and the cloth rests on it as on wasm (box, grid 16)', async () => {
  const gpu = await openGpuApp(session, '?solver=gpu&scene=bunny&grid=16');
  const wasm = await openApp(session, '?solver=wasm&scene=bunny&grid=16');
  try {
    const centreAfter = (page) =>
      page.evaluate(async (box) => {
        const result = await window.weft.loadObj(box);
        window.weft.pause();
        await window.weft.reset();
        await window.weft.step(60);
        const p = await window.weft.positions();
        return { result, stats: window.weft.stats(), y: p[4 * (8 * 16 + 8) + 1] };
      }, BOX);
    const g = await centreAfter(gpu.page),
      w = await centreAfter(wasm.page);
    assert.ok(!g.result.error, `the box was taken: ${g.result.error}`);
    assert.equal(g.stats.solver, 'gpu', 'the GPU solver runs with the user collider');
    assert.ok(w.y > 0.8, `the wasm cloth rests on the box top (${w.y} m)`);
    assert.ok(Math.abs(g.y - w.y) <= 1e-2, `centre height: gpu ${g.y} m, wasm ${w.y} m`);
    assert.deepEqual(gpu.errors, []);
  } finally {
    await gpu.page.close();
    await wasm.page.close();
  }
});
