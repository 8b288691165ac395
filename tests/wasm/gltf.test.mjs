// The glTF writer through the boundary (wasm/weft_wasm_gltf.c): one writer for the CLI and the page,
// so a recording in wasm of the same run is byte for byte the CLI's `weft run --export FILE.glb`
// (the step is bit-identical native and wasm); the recording's refusals come back as results with
// the core's message.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { loadCore, root } from './load-core.mjs';

const { bindings, core } = await loadCore();
const e = core.exports;

/** Records `frames` frames of `scene` at 16² (every frame) in wasm; the .glb bytes. */
function recordInWasm(scene, frames, capacity = frames) {
  const world = new bindings.WeftWorld(core, scene, 16);
  const recording = e.gltf_record_begin(world.coreHandle, capacity, 1, 1);
  try {
    assert.ok(recording, core.lastError());
    for (let f = 0; f < frames; f++) {
      world.stepFrames(1);
      assert.equal(e.gltf_record_add(recording, world.coreHandle), 0, core.lastError());
    }
    assert.equal(e.gltf_record_frames(recording), frames);
    assert.equal(e.gltf_record_finish(recording), 0, core.lastError());
    return new Uint8Array(core.memory, e.gltf_record_bytes(recording), e.gltf_record_size(recording)).slice();
  } finally {
    e.gltf_record_destroy(recording);
    world.destroy();
  }
}

const WEFT = resolve(root, 'build/weft');
test(
  'a wasm recording is byte for byte the CLI export of the same run (sphere, bunny)',
  { skip: !existsSync(WEFT) && 'build/weft not built' },
  () => {
    const dir = mkdtempSync(join(tmpdir(), 'weft-gltf-wasm-'));
    try {
      for (const scene of ['sphere', 'bunny']) {
        const path = join(dir, `${scene}.glb`);
        execFileSync(WEFT, ['run', '--scene', scene, '--grid', '16', '--frames', '12', '--export', path], { stdio: 'ignore' });
        const cli = readFileSync(path);
        const wasm = recordInWasm(scene, 12);
        assert.equal(wasm.length, cli.length, scene);
        assert.ok(Buffer.from(wasm).equals(cli), `${scene}: the wasm .glb differs from the CLI's`);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
);

test('a recording stopped early is as long as one sized for its frames (the reserved JSON room is given back)', () => {
  const tight = recordInWasm('sphere', 5);
  const roomy = recordInWasm('sphere', 5, 500);
  assert.equal(roomy.length, tight.length);
  assert.equal(new TextDecoder().decode(roomy.subarray(0, 4)), 'glTF');
});

test('refusals: past the capacity, an absurd capacity, a world of another size', () => {
  const world = new bindings.WeftWorld(core, 'hang', 8);
  const other = new bindings.WeftWorld(core, 'hang', 9);
  try {
    assert.equal(e.gltf_record_begin(world.coreHandle, 100000, 1, 1), 0);
    assert.match(core.lastError(), /frame_capacity must be in 0\.\.16384/);
    const recording = e.gltf_record_begin(world.coreHandle, 1, 1, 1);
    assert.ok(recording);
    world.stepFrames(1);
    assert.equal(e.gltf_record_add(recording, world.coreHandle), 0);
    world.stepFrames(1);
    assert.notEqual(e.gltf_record_add(recording, world.coreHandle), 0);
    assert.match(core.lastError(), /full/);
    e.gltf_record_destroy(recording);
    const second = e.gltf_record_begin(world.coreHandle, 2, 1, 1);
    other.stepFrames(5);
    assert.notEqual(e.gltf_record_add(second, other.coreHandle), 0);
    assert.match(core.lastError(), /the world has 81 particles, the recording 64/);
    e.gltf_record_destroy(second);
  } finally {
    world.destroy();
    other.destroy();
  }
});
