// A user OBJ as the collider through the boundary (wasm/weft_wasm_obj.c) and the app's bindings
// (web/src/core/obj.ts): the scene's own colliders are replaced, malformed files are refused with
// "name:line: why", and nothing leaks: the file's buffer is freed whatever happens.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadCore } from './load-core.mjs';

const { bindings, core } = await loadCore();
const { WeftWorld, createSceneWithObj } = bindings;
const encode = (text) => new TextEncoder().encode(text);
const TETRAHEDRON = encode('v 0 0 0\nv 1 0 0\nv 0 0 1\nv 0 1 0\nf 1 3 2\nf 1 2 4\nf 2 3 4\nf 3 1 4\n');
const withObj = (scene, bytes, name = 'tet.obj') => new WeftWorld(core, scene, 16, () => createSceneWithObj(core, scene, 16, bytes, name));

test("an OBJ replaces the sphere scene's sphere and is fitted under the cloth", () => {
  const world = withObj('sphere', TETRAHEDRON);
  try {
    assert.equal(world.sphereCount, 0);
    assert.equal(world.meshTriangleCount, 4);
    assert.notEqual(world.groundHeight, null, 'the ground stays');
    const mesh = world.meshCollider();
    const rest = world.restPositions();
    let clothLow = Infinity,
      meshHigh = -Infinity;
    for (let i = 0; i < world.particleCount; i++) clothLow = Math.min(clothLow, rest[i * 4 + 1]);
    for (let i = 0; i < mesh.vertices.length; i += 4) meshHigh = Math.max(meshHigh, mesh.vertices[i + 1]);
    assert.ok(meshHigh < clothLow, `mesh top ${meshHigh} under the cloth ${clothLow}`);
    world.stepFrames(30);
    assert.ok(world.isFinite());
  } finally {
    world.destroy();
  }
});

test('malformed OBJ files are refused with the file name, the line and the reason', () => {
  const cases = [
    ['v 0 0 0\nv 1 0 0\nv 0 nan? 0\nf 1 2 3\n', /^bad\.obj:3: /],
    ['v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 4\n', /^bad\.obj:4: .*out of range/],
    ['\x00\x01\x02\xff\xfe', /^bad\.obj:1: /],
    ['', /^bad\.obj:1: no faces/],
    ['v 0 0 0\nv 1 0 0\nv 1e39 1 0\nf 1 2 3\n', /^bad\.obj:3: /],
  ];
  for (const [text, expected] of cases) {
    assert.throws(() => withObj('hang', encode(text), 'bad.obj'), { message: expected }, JSON.stringify(text));
  }
  // Degenerate only (all three corners the same point): parsed, then refused by the collider.
  assert.throws(() => withObj('hang', encode('v 0 0 0\nv 0 0 0\nv 0 0 0\nf 1 2 3\n'), 'flat.obj'), /./);
});

test('the file buffer is freed on success and on failure (memory stops growing)', () => {
  const big = encode('v 0 0 0\nv 1 0 0\nv 0 0 1\nv 0 1 0\n' + 'f 1 3 2\nf 1 2 4\nf 2 3 4\nf 3 1 4\n'.repeat(50_000));
  const round = () => {
    withObj('hang', big).destroy();
    assert.throws(() => withObj('hang', new Uint8Array([...big, ...encode('f 1 2 99\n')])));
  };
  round();
  const after = core.memory.byteLength;
  for (let i = 0; i < 20; i++) round();
  assert.equal(core.memory.byteLength, after, 'no growth over 20 more loads of a 1.6 MB file');
});
