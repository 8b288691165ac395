// glTF export and import (issue 14): files written by the CLI (`weft run --export FILE.glb`) and
// by the page (window.weft.record, the K key) pass the Khronos validator; three.js' GLTFLoader plays
// them (frame k of the animation = the simulation's frame k within 1e-4 m); the bunny exported as
// a collider-only .glb and dropped on the page drapes the cloth as the built-in bunny does; malformed
// files are refused with a message while the scene runs on.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { openApp, panelController, root, startBrowser, waitFor } from './harness.mjs';

const require = createRequire(resolve(root, 'web/package.json'));
const validator = require('gltf-validator');
const esbuild = require('esbuild');
const WEFT = resolve(root, 'build/weft');

const work = mkdtempSync(join(tmpdir(), 'weft-gltf-'));

/** Runs the CLI (built by `make native`); returns its JSON. */
function weft(...args) {
  assert.ok(existsSync(WEFT), `${WEFT} is missing: run make native first`);
  return JSON.parse(execFileSync(WEFT, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }));
}

async function validate(bytes, what) {
  const report = await validator.validateBytes(new Uint8Array(bytes), { maxIssues: 20 });
  const errors = report.issues.messages.filter((m) => m.severity === 0);
  assert.equal(report.issues.numErrors, 0, `${what}: ${JSON.stringify(errors)}`);
}

/** xyz per vertex of an OBJ file's `v` lines. */
function objVertices(path) {
  const out = [];
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (line.startsWith('v ')) out.push(...line.slice(2).trim().split(/\s+/).map(Number));
  }
  return out;
}

/** `weft run` of a scene into a .glb (made once per argument list); its path. */
const exports = new Map();
function cliGlb(name, ...args) {
  if (!exports.has(name)) {
    const path = join(work, `${name}.glb`);
    exports.set(name, { path, result: weft('run', ...args, '--export', path) });
  }
  return exports.get(name);
}
const SCENE_ARGS = (scene) => ['--scene', scene, '--grid', '16', '--frames', '24', '--every', '4'];
const BUNNY_COLLIDER_ARGS = ['--scene', 'bunny', '--grid', '16', '--frames', '1', '--cloth', '0'];

const maxError = (a, b) => a.reduce((m, v, i) => Math.max(m, Math.abs(v - b[i])), 0);

// three.js in the page: GLTFLoader parses the file, an AnimationMixer plays its first clip and is
// set to each keyframe's time; the cloth's vertices are computed as three's morph shader does
// (base + Σ influence × delta, then the node's world matrix).
const THREE_SAMPLER = esbuild.buildSync({
  stdin: {
    contents: `
      import * as THREE from 'three';
      import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
      window.sampleGltf = async (base64, keys) => {
        const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
        const gltf = await new GLTFLoader().parseAsync(bytes.buffer, '');
        let cloth = null;
        gltf.scene.traverse((o) => { if (o.isMesh && o.name === 'cloth') cloth = o; });
        const clip = gltf.animations[0];
        const mixer = new THREE.AnimationMixer(gltf.scene);
        // Played once and held at the end (a repeating clip is back at its start at its duration).
        const action = mixer.clipAction(clip);
        action.setLoop(THREE.LoopOnce, 1);
        action.clampWhenFinished = true;
        action.play();
        const track = clip.tracks.find((t) => t.name.endsWith('.morphTargetInfluences'));
        const geometry = cloth.geometry;
        const base = geometry.attributes.position;
        const targets = geometry.morphAttributes.position;
        const samples = [];
        for (const k of keys) {
          mixer.setTime(track.times[k]);
          gltf.scene.updateMatrixWorld(true);
          const influences = cloth.morphTargetInfluences;
          const v = new THREE.Vector3();
          const positions = [];
          for (let i = 0; i < base.count; i++) {
            v.fromBufferAttribute(base, i);
            for (let t = 0; t < targets.length; t++) {
              if (influences[t] !== 0) {
                v.x += influences[t] * targets[t].getX(i);
                v.y += influences[t] * targets[t].getY(i);
                v.z += influences[t] * targets[t].getZ(i);
              }
            }
            v.applyMatrix4(cloth.matrixWorld);
            positions.push(v.x, v.y, v.z);
          }
          const spheres = [];
          gltf.scene.traverse((o) => { if (/^sphere/.test(o.name)) spheres.push([o.position.x, o.position.y, o.position.z]); });
          samples.push({ time: track.times[k], positions, spheres });
        }
        // And three's WebGL renderer draws it (its morph shader compiles for this many targets).
        const canvas = document.createElement('canvas');
        canvas.width = canvas.height = 64;
        const renderer = new THREE.WebGLRenderer({ canvas });
        const shaderErrors = [];
        renderer.debug.onShaderError = (gl, program, vs, fs) => shaderErrors.push(gl.getProgramInfoLog(program) || 'shader error');
        const view = new THREE.Scene();
        view.add(gltf.scene, new THREE.DirectionalLight());
        const camera = new THREE.PerspectiveCamera(50, 1, 0.1, 100);
        camera.position.set(0, 2, 4);
        camera.lookAt(0, 1, 0);
        renderer.render(view, camera);
        const glError = renderer.getContext().getError();
        renderer.dispose();
        return { keys: track.times.length, targets: targets.length, morphRelative: geometry.morphTargetsRelative, samples, shaderErrors, glError };
      };`,
    resolveDir: resolve(root, 'web'),
  },
  bundle: true,
  format: 'iife',
  write: false,
  logLevel: 'silent',
}).outputFiles[0].text;

async function sampleWithThree(session, bytes, keys) {
  const page = await session.browser.newPage();
  try {
    await page.setContent('<!doctype html><html><body></body></html>');
    await page.addScriptTag({ content: THREE_SAMPLER });
    return await page.evaluate(([b64, k]) => window.sampleGltf(b64, k), [Buffer.from(bytes).toString('base64'), keys]);
  } finally {
    await page.close();
  }
}

/** The page's window.weft.record(frames) after a reset, as bytes. */
async function recordOnPage(page, frames) {
  const base64 = await page.evaluate(async (n) => {
    window.weft.pause();
    await window.weft.reset();
    const bytes = await window.weft.record(n);
    let text = '';
    for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    return btoa(text);
  }, frames);
  return Buffer.from(base64, 'base64');
}

/** The page's positions (xyz) at frame k after a reset. */
async function framePositions(page, k) {
  const xyzw = await page.evaluate(async (n) => {
    await window.weft.reset();
    await window.weft.step(n);
    return [...(await window.weft.positions())];
  }, k);
  return xyzw.filter((_, i) => i % 4 !== 3);
}

function loadGltf(page, bytes) {
  return page.evaluate(
    (b64) => window.weft.loadGltf(Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))),
    Buffer.from(bytes).toString('base64'),
  );
}

/** A .glb of a JSON object and a binary chunk (both padded). */
function glb(json, bin = Buffer.alloc(0)) {
  let text = Buffer.from(JSON.stringify(json));
  text = Buffer.concat([text, Buffer.alloc((4 - (text.length % 4)) % 4, 0x20)]);
  const binPadded = Buffer.concat([bin, Buffer.alloc((4 - (bin.length % 4)) % 4)]);
  const chunks = [text, ...(bin.length ? [binPadded] : [])];
  const header = Buffer.alloc(12);
  const total = 12 + chunks.reduce((n, c) => n + 8 + c.length, 0);
  header.write('glTF', 0);
  header.writeUInt32LE(2, 4);
  header.writeUInt32LE(total, 8);
  const parts = [header];
  chunks.forEach((c, i) => {
    const h = Buffer.alloc(8);
    h.writeUInt32LE(c.length, 0);
    h.write(i === 0 ? 'JSON' : 'BIN\0', 4, 'latin1');
    parts.push(h, c);
  });
  return Buffer.concat(parts);
}

describe('glTF', () => {
  let session;
  before(async () => {
    session = await startBrowser({ webgpu: false });
  });
  after(async () => {
    await session?.close();
    rmSync(work, { recursive: true, force: true });
  });

  test('the CLI .glb passes the validator and three.js plays frame k as the simulation had it (sphere, bunny)', async () => {
    for (const scene of ['sphere', 'bunny']) {
      const { path: glbPath, result } = cliGlb(scene, ...SCENE_ARGS(scene));
      const objDir = join(work, `${scene}-obj`);
      weft('run', ...SCENE_ARGS(scene), '--export', objDir);
      assert.equal(result.samples, 6);
      const bytes = readFileSync(glbPath);
      assert.equal(bytes.length, result.bytes);
      await validate(bytes, `CLI ${scene}`);
      const played = await sampleWithThree(session, bytes, [0, 1, 3, 6]);
      assert.equal(played.targets, 6);
      assert.equal(played.keys, 7, 'the base pose and the six sampled frames');
      assert.equal(played.morphRelative, true);
      assert.deepEqual([played.shaderErrors, played.glError], [[], 0], 'three.js renders it');
      for (const [i, k] of [1, 3, 6].entries()) {
        const sample = played.samples[i + 1];
        assert.ok(Math.abs(sample.time - (4 * k) / 60) < 1e-5, `key ${k} at ${sample.time} s`);
        const simulated = objVertices(join(objDir, `cloth_${String(4 * k).padStart(4, '0')}.obj`));
        const error = maxError(sample.positions, simulated);
        assert.ok(error < 1e-4, `${scene} frame ${4 * k}: three.js is ${error} m from the simulation`);
      }
      if (scene === 'sphere') {
        // The sphere sways: its node moves with the animation.
        const [first, last] = [played.samples[0].spheres[0], played.samples[3].spheres[0]];
        assert.ok(Math.hypot(first[0] - last[0], first[1] - last[1], first[2] - last[2]) > 1e-3, 'the sphere follows its motion');
      }
    }
  });

  test('the page .glb (window.weft.record) passes the validator and three.js plays it as the page simulated it', async () => {
    for (const scene of ['sphere', 'bunny']) {
      const { page, errors } = await openApp(session, `?renderer=webgl2&scene=${scene}&grid=16`);
      try {
        const bytes = await recordOnPage(page, 12);
        await validate(bytes, `page ${scene}`);
        assert.equal(await page.evaluate(() => window.weft.stats().frame), 12);
        const played = await sampleWithThree(session, bytes, [5, 12]);
        assert.equal(played.targets, 12);
        for (const [i, k] of [5, 12].entries()) {
          const error = maxError(played.samples[i].positions, await framePositions(page, k));
          assert.ok(error < 1e-4, `${scene} frame ${k}: three.js is ${error} m from the page's simulation`);
        }
        // The CLI's file of the same run has the same structure (one writer).
        const cli = readFileSync(cliGlb(scene, ...SCENE_ARGS(scene)).path);
        const jsonOf = (b) => JSON.parse(b.subarray(20, 20 + b.readUInt32LE(12)).toString());
        const shape = (j) => ({
          nodes: j.nodes.map((n) => n.name),
          meshes: j.meshes.map((m) => m.name),
          channels: j.animations[0].channels.length,
        });
        assert.deepEqual(shape(jsonOf(bytes)), shape(jsonOf(cli)));
        assert.deepEqual(errors, []);
      } finally {
        await page.close();
      }
    }
  });

  test('K records until pressed again, the HUD badge shows it, and the .glb is offered as a download', async () => {
    const { page, errors } = await openApp(session, '?renderer=webgl2&scene=sphere&grid=16');
    try {
      await page.evaluate(() => window.weft.pause());
      await page.keyboard.press('k');
      await waitFor(page, () => !document.getElementById('recording').hidden);
      await page.evaluate(() => window.weft.step(20));
      await waitFor(page, () => /REC 0\.3 s \(20 frames\)/.test(document.getElementById('recording').textContent));
      const download = page.waitForEvent('download');
      await page.keyboard.press('k');
      const file = await download;
      assert.equal(file.suggestedFilename(), 'weft-sphere.glb');
      const path = join(work, 'pressed.glb');
      await file.saveAs(path);
      const bytes = readFileSync(path);
      await validate(bytes, 'K recording');
      // Recorded with room for 3600 frames, the file keeps none of it: its JSON is not padded.
      const json = bytes.subarray(20, 20 + bytes.readUInt32LE(12)).toString();
      assert.ok(json.trimEnd().length >= json.length - 3, `${json.length - json.trimEnd().length} bytes of padding`);
      await waitFor(page, () => document.getElementById('recording').hidden);
      assert.match(await page.textContent('#messages'), /20 frames, 0\.3 s/);
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });

  test('K while paused says the recording waits for the cloth; stopped before a frame ran, nothing is downloaded', async () => {
    const { page, errors } = await openApp(session, '?renderer=webgl2&scene=sphere&grid=16');
    const downloads = [];
    page.on('download', (download) => downloads.push(download.suggestedFilename()));
    try {
      await page.evaluate(() => window.weft.pause());
      await page.keyboard.press('k');
      await waitFor(page, () => !document.getElementById('recording').hidden);
      assert.match(await page.textContent('#messages'), /paused: frames are recorded while it runs/);
      await page.keyboard.press('k');
      await waitFor(page, () => document.getElementById('recording').hidden);
      await waitFor(page, () => document.getElementById('messages').textContent.includes('nothing to download'));
      await page.waitForTimeout(500); // time for a download to start, were there one
      assert.deepEqual(downloads, [], 'no .glb of the rest pose alone');
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });

  test('a live recording stops by itself at its length limit and when the cloth is reset, and offers what it holds', async () => {
    const { page, errors } = await openApp(session, '?renderer=webgl2&scene=sphere&grid=8');
    try {
      await page.evaluate(() => window.weft.pause());
      await page.click('#record');
      await waitFor(page, () => !document.getElementById('recording').hidden);
      let download = page.waitForEvent('download');
      await page.evaluate(() => window.weft.step(3700));
      await download;
      assert.match(await page.textContent('#messages'), /stopped: the 3600-frame limit was reached: 3600 frames, 60\.0 s/);
      assert.equal(await page.evaluate(() => document.getElementById('recording').hidden), true);
      await page.keyboard.press('k');
      await page.evaluate(() => window.weft.step(3));
      download = page.waitForEvent('download');
      await page.evaluate(async () => {
        await window.weft.reset();
        await window.weft.step(1);
      });
      const file = await download;
      await validate(readFileSync(await file.path()), 'recording cut by a reset');
      assert.match(await page.textContent('#messages'), /stopped: the cloth was reset: 3 frames/);
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });

  test('a recording cut short by a scene switch is named after the scene it holds', async () => {
    const { page, errors } = await openApp(session, '?renderer=webgl2&scene=hang&grid=8');
    try {
      await page.evaluate(() => window.weft.pause());
      await page.keyboard.press('k');
      await waitFor(page, () => !document.getElementById('recording').hidden);
      await page.evaluate(() => window.weft.step(3));
      const download = page.waitForEvent('download');
      await panelController(page, 'scene').locator('select').selectOption('flag');
      // The recorder notices the new world at its next frame.
      await waitFor(page, () => {
        void window.weft.step(1);
        return document.getElementById('recording').hidden;
      });
      const file = await download;
      assert.equal(file.suggestedFilename(), 'weft-hang.glb');
      await validate(readFileSync(await file.path()), 'recording cut by a scene switch');
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });

  test('the bunny exported as a collider-only .glb and dropped on the page drapes the cloth as the built-in bunny does', async () => {
    const bytes = readFileSync(cliGlb('bunny-collider', ...BUNNY_COLLIDER_ARGS).path);
    await validate(bytes, 'collider-only bunny');
    const { page, errors } = await openApp(session, '?renderer=webgl2&scene=bunny&grid=24');
    const centroid = async () => {
      await page.evaluate(() => window.weft.step(150));
      const xyzw = await page.evaluate(async () => [...(await window.weft.positions())]);
      const c = [0, 0, 0];
      for (let i = 0; i < xyzw.length; i += 4) for (let k = 0; k < 3; k++) c[k] += xyzw[i + k] / (xyzw.length / 4);
      return c;
    };
    try {
      await page.evaluate(async () => {
        window.weft.pause();
        await window.weft.reset();
      });
      const builtIn = await centroid();
      // A real drop of the file, as a user does it.
      await page.evaluate((b64) => {
        const transfer = new DataTransfer();
        const data = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
        transfer.items.add(new File([data], 'bunny.glb', { type: 'model/gltf-binary' }));
        const target = document.getElementById('view');
        for (const type of ['dragenter', 'dragover', 'drop']) {
          target.dispatchEvent(new DragEvent(type, { bubbles: true, cancelable: true, dataTransfer: transfer }));
        }
      }, bytes.toString('base64'));
      await waitFor(page, () => window.weft.stats().mesh?.source === 'gltf');
      const stats = await page.evaluate(() => window.weft.stats());
      assert.equal(stats.mesh.name, 'bunny.glb');
      assert.equal(stats.frame, 0, 'the cloth starts over');
      assert.match(await page.textContent('#messages'), /bunny\.glb: \d+ triangles, fitted under the cloth/);
      const dropped = await centroid();
      const distance = Math.hypot(...builtIn.map((v, k) => v - dropped[k]));
      assert.ok(distance < 0.01, `centroids ${builtIn} and ${dropped} are ${distance} m apart`);
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });

  test('malformed glTF files are refused with a message; the scene keeps running unchanged', async () => {
    const good = readFileSync(cliGlb('bunny-collider', ...BUNNY_COLLIDER_ARGS).path);
    const triangle = Buffer.alloc(36 + 12);
    [0, 0, 0, 1, 0, 0, 0, 1, 0].forEach((v, i) => triangle.writeFloatLE(v, 4 * i));
    [0, 1, 2].forEach((v, i) => triangle.writeUInt32LE(v, 36 + 4 * i));
    const asset = { version: '2.0' };
    const views = [
      { buffer: 0, byteOffset: 0, byteLength: 36 },
      { buffer: 0, byteOffset: 36, byteLength: 12 },
    ];
    const accessors = (count = 3) => [
      { bufferView: 0, componentType: 5126, count, type: 'VEC3', min: [0, 0, 0], max: [1, 1, 0] },
      { bufferView: 1, componentType: 5125, count: 3, type: 'SCALAR' },
    ];
    const mesh = (mode = 4) => [{ primitives: [{ attributes: { POSITION: 0 }, indices: 1, mode }] }];
    const scene = { scene: 0, scenes: [{ nodes: [0] }], nodes: [{ mesh: 0 }] };
    const cases = [
      { what: 'a truncated .glb', bytes: good.subarray(0, good.length >> 1), error: /truncated \.glb/ },
      { what: 'a cut-off header', bytes: good.subarray(0, 10), error: /truncated \.glb/ },
      { what: 'random bytes', bytes: Buffer.from([0x00, 0xff, 0x13, 0x37, 0x42]), error: /not a \.glb, and not glTF JSON/ },
      { what: 'JSON that is not glTF 2.0', bytes: Buffer.from('{"asset":{"version":"1.0"}}'), error: /not glTF 2\.0/ },
      {
        what: 'a .glb with broken JSON',
        bytes: (() => {
          const b = Buffer.from(glb({ asset }));
          b.write('#', 20);
          return b;
        })(),
        error: /its JSON chunk/,
      },
      {
        what: 'an external buffer URI',
        bytes: Buffer.from(
          JSON.stringify({
            asset,
            ...scene,
            meshes: mesh(),
            accessors: accessors(),
            bufferViews: views,
            buffers: [{ uri: 'tri.bin', byteLength: 48 }],
          }),
        ),
        error: /buffers\[0\] refers to an external file \(tri\.bin\)/,
      },
      {
        what: 'no triangles (points)',
        bytes: glb(
          { asset, ...scene, meshes: mesh(0), accessors: accessors(), bufferViews: views, buffers: [{ byteLength: 48 }] },
          triangle,
        ),
        error: /no triangles/,
      },
      { what: 'no meshes at all', bytes: glb({ asset, scenes: [{ nodes: [0] }], nodes: [{}] }), error: /no triangles/ },
      {
        what: 'a huge count',
        bytes: glb(
          { asset, ...scene, meshes: mesh(), accessors: accessors(2 ** 31), bufferViews: views, buffers: [{ byteLength: 48 }] },
          triangle,
        ),
        error: /accessors\[0\] has 2147483648 elements/,
      },
      {
        what: 'a count past its buffer',
        bytes: glb(
          { asset, ...scene, meshes: mesh(), accessors: accessors(1000), bufferViews: views, buffers: [{ byteLength: 48 }] },
          triangle,
        ),
        error: /accessors\[0\]: 1000 elements do not fit in bufferViews\[0\]/,
      },
    ];
    const { page, errors } = await openApp(session, '?renderer=webgl2&scene=sphere&grid=16');
    try {
      const start = await page.evaluate(async () => {
        window.weft.pause();
        await window.weft.step(10);
        return window.weft.stats().frame;
      });
      const before = await page.evaluate(async () => [...(await window.weft.positions())]);
      for (const { what, bytes, error } of cases) {
        const result = await loadGltf(page, bytes);
        assert.equal(result.ok, false, what);
        assert.match(result.error, error, `${what}: ${result.error}`);
        assert.match(await page.textContent('#messages'), /Could not use loadGltf as the collider: .*scene keeps running unchanged/, what);
        const stats = await page.evaluate(() => window.weft.stats());
        assert.equal(stats.frame, start, `${what}: the running world was kept`);
        assert.equal(stats.spheres.length, 1, what);
        assert.equal(stats.mesh, null, what);
      }
      assert.deepEqual(await page.evaluate(async () => [...(await window.weft.positions())]), before);
      await page.evaluate(() => window.weft.step(5));
      assert.equal(await page.evaluate(() => window.weft.stats().frame), start + 5, 'and it goes on simulating');
      // The valid one-triangle .glb is taken.
      const ok = await loadGltf(
        page,
        glb({ asset, ...scene, meshes: mesh(), accessors: accessors(), bufferViews: views, buffers: [{ byteLength: 48 }] }, triangle),
      );
      assert.deepEqual(ok, { ok: true, triangles: 1 });
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });
});
