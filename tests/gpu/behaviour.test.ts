// How the cloth behaves on the GPU solver, as tests/unit/test_behaviour.c checks it on the C core:
// free fall is ½ g t² at 1 and 1000 substeps (velocity as state, compensated rounding and the half
// kick: float32 positions alone froze the cloth at 1000), and a grab pulls the whole cloth instead
// of a needle (grab tethers with the core's tether scale). The grab runs on the plain schedule from
// a world the C core settled, so it also checks the hand-over of a world mid-run (residuals, the
// substep clock) against the C core, step for step.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { WeftCore } from '../../web/src/core/wasm';
import { BEND, SHEAR, STRETCH, WeftWorld } from '../../web/src/core/world';
import { kernelConfig } from '../../web/src/gpu/device';
import { physicsSettingsOf, sphereDefsOf } from '../../web/src/gpu/from-world';
import { GpuSolver, type ScheduleKind } from '../../web/src/gpu/solver';
import { GpuClothSolver } from '../../web/src/solver/gpu';
import { nodeDevice } from './node-gpu';

const core = await WeftCore.load(readFileSync(process.env.WEFT_WASM ?? 'build-wasm/weft.wasm'));
const device = await nodeDevice('opengles');

/// Metres an unpinned 8² cloth (the sphere scene without its sphere, ground, damping or speed
/// clamp) falls from rest in `frames` frames, and ½ g t² for their time.
async function freeFall(substeps: number, schedule: ScheduleKind, frames: number): Promise<{ fallen: number; exact: number }> {
  const world = new WeftWorld(core, 'sphere', 8);
  const settings = { ...physicsSettingsOf(world), substeps, groundEnabled: false, damping: 0, maxSpeed: 0, selfCollision: false };
  const gpu = new GpuSolver(device, world, settings, [], { schedule, config: kernelConfig(device, 8) });
  assert.equal(gpu.schedule, schedule, gpu.tiledUnavailable);
  const start = world.positions()[1];
  for (let f = 0; f < frames; ++f) gpu.step(world.frameDt, 1); // one frame a submission: 1000 substeps are many records
  const fallen = start - (await gpu.read())[1];
  const t = frames * world.frameDt;
  gpu.destroy();
  world.destroy();
  return { fallen, exact: 0.5 * -settings.gravity.y * t * t };
}

// The plain schedule at 1000 substeps is 14 000 dispatches a frame (minutes on llvmpipe for 0.5 s):
// it falls for 0.1 s, the tiled one for 0.5 s as the C test.
test('free fall is ½ g t² within 1% at 1 and 1000 substeps (plain and tiled)', async () => {
  for (const [schedule, substeps, frames] of [
    ['plain', 1, 30],
    ['plain', 1000, 6],
    ['tiled', 1, 30],
    ['tiled', 1000, 30],
  ] as const) {
    const { fallen, exact } = await freeFall(substeps, schedule, frames);
    assert.ok(
      Math.abs(fallen - exact) <= 0.01 * exact,
      `${schedule}, ${substeps} substeps, ${frames} frames: fell ${fallen} m, ½gt² = ${exact} m`,
    );
  }
});

test('grab pulls the cloth: hang 64², settled, bottom middle pulled 0.5 m forward; ≤ 10% stretch, as C (plain ≤ 1e-5 m)', async () => {
  const world = new WeftWorld(core, 'hang', 64);
  world.setSubsteps(10, world.iterations);
  world.setDamping(5); // settle quickly (on the C core), then the default damping for the pull
  world.stepFrames(600);
  world.setDamping(0.5);
  const gpu = new GpuSolver(device, world, physicsSettingsOf(world), [], { schedule: 'plain', config: kernelConfig(device, 8) });
  // The same world handed over as if it were fresh: the GPU's first substep then kicks by h/2 and
  // drops the residuals, which the comparison below must notice.
  const fresh = new GpuSolver(device, world, physicsSettingsOf(world), [], { schedule: 'plain', config: kernelConfig(device, 8) });
  fresh.substepsRun = 0;
  fresh.upload(world.positions(), world.velocities(), new Float32Array(world.particleCount * 4));
  const scratch = new WeftWorld(core, 'hang', 64); // measures the GPU's stretch (never stepped)
  const particle = 63 * 64 + 32;
  const x = world.positions().slice();
  const start = { x: x[4 * particle], y: x[4 * particle + 1], z: x[4 * particle + 2] };
  const middle = 4 * (32 * 64 + 32) + 2;
  let worst = 0,
    worstCpu = 0;
  for (let f = 1; f <= 90; ++f) {
    const s = f < 30 ? Math.fround(f / 30) : 1;
    const target = { x: start.x, y: start.y, z: Math.fround(start.z + Math.fround(0.5 * s)) };
    // The solvers share the core world: its grab (which the tether scale reads) is set by either.
    if (f === 1) {
      world.grab(particle, target);
      gpu.grab(particle, target);
      fresh.grab(particle, target);
    } else {
      world.grabMove(target);
      gpu.grabMove(target);
      fresh.grabMove(target);
    }
    world.stepFrames(1);
    gpu.step(world.frameDt, 1);
    fresh.step(world.frameDt, 1);
    scratch.positions().set(await gpu.read());
    worst = Math.max(worst, scratch.maxStretch());
    worstCpu = Math.max(worstCpu, world.maxStretch());
  }
  const [g, off] = [await gpu.read(), await fresh.read()];
  const c = world.positions();
  let diff = 0,
    offDiff = 0;
  for (let i = 0; i < c.length; ++i) {
    diff = Math.max(diff, Math.abs(g[i] - c[i]));
    offDiff = Math.max(offDiff, Math.abs(off[i] - c[i]));
  }
  const pulled = g[middle] - x[middle]; // the middle of the cloth came along
  for (const solver of [gpu, fresh]) solver.destroy();
  world.destroy();
  scratch.destroy();
  assert.ok(worst <= 0.1, `GPU max stretch ${worst} (C ${worstCpu})`);
  assert.ok(diff <= 1e-5, `max |gpu − cpu| = ${diff} m`);
  assert.ok(offDiff > 1e-5, `a hand-over without the core's residuals and substep clock went unnoticed (${offDiff} m)`);
  assert.ok(pulled > 0.1, `the middle of the cloth followed the hand (${pulled} m)`);
});

// The release that flung the page's cloth (tests/unit/test_interaction.c
// release_after_pull_does_not_fling): the hand held at its reach from the pins loosens every tether
// to WEFT_GRAB_OVERREACH; a scale back at 1 in the release's first substep snapped the cloth in at
// up to 14 m/s, 1.7 m above its pins. The GPU keeps the scale coming down at C's rate.

/// `hang` 64² settled on the C core, then its centre pulled 0.3 m down and held at the hand's reach
/// for 57 frames by the C core and, with `onGpu`, by a GPU solver created from the settled world too
/// (returned).
function pullToReach(world: WeftWorld, onGpu: boolean): GpuSolver | null {
  world.setSubsteps(10, world.iterations);
  world.setDamping(5);
  world.stepFrames(600);
  world.setDamping(0.5);
  const gpu = onGpu
    ? new GpuSolver(device, world, physicsSettingsOf(world), [], { schedule: 'plain', config: kernelConfig(device, 8) })
    : null;
  const centre = 32 * 64 + 32;
  const x = world.positions();
  const start = { x: x[4 * centre], y: x[4 * centre + 1], z: x[4 * centre + 2] };
  for (let f = 1; f <= 57; ++f) {
    const down = f < 12 ? Math.fround(0.3 * Math.fround(f / 12)) : 0.3;
    const target = { x: start.x, y: Math.fround(start.y - down), z: start.z };
    for (const solver of gpu ? [world, gpu] : [world]) {
      if (f === 1) solver.grab(centre, target);
      else solver.grabMove(target);
    }
    world.stepFrames(1);
    gpu?.step(world.frameDt, 1);
  }
  return gpu;
}

/// Steps the C world and the GPU solver `frames` frames side by side: the highest y the GPU's cloth
/// reached, its pins' height, and the largest |gpu − cpu| at the end.
async function sideBySide(world: WeftWorld, gpu: GpuSolver, frames: number): Promise<{ highest: number; pins: number; diff: number }> {
  const rest = world.restPositions();
  let pins = -Infinity;
  for (let p = 0; p < world.particleCount; ++p) if (rest[4 * p + 3] === 0) pins = Math.max(pins, world.positions()[4 * p + 1]);
  let highest = -Infinity;
  for (let f = 0; f < frames; ++f) {
    world.stepFrames(1);
    gpu.step(world.frameDt, 1);
    const g = await gpu.read();
    for (let p = 0; p < world.particleCount; ++p) highest = Math.max(highest, g[4 * p + 1]);
  }
  const [g, c] = [await gpu.read(), world.positions()];
  let diff = 0;
  for (let i = 0; i < c.length; ++i) diff = Math.max(diff, Math.abs(g[i] - c[i]));
  return { highest, pins, diff };
}

test("a release at the hand's reach does not fling the cloth: hang 64², centre pulled 0.3 m down, held, let go; as C (plain ≤ 1e-5 m), below its pins", async () => {
  const world = new WeftWorld(core, 'hang', 64);
  const gpu = pullToReach(world, true)!;
  world.release();
  gpu.release();
  const { highest, pins, diff } = await sideBySide(world, gpu, 30);
  gpu.destroy();
  world.destroy();
  assert.ok(highest < pins + 0.1, `the GPU cloth rose to y ${highest} m, its pins at ${pins} m`);
  assert.ok(diff <= 1e-5, `max |gpu − cpu| = ${diff} m`);
});

// The page's solver switch mid-relax: a world let go at the hand's reach on the C core and handed to
// a new GPU solver 3 frames later, its tethers still loosened (scale > 1). A GPU solver that started
// its scale at 1 snapped the cloth in, as the release did before the relax.
test('a world handed to the GPU while its tethers relax after a release keeps relaxing: as C (plain ≤ 1e-5 m), below its pins', async () => {
  const world = new WeftWorld(core, 'hang', 64);
  pullToReach(world, false);
  world.release();
  world.stepFrames(3);
  const loosened = world.tetherScale;
  const gpu = new GpuSolver(device, world, physicsSettingsOf(world), [], { schedule: 'plain', config: kernelConfig(device, 8) });
  const { highest, pins, diff } = await sideBySide(world, gpu, 30);
  gpu.destroy();
  world.destroy();
  assert.ok(loosened > 1.001, `the tethers were still loosened at the hand-over (scale ${loosened})`);
  assert.ok(highest < pins + 0.1, `the GPU cloth rose to y ${highest} m, its pins at ${pins} m`);
  assert.ok(diff <= 1e-5, `max |gpu − cpu| = ${diff} m`);
});

test.after(() => device.destroy());

// tests/unit/test_interaction.c grab_keeps_out_of_colliders on both solvers: a hand pulled into the
// moving sphere and then under the floor; the held particle stays on the sphere's surface and the
// floor (plus the margin) and slides over them, the GPU's hand as the core's (heldOutside). The hand
// and the sphere follow the same paths on both, so the held particle does too; the rest of the
// cloth parts ways in the frame the C core's strain sweeps first run (the GPU has none).
test('a hand pulled into the sphere and under the floor holds the cloth on their surface, as C (held particle ≤ 1e-5 m)', async () => {
  const world = new WeftWorld(core, 'sphere', 16);
  world.stepFrames(60); // on the sphere (the sphere sways)
  const settings = physicsSettingsOf(world);
  const gpu = new GpuSolver(device, world, settings, sphereDefsOf(world), { schedule: 'plain', config: kernelConfig(device, 8) });
  const centre = 8 * 16 + 8;
  const x = world.positions();
  world.grab(centre, { x: x[4 * centre], y: x[4 * centre + 1], z: x[4 * centre + 2] });
  gpu.grab(centre, { x: x[4 * centre], y: x[4 * centre + 1], z: x[4 * centre + 2] });
  const reach = world.sphere(0).radius + settings.collisionMargin;
  const floor = settings.groundHeight + settings.collisionMargin;
  let nearest = Infinity,
    lowest = Infinity,
    apart = 0,
    finite = true;
  for (let f = 0; f < 90; ++f) {
    const c = world.sphere(0).center;
    const target = f < 45 ? c : { x: c.x, y: settings.groundHeight - 1, z: c.z };
    world.grabMove(target);
    gpu.grabMove(target);
    world.stepFrames(1);
    gpu.step(world.frameDt, 1);
    const g = await gpu.read();
    finite &&= g.every(Number.isFinite);
    const s = world.sphere(0).center; // the same scripted motion on both
    const held = [world.positions().slice(4 * centre, 4 * centre + 3), g.slice(4 * centre, 4 * centre + 3)];
    for (const h of held) {
      nearest = Math.min(nearest, Math.hypot(h[0] - s.x, h[1] - s.y, h[2] - s.z));
      lowest = Math.min(lowest, h[1]);
    }
    apart = Math.max(apart, Math.hypot(held[0][0] - held[1][0], held[0][1] - held[1][1], held[0][2] - held[1][2]));
  }
  gpu.destroy();
  world.destroy();
  assert.ok(finite, 'the GPU cloth stayed finite');
  assert.ok(nearest >= reach - 1e-5, `the held particle came ${nearest} m from the sphere's centre (radius + margin ${reach})`);
  assert.ok(lowest >= floor - 1e-6, `the held particle went down to y ${lowest} (floor + margin ${floor})`);
  assert.ok(apart <= 1e-5, `the held particle ${apart} m apart on the two solvers`);
});

// Substeps raised on a solver that has stepped are worked up to (layout.ts SETTINGS_RAMP, as the
// core: tests/unit/test_settings_ramp.c): the sphere scene's cloth, draped on the stopped sphere at
// 1 substep (stretched), is not thrown up when it gets 40. At once it was (30 m/s and 8.7 m on the
// C core; here the same: the test fails with the ramp taken out).
test('raised substeps are worked up to: the stretched drape at 1 substep is not thrown up at 40 (tiled)', async () => {
  const world = new WeftWorld(core, 'sphere', 24);
  const settings = { ...physicsSettingsOf(world), substeps: 1, iterations: 1 };
  const spheres = sphereDefsOf(world).map((sphere) => ({ ...sphere, moving: false }));
  const gpu = new GpuSolver(device, world, settings, spheres, { schedule: 'tiled', config: kernelConfig(device, 8) });
  gpu.step(world.frameDt, 150);
  await gpu.read();
  gpu.settings = { ...gpu.settings, substeps: 40 };
  const dispatches: number[] = [];
  let highest = 0;
  for (let f = 0; f < 40; ++f) {
    gpu.step(world.frameDt, 1);
    dispatches.push(gpu.dispatchesPerFrame);
    const x = await gpu.read();
    for (let i = 1; i < x.length; i += 4) highest = Math.max(highest, x[i]);
  }
  gpu.destroy();
  world.destroy();
  // More dispatches a frame as the substeps grow, then steady at 40's.
  assert.ok(dispatches[0] < dispatches[10] && dispatches[10] < dispatches[20], `dispatches a frame ${dispatches.join(' ')}`);
  assert.equal(dispatches[39], dispatches[20]);
  assert.ok(highest < 2, `the cloth's highest point over 40 frames: ${highest} m (it starts at 1.2 m)`);
});

// A stiffer compliance on a cloth that has stepped is worked down to (WEFT_COMPLIANCE_RAMP, the
// core's ramp, which the page's GPU solver advances a frame at a time: web/src/solver/gpu.ts;
// the core: tests/unit/test_compliance_ramp.c): the sphere scene's cloth, draped soft (0.1 m/N) on
// the stopped sphere, is not thrown when made stiff. The test fails with the ramp taken out.
test("a stiffer compliance is worked down to: a soft drape is not thrown when made stiff (the page's GPU solver)", async () => {
  const world = new WeftWorld(core, 'sphere', 24);
  world.setSphereMoving(0, false);
  for (const type of [STRETCH, SHEAR, BEND]) world.setCompliance(type, 0.1);
  const solver = new GpuClothSolver(world, device, (reason) => assert.fail(reason));
  await solver.step(200);
  const top = async () => Math.max(...(await solver.positions()).filter((_, i) => i % 4 === 1));
  const before = await top();
  solver.apply({ stretchCompliance: 1e-8, shearCompliance: 1e-7, bendCompliance: 1e-5 });
  assert.equal(world.complianceNow(STRETCH), Math.fround(0.1), 'not yet in the constraints');
  const now: number[] = [];
  let highest = 0;
  for (let f = 0; f < 45; ++f) {
    await solver.step(1);
    now.push(world.complianceNow(STRETCH));
    highest = Math.max(highest, await top());
  }
  solver.destroy();
  world.destroy();
  assert.ok(
    now[0] < 0.1 && now[0] > 0.05 && now[38] > 1e-8,
    `the stretch compliance worked down: ${now.slice(0, 3).join(' ')} … ${now[38]}`,
  );
  assert.equal(now[44], Math.fround(1e-8));
  assert.ok(highest < before + 0.1, `the cloth's highest point over 45 frames: ${highest} m (${before} m before)`);
});

// A thicker cloth on a cloth that has stepped is worked up to (WEFT_THICKNESS_RAMP, the core's ramp,
// which the page's GPU solver advances a frame at a time and hands to the GPU: setSelfView).
test("a thicker cloth is worked up to, ×1.1 a frame, on the page's GPU solver", async () => {
  const world = new WeftWorld(core, 'fold', 16);
  const solver = new GpuClothSolver(world, device, (reason) => assert.fail(reason));
  await solver.step(120);
  const spacing = world.selfCollision.thickness;
  solver.apply({ thickness: 2 * spacing });
  assert.equal(world.thickness, Math.fround(2 * spacing), 'the setting');
  assert.equal(world.selfCollision.thickness, spacing, 'not yet in force');
  const inForce: number[] = [];
  for (let f = 0; f < 9; ++f) {
    await solver.step(1);
    inForce.push(world.selfCollision.thickness);
  }
  await solver.step(5); // several frames a call: a frame at a time while it ramps
  const x = await solver.positions();
  solver.destroy();
  world.destroy();
  assert.ok(inForce[0] > spacing && inForce[0] < 1.11 * spacing && inForce[4] < 2 * spacing, `in force: ${inForce.join(' ')}`);
  assert.equal(inForce[8], Math.fround(2 * spacing));
  assert.ok(x.every(Number.isFinite));
});
