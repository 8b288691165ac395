// GPU/CPU parity: the same scene, the same colouring, N frames on the C solver (the wasm build, in
// Node) and on the GPU solver (Dawn; llvmpipe through GLES where there is no GPU) → positions agree.
//
// Tolerances (stated in metres, the cloth is 2 m across):
// - plain schedule (the C solver's exact order): ≤ 1e-5 m after 30 frames. Measured here: 0 (bit
//   identical). A GPU whose sqrt/division round differently may drift by float rounding, which this
//   stiff system amplifies, hence not 0.
// - tiled schedule (another Gauss-Seidel order, schedule.ts): ≤ 1e-6 m after one frame (mostly free
//   fall) and ≤ 2e-2 m after 30 frames (measured 2.8e-3 m on hang 16).
// Every check is paired with a deliberately wrong GPU run that must fail it, so a tolerance that
// cannot fail is itself a failure.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { WeftCore } from '../../web/src/core/wasm';
import { SHEAR, STRETCH, WeftWorld } from '../../web/src/core/world';
import { kernelConfig } from '../../web/src/gpu/device';
import { physicsSettingsOf, sphereDefsOf } from '../../web/src/gpu/from-world';
import { GpuSolver, type ScheduleKind } from '../../web/src/gpu/solver';
import type { PhysicsSettings } from '../../web/src/gpu/settings';
import { SphereMotion } from '../../web/src/gpu/spheres';
import { nodeDevice } from './node-gpu';

const core = await WeftCore.load(readFileSync(process.env.WEFT_WASM ?? 'build-wasm/weft.wasm'));
const device = await nodeDevice('opengles');

interface Run {
  cpu: WeftWorld;
  gpu: GpuSolver;
}

function start(scene: string, grid: number, schedule: ScheduleKind, tile = 8, tweak?: (s: PhysicsSettings) => void): Run {
  const cpu = new WeftWorld(core, scene, grid);
  for (let i = 0; i < cpu.sphereCount; ++i) cpu.setSphereMoving(i, false);
  const settings = physicsSettingsOf(cpu);
  tweak?.(settings);
  const gpu = new GpuSolver(device, cpu, settings, sphereDefsOf(cpu), { schedule, config: kernelConfig(device, tile) });
  assert.equal(gpu.schedule, schedule, gpu.tiledUnavailable);
  return { cpu, gpu };
}

/// Steps both `frames` frames; returns the largest coordinate difference and the largest motion.
async function compare(run: Run, frames: number): Promise<{ diff: number; motion: number }> {
  const rest = run.cpu.positions().slice();
  run.cpu.stepFrames(frames);
  run.gpu.step(run.cpu.frameDt, frames);
  const g = await run.gpu.read();
  const c = run.cpu.positions();
  let diff = 0,
    motion = 0;
  for (let i = 0; i < c.length; ++i) {
    if (i % 4 === 3) {
      assert.equal(g[i], c[i], 'inverse masses differ');
      continue;
    }
    diff = Math.max(diff, Math.abs(g[i] - c[i]));
    motion = Math.max(motion, Math.abs(c[i] - rest[i]));
  }
  return { diff, motion };
}

function done(run: Run): void {
  run.gpu.destroy();
  run.cpu.destroy();
}

const heavier = (s: PhysicsSettings) => (s.gravity = { ...s.gravity, y: s.gravity.y * 1.001 });

for (const [scene, grid] of [
  ['hang', 16],
  ['flag', 24],
  ['sphere', 16],
] as const) {
  test(`plain schedule matches the C solver: ${scene} ${grid}, 30 frames, ≤ 1e-5 m`, async () => {
    const run = start(scene, grid, 'plain');
    const { diff, motion } = await compare(run, 30);
    done(run);
    assert.ok(motion > 0.5, `the cloth barely moved (${motion} m): nothing was compared`);
    assert.ok(diff <= 1e-5, `max |gpu − cpu| = ${diff} m`);
    const wrong = start(scene, grid, 'plain', 8, heavier);
    const off = await compare(wrong, 30);
    done(wrong);
    assert.ok(off.diff > 1e-5, `gravity 0.1% off went unnoticed (${off.diff} m)`);
  });
}

test('tiled schedule follows the C solver: hang 16 (frame 1 ≤ 1e-6 m, frame 30 ≤ 2e-2 m)', async () => {
  for (const tile of [8, 16]) {
    const run = start('hang', 16, 'tiled', tile);
    const first = await compare(run, 1);
    const later = await compare(run, 29);
    const stretch = run.cpu.maxStretch();
    done(run);
    assert.ok(first.diff <= 1e-6, `tile ${tile}, frame 1: ${first.diff} m`);
    assert.ok(later.diff <= 2e-2, `tile ${tile}, frame 30: ${later.diff} m (C max stretch ${stretch})`);
  }
  const wrong = start('hang', 16, 'tiled', 8, (s) => (s.gravity = { ...s.gravity, y: s.gravity.y * 1.05 }));
  const off = await compare(wrong, 30);
  done(wrong);
  assert.ok(off.diff > 2e-2, `gravity 5% off went unnoticed (${off.diff} m)`);
});

test('tiled schedule covers every constraint once (hang 33: odd size, partial tiles)', () => {
  const world = new WeftWorld(core, 'hang', 33);
  const gpu = new GpuSolver(device, world, physicsSettingsOf(world), [], { schedule: 'tiled', config: kernelConfig(device, 8) });
  const c = gpu.tiled!.counts;
  const offsets = world.colorOffsets();
  assert.equal(c.a + c.b + c.leftover, offsets[world.colorCount]);
  assert.ok(c.b > 0 && c.leftover > 0, 'both the shifted pass and the leftovers are exercised');
  gpu.destroy();
  world.destroy();
});

test('render data (normals, strain) match the C core on the same positions', async () => {
  const run = start('flag', 20, 'plain');
  run.cpu.stepFrames(20);
  run.cpu.updateRenderData();
  run.gpu.upload(run.cpu.positions(), run.cpu.velocities(), run.cpu.residuals());
  run.gpu.step(run.cpu.frameDt, 0); // render data only
  const [normals, strain] = [await run.gpu.read('normals'), await run.gpu.read('strain')];
  const cn = run.cpu.normals(),
    cs = run.cpu.strain();
  let dn = 0,
    ds = 0,
    strainMax = 0;
  for (let i = 0; i < cn.length; ++i) dn = Math.max(dn, Math.abs(normals[i] - cn[i]));
  for (let i = 0; i < cs.length; ++i) {
    ds = Math.max(ds, Math.abs(strain[i] - cs[i]));
    strainMax = Math.max(strainMax, Math.abs(cs[i]));
  }
  done(run);
  assert.ok(strainMax > 1e-4, 'the cloth is strained: the strain comparison means something');
  assert.ok(dn <= 1e-5, `normals differ by ${dn}`);
  assert.ok(ds <= 1e-6, `strain differs by ${ds}`);
});

test('grab: the grabbed particle sits on the target, as in the C core (plain: ≤ 1e-5 m)', async () => {
  const run = start('hang', 16, 'plain');
  const target = { x: 0.3, y: 1.9, z: 0.2 };
  run.cpu.grab(200, target);
  run.gpu.grab(200, target);
  const { diff } = await compare(run, 10);
  const g = await run.gpu.read();
  run.cpu.release();
  run.gpu.release();
  const after = await compare(run, 2);
  done(run);
  assert.deepEqual([g[800], g[801], g[802]], [Math.fround(0.3), Math.fround(1.9), Math.fround(0.2)]);
  assert.ok(diff <= 1e-5 && after.diff <= 1e-5, `grab ${diff} m, after release ${after.diff} m`);
});

test('iterations = 2: λ accumulates across iterations (plain ≤ 1e-5 m, tiled ≤ 2e-2 m after 30 frames)', async () => {
  for (const [schedule, tolerance] of [
    ['plain', 1e-5],
    ['tiled', 2e-2],
  ] as const) {
    const cpu = new WeftWorld(core, 'hang', 16);
    cpu.setSubsteps(4, 2);
    const gpu = new GpuSolver(device, cpu, physicsSettingsOf(cpu), [], { schedule, config: kernelConfig(device, 8) });
    const run = { cpu, gpu };
    const { diff, motion } = await compare(run, 30);
    done(run);
    assert.ok(motion > 0.5, `the cloth moved (${motion} m)`);
    assert.ok(diff <= tolerance, `${schedule}: ${diff} m`);
  }
});

test('strain limit: a rubber sheet (compliance 1) on the sphere follows C (plain ≤ 1e-5 m, 60 frames); the limit is at work', async () => {
  const sheet = (tweak?: (s: PhysicsSettings) => void) => {
    const cpu = new WeftWorld(core, 'sphere', 16);
    cpu.setSphereMoving(0, false);
    cpu.setCompliance(STRETCH, 1);
    cpu.setCompliance(SHEAR, 1);
    const settings = physicsSettingsOf(cpu);
    tweak?.(settings);
    return { cpu, gpu: new GpuSolver(device, cpu, settings, sphereDefsOf(cpu), { schedule: 'plain', config: kernelConfig(device, 8) }) };
  };
  const limited = sheet(),
    unlimited = sheet((s) => (s.stretchLimit = Infinity));
  assert.equal(limited.cpu.stretchLimit, Math.fround(1.2), "the core's default strain limit reaches the GPU settings");
  const a = await compare(limited, 60),
    b = await compare(unlimited, 60);
  const stretch = limited.cpu.maxStretch();
  done(limited);
  done(unlimited);
  assert.ok(stretch > 0.1 && stretch <= 0.25, `the sheet is held near its limit (${stretch})`);
  assert.ok(a.diff <= 1e-5, `plain: ${a.diff} m`);
  assert.ok(b.diff > 1e-2, `a GPU without the limit went unnoticed (${b.diff} m)`);
});

test('moving sphere: collisions with friction that knows the sphere moves (plain ≤ 1e-5 m, 60 frames)', async () => {
  const cpu = new WeftWorld(core, 'sphere', 16);
  const s = cpu.sphere(0);
  const gpu = new GpuSolver(device, cpu, physicsSettingsOf(cpu), sphereDefsOf(cpu), { schedule: 'plain', config: kernelConfig(device, 8) });
  const run = { cpu, gpu };
  const { diff } = await compare(run, 60);
  const centre = cpu.sphere(0).center;
  done(run);
  assert.ok(Math.abs(centre.x - s.center.x) > 0.1, 'the sphere moved');
  assert.ok(diff <= 1e-5, `max |gpu − cpu| = ${diff} m`);
});

test('tiled: pass A finishing the previous substep (fused) is bit-identical to a separate finish pass (moving sphere, 45 frames)', async () => {
  const make = (fuse: boolean) => {
    const world = new WeftWorld(core, 'sphere', 24);
    const gpu = new GpuSolver(device, world, physicsSettingsOf(world), sphereDefsOf(world), {
      schedule: 'tiled',
      fuse,
      config: kernelConfig(device, 8),
    });
    return { world, gpu };
  };
  const fused = make(true),
    separate = make(false);
  fused.gpu.step(fused.world.frameDt, 45);
  separate.gpu.step(separate.world.frameDt, 45);
  assert.ok(fused.gpu.dispatchesPerFrame < separate.gpu.dispatchesPerFrame, 'fusing saves dispatches');
  const [a, b] = [await fused.gpu.read(), await separate.gpu.read()];
  const [va, vb] = [await fused.gpu.read('velocities'), await separate.gpu.read('velocities')];
  for (const r of [fused, separate]) done({ cpu: r.world, gpu: r.gpu });
  assert.ok(Math.abs(a[1] - 1.6) > 0.3, 'the cloth fell onto the sphere');
  assert.deepEqual(a, b);
  assert.deepEqual(va, vb);
});

test("scripted sphere motion follows the C core (the sphere scene's definition, read through the boundary)", () => {
  const world = new WeftWorld(core, 'sphere', 8);
  const s = world.sphere(0);
  const [def] = sphereDefsOf(world);
  assert.ok(def.frequency > 0 && Math.hypot(def.amplitude.x, def.amplitude.y, def.amplitude.z) > 0.1, 'the scene sphere sways');
  const motion = new SphereMotion(def);
  const substeps = world.substeps;
  const h = Math.fround(Math.fround(world.frameDt) / substeps);
  for (let frame = 0; frame < 90; ++frame) for (let k = 0; k < substeps; ++k) motion.advance(h);
  world.stepFrames(90);
  const c = world.sphere(0).center;
  world.destroy();
  assert.ok(Math.abs(c.x - s.center.x) > 0.1, 'the sphere moved');
  assert.deepEqual([motion.center.x, motion.center.y, motion.center.z], [c.x, c.y, c.z]);
});

test("a GPU solver built mid-motion continues the core's sphere motion and settings", () => {
  const world = new WeftWorld(core, 'sphere', 8);
  world.stepFrames(40);
  const [def] = sphereDefsOf(world);
  const motion = new SphereMotion(def);
  const c = world.sphere(0).center;
  assert.ok(def.startTime! > 0.5, 'the motion had run');
  for (const [a, b] of [
    [motion.center.x, c.x],
    [motion.center.y, c.y],
    [motion.center.z, c.z],
  ])
    assert.ok(Math.abs(a - b) < 1e-5);
  const settings = physicsSettingsOf(world);
  assert.equal(settings.friction, Math.fround(0.4));
  assert.equal(settings.gravity.y, Math.fround(-9.81));
  world.destroy();
});

test.after(() => device.destroy());
