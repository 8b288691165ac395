// The app on its WebGPU path in headless Chromium (SwiftShader): state through window.weft, pixels
// through capture(). Every wait polls a condition with a timeout; nothing sleeps and hopes.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp, startBrowser, waitFor } from './harness.mjs';
import { clothCentre, imageDifference, imageStats } from './pixels.mjs';

let session;
before(async () => {
  session = await startBrowser({ webgpu: true });
});
after(async () => {
  await session?.close();
});

const positions = (page) => page.evaluate(async () => Array.from(await window.weft.positions()));
const maxDifference = (a, b) => a.reduce((m, v, i) => Math.max(m, Math.abs(v - b[i])), 0);
/** Lets the page run n animation frames (the render loop keeps going while paused). */
const animationFrames = (page, n) =>
  page.evaluate((count) => new Promise((done) => {
    let left = count;
    const tick = () => (--left <= 0 ? done() : requestAnimationFrame(tick));
    requestAnimationFrame(tick);
  }), n);

test('loads on WebGPU with no console errors, frames advance, stats follow the contract', async () => {
  const { page, errors } = await openApp(session, '?scene=sphere&grid=32');
  try {
    const stats = await page.evaluate(() => window.weft.stats());
    for (const key of ['frame', 'fps', 'simMs', 'particles', 'constraints', 'colors', 'solver', 'renderer', 'paused', 'sphereMoving', 'mode']) {
      assert.ok(key in stats, `stats().${key}`);
    }
    assert.equal(stats.renderer, 'webgpu');
    assert.equal(stats.solver, 'wasm');
    assert.equal(stats.particles, 32 * 32);
    assert.equal(stats.constraints, 6 * 32 * 32 - 5 * 64 + 2);
    assert.ok(stats.colors >= 12);
    assert.equal(stats.mode, 'silk');
    await waitFor(page, (f) => window.weft.stats().frame > f + 20, stats.frame);
    const hud = await page.textContent('#hud');
    assert.match(hud, /fps/);
    assert.match(hud, /1024 particles/);
    assert.deepEqual(errors, []);
  } finally {
    await page.close();
  }
});

test('Space pauses (positions stop changing) and resumes', async () => {
  const { page, errors } = await openApp(session, '?scene=hang&grid=24');
  try {
    await page.focus('#view');
    await page.keyboard.press('Space');
    await waitFor(page, () => window.weft.stats().paused);
    const frame = await page.evaluate(() => window.weft.stats().frame);
    const before = await positions(page);
    await animationFrames(page, 15);
    assert.equal(await page.evaluate(() => window.weft.stats().frame), frame, 'no frames simulated while paused');
    assert.equal(maxDifference(before, await positions(page)), 0, 'positions unchanged while paused');
    // step(n) works while paused and simulates exactly n frames.
    await page.evaluate(() => window.weft.step(3));
    assert.equal(await page.evaluate(() => window.weft.stats().frame), frame + 3);
    await page.keyboard.press('Space');
    await waitFor(page, (f) => !window.weft.stats().paused && window.weft.stats().frame > f + 10, frame + 3);
    assert.ok(maxDifference(before, await positions(page)) > 1e-4, 'positions change after resuming');
    assert.deepEqual(errors, []);
  } finally {
    await page.close();
  }
});

test('R restores the initial positions', async () => {
  const { page, errors } = await openApp(session, '?scene=hang&grid=24');
  try {
    await page.evaluate(() => window.weft.pause());
    await page.evaluate(() => window.weft.reset());
    const initial = await positions(page);
    await page.evaluate(() => window.weft.step(40));
    assert.ok(maxDifference(initial, await positions(page)) > 0.05, 'the cloth moved');
    await page.focus('#view');
    await page.keyboard.press('r');
    await waitFor(page, () => window.weft.stats().frame === 0);
    assert.equal(maxDifference(initial, await positions(page)), 0, 'R puts every particle back');
    assert.deepEqual(errors, []);
  } finally {
    await page.close();
  }
});

test('S toggles the sphere motion, and the sphere really moves and stops', async () => {
  const { page, errors } = await openApp(session, '?scene=sphere&grid=24');
  try {
    const sphere = () => page.evaluate(() => window.weft.stats().spheres[0]);
    await page.evaluate(() => window.weft.pause());
    assert.equal(await page.evaluate(() => window.weft.stats().sphereMoving), true);
    const a = await sphere();
    await page.evaluate(() => window.weft.step(20));
    const b = await sphere();
    assert.ok(Math.hypot(a.x - b.x, a.y - b.y, a.z - b.z) > 0.01, 'the sphere moves while its motion is on');
    await page.focus('#view');
    await page.keyboard.press('s');
    await waitFor(page, () => window.weft.stats().sphereMoving === false);
    const c = await sphere();
    await page.evaluate(() => window.weft.step(20));
    assert.deepEqual(await sphere(), c, 'the sphere stays put while its motion is off');
    await page.keyboard.press('s');
    await waitFor(page, () => window.weft.stats().sphereMoving === true);
    await page.evaluate(() => window.weft.step(20));
    const d = await sphere();
    assert.ok(Math.hypot(c.x - d.x, c.y - d.y, c.z - d.z) > 0.01, 'it moves again');
    assert.deepEqual(errors, []);
  } finally {
    await page.close();
  }
});

test('each shading mode gives a different picture', async () => {
  const { page, errors } = await openApp(session, '?scene=sphere&grid=32');
  try {
    await page.evaluate(() => window.weft.pause());
    await page.evaluate(() => window.weft.step(90)); // draped over the sphere: folds, strain, varied normals
    const select = page.getByRole('combobox', { name: 'shading' });
    const captures = {};
    for (const mode of ['silk', 'gold', 'strain', 'normal']) {
      await select.selectOption(mode);
      await waitFor(page, (m) => window.weft.stats().mode === m, mode);
      captures[mode] = await page.evaluate(() => window.weft.capture());
      const stats = await imageStats(page, captures[mode]);
      assert.ok(stats.distinctColours > 40 && stats.stddev > 5, `${mode} capture is not blank: ${JSON.stringify(stats)}`);
    }
    const modes = Object.keys(captures);
    for (let i = 0; i < modes.length; i++) {
      for (let j = i + 1; j < modes.length; j++) {
        const difference = await imageDifference(page, captures[modes[i]], captures[modes[j]]);
        assert.ok(difference > 0.02, `${modes[i]} vs ${modes[j]}: only ${(difference * 100).toFixed(2)}% of pixels differ`);
      }
    }
    assert.ok((await imageStats(page, captures.silk)).reddishFraction > 0.02, 'silk shows the red cloth');
    assert.deepEqual(errors, []);
  } finally {
    await page.close();
  }
});

test('a mouse drag that starts on the cloth pulls the grabbed region towards the pointer', async () => {
  const { page, errors } = await openApp(session, '?scene=hang&grid=24&mode=normal');
  try {
    await page.evaluate(() => window.weft.pause());
    await page.evaluate(() => window.weft.step(150)); // let it hang
    const centre = await clothCentre(page, await page.evaluate(() => window.weft.capture()));
    assert.ok(centre && centre.count > 200, 'the cloth is on screen');
    const before = await positions(page);
    await page.mouse.move(centre.x, centre.y);
    await page.mouse.down();
    // Drag 140 CSS pixels upwards (world +y for this camera), simulating while the button is held.
    for (let i = 1; i <= 7; i++) {
      await page.mouse.move(centre.x, centre.y - i * 20);
      await page.evaluate(() => window.weft.step(6));
    }
    await page.evaluate(() => window.weft.step(30));
    const held = await positions(page);
    await page.mouse.up();
    let best = -1, rise = 0;
    for (let i = 0; i < before.length; i += 4) {
      if (held[i + 1] - before[i + 1] > rise) (rise = held[i + 1] - before[i + 1]), (best = i / 4);
    }
    assert.ok(rise > 0.25, `the grabbed region rose by ${rise.toFixed(3)} m (particle ${best})`);
    // A drag elsewhere orbits instead of grabbing: the cloth stays where physics puts it.
    const orbitBefore = await positions(page);
    await page.mouse.move(20, 20);
    await page.mouse.down();
    await page.mouse.move(120, 40, { steps: 4 });
    await page.mouse.up();
    assert.equal(maxDifference(orbitBefore, await positions(page)), 0, 'orbiting does not touch the cloth');
    assert.deepEqual(errors, []);
  } finally {
    await page.close();
  }
});

test('bad URL parameters give messages and defaults, never a crash', async () => {
  const { page } = await openApp(session, '?scene=nope&grid=abc&mode=shiny&solver=quantum&renderer=glide');
  try {
    const stats = await page.evaluate(() => window.weft.stats());
    assert.equal(stats.mode, 'silk');
    assert.equal(stats.solver, 'wasm');
    assert.equal(stats.particles, 64 * 64);
    const text = await page.textContent('#messages');
    for (const word of ['scene "nope"', 'grid "abc"', 'mode "shiny"', 'solver "quantum"', 'renderer "glide"']) assert.ok(text.includes(word), `message about ${word} in: ${text}`);
  } finally {
    await page.close();
  }
});

test('?solver=gpu says what it runs and keeps running', async () => {
  const { page, errors } = await openApp(session, '?solver=gpu&grid=16');
  try {
    const stats = await page.evaluate(() => window.weft.stats());
    if (stats.solver === 'wasm') assert.match(await page.textContent('#messages'), /GPU solver/);
    await waitFor(page, (f) => window.weft.stats().frame > f + 5, stats.frame);
    assert.deepEqual(errors, []);
  } finally {
    await page.close();
  }
});
