// What a rebuild from the panel keeps (a new user's review): another grid, another solver or a
// collider from a file keeps every setting the user chose, as R does (only the cloth's resolution,
// the solver or the collider changes); another scene brings all its own settings, the wind's
// heading included. Real panel input and keys; the page's state read back from the panel's boxes
// and window.weft.stats().
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp, panelController, typeIntoPanel, useBrowser, waitFor } from './harness.mjs';

const NUMBERS = [
  'substeps',
  'iterations',
  'stretch log₁₀α',
  'shear log₁₀α',
  'bend log₁₀α',
  'damping 1/s',
  'strain limit',
  'wind m/s',
  'wind heading °',
  'gusts \\(× speed\\)',
  'drag coefficient',
  'lift coefficient',
  'air density kg/m³',
];
const SWITCHES = ['self-collision', 'sphere moves \\(S\\)', 'paused \\(Space\\)'];

/** Every setting as the panel shows it and as the page runs it (stats()). */
async function settings(page) {
  const shown = {};
  for (const name of NUMBERS) shown[name] = await panelController(page, name).locator('input').inputValue();
  for (const name of SWITCHES) shown[name] = await panelController(page, name).locator('input').isChecked();
  shown.shading = await panelController(page, 'shading').locator('select').inputValue();
  const { selfCollision, sphereMoving, strainLimit, air, mode, paused, ridgeLifts } = await page.evaluate(() => window.weft.stats());
  return { shown, runs: { selfCollision, sphereMoving, strainLimit, air, mode, paused, ridgeLifts } };
}

/** The reviewer's settings and more: one of each kind the panel has, none of them the scene's own. */
async function chooseSettings(page) {
  await panelController(page, 'self-collision').locator('input').check();
  await page.locator('#view').focus();
  await page.keyboard.press('s'); // the sphere stops
  for (const [name, value] of [
    ['substeps', '5'],
    ['iterations', '2'],
    ['stretch log₁₀α', '-6'],
    ['bend log₁₀α', '-4'],
    ['damping 1/s', '2'],
    ['strain limit', '0.3'],
    ['wind m/s', '5'],
    ['wind heading °', '45'],
    ['gusts \\(× speed\\)', '0.2'],
    ['drag coefficient', '1.5'],
    ['air density kg/m³', '1'],
  ])
    await typeIntoPanel(page, name, value);
  await panelController(page, 'shading').locator('select').selectOption('strain');
  await panelController(page, 'paused \\(Space\\)').locator('input').check();
  const chosen = await settings(page);
  const { selfCollision, sphereMoving, strainLimit, air, mode, paused } = chosen.runs;
  assert.deepEqual(
    { selfCollision, sphereMoving, mode, paused },
    { selfCollision: true, sphereMoving: false, mode: 'strain', paused: true },
  );
  assert.ok(
    Math.abs(strainLimit - 0.3) < 1e-6 && air.airDensity === 1 && Math.abs(air.wind.z - 5 * Math.SQRT1_2) < 1e-5,
    JSON.stringify(chosen.runs),
  );
  assert.equal(chosen.shown['substeps'], '5');
  assert.equal(chosen.shown['damping 1/s'], '2.00');
  return chosen;
}

describe('another grid from the panel', () => {
  const session = useBrowser({ webgpu: false });

  test("keeps every setting the user chose (it reset them all to the scene's, all but the shading)", async () => {
    const { page, errors } = await openApp(session, '?solver=wasm&scene=sphere&grid=32&renderer=webgl2', { width: 1100, height: 900 });
    try {
      const chosen = await chooseSettings(page);
      await panelController(page, 'grid \\(N×N\\)').locator('select').selectOption('48');
      await waitFor(page, () => window.weft.stats().particles === 48 * 48);
      assert.equal(await page.evaluate(() => window.weft.stats().frame), 0, 'a new cloth, from rest (paused)');
      assert.deepEqual(await settings(page), chosen);
      // Settings the core derives from the grid (self-collision's thickness, from the spacing) follow
      // the new grid: the cloth still runs, and stays in one piece.
      const stats = await page.evaluate(async () => {
        await window.weft.step(30);
        return window.weft.stats();
      });
      assert.equal(stats.frame, 30);
      assert.deepEqual(await settings(page), chosen, 'and they stay as it runs');
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });

  test("a mesh collider's ridge-lift switch stays off; a collider from a file keeps the settings too", async () => {
    const { page, errors } = await openApp(session, '?solver=wasm&scene=flag&grid=16&renderer=webgl2', { width: 1100, height: 900 });
    try {
      await panelController(page, 'ridge lifts').locator('input').uncheck();
      await typeIntoPanel(page, 'damping 1/s', '2');
      assert.equal(await page.evaluate(() => window.weft.stats().ridgeLifts), false);
      await panelController(page, 'grid \\(N×N\\)').locator('select').selectOption('32');
      await waitFor(page, () => window.weft.stats().particles === 32 * 21);
      assert.equal(await page.evaluate(() => window.weft.stats().ridgeLifts), false, 'ridge lifts stay off');
      assert.equal(await panelController(page, 'ridge lifts').locator('input').isChecked(), false);
      assert.equal(await panelController(page, 'damping 1/s').locator('input').inputValue(), '2.00');

      // On the sphere (no mesh, so no ridge-lift switch of the user's): a file's collider keeps the
      // settings, and its mesh gets its ridge lifts as any mesh does (on).
      await panelController(page, 'scene').locator('select').selectOption('sphere');
      await waitFor(page, () => window.weft.stats().spheres.length === 1);
      await typeIntoPanel(page, 'substeps', '5');
      const loaded = await page.evaluate(() => window.weft.loadObj('v -1 0 -1\nv 1 0 -1\nv 0 0 1\nf 1 2 3\n'));
      assert.equal(loaded.ok, true);
      assert.equal(await page.evaluate(() => window.weft.stats().ridgeLifts), true);
      assert.equal(await panelController(page, 'substeps').locator('input').inputValue(), '5');
      await panelController(page, "scene's own collider").locator('button').click();
      await waitFor(page, () => window.weft.stats().spheres.length === 1);
      assert.equal(await panelController(page, 'substeps').locator('input').inputValue(), '5');
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });
});

describe('another solver from the panel', () => {
  const session = useBrowser({ webgpu: true });

  test("wasm → gpu → wasm keeps every setting the user chose (it reset them all to the scene's)", async () => {
    const { page, errors } = await openApp(session, '?solver=wasm&scene=sphere&grid=16', { width: 1100, height: 900 });
    const solver = panelController(page, 'solver').locator('select');
    try {
      assert.equal(await page.evaluate(() => window.weft.stats().renderer), 'webgpu', await page.textContent('#messages'));
      const chosen = await chooseSettings(page);
      await solver.selectOption('gpu');
      await waitFor(page, () => window.weft.stats().solver === 'gpu', undefined, 60_000);
      assert.deepEqual(await settings(page), chosen, 'on the gpu solver');
      // The GPU solver runs with them (paused: the steps are the hook's).
      await page.evaluate(() => window.weft.step(5));
      assert.deepEqual(await settings(page), chosen, 'on the gpu solver, after steps');
      await solver.selectOption('wasm');
      await waitFor(page, () => window.weft.stats().solver === 'wasm', undefined, 60_000);
      assert.deepEqual(await settings(page), chosen, 'back on wasm');
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });
});

describe('another scene from the panel', () => {
  const session = useBrowser({ webgpu: false });

  test("brings that scene's own settings, the wind's heading included (flag's 21° stayed on the calm sphere)", async () => {
    const fresh = await openApp(session, '?solver=wasm&scene=sphere&grid=16&renderer=webgl2', { width: 1100, height: 900 });
    let own, ownWind;
    try {
      own = await settings(fresh.page);
      await typeIntoPanel(fresh.page, 'wind m/s', '10');
      ownWind = await settings(fresh.page);
      assert.deepEqual(fresh.errors, []);
    } finally {
      await fresh.page.close();
    }
    assert.equal(own.shown['wind heading °'], '0');

    const { page, errors } = await openApp(session, '?solver=wasm&scene=flag&grid=16&renderer=webgl2', { width: 1100, height: 900 });
    try {
      await typeIntoPanel(page, 'substeps', '5'); // the user's, on flag: not sphere's
      await panelController(page, 'scene').locator('select').selectOption('sphere');
      await waitFor(page, () => window.weft.stats().spheres.length === 1);
      assert.deepEqual(await settings(page), own);
      await typeIntoPanel(page, 'wind m/s', '10');
      const wind = await page.evaluate(() => window.weft.stats().air.wind);
      assert.deepEqual(wind, { x: 10, y: 0, z: 0 });
      assert.deepEqual(await settings(page), ownWind);
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });
});

describe("self-collision's thickness from the panel", () => {
  const session = useBrowser({ webgpu: false });

  test('is the grid spacing until set; a set one runs at once and is kept at another grid', async () => {
    const { page, errors } = await openApp(session, '?solver=wasm&scene=fold&grid=32&renderer=webgl2', { width: 1100, height: 900 });
    try {
      const thickness = () => page.evaluate(() => window.weft.stats().thickness);
      assert.ok(Math.abs((await thickness()) - 1 / 31) < 1e-6, `the fold's 1 m cloth at 32²: one spacing (${await thickness()})`);
      assert.equal(await panelController(page, 'thickness mm').locator('input').inputValue(), '32.3');
      // Untouched, it follows the grid.
      await panelController(page, 'grid \\(N×N\\)').locator('select').selectOption('48');
      await waitFor(page, () => window.weft.stats().particles === 48 * 48);
      assert.ok(Math.abs((await thickness()) - 1 / 47) < 1e-6, `at 48²: ${await thickness()}`);
      // Set, it runs at once (the pile keeps it) and stays at another grid.
      await typeIntoPanel(page, 'thickness mm', '50');
      assert.ok(Math.abs((await thickness()) - 0.05) < 1e-6, `set: ${await thickness()}`);
      const finite = await page.evaluate(async () => {
        await window.weft.step(60);
        return Array.from(await window.weft.positions()).every(Number.isFinite);
      });
      assert.ok(finite);
      await panelController(page, 'grid \\(N×N\\)').locator('select').selectOption('32');
      await waitFor(page, () => window.weft.stats().particles === 32 * 32);
      assert.ok(Math.abs((await thickness()) - 0.05) < 1e-6, `kept at 32²: ${await thickness()}`);
      assert.equal(await panelController(page, 'thickness mm').locator('input').inputValue(), '50.0');
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });
});
