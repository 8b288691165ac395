// The app on its WebGPU path in headless Chromium (SwiftShader): state through window.weft, pixels
// through capture(). Every wait polls a condition with a timeout; nothing sleeps and hopes.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp, waitFor, useBrowser } from './harness.mjs';
import { clothCentre, imageDifference, imageStats } from './pixels.mjs';

const session = useBrowser({ webgpu: true });

const positions = (page) => page.evaluate(async () => Array.from(await window.weft.positions()));
const maxDifference = (a, b) => a.reduce((m, v, i) => Math.max(m, Math.abs(v - b[i])), 0);
/** Lets the page run n animation frames (the render loop keeps going while paused). */
const animationFrames = (page, n) =>
  page.evaluate(
    (count) =>
      new Promise((done) => {
        let left = count;
        const tick = () => (--left <= 0 ? done() : requestAnimationFrame(tick));
        requestAnimationFrame(tick);
      }),
    n,
  );

test('loads on WebGPU with no console errors, frames advance, stats follow the contract', async () => {
  const { page, errors } = await openApp(session, '?scene=sphere&grid=32');
  try {
    const stats = await page.evaluate(() => window.weft.stats());
    for (const key of [
      'frame',
      'fps',
      'simMs',
      'particles',
      'constraints',
      'colors',
      'solver',
      'renderer',
      'paused',
      'sphereMoving',
      'mode',
    ]) {
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
    let best = -1,
      rise = 0;
    for (let i = 0; i < before.length; i += 4) {
      if (held[i + 1] - before[i + 1] > rise) ((rise = held[i + 1] - before[i + 1]), (best = i / 4));
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
    for (const word of ['scene "nope"', 'grid "abc"', 'mode "shiny"', 'solver "quantum"', 'renderer "glide"'])
      assert.ok(text.includes(word), `message about ${word} in: ${text}`);
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

test('camera: drag orbits, Shift+drag pans, the wheel and a two-finger pinch zoom', async () => {
  const { page, errors } = await openApp(session, '?scene=hang&grid=16');
  try {
    await page.evaluate(() => window.weft.pause());
    const shot = () => page.evaluate(() => window.weft.capture());
    const changed = async (before, what) => {
      const after = await shot();
      assert.ok((await imageDifference(page, before, after)) > 0.01, `${what} changes the view`);
      return after;
    };
    let view = await shot();
    await page.mouse.move(30, 300);
    await page.mouse.down();
    await page.mouse.move(130, 320, { steps: 5 });
    await page.mouse.up();
    view = await changed(view, 'orbit');
    await page.keyboard.down('Shift');
    await page.mouse.move(30, 300);
    await page.mouse.down();
    await page.mouse.move(90, 340, { steps: 5 });
    await page.mouse.up();
    await page.keyboard.up('Shift');
    view = await changed(view, 'pan');
    await page.mouse.move(400, 300);
    await page.mouse.wheel(0, 600);
    view = await changed(view, 'wheel zoom');
    // Two touch pointers moving apart: pinch zoom (synthetic pointer events, as a touch screen sends).
    await page.evaluate(() => {
      const canvas = document.getElementById('view');
      const send = (type, id, x, y) =>
        canvas.dispatchEvent(
          new PointerEvent(type, { pointerId: id, pointerType: 'touch', clientX: x, clientY: y, bubbles: true, isPrimary: id === 11 }),
        );
      send('pointerdown', 11, 380, 300);
      send('pointerdown', 12, 420, 300);
      for (let i = 1; i <= 5; i++) {
        send('pointermove', 11, 380 - i * 30, 300);
        send('pointermove', 12, 420 + i * 30, 300);
      }
      send('pointerup', 11, 230, 300);
      send('pointerup', 12, 570, 300);
    });
    await changed(view, 'pinch');
    assert.deepEqual(errors, []);
  } finally {
    await page.close();
  }
});

test('the bunny scene draws its mesh collider', async (t) => {
  const { page, errors } = await openApp(session, '?scene=bunny&grid=32');
  try {
    if (/unknown scene "bunny"/.test(await page.textContent('#messages'))) {
      t.skip('this core has no bunny scene yet');
      return;
    }
    await page.evaluate(() => window.weft.pause());
    const porcelain = await page.evaluate(async () => {
      const image = new Image();
      image.src = await window.weft.capture();
      await image.decode();
      const canvas = Object.assign(document.createElement('canvas'), { width: image.width, height: image.height });
      const context = canvas.getContext('2d');
      context.drawImage(image, 0, 0);
      const { data } = context.getImageData(0, 0, image.width, image.height);
      let count = 0;
      for (let i = 0; i < data.length; i += 4) {
        const hi = Math.max(data[i], data[i + 1], data[i + 2]),
          lo = Math.min(data[i], data[i + 1], data[i + 2]);
        if (lo > 150 && hi - lo < 30) count++;
      }
      return count / (data.length / 4);
    });
    // Before the cloth falls, the white bunny stands in full view under it.
    assert.ok(porcelain > 0.005, `bunny pixels: ${(porcelain * 100).toFixed(2)}%`);
    assert.deepEqual(errors, []);
  } finally {
    await page.close();
  }
});

test('the drawing buffer follows the window size and devicePixelRatio', async () => {
  const { page, errors } = await openApp(session, '?scene=hang&grid=16', { width: 640, height: 400, deviceScaleFactor: 2 });
  try {
    await page.evaluate(() => window.weft.pause());
    const size = async () => {
      const stats = await imageStats(page, await page.evaluate(() => window.weft.capture()));
      return [stats.width, stats.height];
    };
    assert.deepEqual(await size(), [1280, 800], 'device pixels at devicePixelRatio 2');
    await page.setViewportSize({ width: 500, height: 300 });
    await waitFor(page, () => window.innerWidth === 500);
    // The resize observer runs before the next frame: poll the captured size.
    let current;
    for (const deadline = Date.now() + 10_000; Date.now() < deadline;) {
      current = await size();
      if (current[0] === 1000) break;
    }
    assert.deepEqual(current, [1000, 600]);
    assert.deepEqual(errors, []);
  } finally {
    await page.close();
  }
});
