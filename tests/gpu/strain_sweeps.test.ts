// The frame-end strain sweeps on the GPU solver (strain_check.wgsl, strain_sweeps.wgsl), as
// tests/unit/test_stability.c (one_substep_holds) checks them on the C core: one substep × one
// iteration a frame cannot hold a fine cloth (one Gauss-Seidel sweep of the solve: without the
// sweeps `sphere` 48² stretched to 351% landing on its sphere, `flag` 48² to 159% in the wind;
// measured on llvmpipe), and the frames end with sweeps that hold it below 100% stretch, with no
// particle left inside the sphere or under the ground (the flag's pole, a mesh collider, takes the
// mesh push-out). At 10 substeps the
// check finds nothing (the plain schedule stays bit-identical to C: parity.test.ts) and no sweep runs.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { WeftCore } from '../../web/src/core/wasm';
import { WeftWorld } from '../../web/src/core/world';
import { kernelConfig } from '../../web/src/gpu/device';
import { physicsSettingsOf, sphereDefsOf } from '../../web/src/gpu/from-world';
import { GpuSolver, type ScheduleKind } from '../../web/src/gpu/solver';
import { nodeDevice } from './node-gpu';

const core = await WeftCore.load(readFileSync(process.env.WEFT_WASM ?? 'build-wasm/weft.wasm'));
const device = await nodeDevice('opengles');

interface Outcome {
  worstStretch: number; // the longest grid edge's length / rest − 1, over every frame
  deepest: number; // m, the deepest a particle ended a frame inside a sphere or under the ground
  sweeps: number | null;
}

/// The largest stretch of a grid edge (length / rest − 1): what the sweeps limit. (The core's
/// weft_world_max_stretch counts compression too, |length − rest| / rest, which is below 100%
/// whatever happens.)
function longestEdge(x: Float32Array, rest: Float32Array, grid: number): number {
  const n = x.length / 4;
  const length = (v: Float32Array, p: number, q: number) =>
    Math.hypot(v[4 * p] - v[4 * q], v[4 * p + 1] - v[4 * q + 1], v[4 * p + 2] - v[4 * q + 2]);
  let worst = 0;
  for (let p = 0; p < n; ++p) {
    if ((p % grid) + 1 < grid) worst = Math.max(worst, length(x, p, p + 1) / length(rest, p, p + 1) - 1);
    if (p + grid < n) worst = Math.max(worst, length(x, p, p + grid) / length(rest, p, p + grid) - 1);
  }
  return worst;
}

/// `scene` at grid² on the GPU solver, `substeps` × 1 iteration, 120 frames with test_stability.c's
/// drag (the middle particle pulled 1 m in 5 frames from frame 60 and back, then let go).
async function run(scene: string, grid: number, substeps: number, schedule: ScheduleKind): Promise<Outcome> {
  const world = new WeftWorld(core, scene, grid);
  world.setSubsteps(substeps, 1);
  const settings = physicsSettingsOf(world);
  const gpu = new GpuSolver(device, world, settings, sphereDefsOf(world), { schedule, config: kernelConfig(device, 8) });
  assert.equal(gpu.schedule, schedule, gpu.tiledUnavailable);
  const rest = world.restPositions().slice();
  const n = world.particleCount,
    dragged = n / 2 + grid / 2;
  let start = { x: 0, y: 0, z: 0 };
  const out: Outcome = { worstStretch: 0, deepest: 0, sweeps: null };
  for (let f = 0; f < 120; ++f) {
    const t = f - 60;
    if (t === 0) {
      const x = await gpu.read();
      start = { x: x[4 * dragged], y: x[4 * dragged + 1], z: x[4 * dragged + 2] };
      gpu.grab(dragged, start);
    } else if (t > 0 && t <= 10) {
      const s = Math.fround(t <= 5 ? t / 5 : (10 - t) / 5);
      gpu.grabMove({ x: start.x, y: start.y, z: Math.fround(start.z + s) });
      if (t === 10) gpu.release();
    }
    gpu.step(world.frameDt, 1);
    const x = await gpu.read();
    out.worstStretch = Math.max(out.worstStretch, longestEdge(x, rest, grid));
    for (let p = 0; p < n; ++p) {
      const [px, py, pz] = [x[4 * p], x[4 * p + 1], x[4 * p + 2]];
      if (settings.groundEnabled) out.deepest = Math.max(out.deepest, settings.groundHeight - py);
      for (const sphere of gpu.spheres) {
        const c = sphere.center;
        out.deepest = Math.max(out.deepest, sphere.def.radius - Math.hypot(px - c.x, py - c.y, pz - c.z));
      }
    }
  }
  out.sweeps = await gpu.strainSweeps();
  gpu.destroy();
  world.destroy();
  return out;
}

for (const [scene, grid] of [
  ['sphere', 48],
  ['flag', 48],
] as const) {
  for (const schedule of ['tiled', 'plain'] as const) {
    test(`1 substep × 1 iteration, ${scene} ${grid}², ${schedule}: the strain sweeps hold the cloth below 100% stretch, outside the colliders`, async () => {
      const o = await run(scene, grid, 1, schedule);
      console.log(`${scene} ${grid}² ${schedule}, 1 substep: max stretch ${o.worstStretch}, ${o.sweeps} sweeps, deepest ${o.deepest} m`);
      assert.ok(o.worstStretch < 1, `max stretch ${o.worstStretch}`);
      assert.ok(o.deepest <= 1e-4, `a particle ended a frame ${o.deepest} m inside a collider`);
      assert.ok(o.sweeps !== null && o.sweeps > 0, `strain sweeps ${o.sweeps}`);
    });
  }
}

test('10 substeps: the check finds no edge beyond the trigger and no sweep runs (sphere 48², 60 frames)', async () => {
  const world = new WeftWorld(core, 'sphere', 48);
  const gpu = new GpuSolver(device, world, physicsSettingsOf(world), sphereDefsOf(world), {
    schedule: 'tiled',
    config: kernelConfig(device, 8),
  });
  for (let f = 0; f < 60; ++f) gpu.step(world.frameDt, 1);
  const sweeps = await gpu.strainSweeps();
  // Three dispatches a frame for the strain limit: the check and the two it gives zero workgroups.
  const withSweeps = gpu.dispatchesPerFrame;
  gpu.settings = { ...gpu.settings, stretchLimit: Infinity };
  gpu.step(world.frameDt, 1);
  const without = gpu.dispatchesPerFrame;
  gpu.destroy();
  world.destroy();
  assert.equal(sweeps, 0);
  assert.equal(withSweeps - without, 3);
});

test.after(() => device.destroy());
