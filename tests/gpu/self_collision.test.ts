// Self-collision on the GPU (self_collision.wgsl) against the C core (the wasm build): the `fold`
// scene at 40², whose top edge is lowered to the floor so the cloth piles up in folds.
//
// The GPU keeps Verlet lists as C does while they last and searches a fresh hash directly in the
// substeps where they would not (SELF_GPU.switch); each path is tested alone too (SELF_SWITCH:
// lists in every substep, rebuilt only when the skin is outgrown; a direct search in every
// substep). Its buckets are filled in atomics' order, so the runs agree physically, not bit for bit: the settled pile's centroid within 1 cm of C's, no two cloth
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
import { SELF_COLLISION, SELF_SWITCH, type SelfSwitch } from '../../web/src/gpu/layout';
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

interface GpuShape extends Shape {
  thickness: number;
  counters: { rebuilds: number; direct: number } | null;
}

// selfSplit: the contacts as two kernels (lists, search) as from SELF_GPU.splitAt particles on.
async function gpuFold(
  schedule: ScheduleKind,
  selfCollision: boolean,
  self: { selfSwitch?: SelfSwitch; selfSplit?: boolean; selfSkin?: number } = {},
): Promise<GpuShape> {
  const world = new WeftWorld(core, 'fold', GRID);
  const settings = { ...physicsSettingsOf(world), selfCollision };
  // The page's kernel configuration (tile 16). With tile 8 the tiled schedule's other Gauss–Seidel
  // order folds this cloth another way, self-collision on or off (centroid 2.4 cm off C's either way).
  const gpu = new GpuSolver(device, world, settings, [], { schedule, config: kernelConfig(device), ...self });
  assert.equal(gpu.schedule, schedule, gpu.tiledUnavailable);
  for (let done = 0; done < FRAMES; done += 30) gpu.step(world.frameDt, Math.min(30, FRAMES - done));
  const shape = shapeOf(world, await gpu.read());
  const thickness = world.selfCollision.thickness;
  const counters = await gpu.selfCounters();
  gpu.destroy();
  world.destroy();
  return { ...shape, thickness, counters };
}

const SUBSTEPS = (() => {
  const world = new WeftWorld(core, 'fold', 4);
  const substeps = world.substeps;
  world.destroy();
  return substeps;
})();

const cpu = (() => {
  const world = new WeftWorld(core, 'fold', GRID);
  assert.ok(world.selfCollision.enabled, 'fold turns self-collision on');
  world.stepFrames(FRAMES);
  const shape = shapeOf(world, world.positions().slice());
  const thickness = world.selfCollision.thickness;
  world.destroy();
  return { ...shape, thickness };
})();

function assertMatchesC(gpu: GpuShape): void {
  const d = Math.hypot(...gpu.centroid.map((c, a) => c - cpu.centroid[a]));
  assert.ok(cpu.centroid[1] < 0.2, `the C cloth lies on the floor (centroid y ${cpu.centroid[1]} m)`);
  assert.ok(d <= 0.01, `centroids differ by ${d} m (gpu ${gpu.centroid}, cpu ${cpu.centroid})`);
  assert.equal(cpu.intersections, 0, 'C: intersecting triangle pairs');
  assert.equal(gpu.intersections, 0, 'GPU: intersecting triangle pairs');
  assert.ok(cpu.closest >= cpu.thickness / 2, `C: non-neighbours ${cpu.closest} m apart (thickness ${cpu.thickness} m)`);
  assert.ok(gpu.closest >= gpu.thickness / 2, `GPU: non-neighbours ${gpu.closest} m apart (thickness ${gpu.thickness} m)`);
}

// The plain schedule's run and the lists' have the contacts as two kernels, the others as one.
for (const schedule of ['tiled', 'plain'] as const) {
  test(`fold ${GRID}², ${FRAMES} frames, ${schedule} schedule: the GPU pile matches C's (centroid ≤ 1 cm), no intersections, no pair closer than t/2`, async () => {
    const gpu = await gpuFold(schedule, true, { selfSplit: schedule === 'plain' });
    assertMatchesC(gpu);
    assert.ok(gpu.counters && gpu.counters.rebuilds + gpu.counters.direct <= FRAMES * SUBSTEPS, `counters ${JSON.stringify(gpu.counters)}`);
  });
}

let listsBuilt = 0; // by the next test, for the one after it

test(`fold ${GRID}², lists in every substep (SELF_SWITCH.lists): matches C, the lists kept over substeps, no direct search`, async () => {
  const gpu = await gpuFold('tiled', true, { selfSwitch: SELF_SWITCH.lists, selfSplit: true });
  assertMatchesC(gpu);
  const c = gpu.counters!;
  assert.equal(c.direct, 0, 'no substep searched directly');
  assert.ok(c.rebuilds > 1 && c.rebuilds < (FRAMES * SUBSTEPS) / 2, `lists built in ${c.rebuilds} of ${FRAMES * SUBSTEPS} substeps`);
  listsBuilt = c.rebuilds;
});

test(`fold ${GRID}², lists in every substep: they reach C's widest (largest_reach), built less often than with a skin of half a thickness`, async () => {
  const world = new WeftWorld(core, 'fold', GRID);
  const view = world.selfCollision;
  world.destroy();
  assert.ok(view.largestReach > view.reach, `largest reach ${view.largestReach} m, least ${view.reach} m`);
  const half = await gpuFold('tiled', true, { selfSwitch: SELF_SWITCH.lists, selfSplit: true, selfSkin: 0.5 });
  const c = half.counters!;
  assert.ok(
    listsBuilt > 0 && listsBuilt < c.rebuilds,
    `lists built ${listsBuilt} times at the largest reach, ${c.rebuilds} at a skin of 0.5`,
  );
});

test(`fold ${GRID}², a direct search in every substep (SELF_SWITCH.direct): matches C, no lists`, async () => {
  const gpu = await gpuFold('tiled', true, { selfSwitch: SELF_SWITCH.direct, selfSplit: false });
  assertMatchesC(gpu);
  const c = gpu.counters!;
  assert.equal(c.rebuilds, 0, 'no lists built');
  assert.equal(c.direct, FRAMES * SUBSTEPS, 'every substep searched directly');
});

test('fold 64² at 3 substeps on the GPU: the pile stays apart under its own weight (stacking shares, as in C)', async () => {
  // As tests/unit/test_self_collision.c fold_64_coarse_steps: with even shares a pair's lower
  // particle is pushed into the layer under it, and this pile sinks through itself (C: 4 600
  // intersecting triangle pairs); the upper particle taking 3/4 (SELF_COLLISION.stackLean) keeps it apart.
  const grid = 64;
  const world = new WeftWorld(core, 'fold', grid);
  const settings = { ...physicsSettingsOf(world), substeps: 3 };
  const gpu = new GpuSolver(device, world, settings, [], { schedule: 'tiled', config: kernelConfig(device) });
  for (let done = 0; done < 300; done += 30) gpu.step(world.frameDt, 30);
  const x = await gpu.read();
  const view = world.selfCollision;
  const restLimit = Math.fround(view.restDistance * Math.fround(SELF_COLLISION.restTolerance));
  const closest = closestNonNeighbours(x, world.restPositions(), world.particleCount, restLimit, view.thickness);
  const intersections = intersectingTrianglePairs(x, world.indices(), 3 * view.thickness);
  gpu.destroy();
  world.destroy();
  assert.equal(intersections, 0, 'intersecting triangle pairs');
  assert.ok(closest >= view.thickness / 2, `non-neighbours ${closest} m apart (thickness ${view.thickness} m)`);
});

// The thickness set live (weft_world_set_thickness, then GpuSolver.setSelfView, as the page's GPU
// solver does it): the settled 32² pile made twice as thick spreads its layers to the new
// thickness. It fails without setSelfView (the GPU keeps the old thickness: pairs 0.032 m apart for
// a new thickness of 0.065 m).
test('fold 32², the thickness doubled live on the GPU: the pile spreads to it (no pair closer than t/2)', async () => {
  const world = new WeftWorld(core, 'fold', 32);
  const gpu = new GpuSolver(device, world, physicsSettingsOf(world), [], { schedule: 'tiled', config: kernelConfig(device) });
  for (let done = 0; done < 300; done += 30) gpu.step(world.frameDt, 30);
  const view = world.selfCollision;
  const restLimit = Math.fround(view.restDistance * Math.fround(SELF_COLLISION.restTolerance));
  const thick = 2 * view.thickness;
  const before = closestNonNeighbours(await gpu.read(), world.restPositions(), world.particleCount, restLimit, thick);
  world.setThickness(thick);
  gpu.setSelfView(world.selfCollision);
  for (let done = 0; done < 120; done += 30) gpu.step(world.frameDt, 30);
  const x = await gpu.read();
  const after = closestNonNeighbours(x, world.restPositions(), world.particleCount, restLimit, thick);
  const intersections = intersectingTrianglePairs(x, world.indices(), 3 * thick);
  gpu.destroy();
  world.destroy();
  assert.ok(before < thick / 2, `the pile starts closer than the new thickness allows (${before} m)`);
  assert.ok(after >= thick / 2, `non-neighbours ${after} m apart (thickness ${thick} m)`);
  assert.equal(intersections, 0, 'intersecting triangle pairs');
});

test('fold without GPU self-collision: the pile passes through itself (pairs closer than t/2)', async () => {
  const off = await gpuFold('tiled', false);
  assert.ok(
    off.closest < off.thickness / 2,
    `closest non-neighbours ${off.closest} m (thickness ${off.thickness} m): the check cannot fail`,
  );
});

// The settled GPU pile's largest move over frames 300-600 (m), gravity pulling sideways by `tilt` g.
async function settledMove(tilt: number): Promise<number> {
  const world = new WeftWorld(core, 'fold', GRID);
  const settings = physicsSettingsOf(world);
  settings.gravity = { ...settings.gravity, x: tilt * 9.81 };
  const gpu = new GpuSolver(device, world, settings, [], { schedule: 'tiled', config: kernelConfig(device) });
  for (let done = 0; done < 300; done += 30) gpu.step(world.frameDt, 30);
  const settled = await gpu.read();
  for (let done = 0; done < 300; done += 30) gpu.step(world.frameDt, 30);
  const later = await gpu.read();
  gpu.destroy();
  world.destroy();
  let farthest = 0;
  for (let p = 0; p < settled.length; p += 4) {
    farthest = Math.max(farthest, Math.hypot(later[p] - settled[p], later[p + 1] - settled[p + 1], later[p + 2] - settled[p + 2]));
  }
  return farthest;
}

test(`fold ${GRID}², frames 300-600 on the GPU: the settled pile stays put (static friction, as in C)`, async () => {
  // As tests/unit/test_self_collision.c settled_fold_stays_put. Without the floor's static friction
  // the pile crept 4.5 cm; pulled sideways by 0.2 g, the layers' static friction holds the upper
  // layers on the lower ones (without it they slid several centimetres).
  const still = await settledMove(0);
  const pulled = await settledMove(0.2);
  assert.ok(still < 2e-3, `the particle that moved most moved ${still} m`);
  assert.ok(pulled < 4e-3, `pulled sideways by 0.2 g, the particle that moved most moved ${pulled} m`);
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
