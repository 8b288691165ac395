// The page's OBJ sequence (record.ts, zip.ts): the cloth after each frame as the core's OBJ text, the
// colliders at the end, in a .zip with weft run's names (cloth_0001.obj ..., collider.obj). Through
// window.weft.record(frames, 'obj') and through Shift+K (real key events, the download's bytes).
// Python's zipfile reads the archives: a reader that is not ours.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openApp, panelController, useBrowser, waitFor } from './harness.mjs';

const session = useBrowser({ webgpu: false });

/** The archive's files as Python's zipfile reads them (testzip checks every CRC): {name: text}. */
function unzip(bytes) {
  const dir = mkdtempSync(join(tmpdir(), 'weft-zip-'));
  try {
    const path = join(dir, 'a.zip');
    writeFileSync(path, bytes);
    const script =
      'import json, sys, zipfile\n' +
      'z = zipfile.ZipFile(sys.argv[1])\n' +
      'assert z.testzip() is None, "a bad CRC"\n' +
      'print(json.dumps({i.filename: z.read(i).decode() for i in z.infolist()}))\n';
    const run = spawnSync('python3', ['-c', script, path], { encoding: 'utf8', maxBuffer: 1 << 28 });
    assert.equal(run.status, 0, run.stderr);
    return JSON.parse(run.stdout);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Pauses the page and presses Shift+K on its view (real key events): an OBJ recording starts. */
async function startObjRecordingByKey(page) {
  await page.evaluate(() => window.weft.pause());
  await page.locator('#view').focus();
  await page.keyboard.press('Shift+K');
  await waitFor(page, () => !document.getElementById('recording').hidden);
}

test("record(5, 'obj'): five frames' OBJs, each what O gives at that frame, and the colliders", async () => {
  const { page, errors } = await openApp(session, '?renderer=webgl2&scene=sphere&grid=16');
  try {
    const { zip, fifth, particles } = await page.evaluate(async () => {
      window.weft.pause();
      await window.weft.reset();
      const bytes = await window.weft.record(5, 'obj');
      await window.weft.reset();
      await window.weft.step(5);
      return { zip: Array.from(bytes), fifth: await window.weft.obj(), particles: window.weft.stats().particles };
    });
    const files = unzip(Uint8Array.from(zip));
    assert.deepEqual(Object.keys(files), [
      'cloth_0001.obj',
      'cloth_0002.obj',
      'cloth_0003.obj',
      'cloth_0004.obj',
      'cloth_0005.obj',
      'collider.obj',
    ]);
    for (let k = 1; k <= 5; k++) {
      const text = files[`cloth_000${k}.obj`];
      assert.match(text.split('\n')[0], new RegExp(`^# weft cloth, frame ${k}, t = `));
      assert.equal(text.split('\n').filter((line) => line.startsWith('v ')).length, particles);
    }
    assert.equal(files['cloth_0005.obj'], fifth, 'frame 5 as O downloads it');
    assert.match(files['collider.obj'], /\nf /, 'the sphere and the ground');
    // Refused with a reason, the page running on: an unknown format, and more frames than fit.
    const refused = await page.evaluate(async () => {
      const reasons = [];
      for (const args of [
        [2, 'fbx'],
        [100000, 'obj'],
      ]) {
        try {
          await window.weft.record(...args);
        } catch (error) {
          reasons.push(error.message);
        }
      }
      return reasons;
    });
    assert.match(refused[0], /\.glb or an OBJ sequence/);
    assert.match(refused[1], /holds 1\.\.3600 frames|at most \d+ frames/);
    assert.deepEqual(errors, []);
  } finally {
    await page.close();
  }
});

test('Shift+K records an OBJ sequence while the cloth runs and downloads it as weft-<scene>-obj.zip', async () => {
  const { page, errors } = await openApp(session, '?renderer=webgl2&scene=hang&grid=8');
  try {
    await startObjRecordingByKey(page);
    assert.equal(await page.textContent('#record-obj'), '■ stop');
    assert.equal(await page.textContent('#record'), '● record');
    await page.evaluate(() => window.weft.step(3));
    const download = page.waitForEvent('download');
    await page.keyboard.press('Shift+K');
    const file = await download;
    assert.equal(file.suggestedFilename(), 'weft-hang-obj.zip');
    const files = unzip(readFileSync(await file.path()));
    assert.deepEqual(Object.keys(files), ['cloth_0001.obj', 'cloth_0002.obj', 'cloth_0003.obj', 'collider.obj']);
    assert.match(await page.textContent('#messages'), /3 frames/);
    assert.equal(await page.textContent('#record-obj'), '● OBJ seq');
    assert.deepEqual(errors, []);
  } finally {
    await page.close();
  }
});

// A recording outlives the world it read (a rebuild ends it at the next frame; stopped by hand
// before that, it ends at once): what it holds is offered, the colliders as they were at its last
// frame. It used to read them from the destroyed world at the end ("OBJ text: world or sink is
// NULL": the frames lost, and at the next frame the simulation stopped).
test('a scene switch during an OBJ recording offers what it holds and the page runs on', async () => {
  const { page, errors } = await openApp(session, '?renderer=webgl2&scene=sphere&grid=16');
  try {
    await startObjRecordingByKey(page);
    await page.evaluate(() => window.weft.step(3));
    const download = page.waitForEvent('download');
    await panelController(page, 'scene').locator('select').selectOption('hang');
    await waitFor(page, () => window.weft.stats().spheres.length === 0);
    // Stopped by hand before the recorder noticed the new world (it does at the next frame).
    await page.locator('#view').focus();
    await page.keyboard.press('Shift+K');
    const file = await download;
    assert.equal(file.suggestedFilename(), 'weft-sphere-obj.zip');
    const files = unzip(readFileSync(await file.path()));
    assert.deepEqual(Object.keys(files), ['cloth_0001.obj', 'cloth_0002.obj', 'cloth_0003.obj', 'collider.obj']);
    assert.match(files['collider.obj'], /\nf /, "the sphere's scene's colliders");
    assert.match(await page.textContent('#messages'), /Recording stopped: 3 frames/);
    const frame = await page.evaluate(() => window.weft.stats().frame);
    assert.equal(await page.evaluate(async () => (await window.weft.step(2), window.weft.stats().frame)), frame + 2, 'the hang scene runs');
    assert.equal((await page.evaluate(() => window.weft.record(1, 'OBJ'))).length > 0, true, "'OBJ' as 'obj'");
    assert.deepEqual(errors, []);
  } finally {
    await page.close();
  }
});
