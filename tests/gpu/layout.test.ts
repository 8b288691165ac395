// One source of truth, checked: the layouts and constants the GPU solver generates its WGSL from
// (web/src/gpu/layout.ts) and the core defaults it mirrors (settings.ts) against the C compiler's
// view of include/weft/weft.h (tests/gpu/layout_probe.c, built by the native CMake preset), and the generated
// WGSL against the device's shader compiler.
import test from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import type { MeshColliderGrid } from '../../web/src/core/world';
import { BEND, SHEAR, STRETCH } from '../../web/src/core/world';
import {
  AIR,
  CONSTRAINT_LAYOUT,
  GRAB_TETHER_SLACK,
  TETHER_RELAX_RATE,
  SETTINGS_RAMP,
  rampedCount,
  LINK_LAYOUT,
  MAX_SPHERES,
  MESH_CELL,
  MESH_REGION,
  MESH_SECTIONS,
  SELF_COLLISION,
  STEP,
  TETHERS_PER_PARTICLE,
  wgslMeshPrelude,
  wgslPrelude,
} from '../../web/src/gpu/layout';
import { readFileSync } from 'node:fs';
import { WeftCore } from '../../web/src/core/wasm';
import { WeftWorld } from '../../web/src/core/world';
import selfCollisionWgsl from '../../web/src/gpu/shaders/self_collision.wgsl?raw';
import selfCommonWgsl from '../../web/src/gpu/shaders/self_common.wgsl?raw';
import selfScanWgsl from '../../web/src/gpu/shaders/self_scan.wgsl?raw';
import selfFlagWgsl from '../../web/src/gpu/shaders/self_flag.wgsl?raw';
import selfContactsWgsl from '../../web/src/gpu/shaders/self_contacts.wgsl?raw';
import { packMeshCollider, writeMeshRecord } from '../../web/src/gpu/mesh';
import meshCollideWgsl from '../../web/src/gpu/shaders/mesh_collide.wgsl?raw';
import airWgsl from '../../web/src/gpu/shaders/air.wgsl?raw';
import airOnWgsl from '../../web/src/gpu/shaders/air_on.wgsl?raw';
import { CORE_DEFAULTS } from '../../web/src/gpu/settings';
import { nodeDevice } from './node-gpu';

const probe = JSON.parse(execFileSync(process.env.WEFT_LAYOUT_PROBE ?? 'build/gpu/layout_probe', { encoding: 'utf8' }));
const f32 = Math.fround;

test('weft_constraint: the TS/WGSL layout is the C layout', () => {
  assert.deepEqual(probe.constraint, { size: CONSTRAINT_LAYOUT.size, ...CONSTRAINT_LAYOUT.offsets });
});

test('constants shared with C', () => {
  assert.equal(probe.max_spheres, MAX_SPHERES);
  assert.equal(probe.tethers_per_particle, TETHERS_PER_PARTICLE);
  assert.deepEqual(probe.constraint_types, { STRETCH, SHEAR, BEND });
});

test("the grab tethers' slack is grab.c's and their scale's relaxing rate weft.h's (the GPU solver keeps the grab limits with them)", () => {
  const define = /#define\s+GRAB_TETHER_SLACK\s+([0-9.e+-]+)f?\b/.exec(readFileSync('src/grab.c', 'utf8'));
  assert.equal(Number(define?.[1]), GRAB_TETHER_SLACK);
  const rate = /#define\s+WEFT_TETHER_RELAX_RATE\s+([0-9.e+-]+)f?\b/.exec(readFileSync('include/weft/weft.h', 'utf8'));
  assert.equal(Number(rate?.[1]), TETHER_RELAX_RATE);
  const ramp = /#define\s+WEFT_SETTINGS_RAMP\s+([0-9.e+-]+)f?\b/.exec(readFileSync('include/weft/weft.h', 'utf8'));
  assert.equal(Number(ramp?.[1]), SETTINGS_RAMP);
  // The counts the core's ramp takes from 1 to 40 (test_settings_ramp.c), in the solver's float order.
  const counts = [1];
  while (counts[counts.length - 1] < 40) counts.push(rampedCount(counts[counts.length - 1], 40));
  assert.deepEqual(counts, [1, 2, 3, 4, 5, 6, 7, 9, 11, 13, 15, 18, 21, 25, 29, 34, 40]);
  assert.equal(rampedCount(40, 10), 10, 'lowered: at once');
});

test("the mesh collider's cell classes and triangle regions (mesh_collide.wgsl) are the C ones", () => {
  assert.deepEqual(probe.mesh_cell, MESH_CELL);
  assert.deepEqual(probe.mesh_region, MESH_REGION);
  // The kernel spells none of them by hand: they come from wgslMeshPrelude().
  assert.doesNotMatch(meshCollideWgsl, /const (REGION|MESH_CELL)_/);
  for (const [name] of meshCollideWgsl.matchAll(/\b(?:REGION|MESH_CELL)_[A-Z_]+\b/g)) {
    assert.match(wgslMeshPrelude(), new RegExp(`const ${name}: u32`), `${name} is generated`);
  }
});

test("self-collision: the hash primes, the partner cap, the rest tolerance, the minimum distance and the stacking lean are C's", () => {
  assert.deepEqual(probe.self_hash_primes, SELF_COLLISION.primes);
  // Private to src/self_collision.c and src/self_contacts.h: read from their source (the GPU
  // kernels take them from layout.ts).
  const source = readFileSync('src/self_collision.c', 'utf8') + readFileSync('src/self_contacts.h', 'utf8');
  const define = (name: string) =>
    Number(/#define\s+(\S+)\s+([0-9.e+-]+)f?\b/.exec(source.match(new RegExp(`#define\\s+${name}\\s+\\S+`))?.[0] ?? '')?.[2]);
  assert.equal(define('MAX_NEIGHBOURS'), SELF_COLLISION.maxPartners);
  assert.equal(define('REST_TOLERANCE'), SELF_COLLISION.restTolerance);
  assert.equal(define('MIN_DISTANCE'), SELF_COLLISION.minDistance);
  assert.equal(define('STACK_LEAN'), SELF_COLLISION.stackLean);
  // The kernel spells no prime or cap by hand: they come from wgslPrelude().
  for (const code of [selfCommonWgsl, selfFlagWgsl, selfCollisionWgsl, selfScanWgsl, selfContactsWgsl]) {
    for (const p of SELF_COLLISION.primes) assert.doesNotMatch(code, new RegExp(`${p}`));
    assert.doesNotMatch(code, /\b16u\b|1\.01|\b0\.5\b/);
  }
});

test("aerodynamics: the minimum air speed and the force record of a triangle are C's", () => {
  // Private to src/aerodynamics.c: read from its source (the kernels take them from layout.ts).
  const source = readFileSync('src/aerodynamics.c', 'utf8');
  assert.equal(Number(/#define\s+MIN_AIR_SPEED\s+([0-9.e+-]+)f?/.exec(source)?.[1]), AIR.minSpeed);
  assert.match(source, new RegExp(`float\\* f = &out\\[${AIR.floatsPerTriangle} \\* t\\]`));
  assert.match(source, new RegExp(`\\* ${AIR.floatsPerTriangle} \\* sizeof\\(float\\)`));
  for (const code of [airWgsl, airOnWgsl]) assert.doesNotMatch(code, /1e-6|0\.000001|\b4u \*/);
});

test('the self-collision view through the wasm boundary is the native one (table size, lengths)', async () => {
  const core = await WeftCore.load(readFileSync(process.env.WEFT_WASM ?? 'build/wasm/weft.wasm'));
  for (const native of probe.self_views) {
    const world = new WeftWorld(core, 'fold', native.grid);
    const view = world.selfCollision;
    world.destroy();
    const { grid, ...expected } = native;
    assert.deepEqual(
      view,
      Object.fromEntries(Object.entries(expected).map(([k, v]) => [k, typeof v === 'number' ? f32(v) : v])),
      `fold ${grid}`,
    );
    assert.ok(view.tableSize >= 2 * grid * grid && (view.tableSize & (view.tableSize - 1)) === 0, 'a power of two ≥ 2 × particles');
  }
});

test('CORE_DEFAULTS mirror weft_default_world_def()', () => {
  // Compare as float32, the type of every C field.
  const flat = (o: unknown): unknown =>
    typeof o === 'number'
      ? f32(o)
      : Array.isArray(o)
        ? o.map(flat)
        : o && typeof o === 'object'
          ? Object.fromEntries(
              Object.entries(o).map(([k, v]) => [
                k,
                flat(k === 'gravity' || k === 'wind' || k === 'pinVelocity' ? (Array.isArray(v) ? v : [v.x, v.y, v.z]) : v),
              ]),
            )
          : o;
  assert.deepEqual(flat(probe.defaults), flat(CORE_DEFAULTS));
});

test('the generated WGSL structs have the sizes TypeScript writes', async () => {
  const device = await nodeDevice('opengles');
  // A kernel that stores sizeof-like facts the WGSL compiler computed: the offset of one element
  // past the start of an array of each struct.
  const code = `${wgslPrelude({ workgroupSize: 64, tileWorkgroupSize: 64, tileCapacity: 64 })}
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@group(0) @binding(1) var<storage, read> steps: array<Step>;
@group(0) @binding(2) var<storage, read> constraints: array<Constraint>;
@group(0) @binding(3) var<storage, read> links: array<Link>;
@compute @workgroup_size(1) fn main() {
  out[0] = arrayLength(&steps);
  out[1] = arrayLength(&constraints);
  out[2] = arrayLength(&links);
}`;
  const module = device.createShaderModule({ code });
  const info = await module.getCompilationInfo();
  assert.deepEqual(
    info.messages.filter((m) => m.type === 'error').map((m) => m.message),
    [],
  );
  // arrayLength = buffer bytes / stride: a buffer of exactly k strides reports k.
  const pipeline = device.createComputePipeline({ layout: 'auto', compute: { module, entryPoint: 'main' } });
  const out = device.createBuffer({ size: 16, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC });
  const steps = device.createBuffer({ size: STEP.size * 3, usage: GPUBufferUsage.STORAGE });
  const constraints = device.createBuffer({ size: CONSTRAINT_LAYOUT.size * 5, usage: GPUBufferUsage.STORAGE });
  const links = device.createBuffer({ size: LINK_LAYOUT.size * 7, usage: GPUBufferUsage.STORAGE });
  const read = device.createBuffer({ size: 16, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
  const encoder = device.createCommandEncoder();
  const pass = encoder.beginComputePass();
  pass.setPipeline(pipeline);
  pass.setBindGroup(
    0,
    device.createBindGroup({
      layout: pipeline.getBindGroupLayout(0),
      entries: [out, steps, constraints, links].map((buffer, binding) => ({ binding, resource: { buffer } })),
    }),
  );
  pass.dispatchWorkgroups(1);
  pass.end();
  encoder.copyBufferToBuffer(out, 0, read, 0, 16);
  device.queue.submit([encoder.finish()]);
  await read.mapAsync(GPUMapMode.READ);
  const [stepCount, constraintCount, linkCount] = new Uint32Array(read.getMappedRange().slice(0));
  device.destroy();
  assert.equal(stepCount, 3, 'WGSL Step stride differs from STEP.size');
  assert.equal(constraintCount, 5, 'WGSL Constraint stride differs from CONSTRAINT_LAYOUT.size');
  assert.equal(linkCount, 7, 'WGSL Link stride differs from LINK_LAYOUT.size');
});

test('the packed mesh collider: each section where Step.mesh_sections says, triangle records as mesh_collide.wgsl reads them', async () => {
  const device = await nodeDevice('opengles');
  // One triangle in a 1×1×1 grid, every array with distinct values.
  const collider: MeshColliderGrid = {
    vertices: new Float32Array([0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0]),
    normals: new Float32Array([0.1, 0.2, 0.3, 0, 0.4, 0.5, 0.6, 0, 0.7, 0.8, 0.9, 0]),
    indices: new Uint32Array([2, 0, 1]),
    faceNormals: new Float32Array([0, 1, 0, -0.5]),
    edgeNormals: new Float32Array([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0]),
    triangleSpheres: new Float32Array([0.3, 0.3, 0.3, 0.75]),
    spheres: new Float32Array([0.5, 0.5, 0.5, 2]),
    cellStart: new Uint32Array([0, 1]),
    cellTriangles: new Uint32Array([0]),
    cellFlags: new Uint8Array([MESH_CELL.SURFACE]),
    origin: { x: -1, y: -1, z: -1 },
    cellSize: 3,
    dims: [1, 1, 1],
    closed: false,
  };
  const packed = packMeshCollider(collider);
  const record = new ArrayBuffer(STEP.size);
  writeMeshRecord(record, packed, 0.005, true);
  const outputs = [
    ...MESH_SECTIONS.map((s) => `f32(mesh_section_${s.name}())`),
    'mesh_corner(0u, 0u).z',
    'mesh_corner(0u, 1u).x',
    'mesh_corner(0u, 2u).x',
    'mesh_face(0u).w',
    'triangle_item(0u, TRIANGLE_BOUND).w',
    'pseudo_normal(0u, REGION_VERTEX_A).x',
    'f32(cell_flag_at(0u))',
    'f32(cell_range(0u).y)',
    'entry_item(0u, ENTRY_PLANE).w',
    'entry_item(0u, ENTRY_BOUND).w',
    'f32(read_entries(0u, 1u).lanes)',
    'f32(read_entries(0u, 1u).triangles.x)',
    'read_entries(0u, 1u).plane0.y',
    'read_entries(0u, 1u).bound0.x',
    'read_entries(0u, 1u).a0.z',
    'read_entries(0u, 1u).c0.x',
  ];
  const code = `${wgslPrelude({ workgroupSize: 64, tileWorkgroupSize: 64, tileCapacity: 64 })}
${wgslMeshPrelude()}
@group(0) @binding(0) var<uniform> step: Step;
@group(0) @binding(1) var<storage, read> mesh: array<vec4u>;
@group(0) @binding(2) var<storage, read_write> out: array<f32>;
// What the solve module gives mesh_collide.wgsl besides (its clearances: unused here).
@group(0) @binding(3) var<storage, read_write> predicted: array<vec4f>;
fn particle_count() -> u32 { return 0u; }
${meshCollideWgsl}
@compute @workgroup_size(1) fn main() {
${outputs.map((o, i) => `  out[${i}] = ${o};`).join('\n')}
}`;
  const module = device.createShaderModule({ code });
  const info = await module.getCompilationInfo();
  assert.deepEqual(
    info.messages.filter((m) => m.type === 'error').map((m) => m.message),
    [],
  );
  const pipeline = device.createComputePipeline({ layout: 'auto', compute: { module, entryPoint: 'main' } });
  const make = (data: ArrayBuffer | number, usage: number) => {
    const size = typeof data === 'number' ? data : data.byteLength;
    const buffer = device.createBuffer({ size, usage: usage | GPUBufferUsage.COPY_DST });
    if (typeof data !== 'number') device.queue.writeBuffer(buffer, 0, data);
    return buffer;
  };
  const buffers = [
    make(record, GPUBufferUsage.UNIFORM),
    make(packed.data, GPUBufferUsage.STORAGE),
    make(outputs.length * 4, GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC),
  ];
  const read = device.createBuffer({ size: outputs.length * 4, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
  const encoder = device.createCommandEncoder();
  const pass = encoder.beginComputePass();
  pass.setPipeline(pipeline);
  pass.setBindGroup(
    0,
    device.createBindGroup({
      layout: pipeline.getBindGroupLayout(0),
      entries: buffers.map((buffer, binding) => ({ binding, resource: { buffer } })),
    }),
  );
  pass.dispatchWorkgroups(1);
  pass.end();
  encoder.copyBufferToBuffer(buffers[2], 0, read, 0, outputs.length * 4);
  device.queue.submit([encoder.finish()]);
  await read.mapAsync(GPUMapMode.READ);
  const got = Array.from(new Float32Array(read.getMappedRange().slice(0)));
  device.destroy();
  assert.ok(
    MESH_SECTIONS.length <= 4 * STEP.fields.find((field) => field.name === 'mesh_sections')!.count!,
    'Step.mesh_sections holds every section',
  );
  assert.deepEqual(
    got.slice(0, MESH_SECTIONS.length),
    MESH_SECTIONS.map((s) => packed.sections[s.name]),
  );
  // Corners through the indices (2, 0, 1), the plane's w, the bound's radius, vertex A's normal, the
  // cell's flag and end; then grid entry 0's plane and bound (its triangle's), read one and four at a time, and
  // its corners a (vertex 2) and c (vertex 1).
  assert.deepEqual(got.slice(MESH_SECTIONS.length), [
    1,
    0,
    1,
    -0.5,
    0.75,
    Math.fround(0.7),
    MESH_CELL.SURFACE,
    1,
    -0.5,
    0.75,
    1,
    0,
    1,
    Math.fround(0.3),
    1,
    1,
  ]);
});
