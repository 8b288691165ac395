// The bindings of each compute module, one table per module: the WGSL declarations
// (`@group(0) @binding(i) var<...> name: type;`), the bind-group layout entries and the bind
// groups are all made from it, so a binding is named, typed and numbered in one place. The kernels
// refer to the bindings by name only (solve.wgsl, tiles.wgsl, self_collision.wgsl, self_contacts.wgsl,
// render_data.wgsl, air.wgsl, and the shared particle.wgsl, finish.wgsl, mesh_collide.wgsl and pins_on.wgsl).
import { STEP } from './layout';

export interface Binding {
  readonly name: string;
  /// 'uniform' is the dispatch's Step record, read through a dynamic offset (solver.ts).
  readonly access: 'uniform' | 'read' | 'read_write';
  readonly type: string; // WGSL type
}

const uniform = (name: string, type: string): Binding => ({ name, access: 'uniform', type });
const read = (name: string, type: string): Binding => ({ name, access: 'read', type });
const readWrite = (name: string, type: string): Binding => ({ name, access: 'read_write', type });

const step = uniform('step', 'Step');
const predicted = readWrite('predicted', 'array<vec4f>');
const positions = readWrite('positions', 'array<vec4f>');

/// The static mesh collider (mesh.ts packs its arrays): last binding of the solve module of a scene
/// with a mesh. The tiled module never binds it (it stays at 8 storage buffers; see solver.ts).
export const MESH_BINDING = read('mesh', 'array<vec4u>');

/// The core's rest positions, for pinned particles on a scripted path (pins_on.wgsl): appended to
/// the solve module while the pins move (the tiled module never binds it: solver.ts does not fuse then).
export const PIN_BINDING = read('rest', 'array<vec4f>');

export const BINDINGS = {
  /// Per-particle passes and the plain per-colour solve (solve.wgsl + particle.wgsl + finish.wgsl).
  solve: [
    step,
    predicted,
    positions,
    readWrite('velocities', 'array<vec4f>'),
    read('constraints', 'array<Constraint>'),
    read('links', 'array<Link>'),
    readWrite('lambdas', 'array<f32>'),
    read('leftovers', 'array<Constraint>'),
  ],
  /// The tiled solve (tiles.wgsl + particle.wgsl + finish.wgsl): `solved_in` is the other
  /// prediction buffer (the previous substep's solved positions).
  tiles: [
    step,
    predicted,
    positions,
    read('solved_in', 'array<vec4f>'),
    read('words', 'array<u32>'),
    read('tile_constraints', 'array<TileConstraint>'),
    readWrite('lambdas', 'array<f32>'),
    read('links', 'array<Link>'),
    read('leftovers', 'array<Constraint>'),
  ],
  /// Self-collision's hash (self_collision.wgsl + self_common.wgsl + particle.wgsl + finish.wgsl): `particles` holds the rest,
  /// settled and slip sections (vec4 × n each) and the settled and rest positions grouped by bucket (2 vec4 a slot),
  /// `hash_counts` the bucket counts, `hash` the bucket starts and the scan blocks' starts
  /// (layout.ts: selfHashWords).
  self: [
    step,
    predicted,
    read('positions', 'array<vec4f>'),
    read('links', 'array<Link>'),
    readWrite('lambdas', 'array<f32>'),
    read('leftovers', 'array<Constraint>'),
    readWrite('particles', 'array<vec4f>'),
    readWrite('hash_counts', 'array<atomic<u32>>'),
    readWrite('hash', 'array<u32>'),
  ],
  /// Self-collision's scan (self_scan.wgsl + self_common.wgsl): `hash_counts` as plain words (no
  /// other kernel runs meanwhile), the blocks' shared words atomics of their own in `scan_state`.
  selfScan: [
    step,
    read('particles', 'array<vec4f>'),
    readWrite('hash_counts', 'array<u32>'),
    readWrite('hash', 'array<u32>'),
    readWrite('scan_state', 'array<atomic<u32>>'),
  ],
  /// Self-collision's search and contacts (self_contacts.wgsl + self_common.wgsl): the same
  /// buffers, `particles` read-only (nothing in the module writes it).
  selfContacts: [
    step,
    predicted,
    read('positions', 'array<vec4f>'),
    read('particles', 'array<vec4f>'),
    readWrite('hash_counts', 'array<atomic<u32>>'),
    readWrite('hash', 'array<u32>'),
  ],
  /// The triangles' air forces (air.wgsl), into the air section of `lambdas` (layout.ts: airSection).
  air: [
    step,
    read('positions', 'array<vec4f>'),
    read('velocities', 'array<vec4f>'),
    read('indices', 'array<u32>'),
    readWrite('lambdas', 'array<f32>'),
  ],
  /// Normals and strain for the renderer (render_data.wgsl).
  renderData: [
    step,
    read('positions', 'array<vec4f>'),
    read('indices', 'array<u32>'),
    read('constraints', 'array<Constraint>'),
    read('adjacency', 'array<u32>'),
    readWrite('normals', 'array<vec4f>'),
    readWrite('strain', 'array<f32>'),
  ],
} as const satisfies Record<string, readonly Binding[]>;

/// Storage buffers a list binds (what maxStorageBuffersPerShaderStage counts).
export function storageBufferCount(bindings: readonly Binding[]): number {
  return bindings.filter((b) => b.access !== 'uniform').length;
}

/// The WGSL declarations of a module's bindings, in table order.
export function wgslBindings(bindings: readonly Binding[]): string {
  const space = (b: Binding) => (b.access === 'uniform' ? 'uniform' : `storage, ${b.access}`);
  return bindings.map((b, i) => `@group(0) @binding(${i}) var<${space(b)}> ${b.name}: ${b.type};`).join('\n') + '\n';
}

export function bindGroupLayout(device: GPUDevice, label: string, bindings: readonly Binding[]): GPUBindGroupLayout {
  const type: Record<Binding['access'], GPUBufferBindingType> = { uniform: 'uniform', read: 'read-only-storage', read_write: 'storage' };
  return device.createBindGroupLayout({
    label: `weft ${label}`,
    entries: bindings.map((b, binding) => ({
      binding,
      visibility: GPUShaderStage.COMPUTE,
      buffer: b.access === 'uniform' ? { type: 'uniform', hasDynamicOffset: true, minBindingSize: STEP.size } : { type: type[b.access] },
    })),
  });
}

/// A bind group with a buffer for every binding of the table, by name.
export function bindGroup(
  device: GPUDevice,
  label: string,
  layout: GPUBindGroupLayout,
  bindings: readonly Binding[],
  buffers: Readonly<Record<string, GPUBuffer>>,
): GPUBindGroup {
  return device.createBindGroup({
    label: `weft ${label}`,
    layout,
    entries: bindings.map((b, binding) => {
      const buffer = buffers[b.name];
      if (!buffer) throw new Error(`${label}: no buffer for binding ${b.name}`);
      return { binding, resource: b.access === 'uniform' ? { buffer, size: STEP.size } : { buffer } };
    }),
  });
}
