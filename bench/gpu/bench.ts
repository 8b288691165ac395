// GPU solver benchmark in Node (Dawn): `hang` at several grid sizes, 5 substeps × 1 iteration, for
// the plain (one dispatch per colour) and the tiled schedules, plus a compute-shader copy of the
// solver's bytes as the bandwidth ceiling. Prints one JSON document (bench/results/<machine>/gpu.json).
//
// usage: node bench.mjs --backend vulkan|opengles --wasm weft.wasm [--grids 128,256] [--tiles 8,16,32]
//        [--frames 50] [--repeats 7] [--out file.json] [--scene hang|bunny]
// --scene bunny: the cloth dropped on the Stanford bunny (mesh collider), each schedule timed with
// mesh_collision 'on', 'off' (kernel skipped) and 'absent' (no collider given to the solver); no
// copy ceiling. Each run starts from the rest pose; the warm-up (300 ms of frames) drops the cloth
// onto the bunny, so the timed frames are mostly of a cloth draped over it.
// --scene fold: the cloth lowered onto the floor in folds, each schedule with self-collision 'on'
// and 'off' (the same solver, its switch); FOLD_SETTLE frames first (the pins stop after 120), so
// the timed frames are of a cloth piling up on itself. No copy ceiling.
// Timing: GPU timestamps around one compute pass of `frames` frames where the device has them,
// else wall time from submit to onSubmittedWorkDone; the median of `repeats` runs.
import { readFileSync, writeFileSync } from 'node:fs';
import { WeftCore } from '../../web/src/core/wasm';
import { WeftWorld } from '../../web/src/core/world';
import { kernelConfig } from '../../web/src/gpu/device';
import { physicsSettingsOf } from '../../web/src/gpu/from-world';
import { GpuSolver, type ScheduleKind } from '../../web/src/gpu/solver';
import { SELF_GPU, SELF_SWITCH, selfTableSize, type SelfSwitch } from '../../web/src/gpu/layout';
import { nodeDevice, type Backend } from '../../tests/gpu/node-gpu';
import copyWgsl from './copy.wgsl?raw';

const args = new Map<string, string>();
for (let i = 2; i < process.argv.length; i += 2) args.set(process.argv[i].replace(/^--/, ''), process.argv[i + 1]);
const backend = (args.get('backend') ?? 'opengles') as Backend;
const grids = (args.get('grids') ?? '128,256,512,1024,2048').split(',').map(Number);
const tiles = (args.get('tiles') ?? '8,16,32').split(',').map(Number);
const frames = Number(args.get('frames') ?? 50);
const repeats = Number(args.get('repeats') ?? 7);
const SUBSTEPS = 5;
const ITERATIONS = 1;
const scene = args.get('scene') ?? 'hang';
const mesh = scene === 'bunny';
const fold = scene === 'fold';
/// --self-cells 0.5,0.75: the fold's on-runs once for each GPU hash cell edge (in thicknesses;
/// SELF_GPU.cellEdge when not given), --self-buckets the table's buckets per particle.
const selfCells = args.get('self-cells')?.split(',').map(Number) ?? [undefined];
const selfBuckets = args.has('self-buckets') ? Number(args.get('self-buckets')) : undefined;
/// --self-skins 0.5,1: the fold's on-runs once for each skin of the lists (in thicknesses; C's
/// SELF_COLLISION.skin when not given).
const selfSkins = args.get('self-skins')?.split(',').map(Number) ?? [undefined];
/// --self-wg 64,256,256:128,64:64:128: the fold's on-runs once for each workgroup size of
/// self_settle and self_scatter, after a colon of self_scan, after a second of the contacts'
/// kernels (SELF_GPU.hashWorkgroupSize, .scanWorkgroupSize, .contactsWorkgroupSize when not given).
const selfWgs = (args.get('self-wg')?.split(',') ?? [undefined]).map((name) => {
  if (name === undefined) return undefined;
  const [hash, scan, contacts] = name.split(':').map((v) => Number(v) || undefined);
  return { name, sizes: { hash, scan, contacts } };
});
/// --self-switch auto,lists,direct,4:2: the on-runs once for each policy of the lists and the
/// direct search (SELF_SWITCH's names, or toLists:toDirect; SELF_GPU.switch when not given).
const selfSwitches = (args.get('self-switch')?.split(',') ?? [undefined]).map((name) => {
  if (name === undefined) return { name: undefined, policy: undefined };
  if (name in SELF_SWITCH) return { name, policy: SELF_SWITCH[name as keyof typeof SELF_SWITCH] as SelfSwitch };
  const [toLists, toDirect] = name.split(':').map(Number);
  return { name, policy: { toLists, toDirect } };
});
/// Frames the fold runs before it is timed: the pinned edge is on the floor, the pile forming.
const FOLD_SETTLE = 150;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const device = await nodeDevice(backend);
const timestamps = device.features.has('timestamp-query');
const core = await WeftCore.load(readFileSync(args.get('wasm') ?? 'build-wasm/weft.wasm'));

/// Keeps the GPU busy for at least `ms` so its clocks are up before a measurement (the schedule
/// builds on the CPU leave it idle for seconds).
async function warm(run: () => void, ms = 300): Promise<void> {
  const start = performance.now();
  while (performance.now() - start < ms) {
    run();
    await device.queue.onSubmittedWorkDone();
  }
}

/// Per-kernel GPU time of one frame: every dispatch in its own timestamped pass (adds pass
/// overhead, so the sum exceeds ms_per_frame; the split is what it is for).
async function profileFrame(solver: GpuSolver, dt: number): Promise<Record<string, number> | null> {
  if (!timestamps) return null;
  const count = 4096;
  const querySet = device.createQuerySet({ type: 'timestamp', count });
  const resolve = device.createBuffer({ size: count * 8, usage: GPUBufferUsage.QUERY_RESOLVE | GPUBufferUsage.COPY_SRC });
  const read = device.createBuffer({ size: count * 8, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
  const totals: Record<string, number[]> = {};
  for (let r = 0; r < repeats; ++r) {
    const encoder = device.createCommandEncoder();
    const names = solver.encode(encoder, dt, 1, { renderData: false, profile: querySet });
    if (2 * names.length > count) return null;
    encoder.resolveQuerySet(querySet, 0, 2 * names.length, resolve, 0);
    encoder.copyBufferToBuffer(resolve, 0, read, 0, 16 * names.length);
    device.queue.submit([encoder.finish()]);
    await read.mapAsync(GPUMapMode.READ);
    const t = new BigUint64Array(read.getMappedRange(0, 16 * names.length).slice(0));
    read.unmap();
    const sums: Record<string, number> = {};
    names.forEach((name, i) => (sums[name] = (sums[name] ?? 0) + Number(t[2 * i + 1] - t[2 * i]) / 1e3));
    for (const [name, us] of Object.entries(sums)) (totals[name] ??= []).push(us);
  }
  querySet.destroy();
  resolve.destroy();
  read.destroy();
  return Object.fromEntries(Object.entries(totals).map(([name, us]) => [name, Number(median(us).toFixed(2))]));
}

/// Runs record(encoder, timestampWrites) `repeats` times; returns the median ms of one run.
async function time(
  record: (encoder: GPUCommandEncoder, writes?: GPUComputePassTimestampWrites) => void,
): Promise<{ gpu: number | null; wall: number }> {
  const querySet = timestamps ? device.createQuerySet({ type: 'timestamp', count: 2 }) : null;
  const resolve = device.createBuffer({ size: 16, usage: GPUBufferUsage.QUERY_RESOLVE | GPUBufferUsage.COPY_SRC });
  const read = device.createBuffer({ size: 16, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
  const gpu: number[] = [],
    wall: number[] = [];
  for (let r = 0; r < repeats + 1; ++r) {
    const encoder = device.createCommandEncoder();
    record(encoder, querySet ? { querySet, beginningOfPassWriteIndex: 0, endOfPassWriteIndex: 1 } : undefined);
    if (querySet) {
      encoder.resolveQuerySet(querySet, 0, 2, resolve, 0);
      encoder.copyBufferToBuffer(resolve, 0, read, 0, 16);
    }
    await device.queue.onSubmittedWorkDone();
    const t0 = performance.now();
    device.queue.submit([encoder.finish()]);
    await device.queue.onSubmittedWorkDone();
    const t1 = performance.now();
    if (r === 0) continue; // warm-up
    wall.push(t1 - t0);
    if (querySet) {
      await read.mapAsync(GPUMapMode.READ);
      const t = new BigUint64Array(read.getMappedRange().slice(0));
      read.unmap();
      gpu.push(Number(t[1] - t[0]) / 1e6);
    }
  }
  querySet?.destroy();
  resolve.destroy();
  read.destroy();
  return { gpu: gpu.length ? median(gpu) : null, wall: median(wall) };
}

async function copyCeiling(bytes: number) {
  const size = Math.ceil(bytes / 16) * 16;
  const usage = GPUBufferUsage.STORAGE;
  const source = device.createBuffer({ size, usage }),
    target = device.createBuffer({ size, usage });
  const workgroup = Math.min(256, device.limits.maxComputeInvocationsPerWorkgroup);
  const module = device.createShaderModule({ code: copyWgsl });
  const pipeline = device.createComputePipeline({
    layout: 'auto',
    compute: { module, entryPoint: 'copy', constants: { WORKGROUP_SIZE: workgroup } },
  });
  const bind = device.createBindGroup({
    layout: pipeline.getBindGroupLayout(0),
    entries: [
      { binding: 0, resource: { buffer: source } },
      { binding: 1, resource: { buffer: target } },
    ],
  });
  const groups = Math.ceil(size / 16 / workgroup);
  const x = Math.min(groups, device.limits.maxComputeWorkgroupsPerDimension);
  const copies = 20;
  const t = await time((encoder, writes) => {
    const pass = encoder.beginComputePass(writes ? { timestampWrites: writes } : {});
    pass.setPipeline(pipeline);
    pass.setBindGroup(0, bind);
    for (let i = 0; i < copies; ++i) pass.dispatchWorkgroups(x, Math.ceil(groups / x));
    pass.end();
  });
  source.destroy();
  target.destroy();
  const ms = (t.gpu ?? t.wall) / copies;
  return { bytes: size, ms_per_copy: ms, gb_per_s: (2 * size) / (ms * 1e6) };
}

const results = [];
for (const grid of grids) {
  const world = new WeftWorld(core, scene, grid);
  world.setSubsteps(SUBSTEPS, ITERATIONS);
  const settings = physicsSettingsOf(world);
  const runs = [];
  const schedules: { schedule: ScheduleKind; tile?: number }[] = [
    { schedule: 'plain' },
    ...tiles.map((tile) => ({ schedule: 'tiled' as const, tile })),
  ];
  // With the bunny: mesh kernel on; off (same dispatches, the kernel skips every particle); and
  // the collider hidden from the solver (no mesh buffer, and the tiled schedule fuses its finish).
  type MeshVariant = 'on' | 'off' | 'absent';
  const variants = schedules.flatMap((v) =>
    mesh ? (['on', 'off', 'absent'] as MeshVariant[]).map((m) => ({ ...v, mesh: m })) : [{ ...v, mesh: 'absent' as MeshVariant }],
  );
  let stateBytes = 0;
  if (fold) {
    const cases = selfCells
      .flatMap((cell) => selfSwitches.flatMap((sw) => selfWgs.flatMap((wg) => selfSkins.map((skin) => ({ on: true, cell, sw, wg, skin })))))
      .concat([{ on: false, cell: undefined, sw: { name: undefined, policy: undefined }, wg: undefined, skin: undefined }]);
    for (const v of schedules) {
      for (const { on: selfCollision, cell, sw, wg: selfWg, skin } of cases) {
        const config = kernelConfig(device, v.tile);
        if (v.tile && config.tileSize !== v.tile) continue;
        world.reset();
        const solver = new GpuSolver(device, world, { ...settings, selfCollision }, [], {
          schedule: v.schedule,
          tileSize: v.tile,
          config,
          selfCellEdge: cell,
          selfSkin: skin,
          selfBucketsPerParticle: selfBuckets,
          selfSwitch: sw.policy,
          selfWorkgroupSizes: selfWg?.sizes,
        });
        for (let done = 0; done < FOLD_SETTLE; done += 25) {
          solver.step(world.frameDt, 25);
          await device.queue.onSubmittedWorkDone();
        }
        await warm(() => solver.step(world.frameDt, 5));
        const t = await time((encoder, writes) =>
          solver.encode(encoder, world.frameDt, frames, { timestampWrites: writes, renderData: false }),
        );
        const profile = await profileFrame(solver, world.frameDt);
        // How often the neighbour lists were built, and the hash searched directly, over 50 more frames.
        const before = await solver.selfCounters();
        solver.step(world.frameDt, 50);
        const after = await solver.selfCounters();
        const share = (key: 'rebuilds' | 'direct') =>
          selfCollision && before !== null && after !== null ? (after[key] - before[key]) / (50 * SUBSTEPS) : null;
        const positions = await solver.read();
        let lowest = Infinity;
        for (let p = 0; p < world.particleCount; ++p) lowest = Math.min(lowest, positions[4 * p + 1]);
        runs.push({
          self_collision: selfCollision,
          ...(selfCollision && cell !== undefined ? { self_cell_edge: cell } : {}),
          ...(selfCollision && skin !== undefined ? { self_skin: skin } : {}),
          ...(selfCollision && sw.name !== undefined ? { self_switch: sw.name } : {}),
          ...(selfCollision && selfWg !== undefined ? { self_workgroups: selfWg.name } : {}),
          schedule: solver.schedule,
          tile: solver.tiled?.tileSize ?? null,
          dispatches_per_frame: solver.dispatchesPerFrame,
          frames_per_run: frames,
          ms_per_frame: (t.gpu ?? t.wall) / frames,
          wall_ms_per_frame: t.wall / frames,
          timing: t.gpu !== null ? 'gpu-timestamps' : 'wall',
          profile_us_per_frame: profile,
          rebuilds_per_substep: share('rebuilds'),
          direct_per_substep: share('direct'),
          lowest_y: lowest,
          nan: !positions.every(Number.isFinite),
        });
        solver.destroy();
        console.error(
          `fold ${grid} ${v.schedule}${v.tile ? ' tile ' + v.tile : ''} self ${selfCollision ? 'on' : 'off'}${cell ? ' cell ' + cell : ''}${skin ? ' skin ' + skin : ''}${sw.name ? ' switch ' + sw.name : ''}${selfWg ? ' wg ' + selfWg.name : ''}: ${runs[runs.length - 1].ms_per_frame.toFixed(4)} ms/frame`,
        );
      }
    }
    const best = (on: boolean) => runs.filter((r) => r.self_collision === on && !r.nan).sort((a, b) => a.ms_per_frame - b.ms_per_frame)[0];
    const pick = (r: ReturnType<typeof best>) =>
      r ? { schedule: r.schedule, tile: r.tile, ms_per_frame: r.ms_per_frame, dispatches_per_frame: r.dispatches_per_frame } : null;
    const view = world.selfCollision;
    results.push({
      scene,
      grid,
      particles: world.particleCount,
      constraints: world.constraintCount,
      colors: world.colorCount,
      substeps: SUBSTEPS,
      iterations: ITERATIONS,
      settle_frames: FOLD_SETTLE,
      self_collision: {
        thickness: view.thickness,
        reach: view.reach,
        table_size: view.tableSize,
        gpu_cell_edge: SELF_GPU.cellEdge,
        gpu_switch: SELF_GPU.switch,
        gpu_split_at: SELF_GPU.splitAt,
        gpu_table_size: selfTableSize(view.tableSize, world.particleCount, selfBuckets),
      },
      runs,
      best: { self_collision_on: pick(best(true)), self_collision_off: pick(best(false)) },
    });
    world.destroy();
    continue;
  }
  for (const v of variants) {
    const config = kernelConfig(device, v.tile);
    if (v.tile && config.tileSize !== v.tile) continue; // does not fit this device's workgroup memory
    world.reset();
    const core = v.mesh === 'absent' ? Object.create(world, { meshColliderGrid: { value: () => null } }) : world;
    const solver = new GpuSolver(device, core, settings, [], { schedule: v.schedule, tileSize: v.tile, config });
    solver.meshEnabled = v.mesh === 'on';
    stateBytes = grid * grid * 16 * 4 + world.constraintCount * 16; // positions, predicted, velocities, links + constraints
    const n = frames;
    await warm(() => solver.step(world.frameDt, 5));
    const t = await time((encoder, writes) => solver.encode(encoder, world.frameDt, n, { timestampWrites: writes, renderData: false }));
    const profile = await profileFrame(solver, world.frameDt);
    const positions = await solver.read();
    const finite = positions.every(Number.isFinite);
    runs.push({
      ...(mesh ? { mesh_collision: v.mesh } : {}),
      schedule: solver.schedule,
      tile: solver.tiled?.tileSize ?? null,
      dispatches_per_frame: solver.dispatchesPerFrame,
      leftovers: solver.tiled?.counts.leftover ?? 0,
      frames_per_run: n,
      ms_per_frame: (t.gpu ?? t.wall) / n,
      wall_ms_per_frame: t.wall / n,
      timing: t.gpu !== null ? 'gpu-timestamps' : 'wall',
      profile_us_per_frame: profile,
      nan: !finite,
    });
    solver.destroy();
    console.error(
      `${scene} ${grid} ${v.schedule}${v.tile ? ' tile ' + v.tile : ''}${mesh ? ` mesh ${v.mesh}` : ''}: ${runs[runs.length - 1].ms_per_frame.toFixed(4)} ms/frame`,
    );
  }
  if (mesh) {
    const m = world.meshColliderGrid()!;
    const best = (m: MeshVariant) =>
      runs.filter((r) => r.mesh_collision === m && !r.nan).sort((a, b) => a.ms_per_frame - b.ms_per_frame)[0];
    const [on, off, absent] = [best('on'), best('off'), best('absent')];
    const pick = (r: typeof on) => (r ? { schedule: r.schedule, tile: r.tile, ms_per_frame: r.ms_per_frame } : null);
    results.push({
      scene,
      grid,
      particles: world.particleCount,
      constraints: world.constraintCount,
      colors: world.colorCount,
      substeps: SUBSTEPS,
      iterations: ITERATIONS,
      mesh: { triangles: m.indices.length / 3, cells: m.cellFlags.length, spheres: m.spheres.length / 4 },
      runs,
      best: { with_mesh: pick(on), mesh_kernel_off: pick(off), without_mesh_collider: pick(absent) },
    });
    world.destroy();
    continue;
  }
  const copy = await copyCeiling(stateBytes);
  // A frame reads and writes the solver's arrays at least once per substep.
  const ceiling = SUBSTEPS * copy.ms_per_copy;
  const best = runs.filter((r) => !r.nan).sort((a, b) => a.ms_per_frame - b.ms_per_frame)[0];
  results.push({
    scene: 'hang',
    grid,
    particles: world.particleCount,
    constraints: world.constraintCount,
    colors: world.colorCount,
    substeps: SUBSTEPS,
    iterations: ITERATIONS,
    runs,
    copy,
    copy_ms_per_frame: ceiling,
    best: best
      ? { schedule: best.schedule, tile: best.tile, ms_per_frame: best.ms_per_frame, ratio_to_copy: best.ms_per_frame / ceiling }
      : null,
  });
  world.destroy();
}
const info = (device as unknown as { adapterInfo?: GPUAdapterInfo }).adapterInfo;
const doc = {
  machine: args.get('machine') ?? 'unknown',
  backend,
  adapter: info ? { vendor: info.vendor, architecture: info.architecture, device: info.device, description: info.description } : null,
  timing: timestamps ? 'gpu-timestamps, median of repeats' : 'wall time submit→onSubmittedWorkDone, median of repeats',
  repeats,
  date: new Date().toISOString(),
  results,
};
const json = JSON.stringify(doc, null, 2);
if (args.get('out')) writeFileSync(args.get('out')!, json + '\n');
console.log(json);
process.exit(0);
