// The WebGL2 path: chosen automatically when WebGPU is unavailable (Chromium without
// --enable-unsafe-webgpu) and on request (?renderer=webgl2). Here the canvas is really presented,
// so its pixels are read from a screenshot of the page.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { openApp, runFrames, waitFor, useBrowser } from './harness.mjs';
import { imageDifference, imageStats } from './pixels.mjs';

const session = useBrowser({ webgpu: false });

// The overlays (HUD, panel, messages) are hidden for the shot: only the canvas's own pixels count.
const OVERLAYS = '#hud, #dock, #messages, .weft-overlay, .lil-gui { visibility: hidden !important; }';
const screenshot = async (page) =>
  `data:image/png;base64,${(await page.locator('#view').screenshot({ style: OVERLAYS })).toString('base64')}`;

test('without WebGPU the app falls back to WebGL2, says so, and draws the scene on the canvas', async () => {
  const { page, errors } = await openApp(session, '?scene=sphere&grid=32');
  try {
    const stats = await page.evaluate(() => window.weft.stats());
    assert.equal(stats.renderer, 'webgl2');
    assert.match(await page.textContent('#messages'), /Falling back to WebGL2/);
    await page.evaluate(() => window.weft.pause());
    await page.evaluate(() => window.weft.step(60));
    // The next displayed frame shows the paused state; poll until the canvas holds the red cloth.
    let shot, pixels;
    for (const deadline = Date.now() + 20_000; Date.now() < deadline;) {
      shot = await screenshot(page);
      pixels = await imageStats(page, shot);
      if (pixels.reddishFraction > 0.02) break;
    }
    assert.ok(pixels.distinctColours > 40 && pixels.stddev > 5, `canvas is not blank: ${JSON.stringify(pixels)}`);
    assert.ok(pixels.reddishFraction > 0.02, `the silk cloth is on the canvas: ${JSON.stringify(pixels)}`);
    // capture() works here too and shows the same picture as the canvas.
    const captured = await page.evaluate(() => window.weft.capture());
    assert.ok((await imageDifference(page, shot, captured)) < 0.05, 'capture() matches the canvas');
    assert.deepEqual(errors, []);
  } finally {
    await page.close();
  }
});

test('WebGL2 draws every shading mode differently and keeps simulating', async () => {
  const { page, errors } = await openApp(session, '?renderer=webgl2&scene=sphere&grid=32&mode=gold');
  try {
    assert.equal(await page.evaluate(() => window.weft.stats().mode), 'gold');
    const frame = await page.evaluate(() => window.weft.stats().frame);
    await waitFor(page, (f) => window.weft.stats().frame > f + 10, frame);
    await page.evaluate(() => window.weft.pause());
    await page.evaluate(() => window.weft.step(60));
    const select = page.getByRole('combobox', { name: 'shading' });
    const captures = [];
    for (const mode of ['silk', 'gold', 'strain', 'normal']) {
      await select.selectOption(mode);
      await waitFor(page, (m) => window.weft.stats().mode === m, mode);
      captures.push(await page.evaluate(() => window.weft.capture()));
    }
    for (let i = 0; i < captures.length; i++) {
      for (let j = i + 1; j < captures.length; j++) {
        assert.ok((await imageDifference(page, captures[i], captures[j])) > 0.02, `modes ${i} and ${j} differ`);
      }
    }
    assert.deepEqual(errors, []);
  } finally {
    await page.close();
  }
});

test('paused, the canvas shows what reset() and step(n) made, even at a frame it showed before', async () => {
  const { page, errors } = await openApp(session, '?renderer=webgl2&scene=sphere&grid=24');
  // Two animation frames: the page has drawn (or, unchanged, not redrawn) what the hooks left.
  const drawn = () => page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
  try {
    await runFrames(page, 40); // paused, reset, 40 frames: the sphere sways
    await drawn();
    const first = await screenshot(page); // before capture(), which draws the canvas itself
    const swaying = await page.evaluate(() => window.weft.capture());
    assert.ok((await imageDifference(page, first, swaying)) < 0.02, 'the canvas shows frame 40');
    // S stops the sphere (a reset keeps that); frame 40 again: another state, the same frame number.
    await page.keyboard.press('s');
    await waitFor(page, () => !window.weft.stats().sphereMoving);
    await runFrames(page, 40);
    await drawn();
    const shot = await screenshot(page); // before capture(), which draws the canvas itself
    const standing = await page.evaluate(() => window.weft.capture());
    const moved = await imageDifference(page, swaying, standing);
    const shown = await imageDifference(page, shot, standing);
    assert.ok(moved > 0.02, `the sphere and the cloth are elsewhere: ${moved} of the pixels differ`);
    assert.ok(shown < moved / 4, `the canvas shows the new state: ${shown} of its pixels differ from it, ${moved} between the states`);
    assert.deepEqual(errors, []);
  } finally {
    await page.close();
  }
});

test('a weft.wasm that fails to load gives a clear on-page message', async () => {
  const page = await session.browser.newPage();
  try {
    await page.route('**/weft.wasm', (route) => route.fulfill({ status: 404, body: 'gone' }));
    await page.goto(session.url);
    await waitFor(page, () => /physics core \(weft\.wasm\) failed to load/.test(document.getElementById('messages').textContent));
    assert.match(await page.textContent('#messages'), /HTTP 404/);
    assert.equal(await page.evaluate(() => window.weft), undefined, 'no hooks without a core');
  } finally {
    await page.close();
  }
});

test('a lost WebGL2 context is recovered on a fresh canvas and the cloth keeps its state', async () => {
  const { page, errors } = await openApp(session, '?scene=sphere&grid=24');
  try {
    await page.evaluate(() => window.weft.pause());
    await page.evaluate(() => window.weft.step(40));
    const before = await page.evaluate(async () => Array.from(await window.weft.positions()));
    const frame = await page.evaluate(() => window.weft.stats().frame);
    await page.evaluate(() => document.getElementById('view').getContext('webgl2').getExtension('WEBGL_lose_context').loseContext());
    await waitFor(page, () => /Recovered after losing/.test(document.getElementById('messages').textContent));
    assert.equal(await page.evaluate(() => window.weft.stats().frame), frame);
    assert.deepEqual(await page.evaluate(async () => Array.from(await window.weft.positions())), before);
    assert.equal(await page.evaluate(() => window.weft.stats().renderer), 'webgl2');
    // It draws again, on the new canvas.
    let pixels;
    for (const deadline = Date.now() + 20_000; Date.now() < deadline;) {
      pixels = await imageStats(page, await screenshot(page));
      if (pixels.reddishFraction > 0.02) break;
    }
    assert.ok(pixels.reddishFraction > 0.02, `cloth drawn after recovery: ${JSON.stringify(pixels)}`);
    await page.evaluate(() => window.weft.resume());
    await waitFor(page, (f) => window.weft.stats().frame > f + 5, frame);
    assert.deepEqual(
      errors.filter((e) => !/context (was )?lost/i.test(e)),
      [],
    );
  } finally {
    await page.close();
  }
});
