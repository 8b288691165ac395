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
               export * from './render/frame-uniforms'; export * from './render/math';`,
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
  const names = ['PI', ...Object.keys(web.SHADER_COLORS)];
  assert.ok(names.includes('GOLD_F0'));
  for (const language of ['wgsl', 'glsl']) {
    const constants = web.shaderConstants(language);
    for (const name of names) assert.match(constants, new RegExp(`const (vec3 |float )?${name}\\b`), `${name} in ${language}`);
  }
  assert.match(web.shaderConstants('wgsl'), /const GOLD_F0: vec3f = vec3f\(1\.0, 0\.62, 0\.15\);/);
  assert.match(web.shaderConstants('glsl'), /const vec3 GOLD_F0 = vec3\(1\.0, 0\.62, 0\.15\);/);
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

test('matrix inverse undoes the view-projection', () => {
  const { viewProjection } = new web.OrbitCamera().matrices();
  const identity = web.multiply(viewProjection, web.invert(viewProjection));
  identity.forEach((v, i) => assert.ok(Math.abs(v - (i % 5 === 0 ? 1 : 0)) < 1e-4, `element ${i} = ${v}`));
});
