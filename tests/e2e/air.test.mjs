// The panel's Air folder in the page (headless Chromium), on both solvers: on ?scene=flag a real
// click on the drag slider and a value typed into the wind box change the core's world def
// (stats().air reads it back), and the flag, streaming from its pole in the gusting wind, is
// captured to $WEFT_CAPTURE_DIR (default /tmp) as weft-flag-wasm.png and weft-flag-gpu.png, to look at.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openApp, openGpuApp, panelController, typeIntoPanel, useBrowser } from './harness.mjs';

const captureDir = process.env.WEFT_CAPTURE_DIR ?? '/tmp';

const session = useBrowser({ webgpu: true });

for (const solver of ['wasm', 'gpu']) {
  test(`?scene=flag&solver=${solver}: the Air sliders set the core's air; the flag streams from its pole`, async () => {
    const open = solver === 'gpu' ? openGpuApp : openApp;
    const { page, errors } = await open(session, `?scene=flag&grid=32&solver=${solver}`);
    try {
      const before = await page.evaluate(() => window.weft.stats());
      assert.equal(before.solver, solver, `the ${solver} solver runs; page says: ${await page.textContent('#messages')}`);
      assert.ok(before.air.airDensity > 1 && before.air.gustStrength > 0, `the flag has gusting air: ${JSON.stringify(before.air)}`);
      // A click at 70% along the drag slider (0..10): a coefficient near 7.
      const slider = panelController(page, 'drag coefficient').locator('.lil-slider');
      await slider.scrollIntoViewIfNeeded(); // the panel scrolls where it is taller than the window
      const box = await slider.boundingBox();
      await page.mouse.click(box.x + 0.7 * box.width, box.y + box.height / 2);
      const drag = await page.evaluate(() => window.weft.stats().air.drag);
      assert.ok(Math.abs(drag - 7) < 0.5 && drag !== before.air.drag, `drag ${before.air.drag} → ${drag}`);
      // Type a wind speed: the heading stays, the core's wind vector scales to 12 m/s.
      const input = panelController(page, 'wind m/s').locator('input');
      await input.click();
      await page.keyboard.press('Control+A');
      await page.keyboard.type('12');
      await page.keyboard.press('Enter');
      const wind = await page.evaluate(() => window.weft.stats().air.wind);
      assert.ok(Math.abs(Math.hypot(wind.x, wind.z) - 12) < 1e-3, `wind ${JSON.stringify(wind)}`);
      const heading = (w) => Math.atan2(w.z, w.x);
      assert.ok(Math.abs(heading(wind) - heading(before.air.wind)) < 1e-3, 'the heading stays');
      // Fly for 5 s with the new settings, then look.
      const x = await page.evaluate(async () => {
        window.weft.pause();
        await window.weft.step(300);
        return Array.from(await window.weft.positions());
      });
      // Particle 0 is pinned on the pole; the farthest particle is on the free edge.
      const pole = { x: x[0], z: x[2] };
      let reach = 0;
      for (let p = 0; p < x.length; p += 4) reach = Math.max(reach, Math.hypot(x[p] - pole.x, x[p + 2] - pole.z));
      assert.ok(reach > 0.8 * 2.4, `the free edge is ${reach} m from the pole`);
      const url = await page.evaluate(() => window.weft.capture());
      const path = join(captureDir, `weft-flag-${solver}.png`);
      writeFileSync(path, Buffer.from(url.replace(/^data:image\/png;base64,/, ''), 'base64'));
      console.log(`flag ${solver}: free edge ${reach.toFixed(3)} m from the pole, capture ${path}`);
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });
}

test('?scene=hang (no air): a wind typed in the panel fills the scene with air at sea level, says so, and the cloth blows', async () => {
  const { page, errors } = await openApp(session, '?scene=hang&grid=24');
  const air = () => page.evaluate(() => window.weft.stats().air);
  // Where the cloth is after 60 frames from rest (its mean z: the wind blows towards +z, across it).
  const meanZ = () =>
    page.evaluate(async () => {
      await window.weft.reset();
      await window.weft.step(60);
      const x = await window.weft.positions();
      let z = 0;
      for (let i = 2; i < x.length; i += 4) z += x[i];
      return z / (x.length / 4);
    });
  try {
    await page.evaluate(() => window.weft.pause());
    assert.equal((await air()).airDensity, 0, 'hang has no air');
    const still = await meanZ();
    await typeIntoPanel(page, 'wind heading °', '90');
    assert.equal((await air()).airDensity, 0, 'a heading without wind adds no air');
    await typeIntoPanel(page, 'wind m/s', '15');
    const blowing = await air();
    assert.ok(Math.abs(blowing.airDensity - 1.225) < 1e-6, `air density ${blowing.airDensity}`);
    assert.ok(Math.abs(blowing.wind.z - 15) < 1e-3, `wind ${JSON.stringify(blowing.wind)}`);
    assert.equal(await panelController(page, 'air density kg/m³').locator('input').inputValue(), '1.225');
    assert.match(await page.textContent('#messages'), /air density set from 0 to 1\.225/);
    const blown = await meanZ();
    assert.ok(blown - still > 0.05, `the wind moves the cloth: mean z ${still.toFixed(3)} → ${blown.toFixed(3)}`);
    // Density typed back to 0 is the user's choice: it stays, and so does the cloth.
    await typeIntoPanel(page, 'air density kg/m³', '0');
    assert.equal((await air()).airDensity, 0);
    assert.equal(await meanZ(), still, 'no air, no wind');
    assert.deepEqual(errors, []);
  } finally {
    await page.close();
  }
});

test('a wind heading chosen while the wind is calm survives Space and S, and the wind then blows that way', async () => {
  const { page, errors } = await openApp(session, '?scene=sphere&grid=16');
  const heading = panelController(page, 'wind heading °').locator('input');
  try {
    await typeIntoPanel(page, 'wind heading °', '90');
    // Keys read the panel back from the world (its wind is (0, 0, 0): no heading in it).
    await page.locator('canvas').first().focus();
    await page.keyboard.press('Space');
    await page.keyboard.press('s');
    assert.equal(await heading.inputValue(), '90', 'the heading box keeps 90');
    await typeIntoPanel(page, 'wind m/s', '10');
    const wind = await page.evaluate(() => window.weft.stats().air.wind);
    assert.ok(Math.abs(wind.z - 10) < 1e-3 && Math.abs(wind.x) < 1e-3, `wind towards +z: ${JSON.stringify(wind)}`);
    assert.deepEqual(errors, []);
  } finally {
    await page.close();
  }
});
