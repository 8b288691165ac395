// Unit tests of the web app's pure TypeScript (URL parsing, camera rays, the uniform block shared
// with WGSL and GLSL), bundled on the fly with esbuild and run in Node.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(fileURLToPath(import.meta.url), '../../..');
const require = createRequire(resolve(root, 'web/package.json'));
const esbuild = require('esbuild');
const bundle = await esbuild.build({
  stdin: {
    contents: `export * from './params'; export * from './camera'; export * from './render/modes';
               export * from './render/frame-uniforms'; export * from './render/math'; export * from './stepping';
               export * from './ui/legend'; export * from './core/obj'; export * from './render/software';
               export * from './zip';`,
    resolveDir: resolve(root, 'web/src'),
    loader: 'ts',
  },
  bundle: true,
  format: 'esm',
  platform: 'neutral',
  write: false,
  logLevel: 'silent',
});
const web = await import(`data:text/javascript;base64,${Buffer.from(bundle.outputFiles[0].text).toString('base64')}`);
const shader = (path) => readFile(resolve(root, 'web/src/shaders', path), 'utf8');

test('URL parameters: valid values are taken, bad ones fall back with a sentence each', () => {
  const defaults = web.parseParams('');
  assert.deepEqual({ ...defaults, problems: undefined }, { ...web.DEFAULT_PARAMS, problems: undefined });
  assert.deepEqual(defaults.problems, []);
  const good = web.parseParams('?solver=gpu&scene=flag&grid=128&mode=strain&renderer=webgl2');
  assert.equal(good.solver, 'gpu');
  assert.equal(good.scene, 'flag');
  assert.equal(good.grid, 128);
  assert.equal(good.mode, 'strain');
  assert.equal(good.renderer, 'webgl2');
  assert.deepEqual(good.problems, []);
  for (const [query, key] of [
    ['?grid=0', 'grid'],
    ['?grid=-5', 'grid'],
    ['?grid=12.5', 'grid'],
    ['?grid=1e3', 'grid'],
    ['?grid=100000', 'grid'],
    ['?grid=', 'grid'],
    ['?mode=plastic', 'mode'],
    ['?solver=cuda', 'solver'],
    ['?renderer=vulkan', 'renderer'],
    ['?scene=../../etc', 'scene'],
    [`?scene=${'x'.repeat(5000)}`, 'scene'],
  ]) {
    const params = web.parseParams(query);
    assert.equal(params[key], web.DEFAULT_PARAMS[key], `${query} falls back`);
    assert.equal(params.problems.length, 1, `${query} gives one message`);
    assert.ok(params.problems[0].length < 200, 'messages stay short even for long input');
  }
  // Names the page does not take, and a parameter given twice, are said (the first value counts).
  const unknown = web.parseParams('?substeps=0&scene=flag');
  assert.equal(unknown.scene, 'flag');
  assert.deepEqual(unknown.problems, ['"substeps" is unknown (the page takes solver, scene, grid, mode, renderer); ignored']);
  const twice = web.parseParams('?scene=sphere&scene=flag');
  assert.equal(twice.scene, 'sphere');
  assert.deepEqual(twice.problems, ['scene is given 2 times; using the first']);
  const many = web.parseParams(`?${Array.from({ length: 50 }, (_, i) => `p${i}=1`).join('&')}`);
  assert.deepEqual(many.problems, [
    '"p0", "p1", "p2" and 47 more are unknown (the page takes solver, scene, grid, mode, renderer); ignored',
  ]);
  assert.deepEqual(web.parseParams('?a=1&b=2&grid=32').problems, [
    '"a", "b" are unknown (the page takes solver, scene, grid, mode, renderer); ignored',
  ]);
  assert.match(web.parseParams('?renderer=foo').problems[0], /\(use auto, webgpu or webgl2\)/);
  assert.equal(web.parseParams(`?grid=${web.GRID_MAX}`).grid, web.GRID_MAX);
  assert.equal(web.parseParams(`?grid=${web.GRID_MIN}`).grid, web.GRID_MIN);
});

test('the frame uniform block has the size of WGSL struct Frame and of the GLSL block', async () => {
  // Sizes of the member types used there (all 16-byte aligned in both languages).
  const bytes = { mat4x4f: 64, vec4f: 16, mat4: 64, vec4: 16 };
  const wgsl = (await shader('common.wgsl')).match(/struct Frame \{([^}]*)\}/)[1];
  let wgslSize = 0;
  for (const [, type, count] of [...wgsl.matchAll(/:\s*(?:array<(\w+),\s*(\w+)>|(\w+))/g)].map((m) => [m[0], m[1] ?? m[3], m[2]])) {
    const n = count === undefined ? 1 : count === 'MAX_SPHERES' ? web.MAX_DRAWN_SPHERES : Number(count);
    assert.ok(bytes[type], `known WGSL type ${type}`);
    wgslSize += bytes[type] * n;
  }
  assert.equal(wgslSize, web.FRAME_UNIFORM_BYTES);
  const glsl = (await shader('gl/common.glsl')).match(/uniform Frame \{([^}]*)\}/)[1];
  let glslSize = 0;
  for (const [, type, , count] of glsl.matchAll(/^\s*(\w+)\s+(\w+)(?:\[(\w+)\])?;/gm)) {
    const n = count === undefined ? 1 : count === 'MAX_SPHERES' ? web.MAX_DRAWN_SPHERES : Number(count);
    assert.ok(bytes[type], `known GLSL type ${type}`);
    glslSize += bytes[type] * n;
  }
  assert.equal(glslSize, web.FRAME_UNIFORM_BYTES);
});

test('shading modes reach both shader languages through generated constants only', async () => {
  for (const language of ['wgsl', 'glsl']) {
    const constants = web.shaderConstants(language);
    web.SHADING_MODES.forEach((mode, i) => assert.match(constants, new RegExp(`MODE_${mode.toUpperCase()}\\b.*= ${i};`)));
  }
  const sources = [await shader('cloth.wgsl'), await shader('gl/cloth.glsl')];
  for (const source of sources) {
    for (const [name] of source.matchAll(/MODE_[A-Z]+/g)) {
      assert.ok(web.SHADING_MODES.includes(name.slice(5).toLowerCase()), `${name} is a generated constant`);
    }
    assert.doesNotMatch(source, /mode == \d/, 'no mode compared with a bare number');
  }
});

test('constants shared by WGSL and GLSL are generated once, never spelled in a shader', async () => {
  const names = [
    'PI',
    'STRAIN_AMBIENT',
    'STRAIN_DIFFUSE',
    'GOLD_WEAVE',
    'GROUND_SOLID',
    'GROUND_FADE',
    'GROUND_EXTENT',
    ...Object.keys(web.SHADER_COLORS),
  ];
  assert.ok(names.includes('GOLD_F0'));
  for (const language of ['wgsl', 'glsl']) {
    const constants = web.shaderConstants(language);
    for (const name of names) assert.match(constants, new RegExp(`const (vec3 |float )?${name}\\b`), `${name} in ${language}`);
  }
  assert.match(web.shaderConstants('wgsl'), /const GOLD_F0: vec3f = vec3f\(1\.0, 0\.58, 0\.1\);/);
  assert.match(web.shaderConstants('glsl'), /const vec3 GOLD_F0 = vec3\(1\.0, 0\.58, 0\.1\);/);
  for (const path of [
    'common.wgsl',
    'cloth.wgsl',
    'mesh.wgsl',
    'sphere.wgsl',
    'ground.wgsl',
    'gl/common.glsl',
    'gl/cloth.glsl',
    'gl/mesh.glsl',
    'gl/sphere.glsl',
    'gl/ground.glsl',
  ]) {
    const source = await shader(path);
    for (const name of names) assert.doesNotMatch(source, new RegExp(`const\\s+(\\w+\\s+)?${name}\\b`), `${path} declares ${name} by hand`);
  }
});

test('camera rays start at the eye side and go through the target at the centre', () => {
  const camera = new web.OrbitCamera();
  camera.aspect = 16 / 9;
  const { origin, direction } = camera.ray(0, 0);
  const toTarget = web.normalize(web.sub(camera.target, origin));
  assert.ok(web.dot(direction, toTarget) > 0.9999, 'the centre ray hits the target');
  assert.ok(Math.abs(web.length(direction) - 1) < 1e-6);
  const right = camera.ray(0.5, 0).direction;
  const viewRight = web.cross(camera.forward(), { x: 0, y: 1, z: 0 });
  assert.ok(web.dot(web.sub(right, direction), viewRight) > 0, 'positive x goes to the right');
  camera.zoom(1e9);
  assert.ok(camera.distance <= 40);
  camera.rotate(0, 1e9);
  assert.ok(camera.pitch <= 1.5);
});

test('camera inset: the target in the middle of the part the panel leaves free, frame() fits the box there', () => {
  // Column-major (as WebGL and WGSL read the matrices): clip row r = Σ_c M[4c + r] · v[c].
  const ndc = (m, p) => {
    const v = [p.x, p.y, p.z, 1];
    const clip = [0, 1, 2, 3].map((r) => v.reduce((sum, x, c) => sum + m[4 * c + r] * x, 0));
    return { x: clip[0] / clip[3], y: clip[1] / clip[3] };
  };
  const camera = new web.OrbitCamera();
  camera.aspect = 1;
  camera.inset = 0.4; // the panel covers the right 40%: the free part is x ∈ [−1, 0.2], its middle −0.4
  assert.ok(Math.abs(camera.freeAspect - 0.6) < 1e-12);
  const centre = ndc(camera.matrices().viewProjection, camera.target);
  assert.ok(Math.abs(centre.x + 0.4) < 1e-5 && Math.abs(centre.y) < 1e-5, `the target at ${JSON.stringify(centre)}`);
  const { origin, direction } = camera.ray(-0.4, 0);
  assert.ok(web.dot(direction, web.normalize(web.sub(camera.target, origin))) > 0.9999, 'the ray through the free middle hits the target');
  // A wide box framed: every corner inside the free part (the field's width there is the narrower).
  const min = { x: -1, y: 0, z: -0.2 },
    max = { x: 1, y: 0.4, z: 0.2 };
  const corners = [];
  for (const x of [min.x, max.x]) for (const y of [min.y, max.y]) for (const z of [min.z, max.z]) corners.push({ x, y, z });
  const inFree = () => {
    const m = camera.matrices().viewProjection;
    return corners.every((p) => {
      const q = ndc(m, p);
      return q.x >= -1 && q.x <= 1 - 2 * camera.inset && q.y >= -1 && q.y <= 1;
    });
  };
  camera.frame(min, max, { yaw: 0, pitch: 0 });
  assert.ok(inFree(), 'framed with the inset: the box fits the free part');
  const framedDistance = camera.distance;
  camera.inset = 0;
  camera.frame(min, max, { yaw: 0, pitch: 0 });
  assert.ok(camera.distance < 0.8 * framedDistance, `the whole view is wider: ${camera.distance} against ${framedDistance}`);
  camera.inset = 0.4;
  assert.ok(!inFree(), 'framed for the whole view, the box reaches under the panel');
});

test('matrix inverse undoes the view-projection', () => {
  const { viewProjection } = new web.OrbitCamera().matrices();
  const identity = web.multiply(viewProjection, web.invert(viewProjection));
  identity.forEach((v, i) => assert.ok(Math.abs(v - (i % 5 === 0 ? 1 : 0)) < 1e-4, `element ${i} = ${v}`));
});

test('camera: no drag, pan or zoom puts the eye under the ground, whatever the input', () => {
  const camera = new web.OrbitCamera();
  camera.ground = 0;
  camera.target = { x: 0, y: 0.5, z: 0 };
  camera.distance = 2;
  const above = () => camera.eye.y >= camera.ground + web.GROUND_MARGIN - 1e-9;
  // The issue: a drag of ~400 px down (pitch down), or Shift-drag ~150 px up (pan down).
  camera.rotate(0, -400);
  assert.ok(above(), `after a 400 px drag the eye is at y = ${camera.eye.y}`);
  camera.rotate(0, -1e6);
  assert.ok(above() && Number.isFinite(camera.pitch));
  camera.pan(0, 150, 600);
  camera.pan(0, 5000, 600);
  assert.ok(above(), `after a pan down the eye is at y = ${camera.eye.y}`);
  assert.ok(camera.target.y >= camera.ground + web.GROUND_MARGIN - 1e-9, 'the target stays above the ground too');
  for (const factor of [1e9, 1e-9, NaN, 0, -1, Infinity]) {
    camera.zoom(factor);
    assert.ok(above() && camera.distance >= web.DISTANCE_MIN && camera.distance <= web.DISTANCE_MAX, `zoom ${factor}`);
  }
  // Random walks of every input stay above ground.
  let seed = 7;
  const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) * 2 - 1;
  for (let i = 0; i < 2000; i++) {
    camera.rotate(random() * 300, random() * 300);
    camera.pan(random() * 300, random() * 300, 500);
    camera.zoom(Math.exp(random() * 2));
    assert.ok(above(), `step ${i}: eye y ${camera.eye.y}`);
  }
  // Without a ground plane the pitch limits still hold.
  camera.ground = null;
  camera.rotate(0, -1e6);
  assert.ok(camera.pitch >= -web.PITCH_LIMIT);
});

test('camera: the eye stays out of sphere and box obstacles', () => {
  const camera = new web.OrbitCamera();
  camera.ground = 0;
  camera.target = { x: 0, y: 1.2, z: 0 };
  camera.yaw = 0;
  camera.pitch = 0;
  camera.distance = 0.5;
  camera.obstacles = [{ center: { x: 0, y: 1.2, z: 0.6 }, radius: 0.4 }];
  camera.constrain();
  const e = camera.eye;
  assert.ok(web.length(web.sub(e, { x: 0, y: 1.2, z: 0.6 })) >= 0.4 + web.GROUND_MARGIN - 1e-6, `eye ${JSON.stringify(e)} left the sphere`);
  camera.obstacles = [{ min: { x: -1, y: 0, z: -1 }, max: { x: 1, y: 0.8, z: 1 } }];
  camera.target = { x: 0, y: 0.5, z: 0 };
  camera.pitch = 0.1;
  camera.distance = 0.6;
  camera.constrain();
  const b = camera.eye;
  const inside = b.x > -1 && b.x < 1 && b.y > 0 && b.y < 0.8 && b.z > -1 && b.z < 1;
  assert.ok(!inside, `eye ${JSON.stringify(b)} left the box`);
});

test('camera: zooming in stops GROUND_MARGIN short of the surface in front of the eye; out is as before', () => {
  const camera = new web.OrbitCamera();
  camera.target = { x: 0, y: 1, z: 0 };
  camera.yaw = 0;
  camera.pitch = 0;
  camera.distance = 3;
  // A wall at z = 1 between the eye (on +z) and the target.
  camera.surface = (origin, direction) => (direction.z < 0 && origin.z > 1 ? (origin.z - 1) / -direction.z : null);
  for (let i = 0; i < 50; i++) {
    camera.zoom(0.7);
    assert.ok(camera.eye.z >= 1 + web.GROUND_MARGIN - 1e-9, `zoom ${i}: eye z ${camera.eye.z}`);
  }
  assert.ok(Math.abs(camera.eye.z - 1 - web.GROUND_MARGIN) < 1e-9, 'it goes as far as the margin');
  camera.distance = 1.01; // an eye already nearer (the cloth came to it): zooming in holds it, never backs off
  camera.zoom(0.5);
  assert.equal(camera.distance, 1.01);
  camera.zoom(2);
  assert.equal(camera.distance, 2.02);
  camera.surface = null;
  camera.zoom(0.1);
  assert.equal(camera.distance, web.DISTANCE_MIN);
});

test('camera: frame() fits a box and looks at its centre from above the ground', () => {
  const camera = new web.OrbitCamera();
  camera.aspect = 390 / 844;
  camera.ground = 0;
  camera.pitch = -1;
  camera.frame({ x: -0.5, y: 0.1, z: -0.5 }, { x: 0.5, y: 1.1, z: 0.5 }, { pitch: 0.3 });
  assert.ok(web.length(web.sub(camera.target, { x: 0, y: 0.6, z: 0 })) < 1e-9, 'looks at the centre');
  assert.ok(camera.eye.y > web.GROUND_MARGIN);
  const { viewProjection } = camera.matrices();
  for (const x of [-0.5, 0.5])
    for (const y of [0.1, 1.1])
      for (const z of [-0.5, 0.5]) {
        const clip = [0, 1, 2, 3].map(
          (r) => viewProjection[r] * x + viewProjection[4 + r] * y + viewProjection[8 + r] * z + viewProjection[12 + r],
        );
        assert.ok(Math.abs(clip[0] / clip[3]) <= 1 && Math.abs(clip[1] / clip[3]) <= 1, `corner ${x},${y},${z} is in view`);
      }
});

test('real-time stepping: steps follow wall time, at most a few a frame; slow motion is measured', () => {
  const step = 1000 / 60;
  // 60 Hz display: one step a frame, real time.
  let s = new web.RealTimeStepper(step);
  let steps = 0;
  for (let i = 0; i < 120; i++) steps += s.advance(step);
  assert.ok(Math.abs(steps - 120) <= 1, `${steps} steps in 2 s at 60 Hz`);
  assert.ok(s.slowMotion < 1.05 && Math.abs(s.stepsPerSecond - 60) < 2, JSON.stringify(s));
  // 10 fps (the machine): six steps owed per frame, four taken: real time is not possible,
  // but the cloth moves 4× faster than one step a frame, and the page knows it is slow motion ×1.5.
  s = new web.RealTimeStepper(step);
  const per = [];
  for (let i = 0; i < 50; i++) per.push(s.advance(100));
  assert.ok(per.every((n) => n <= web.MAX_STEPS_PER_FRAME));
  assert.equal(
    per.slice(10).reduce((a, b) => a + b, 0),
    40 * web.MAX_STEPS_PER_FRAME,
  );
  assert.ok(Math.abs(s.slowMotion - 1.5) < 0.05, `slow motion ${s.slowMotion}`);
  // 30 fps: two steps a frame, real time.
  s = new web.RealTimeStepper(step);
  steps = 0;
  for (let i = 0; i < 60; i++) steps += s.advance(1000 / 30);
  assert.ok(Math.abs(steps - 120) <= 1 && s.slowMotion < 1.05, `${steps} steps, ×${s.slowMotion}`);
  // Frames slower than MAX_FRAME_GAP_MS (a big grid blocking the page): the factor counts their
  // whole wall time, not the capped part.
  s = new web.RealTimeStepper(step);
  steps = 0;
  for (let i = 0; i < 20; i++) steps += s.advance(600);
  assert.equal(steps, 20 * web.MAX_STEPS_PER_FRAME);
  assert.ok(Math.abs(s.slowMotion - 600 / (4 * step)) < 0.1, `slow motion ${s.slowMotion} for 4 steps every 600 ms`);
  assert.ok(Math.abs(s.stepsPerSecond - 4 / 0.6) < 0.1, `${s.stepsPerSecond} steps/s`);
  // A busy solver (GPU still working) gets its steps later, never more than the cap.
  s = new web.RealTimeStepper(step);
  assert.equal(s.advance(50, true), 0);
  assert.equal(s.advance(20), web.MAX_STEPS_PER_FRAME);
  // A long gap (a background tab) does not become a burst of steps.
  assert.ok(s.advance(60_000) <= web.MAX_STEPS_PER_FRAME);
  // Paused: nothing accumulates and the rates start over.
  s.pause();
  assert.equal(s.slowMotion, 1);
  assert.equal(s.advance(0), 0);
});

test('strain legend: percentages from STRAIN_FULL_SCALE, colours from the shader constants', () => {
  const ticks = web.legendTicks();
  assert.equal(ticks[0], -web.STRAIN_FULL_SCALE);
  assert.equal(ticks.at(-1), web.STRAIN_FULL_SCALE);
  assert.deepEqual(ticks.map(web.percent), ['−6%', '−3%', '0%', '+3%', '+6%']);
  const near = (a, b) => a.every((v, i) => Math.abs(v - b[i]) < 1e-9);
  assert.ok(near(web.heatColor(0), web.SHADER_COLORS.HEAT_REST));
  assert.ok(near(web.heatColor(web.STRAIN_FULL_SCALE), web.SHADER_COLORS.HEAT_HOT));
  assert.ok(near(web.heatColor(-web.STRAIN_FULL_SCALE * 5), web.SHADER_COLORS.HEAT_COMPRESSED));
  assert.ok(near(web.heatColor(web.STRAIN_FULL_SCALE / 2), web.SHADER_COLORS.HEAT_WARM));
  assert.match(web.legendColor(web.STRAIN_FULL_SCALE), /^rgb\(\d+, \d+, \d+\)$/);
});

test('OBJ files: binary files are named as such, collider errors name the file', () => {
  const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
  assert.equal(web.notObjText(png, 'photo.png'), 'photo.png:1: not an OBJ text file (it is a PNG image)');
  assert.match(web.notObjText(new Uint8Array([0x76, 0x0a, 0x0a, 1, 2, 3, 0, 5]), 'x.obj'), /^x\.obj:3: not an OBJ text file/);
  assert.equal(web.notObjText(new TextEncoder().encode('v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n'), 'ok.obj'), null);
  assert.equal(web.notObjText(new Uint8Array([0x23, 0x20, 0xe9, 0x0a]), 'latin1.obj'), null, 'Latin-1 text is text');
  assert.equal(web.namedError('weft_world_set_mesh_collider: vertex 3 is too far', 'big.obj'), 'big.obj: vertex 3 is too far');
  const text = new TextEncoder().encode('# huge\nv 0 0 0\n  v 1 0 0\nvn 0 1 0\nv 1e30 0 0\nf 1 2 3\n');
  assert.equal(web.vertexLine(text, 2), 5);
  assert.equal(
    web.namedError('weft_world_set_mesh_collider: vertex 2 has a non-finite or huge coordinate', 'big.obj', text),
    'big.obj:5: vertex 3 has a non-finite or huge coordinate',
  );
  assert.equal(web.namedError('big.obj:12: bad face', 'big.obj'), 'big.obj:12: bad face');
});

test('software renderers are told by their device names (the HUD says "(software)" after them)', () => {
  for (const name of [
    'ANGLE (Google, Vulkan 1.3.0 (SwiftShader Device (Subzero) (0x0000C0DE)), SwiftShader driver)',
    'llvmpipe (LLVM 15.0.6, 256 bits)',
    'Microsoft Basic Render Driver',
    'google swiftshader',
    'Mesa lavapipe',
  ]) {
    assert.equal(web.isSoftwareDevice(name), true, name);
  }
  for (const name of [
    'ANGLE (NVIDIA, NVIDIA GeForce RTX 4090 Direct3D11 vs_5_0 ps_5_0, D3D11)',
    'Apple M2',
    'nvidia hopper NVIDIA H100 80GB HBM3',
    'AMD Radeon RX 7900 XTX',
    '',
  ]) {
    assert.equal(web.isSoftwareDevice(name), false, name);
  }
});

test('zip: CRC-32 as zip and PNG use it; stored files laid out as APPNOTE says; names and sizes checked', () => {
  assert.equal(web.crc32(new TextEncoder().encode('123456789')), 0xcbf43926); // the check value of CRC-32/ISO-HDLC
  assert.equal(web.crc32(new Uint8Array(0)), 0);
  const a = new TextEncoder().encode('v 0 0 0\n'),
    b = new Uint8Array([0, 255, 7]);
  const zip = web.zipStored([
    { name: 'cloth_0001.obj', bytes: a },
    { name: 'b.bin', bytes: b },
  ]);
  const view = new DataView(zip.buffer, zip.byteOffset);
  assert.equal(zip.length, 2 * (30 + 46) + 2 * 14 + 2 * 5 + a.length + b.length + 22);
  assert.equal(view.getUint32(0, true), 0x04034b50); // the first local header
  assert.equal(view.getUint32(14, true), web.crc32(a));
  assert.equal(view.getUint32(18, true), a.length);
  assert.deepEqual([...zip.subarray(30 + 14, 30 + 14 + a.length)], [...a]); // its bytes, stored
  const end = zip.length - 22;
  assert.equal(view.getUint32(end, true), 0x06054b50);
  assert.equal(view.getUint16(end + 10, true), 2); // files
  const directory = view.getUint32(end + 16, true);
  assert.equal(view.getUint32(directory, true), 0x02014b50);
  assert.equal(view.getUint32(directory + 42, true), 0); // the first file's local header
  assert.throws(() => web.zipStored([{ name: 'ü.obj', bytes: a }]), /not printable ASCII/);
});
