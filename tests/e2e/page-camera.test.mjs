// Issue 13, point 1: the camera never goes under the ground (or into a collider), whatever the
// mouse, touch or keyboard does; F, a double-click and the panel's button frame the cloth; a new
// scene is framed. Real input events (playwright mouse, CDP touch, keys) on WebGPU and WebGL2;
// state from stats().camera, pixels from capture().
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp, waitFor, useBrowser } from './harness.mjs';
import { clothBounds, clothCentre, imageStats } from './pixels.mjs';

const MARGIN = 0.05; // camera.ts GROUND_MARGIN
const camera = (page) => page.evaluate(() => window.weft.stats().camera);
const assertAboveGround = (c, what) =>
  assert.ok(c.ground === null || c.eye.y >= c.ground + MARGIN - 1e-6, `${what}: eye y ${c.eye.y}, ground ${c.ground}`);
/** The bottom-left dock (messages, toolbar) out of the way of drags that start there. */
const clearDock = (page) => page.evaluate(() => (document.getElementById('dock').style.display = 'none'));

/** A mouse drag from (x, y) by (dx, dy) in `steps` moves, optionally with Shift held. */
async function drag(page, x, y, dx, dy, { shift = false, steps = 20 } = {}) {
  if (shift) await page.keyboard.down('Shift');
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + dx, y + dy, { steps });
  await page.mouse.up();
  if (shift) await page.keyboard.up('Shift');
}

/** A one-finger drag through CDP touch events (pointerType "touch" in the page). */
async function touchDrag(page, x, y, dx, dy, steps = 20) {
  const cdp = await page.context().newCDPSession(page);
  const point = (i) => [{ x: x + (dx * i) / steps, y: y + (dy * i) / steps, id: 1 }];
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: point(0) });
  for (let i = 1; i <= steps; i++) await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: point(i) });
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await cdp.detach();
}

const clothPixels = async (page) => (await imageStats(page, await page.evaluate(() => window.weft.capture()))).reddishFraction;

for (const webgpu of [true, false]) {
  describe(webgpu ? 'WebGPU' : 'WebGL2', () => {
    const session = useBrowser({ webgpu });
    const query = (q) => `${q}${webgpu ? '' : '&renderer=webgl2'}`;

    test('mouse and touch drags of 400 px and Shift-drags never take the eye under the ground; the cloth stays in view', async () => {
      const { page, errors } = await openApp(session, query('?scene=sphere&grid=24'), { width: 800, height: 700, hasTouch: true });
      try {
        await page.evaluate(() => window.weft.pause());
        await clearDock(page);
        assert.equal((await camera(page)).ground, 0, 'the sphere scene has its ground at 0');
        // Up 400 px from the sky left of the cloth: the pitch goes down (this went under the floor).
        await drag(page, 90, 560, 0, -400);
        let c = await camera(page);
        assertAboveGround(c, 'mouse drag 400 px up');
        assert.ok(c.pitch < 0.1, `the drag did turn the camera down (pitch ${c.pitch})`);
        // And on past the limit, twice.
        await drag(page, 90, 560, 0, -450);
        await drag(page, 90, 560, 0, -450);
        assertAboveGround(await camera(page), 'mouse drags 1300 px in all');
        assert.ok((await clothPixels(page)) > 0.01, 'the cloth is still on screen, not hidden by the ground');
        // Shift-drag 150 px up (this panned the target, and the eye, under the floor), then much more.
        await drag(page, 90, 400, 0, -150, { shift: true });
        assertAboveGround(await camera(page), 'Shift-drag 150 px up');
        await drag(page, 90, 560, 0, -500, { shift: true });
        c = await camera(page);
        assertAboveGround(c, 'Shift-drag 500 px up');
        assert.ok(c.target.y >= MARGIN - 1e-6, `the target stays above the ground (${c.target.y})`);
        // One finger, 400 px up and down.
        await page.evaluate(() => window.weft.setCamera({ pitch: 0.3, target: { x: 0, y: 0.7, z: 0 }, distance: 3 }));
        await touchDrag(page, 90, 560, 0, -400);
        c = await camera(page);
        assertAboveGround(c, 'touch drag 400 px up');
        assert.ok(c.pitch < 0.3, `the touch drag turned the camera (pitch ${c.pitch})`);
        await touchDrag(page, 90, 150, 0, 400);
        assertAboveGround(await camera(page), 'touch drag 400 px down');
        // The wheel far in and out.
        for (let i = 0; i < 10; i++) await page.mouse.wheel(0, -800);
        assertAboveGround(await camera(page), 'wheel in');
        assert.deepEqual(errors, []);
      } finally {
        await page.close();
      }
    });

    test('F, a double-click and the panel button frame the cloth; a new scene is framed', async () => {
      const { page, errors } = await openApp(session, query('?scene=hang&grid=24'), { width: 800, height: 700, hasTouch: true });
      try {
        await page.evaluate(() => window.weft.pause());
        await clearDock(page);
        // Framing looks at the centre of the cloth's box where it is now.
        const box = await page.evaluate(async () => {
          const p = await window.weft.positions();
          const min = [Infinity, Infinity, Infinity],
            max = [-Infinity, -Infinity, -Infinity];
          for (let i = 0; i < p.length; i += 4)
            for (let k = 0; k < 3; k++) ((min[k] = Math.min(min[k], p[i + k])), (max[k] = Math.max(max[k], p[i + k])));
          return { x: (min[0] + max[0]) / 2, y: (min[1] + max[1]) / 2, z: (min[2] + max[2]) / 2 };
        });
        const framed = { target: box };
        const lost = async () => {
          await page.evaluate(() => window.weft.setCamera({ distance: 35, target: { x: 6, y: 4, z: -5 }, yaw: 2 }));
          assert.ok((await clothPixels(page)) < 0.01, 'looking away, the cloth is (nearly) gone');
        };
        const near = (a, b, what) =>
          assert.ok(Math.hypot(a.x - b.x, a.y - b.y, a.z - b.z) < 0.05, `${what}: target ${JSON.stringify(a)} vs ${JSON.stringify(b)}`);
        await lost();
        await page.focus('#view');
        await page.keyboard.press('f');
        await waitFor(page, () => window.weft.stats().camera.distance < 10);
        let c = await camera(page);
        near(c.target, framed.target, 'F');
        assertAboveGround(c, 'F');
        // Of the part of the view the panel leaves free (F frames the cloth there).
        const pixelsAfterF = (await clothPixels(page)) / (1 - c.inset);
        assert.ok(pixelsAfterF > 0.05, `F brings the cloth back into view (${pixelsAfterF} of the free pixels)`);

        await lost();
        await page.mouse.dblclick(90, 560);
        await waitFor(page, () => window.weft.stats().camera.distance < 10);
        near((await camera(page)).target, framed.target, 'double-click');

        // A double-tap (two one-finger taps through CDP touch events).
        await lost();
        const cdp = await page.context().newCDPSession(page);
        for (let i = 0; i < 2; i++) {
          await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: 90, y: 560, id: 1 }] });
          await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
        }
        await cdp.detach();
        await waitFor(page, () => window.weft.stats().camera.distance < 10);
        near((await camera(page)).target, framed.target, 'double-tap');

        await lost();
        await page.getByRole('button', { name: 'frame the cloth (F)' }).click();
        await waitFor(page, () => window.weft.stats().camera.distance < 10);
        near((await camera(page)).target, framed.target, 'panel button');

        // Another scene from the panel: the camera frames it.
        await lost();
        await page.getByRole('combobox', { name: 'scene' }).selectOption('sphere');
        await waitFor(page, () => window.weft.stats().spheres.length > 0 && window.weft.stats().camera.distance < 10);
        c = await camera(page);
        assertAboveGround(c, 'new scene');
        assert.ok(c.distance < 10 && Math.abs(c.target.x) < 1 && Math.abs(c.target.z) < 1, `framed: ${JSON.stringify(c)}`);
        const picture = await imageStats(page, await page.evaluate(() => window.weft.capture()));
        assert.ok(picture.stddev > 15 && picture.distinctColours > 100, `the new scene fills the view: ${JSON.stringify(picture)}`);
        assert.deepEqual(errors, []);
      } finally {
        await page.close();
      }
    });
  });
}

describe('camera across rebuilds', () => {
  const session = useBrowser({ webgpu: false });

  test('another grid or solver from the panel keeps the view the user turned to; another scene is framed', async () => {
    const { page, errors } = await openApp(session, '?scene=sphere&grid=24&renderer=webgl2', { width: 1000, height: 700 });
    try {
      await page.evaluate(() => window.weft.pause());
      await clearDock(page);
      // Turned, raised and wheeled in by hand (a drag off the cloth orbits).
      await drag(page, 120, 500, 160, 60);
      await page.mouse.move(500, 350);
      await page.mouse.wheel(0, -400);
      const chosen = await camera(page);
      const same = (a, b, what) =>
        assert.ok(
          Math.abs(a.yaw - b.yaw) < 1e-9 && Math.abs(a.pitch - b.pitch) < 1e-9 && Math.abs(a.distance - b.distance) < 1e-9,
          `${what}: the camera ${JSON.stringify(a)} became ${JSON.stringify(b)}`,
        );
      await page.getByRole('combobox', { name: 'grid (N×N)' }).selectOption('32');
      await waitFor(page, () => window.weft.stats().particles === 32 * 32);
      same(chosen, await camera(page), 'grid 32');
      // The GPU solver needs WebGPU: the page says so and the wasm solver goes on; the view stays.
      await page.getByRole('combobox', { name: 'solver' }).selectOption('gpu');
      await waitFor(page, () => document.getElementById('messages').textContent.includes('needs WebGPU'));
      same(chosen, await camera(page), 'solver');
      await page.getByRole('combobox', { name: 'scene' }).selectOption('hang');
      await waitFor(page, () => window.weft.stats().spheres.length === 0);
      const framed = await camera(page);
      assert.ok(Math.abs(framed.yaw - chosen.yaw) > 0.1, `hang is framed: yaw ${chosen.yaw} → ${framed.yaw}`);
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });
});

describe('wheel', () => {
  const session = useBrowser({ webgpu: false });

  test('a Firefox wheel notch (3 lines) zooms as a Chromium one (100 px); a page of wheel zooms further', async () => {
    const { page, errors } = await openApp(session, '?scene=sphere&grid=16&renderer=webgl2', { width: 800, height: 600 });
    try {
      await page.evaluate(() => window.weft.pause());
      const start = (await page.evaluate(() => window.weft.setCamera({ distance: 4 }))).distance;
      await page.mouse.move(400, 200);
      await page.mouse.wheel(0, 100); // Chromium: pixels
      await waitFor(page, (d) => window.weft.stats().camera.distance !== d, start);
      const pixelNotch = Math.log((await camera(page)).distance / start);
      // Firefox's mouse wheel: deltaMode 1 (lines), 3 a notch; page-wise scrolling: deltaMode 2.
      const zoomBy = (deltaY, deltaMode) =>
        page.evaluate(
          ([deltaY, deltaMode]) => {
            const from = window.weft.setCamera({ distance: 4 }).distance;
            const canvas = document.querySelector('canvas');
            canvas.dispatchEvent(
              new WheelEvent('wheel', { deltaY, deltaMode, clientX: 400, clientY: 200, bubbles: true, cancelable: true }),
            );
            return Math.log(window.weft.stats().camera.distance / from);
          },
          [deltaY, deltaMode],
        );
      const lineNotch = await zoomBy(3, 1);
      assert.ok(pixelNotch > 0.05, `a 100 px notch zooms out (log ratio ${pixelNotch})`);
      assert.ok(Math.abs(lineNotch - pixelNotch) < 0.1 * pixelNotch, `3 lines zoom ${lineNotch}, 100 px ${pixelNotch}`);
      const pageNotch = await zoomBy(1, 2);
      assert.ok(pageNotch > 3 * pixelNotch, `a page zooms ${pageNotch}`);
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });
});

describe('zoom toward the cloth', () => {
  const session = useBrowser({ webgpu: false });

  test('the wheel and a pinch, far in, stop the eye 5 cm short of the cloth in front of it; the wheel still zooms out', async () => {
    const { page, errors } = await openApp(session, '?scene=sphere&grid=24&renderer=webgl2', { width: 800, height: 600, hasTouch: true });
    try {
      await page.evaluate(() => window.weft.pause());
      await page.evaluate(() => window.weft.reset()); // the cloth flat at its rest height, above the sphere
      const clothY = await page.evaluate(async () => {
        const p = await window.weft.positions();
        let min = Infinity,
          max = -Infinity;
        for (let i = 1; i < p.length; i += 4) ((min = Math.min(min, p[i])), (max = Math.max(max, p[i])));
        return { min, max };
      });
      assert.ok(clothY.max - clothY.min < 1e-4, `the cloth is flat: y ${clothY.min} … ${clothY.max}`);
      // Looking steeply down at the sphere's top through the cloth (the target is under it, in the
      // sphere): before, the wheel took the eye through the cloth to the sphere's clearance.
      await page.evaluate(() => window.weft.setCamera({ yaw: 0.3, pitch: 1.1, distance: 3, target: { x: 0, y: 0.8, z: 0 } }));
      /** How far ahead of the eye, along the view direction, the line of sight meets the cloth's plane. */
      const gap = (c) => {
        const f = { x: c.target.x - c.eye.x, y: c.target.y - c.eye.y, z: c.target.z - c.eye.z };
        const n = Math.hypot(f.x, f.y, f.z);
        const t = (c.eye.y - clothY.max) / (-f.y / n);
        const hit = { x: c.eye.x + (f.x / n) * t, z: c.eye.z + (f.z / n) * t };
        assert.ok(Math.abs(hit.x) < 1 && Math.abs(hit.z) < 1, `the line of sight meets the cloth (at ${JSON.stringify(hit)})`);
        return t;
      };
      const assertInFront = (c, what) =>
        assert.ok(
          c.eye.y > clothY.max && gap(c) >= MARGIN - 2e-3,
          `${what}: eye ${JSON.stringify(c.eye)}, ${gap(c)} m in front of the cloth`,
        );
      await page.mouse.move(400, 300);
      for (let i = 0; i < 25; i++) {
        await page.mouse.wheel(0, -400);
        assertInFront(await camera(page), `wheel in ×${i + 1}`);
      }
      await page.evaluate(() => new Promise(requestAnimationFrame));
      let c = await camera(page);
      assertInFront(c, 'wheel in, settled');
      assert.ok(gap(c) < MARGIN + 0.01, `the wheel went as far as the limit: ${gap(c)} m in front of the cloth`);
      // Out as before: a 400 px notch, e^0.4 farther.
      await page.mouse.wheel(0, 400);
      await waitFor(page, (d) => window.weft.stats().camera.distance > d, c.distance);
      const out = await camera(page);
      assert.ok(Math.abs(Math.log(out.distance / c.distance) - 0.4) < 1e-6, `a 400 px wheel out: ${c.distance} → ${out.distance}`);
      // Two fingers spreading apart (CDP touch events): a pinch in, as far as the limit and no further.
      const cdp = await page.context().newCDPSession(page);
      const fingers = (span) => [
        { x: 400 - span / 2, y: 150, id: 1 },
        { x: 400 + span / 2, y: 150, id: 2 },
      ];
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: fingers(40) });
      for (let span = 60; span <= 600; span += 20)
        await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: fingers(span) });
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
      await cdp.detach();
      c = await camera(page);
      assertInFront(c, 'pinch in');
      assert.ok(c.distance < out.distance && gap(c) < MARGIN + 0.01, `the pinch zoomed in to the limit: ${gap(c)} m in front`);
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });
});

describe('colliders', () => {
  const session = useBrowser({ webgpu: true });

  test('the eye stays out of the sphere and the bunny', async () => {
    const { page, errors } = await openApp(session, '?scene=sphere&grid=16');
    try {
      const sphere = (await page.evaluate(() => window.weft.stats().spheres))[0];
      const c = await page.evaluate(
        (s) => window.weft.setCamera({ target: { x: s.x, y: s.y, z: s.z }, distance: 0.3, pitch: 0.2 }),
        sphere,
      );
      const d = Math.hypot(c.eye.x - sphere.x, c.eye.y - sphere.y, c.eye.z - sphere.z);
      assert.ok(d >= sphere.radius, `eye ${d} m from the sphere's centre, radius ${sphere.radius}`);
      await page.evaluate(() => window.weft.pause());
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
    const bunny = await openApp(session, '?scene=bunny&grid=16');
    try {
      const { min, max } = await bunny.page.evaluate(() => window.weft.stats().mesh);
      const centre = { x: (min.x + max.x) / 2, y: (min.y + max.y) / 2, z: (min.z + max.z) / 2 };
      const c = await bunny.page.evaluate((t) => window.weft.setCamera({ target: t, distance: 0.3, pitch: 0.1 }), centre);
      const inside = ['x', 'y', 'z'].every((k) => c.eye[k] > min[k] && c.eye[k] < max[k]);
      assert.ok(!inside, `eye ${JSON.stringify(c.eye)} outside the bunny's box`);
      assertAboveGround(c, 'bunny');
      assert.deepEqual(bunny.errors, []);
    } finally {
      await bunny.page.close();
    }
  });
});

describe('first view on a phone', () => {
  const session = useBrowser({ webgpu: true });

  test('a portrait view starts as far back as F would put it (the cloth fits across)', async () => {
    for (const scene of ['hang', 'flag']) {
      const { page, errors } = await openApp(session, `?scene=${scene}&grid=16`, { width: 390, height: 844, hasTouch: true });
      try {
        await page.evaluate(() => window.weft.pause());
        const first = await camera(page);
        const framed = await page.evaluate(() => window.weft.frame()); // what F does
        assert.ok(
          first.distance >= 0.9 * framed.distance,
          `${scene}: the first view is ${first.distance.toFixed(2)} m away, F frames the cloth at ${framed.distance.toFixed(2)}`,
        );
        assert.deepEqual(errors, []);
      } finally {
        await page.close();
      }
    }
  });
});

describe('a window turned', () => {
  const session = useBrowser({ webgpu: true });

  test('to portrait backs off as far as F would (the cloth was cut at both sides); turned back, the distance it had', async () => {
    const { page, errors } = await openApp(session, '?scene=hang&grid=16', { width: 1000, height: 700 });
    try {
      await page.evaluate(() => window.weft.pause());
      await page.evaluate(() => window.weft.setCamera({ distance: 0.9 * window.weft.stats().camera.distance })); // the user's zoom
      const landscape = await camera(page);
      await page.setViewportSize({ width: 400, height: 700 });
      await waitFor(page, (d) => window.weft.stats().camera.distance > 1.2 * d, landscape.distance);
      const portrait = await camera(page);
      // widthFit(aspect) = max(1, 0.8 / aspect) (app.ts): 1 at 1000×700, 1.4 at 400×700.
      assert.ok(Math.abs(portrait.distance / landscape.distance - 1.4) < 0.01, `${landscape.distance} → ${portrait.distance}`);
      const framed = await page.evaluate(() => window.weft.frame()); // what F does there
      assert.ok(portrait.distance >= 0.8 * framed.distance, `portrait ${portrait.distance}, F ${framed.distance}`);
      await page.evaluate((d) => window.weft.setCamera({ distance: d }), portrait.distance); // F moved it: back
      await page.setViewportSize({ width: 1000, height: 700 });
      await waitFor(page, (d) => window.weft.stats().camera.distance < 0.8 * d, portrait.distance);
      assert.ok(Math.abs((await camera(page)).distance - landscape.distance) < 1e-3, 'the distance it had');
      // A window a few pixels wide: the fit's distance beyond the camera's 40 m is kept, so back to
      // the landscape the distance is the one it had (it came back 0.48 m: the cut undone by the full factor).
      await page.setViewportSize({ width: 2, height: 600 });
      await waitFor(page, () => window.weft.stats().camera.distance === 40);
      await page.setViewportSize({ width: 1000, height: 700 });
      await waitFor(page, () => window.weft.stats().camera.distance < 40);
      assert.ok(Math.abs((await camera(page)).distance - landscape.distance) < 1e-3, `back from 2 px: ${(await camera(page)).distance}`);
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });
});

describe('first view of a lowered cloth', () => {
  const session = useBrowser({ webgpu: true });

  test('fold: the first view holds the whole hanging cloth and, unmoved, the settled pile above its lower third', async () => {
    const { page, errors } = await openApp(session, '?scene=fold&grid=24&mode=normal', { width: 1000, height: 700 });
    try {
      await page.evaluate(() => window.weft.pause());
      const start = await clothBounds(page, await page.evaluate(() => window.weft.capture()));
      assert.ok(start && start.top > 0.01 && start.bottom < 0.99, `the hanging cloth fits the view: ${JSON.stringify(start)}`);
      await page.evaluate(() => window.weft.step(240)); // lowered to the floor and piled (2 s of pins, then settling)
      const pile = await clothBounds(page, await page.evaluate(() => window.weft.capture()));
      // Framed for the hanging cloth alone, the pile's centre sat at 0.75 of the height.
      assert.ok(pile && pile.centreY > 0.25 && pile.centreY < 2 / 3, `the pile sits above the lower third: ${JSON.stringify(pile)}`);
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });
});

describe('the panel beside the picture', () => {
  const session = useBrowser({ webgpu: false });

  test('the cloth is framed in the part of the view the open panel leaves free (it was centred in the whole, under the panel)', async () => {
    const { page, errors } = await openApp(session, '?renderer=webgl2&scene=sphere&grid=24&mode=normal', { width: 800, height: 600 });
    try {
      await page.evaluate(() => window.weft.pause());
      const panel = await page.locator('.weft-panel').first().boundingBox();
      const framed = await page.evaluate(() => window.weft.frame());
      const free = panel.x; // the panel runs down the right side, from x to the window's edge
      assert.ok(Math.abs(framed.inset - (800 - free) / 800) < 0.01, `inset ${framed.inset}, panel from ${free} px`);
      const centre = await clothCentre(page, await page.evaluate(() => window.weft.capture()));
      assert.ok(
        centre && Math.abs(centre.x - free / 2) < 0.08 * 800,
        `the cloth at ${JSON.stringify(centre)}, the free part's middle ${free / 2}`,
      );
      // Closed, the panel covers nothing: the picture is centred in the whole view again.
      await page.locator('.weft-panel > .lil-title').first().click();
      await waitFor(page, () => window.weft.stats().camera.inset === 0);
      const whole = await clothCentre(page, await page.evaluate(() => window.weft.capture()));
      assert.ok(whole && Math.abs(whole.x - 400) < 0.08 * 800, `closed: the cloth at ${JSON.stringify(whole)}`);
      // Open again in a wider window: its share of the width follows.
      await page.locator('.weft-panel > .lil-title').first().click();
      await page.setViewportSize({ width: 1200, height: 600 });
      await waitFor(page, (w) => Math.abs(window.weft.stats().camera.inset - w / 1200) < 0.01, 800 - free);
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });

  test('a narrow window with the panel open starts as far back as F would put the cloth in the free part (the first view was framed before the panel)', async () => {
    const { page, errors } = await openApp(session, '?renderer=webgl2&scene=hang&grid=16&mode=normal', { width: 700, height: 800 });
    try {
      await page.evaluate(() => window.weft.pause());
      const first = await camera(page);
      // The free part is narrower than the framing's portrait bound (0.8: app.ts PORTRAIT_ASPECT).
      assert.ok(first.inset > 0 && (700 * (1 - first.inset)) / 800 < 0.8, `inset ${first.inset}`);
      const framed = await page.evaluate(() => window.weft.frame()); // what F does
      assert.ok(
        first.distance >= 0.9 * framed.distance,
        `the first view ${first.distance.toFixed(2)} m, F ${framed.distance.toFixed(2)} m`,
      );
      // Closed, the whole view is the free part: the camera comes in as far (widthFit 0.8 / aspect).
      await page.evaluate((d) => window.weft.setCamera({ distance: d }), first.distance);
      await page.locator('.weft-panel > .lil-title').first().click();
      await waitFor(page, () => window.weft.stats().camera.inset === 0);
      const closed = await camera(page);
      const fit = (aspect) => Math.max(1, 0.8 / aspect);
      const expected = (first.distance * fit(700 / 800)) / fit((700 * (1 - first.inset)) / 800);
      assert.ok(Math.abs(closed.distance - expected) < 1e-3 * expected, `closed: ${closed.distance}, expected ${expected}`);
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });
});
