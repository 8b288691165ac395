// The page's GPU solver (web/src/solver/gpu.ts) when its device is lost: it hands the cloth
// to the wasm solver on the same core world, from the state it last copied out of the GPU, and says
// so. Losing the device is simulated with device.destroy(), which resolves device.lost.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { WeftCore } from '../../web/src/core/wasm';
import { WeftWorld } from '../../web/src/core/world';
import { GpuClothSolver } from '../../web/src/solver/gpu';
import { nodeDevice } from './node-gpu';

const core = await WeftCore.load(readFileSync(process.env.WEFT_WASM ?? 'build-wasm/weft.wasm'));

test('a lost device hands the cloth to wasm where the GPU left it', async () => {
  const device = await nodeDevice('opengles');
  const world = new WeftWorld(core, 'hang', 16);
  const rest = world.positions().slice();
  const messages: string[] = [];
  const solver = new GpuClothSolver(world, device, (text) => messages.push(text));
  assert.equal(solver.kind, 'gpu');
  for (let i = 0; i < 31; ++i) await solver.step(1); // a checkpoint starts after 30 frames
  const onGpu = await solver.positions();
  // Wait until the checkpoint reached the core world (an async copy, never per frame).
  for (let i = 0; i < 200 && world.positions()[4 * 200 + 1] === rest[4 * 200 + 1]; ++i) await new Promise((r) => setTimeout(r, 10));
  device.destroy();
  for (let i = 0; i < 200 && solver.kind === 'gpu'; ++i) await new Promise((r) => setTimeout(r, 10));
  assert.equal(solver.kind, 'wasm');
  assert.equal(messages.length, 1);
  assert.match(messages[0], /device was lost.*wasm solver continues/);
  const handed = await solver.positions();
  let moved = 0,
    off = 0;
  for (let i = 0; i < handed.length; ++i) {
    moved = Math.max(moved, Math.abs(handed[i] - rest[i]));
    off = Math.max(off, Math.abs(handed[i] - onGpu[i]));
  }
  assert.ok(moved > 0.3, `the wasm solver starts from the GPU's state, not the rest pose (${moved} m)`);
  assert.ok(off < 0.2, `and close to where the GPU was at frame 31 (${off} m)`);
  const frame = solver.frame;
  await solver.step(5);
  assert.equal(solver.frame, frame + 5);
  assert.ok(world.isFinite());
  solver.destroy();
});
