// Grabbing the hanging cloth with the mouse and letting go (headless Chromium, WebGL2, real mouse
// events): the cloth falls back under its pins. A drag past the hand's reach widens every tether
// (the core's tether scale); that scale used to snap back to 1 in one substep on release, and the
// snap flung the cloth 1.7 m above its pins (src/grab.c, weft_grab_advance_frame). The simulation is
// paused and stepped through window.weft, so the frames between the mouse events are the same on
// every run, however fast the machine.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp, useBrowser, waitFor } from './harness.mjs';
import { clothCentre } from './pixels.mjs';

const session = useBrowser({ webgpu: false });

const FPS = 60; // the hang scene's frame_dt is 1/60 s
const SETTLE = 3 * FPS; // frames to let the cloth hang
const MOVES = 10; // the drag's mouse moves, a frame each
const HOLD = Math.round(0.7 * FPS); // frames the drag is held still
/** Steps n frames; returns the positions (xyzw: w is the inverse mass, 0 for a pin). */
const stepAndRead = (page, n) =>
  page.evaluate(async (frames) => {
    await window.weft.step(frames);
    return Array.from(await window.weft.positions());
  }, n);

test('hang: a drag 60 px down from the centre, held 0.7 s and released, leaves the cloth under its pins', async () => {
  const { page, errors } = await openApp(session, '?renderer=webgl2&scene=hang&mode=normal', { width: 1280, height: 800 });
  try {
    // The pins' height from the first frame's positions (the pinned particles: w = 0).
    const start = await page.evaluate(async () => {
      window.weft.pause();
      await window.weft.reset();
      return Array.from(await window.weft.positions());
    });
    let pins = 0,
      pinY = -Infinity;
    for (let i = 0; i < start.length; i += 4) if (start[i + 3] === 0) ((pins += 1), (pinY = Math.max(pinY, start[i + 1])));
    assert.ok(pins >= 2, `the hang scene has its pins (${pins})`);
    // Where the cloth is, untouched, when the hold below ends (the wasm step is deterministic).
    const untouched = await stepAndRead(page, SETTLE + 1 + MOVES + HOLD);

    // Let it hang (3 s) from the start again, then find the cloth's centre on screen.
    await page.evaluate(() => window.weft.reset());
    const before = await stepAndRead(page, SETTLE);
    const highest = (x) => x.reduce((m, v, i) => (i % 4 === 1 ? Math.max(m, v) : m), -Infinity);
    assert.ok(highest(before) < pinY + 0.01, `the settled cloth hangs under its pins (${highest(before).toFixed(3)} m)`);
    const centre = await clothCentre(page, await page.evaluate(() => window.weft.capture()));
    assert.ok(centre && centre.count > 200, 'the cloth is on screen');

    // Press on the centre, drag 60 px down in 10 moves (a frame each), hold 0.7 s.
    await page.mouse.move(centre.x, centre.y);
    await page.mouse.down();
    await stepAndRead(page, 1);
    for (let i = 1; i <= MOVES; i++) {
      await page.mouse.move(centre.x, centre.y + (i * 60) / MOVES);
      await stepAndRead(page, 1);
    }
    const held = await stepAndRead(page, HOLD);
    // The grab held something: a region of the cloth is lower than it would be untouched.
    let drop = 0,
      grabbed = -1;
    for (let i = 0; i < held.length; i += 4) {
      if (untouched[i + 1] - held[i + 1] > drop) ((drop = untouched[i + 1] - held[i + 1]), (grabbed = i / 4));
    }
    assert.ok(drop > 0.05, `the grab pulled the cloth down ${drop.toFixed(3)} m (particle ${grabbed})`);

    // Release; for 1 s the cloth's highest point stays under the pins (+ 0.1 m).
    await page.mouse.up();
    const peaks = await page.evaluate(async (frames) => {
      const out = [];
      for (let f = 0; f < frames; f++) {
        await window.weft.step(1);
        const x = await window.weft.positions();
        let top = -Infinity;
        for (let i = 1; i < x.length; i += 4) top = Math.max(top, x[i]);
        out.push(top);
      }
      return out;
    }, FPS);
    const peak = Math.max(...peaks);
    const at = peaks.indexOf(peak) + 1;
    assert.ok(
      peak < pinY + 0.1,
      `after the release the cloth rose to y ${peak.toFixed(3)} m (frame ${at}), above its pins at ${pinY.toFixed(3)} m + 0.1`,
    );
    assert.deepEqual(errors, []);
  } finally {
    await page.close();
  }
});

test('hang: grabbing the cloth while paused says that it follows the hand once it runs', async () => {
  const { page, errors } = await openApp(session, '?renderer=webgl2&scene=hang&mode=normal', { width: 1280, height: 800 });
  try {
    await page.evaluate(async (frames) => {
      window.weft.pause();
      await window.weft.reset();
      await window.weft.step(frames);
    }, SETTLE);
    const centre = await clothCentre(page, await page.evaluate(() => window.weft.capture()));
    assert.ok(centre && centre.count > 200, 'the cloth is on screen');
    const messages = () => page.textContent('#messages');
    assert.doesNotMatch(await messages(), /Paused/);
    // A press beside the cloth orbits the camera and says nothing.
    await page.mouse.move(600, 60);
    await page.mouse.down();
    await page.mouse.move(640, 60);
    await page.mouse.up();
    assert.doesNotMatch(await messages(), /Paused/);
    // A press on it grabs it: the hint that it moves when it runs.
    await page.mouse.move(centre.x, centre.y);
    await page.mouse.down();
    await waitFor(page, () => /Paused: the cloth follows the hand when it runs/.test(document.getElementById('messages').textContent));
    await page.mouse.up();
    assert.deepEqual(errors, []);
  } finally {
    await page.close();
  }
});

// The hand meets a mesh collider as a particle's path would (src/grab.c, weft_world_hand_path):
// the cloth draped on the bunny, pressed on its highest point over the bunny's back and dragged
// 300 px down (into the bunny) in 3 frames, then held, keeps its edges under 1.6 times their length
// (here 1.26 times at the worst). The hand used to hold the particle inside the bunny, where the
// mouse pointed, and pulled a needle out of the cloth (4.04 times the rest length).
test('bunny: a drag down into the bunny slides over it instead of pulling a needle out of the cloth', async () => {
  const { page, errors } = await openApp(session, '?renderer=webgl2&scene=bunny&grid=32&mode=normal', { width: 1280, height: 800 });
  try {
    const rest = await page.evaluate(async () => {
      window.weft.pause();
      await window.weft.reset();
      return Array.from(await window.weft.positions());
    });
    const worstStretch = (x) => {
      let worst = 0;
      for (let i = 0; i < 32 * 32; ++i) {
        for (const j of [i % 32 < 31 ? i + 1 : -1, i + 32 < 32 * 32 ? i + 32 : -1]) {
          if (j < 0) continue;
          const length = (a) => Math.hypot(a[4 * i] - a[4 * j], a[4 * i + 1] - a[4 * j + 1], a[4 * i + 2] - a[4 * j + 2]);
          worst = Math.max(worst, length(x) / length(rest) - 1);
        }
      }
      return worst;
    };
    // The highest particle over the bunny's middle, put in the middle of the view (the camera's
    // target lands in the middle of the part the panel leaves free), looked at from above.
    const draped = await stepAndRead(page, 2 * FPS);
    let top = -1;
    for (let p = 0; p < 32 * 32; ++p) {
      const over = Math.abs(draped[4 * p]) < 0.2 && Math.abs(draped[4 * p + 2]) < 0.2;
      if (over && (top < 0 || draped[4 * p + 1] > draped[4 * top + 1])) top = p;
    }
    const target = { x: draped[4 * top], y: draped[4 * top + 1], z: draped[4 * top + 2] };
    const inset = await page.evaluate((t) => {
      window.weft.setCamera({ target: t, yaw: -0.4, pitch: 0.6, distance: 2 });
      return window.weft.stats().camera.inset;
    }, target);
    const press = { x: ((1 - inset) * 1280) / 2, y: 400 };
    await page.mouse.move(press.x, press.y);
    await page.mouse.down();
    await stepAndRead(page, 1);
    let worst = 0;
    for (let i = 1; i <= 3; i++) {
      await page.mouse.move(press.x, press.y + i * 100);
      worst = Math.max(worst, worstStretch(await stepAndRead(page, 1)));
    }
    for (let f = 0; f < 30; f++) worst = Math.max(worst, worstStretch(await stepAndRead(page, 1)));
    await page.mouse.up();
    assert.ok(worst < 0.6, `the cloth's longest edge reached ${(1 + worst).toFixed(2)} times its rest length`);
    assert.deepEqual(errors, []);
  } finally {
    await page.close();
  }
});
