// Aerodynamics on the GPU (air.wgsl, air_on.wgsl) against the C core (aerodynamics.c):
// - the triangles' forces of one substep, on the same positions, velocities and gusting wind, are
//   C's (weft_world_air_forces through the wasm boundary), float for float;
// - the flag flies on the GPU as tests/unit/test_aerodynamics.c flag_flies has it on the CPU: over
//   seconds 5–10 the free edge's mean distance from the pole is ≥ 80% of the flag's 2.4 m and it flaps
//   (range ≥ 2 cm), on the plain and on the tiled schedule.
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

function gpuOf(cpu: WeftWorld, schedule: ScheduleKind): GpuSolver {
  return new GpuSolver(device, cpu, physicsSettingsOf(cpu), sphereDefsOf(cpu), { schedule, config: kernelConfig(device, 8) });
}

test("the triangles' air forces are C's: flag 24 mid-flight, gusts on", async () => {
  const cpu = new WeftWorld(core, 'flag', 24);
  assert.ok(cpu.air.active && cpu.air.gustStrength > 0, 'the flag scene has gusting air');
  cpu.stepFrames(40); // a crumpled, moving cloth
  const gpu = gpuOf(cpu, 'plain');
  const time = cpu.time + 0.013; // a gust not at a frame boundary
  const expected = cpu.airForces(time);
  const got = await gpu.airForces(time);
  gpu.destroy();
  cpu.destroy();
  assert.equal(got.length, expected.length);
  let worst = 0,
    scale = 0,
    differing = 0;
  for (let i = 0; i < got.length; ++i) {
    scale = Math.max(scale, Math.abs(expected[i]));
    const d = Math.abs(got[i] - expected[i]);
    if (d > 0) differing++;
    worst = Math.max(worst, d);
  }
  assert.ok(scale > 1e-4, `no force to compare (${scale} N)`);
  // Bit for bit where the device rounds as IEEE says (measured: 0 on Dawn/llvmpipe); a few ulps allowed.
  assert.ok(worst <= 4e-7 * scale, `max |gpu − cpu| = ${worst} N of ${scale} N (${differing} floats differ)`);
  if (differing) console.log(`air forces: ${differing} of ${got.length} floats differ, max ${worst} N`);
});

/// The free edge's mean distance from the pole over seconds 5–10 (every frame), and its range.
async function flight(schedule: ScheduleKind, grid: number): Promise<{ mean: number; range: number }> {
  const cpu = new WeftWorld(core, 'flag', grid);
  const gpu = gpuOf(cpu, schedule);
  assert.equal(gpu.schedule, schedule, gpu.tiledUnavailable);
  const rest = cpu.positions().slice();
  const w = cpu.width,
    h = cpu.height;
  const pole = { x: rest[0], z: rest[2] };
  let sum = 0,
    samples = 0,
    low = Infinity,
    high = -Infinity;
  gpu.step(cpu.frameDt, 300);
  for (let f = 300; f < 600; ++f) {
    gpu.step(cpu.frameDt, 1);
    const x = await gpu.read();
    let d = 0;
    for (let j = 0; j < h; ++j) {
      const p = 4 * (j * w + w - 1);
      d += Math.hypot(x[p] - pole.x, x[p + 2] - pole.z);
    }
    d /= h;
    assert.ok(Number.isFinite(d), `not finite at frame ${f}`);
    ((sum += d), samples++);
    ((low = Math.min(low, d)), (high = Math.max(high, d)));
  }
  gpu.destroy();
  cpu.destroy();
  return { mean: sum / samples, range: high - low };
}

for (const schedule of ['plain', 'tiled'] as const) {
  test(`the flag flies on the GPU (${schedule} schedule, grid 32): streams ≥ 80% of 2.4 m from the pole and flaps ≥ 2 cm`, async () => {
    const { mean, range } = await flight(schedule, 32);
    console.log(`flag on the GPU (${schedule}): mean ${mean.toFixed(3)} m, range ${range.toFixed(3)} m`);
    assert.ok(mean >= 0.8 * 2.4, `the free edge is ${mean} m from the pole`);
    assert.ok(range >= 0.02, `it flaps by ${range} m`);
  });
}
