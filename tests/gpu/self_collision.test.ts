// Self-collision on the GPU (self_collision.wgsl) against the C core (the wasm build): the `fold`
// scene at 40², whose top edge is lowered to the floor so the cloth piles up in folds.
//
// The GPU keeps Verlet lists as C does, but its buckets are filled in atomics' order, so the runs
// agree physically, not bit for bit: the settled pile's centroid within 1 cm of C's, no two cloth
// triangles (sharing no vertex) intersecting, no two particles that are not rest-pose neighbours
// closer than half the thickness. The same GPU run without self-collision must fail the last check
// (the cloth passes through itself), or the check means nothing.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { WeftCore } from '../../web/src/core/wasm';
import { WeftWorld } from '../../web/src/core/world';
import { kernelConfig } from '../../web/src/gpu/device';
import { physicsSettingsOf } from '../../web/src/gpu/from-world';
import { SELF_COLLISION } from '../../web/src/gpu/layout';
import { GpuSolver, type ScheduleKind } from '../../web/src/gpu/solver';
import { centroid, closestNonNeighbours, intersectingTrianglePairs } from './cloth-contacts';
import { nodeDevice } from './node-gpu';

const core = await WeftCore.load(readFileSync(process.env.WEFT_WASM ?? 'build/wasm/weft.wasm'));
const device = await nodeDevice('opengles');

const GRID = 40;
const FRAMES = 360;

interface Shape {
  x: Float32Array;
  closest: number;
  intersections: number;
  centroid: [number, number, number];
}

function shapeOf(world: WeftWorld, x: Float32Array): Shape {
  const view = world.selfCollision;
  const restLimit = Math.fround(view.restDistance * Math.fround(SELF_COLLISION.restTolerance));
  const spacing = 1 / (GRID - 1); // the fold cloth is 1 m across
  return {
    x,
    closest: closestNonNeighbours(x, world.restPositions(), world.particleCount, restLimit, view.thickness),
    intersections: intersectingTrianglePairs(x, world.indices(), 2 * spacing),
    centroid: centroid(x, world.particleCount),
  };
}

async function gpuFold(schedule: ScheduleKind, selfCollision: boolean, frames = FRAMES): Promise<Shape & { thickness: number }> {
  const world = new WeftWorld(core, 'fold', GRID);
  const settings = { ...physicsSettingsOf(world), selfCollision };
  // The page's kernel configuration (tile 16). With tile 8 the tiled schedule's other Gauss–Seidel
  // order folds this cloth another way, self-collision on or off (centroid 2.4 cm off C's either way).
  const gpu = new GpuSolver(device, world, settings, [], { schedule, config: kernelConfig(device) });
  assert.equal(gpu.schedule, schedule, gpu.tiledUnavailable);
  for (let done = 0; done < frames; done += 30) gpu.step(world.frameDt, Math.min(30, frames - done));
  const shape = shapeOf(world, await gpu.read());
  const thickness = world.selfCollision.thickness;
  gpu.destroy();
  world.destroy();
  return { ...shape, thickness };
}

const cpu = (() => {
  const world = new WeftWorld(core, 'fold', GRID);
  assert.ok(world.selfCollision.enabled, 'fold turns self-collision on');
  world.stepFrames(FRAMES);
  const shape = shapeOf(world, world.positions().slice());
  const thickness = world.selfCollision.thickness;
  world.destroy();
  return { ...shape, thickness };
})();

for (const schedule of ['tiled', 'plain'] as const) {
  test(`fold ${GRID}², ${FRAMES} frames, ${schedule} schedule: the GPU pile matches C's (centroid ≤ 1 cm), no intersections, no pair closer than t/2`, async () => {
    const gpu = await gpuFold(schedule, true);
    const d = Math.hypot(...gpu.centroid.map((c, a) => c - cpu.centroid[a]));
    assert.ok(cpu.centroid[1] < 0.2, `the C cloth lies on the floor (centroid y ${cpu.centroid[1]} m)`);
    assert.ok(d <= 0.01, `centroids differ by ${d} m (gpu ${gpu.centroid}, cpu ${cpu.centroid})`);
    assert.equal(cpu.intersections, 0, 'C: intersecting triangle pairs');
    assert.equal(gpu.intersections, 0, 'GPU: intersecting triangle pairs');
    assert.ok(cpu.closest >= cpu.thickness / 2, `C: non-neighbours ${cpu.closest} m apart (thickness ${cpu.thickness} m)`);
    assert.ok(gpu.closest >= gpu.thickness / 2, `GPU: non-neighbours ${gpu.closest} m apart (thickness ${gpu.thickness} m)`);
  });
}

test('fold without GPU self-collision: the pile passes through itself (pairs closer than t/2)', async () => {
  const off = await gpuFold('tiled', false);
  assert.ok(
    off.closest < off.thickness / 2,
    `closest non-neighbours ${off.closest} m (thickness ${off.thickness} m): the check cannot fail`,
  );
});

test('moving pins, self-collision off: the plain schedule follows C (fold 16², 90 frames, ≤ 1e-5 m)', async () => {
  const world = new WeftWorld(core, 'fold', 16);
  world.setSelfCollision(false);
  const gpu = new GpuSolver(device, world, physicsSettingsOf(world), [], { schedule: 'plain', config: kernelConfig(device, 8) });
  const top = world.positions()[1];
  world.stepFrames(90);
  gpu.step(world.frameDt, 90);
  const g = await gpu.read(),
    c = world.positions();
  let diff = 0;
  for (let i = 0; i < c.length; ++i) if (i % 4 !== 3) diff = Math.max(diff, Math.abs(g[i] - c[i]));
  const pinned = [g[1], c[1]];
  gpu.destroy();
  world.destroy();
  assert.ok(top - pinned[1] > 0.5, `the pinned edge came down (${top} → ${pinned[1]} m)`);
  assert.ok(diff <= 1e-5, `max |gpu − cpu| = ${diff} m (pinned corner y: gpu ${pinned[0]}, cpu ${pinned[1]})`);
});

test.after(() => device.destroy());
