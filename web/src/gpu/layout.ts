// The one source of truth for every memory layout and constant that TypeScript shares with the
// WGSL kernels (and, for the constraint record, with C's weft_constraint). The WGSL side never
// spells a struct or a constant by hand: wgslPrelude() generates the declarations from the tables
// below, and every shader module is compiled as prelude + shared functions + kernels. The gpu test
// suite checks CONSTRAINT_LAYOUT against offsetof/sizeof compiled from include/weft/weft.h.

import { CONSTRAINT_LAYOUT } from '../core/layout';

/// A field of a generated struct. Every field is 16-byte aligned (vec4 or an array of vec4), so
/// the uniform and storage layouts are identical and offsets are simply 16 × position.
export interface Field {
  readonly name: string;
  readonly type: 'vec4f' | 'vec4u' | 'vec4i';
  readonly count?: number; // an array of `count` vec4s
  readonly doc: string;
}

export interface StructLayout {
  readonly name: string;
  readonly fields: readonly Field[];
  readonly size: number; // bytes
  readonly offsets: Readonly<Record<string, number>>; // bytes
}

function structLayout(name: string, fields: readonly Field[]): StructLayout {
  const offsets: Record<string, number> = {};
  let size = 0;
  for (const f of fields) {
    offsets[f.name] = size;
    size += 16 * (f.count ?? 1);
  }
  return { name, fields, size, offsets };
}

/// Most spheres a world holds (WEFT_MAX_SPHERES in weft.h; checked by the layout test).
export const MAX_SPHERES = 8;

/// "no particle" in u32 index fields (a tether anchor of -1 or no grabbed particle).
export const NONE = 0xffffffff;

/// What one dispatch of the particle or tile kernels does (bits of Step.range.w).
export const FLAGS = {
  /// Pass A also finishes the previous substep of its particles (leftover, tethers, collisions,
  /// velocity update) and integrates this one.
  FINISH: 1,
  /// Only the tether pass of one iteration (iterations > 1, between iterations).
  TETHERS: 4,
  /// λ accumulates over iterations: read the stored λ (iteration > 0) instead of starting at 0.
  ACCUMULATE_LAMBDA: 8,
  /// Store λ for a later iteration.
  STORE_LAMBDA: 16,
  /// The finish pass also solves the particle's leftover constraint (tiled schedule).
  LEFTOVERS: 32,
  /// Self-collision ran this substep: its kernels already applied the leftover and the tethers
  /// (self_collision.wgsl), so the finish starts at the collisions.
  SETTLED: 64,
} as const;

/// Per-dispatch parameters, one 256-byte-aligned record per dispatch in one uniform buffer
/// (dynamic offsets), written once per frame.
export const STEP = structLayout('Step', [
  { name: 'gravity_h', type: 'vec4f', doc: 'xyz gravity m/s², w substep h in s' },
  { name: 'air_wind', type: 'vec4f', doc: "xyz the substep's wind m/s (gusts included, from the core), w drag coefficient" },
  { name: 'air', type: 'vec4f', doc: 'x lift coefficient, y ½ air density kg/m³ (as C computes it), zw unused' },
  {
    name: 'air_forces',
    type: 'vec4u',
    doc: 'x first float of the air section of lambdas (AIR.floatsPerTriangle a triangle), y triangles (0: no air), zw unused',
  },
  { name: 'ground', type: 'vec4f', doc: 'x ground height m, y friction, z collision margin m, w damping 1/s' },
  { name: 'grab', type: 'vec4f', doc: 'xyz where the hand holds the grabbed particle this substep m, w max speed m/s (0 = no clamp)' },
  { name: 'range', type: 'vec4u', doc: 'x particle count, y first item, z end item, w FLAGS' },
  { name: 'misc', type: 'vec4u', doc: 'x grabbed particle or NONE, y sphere count, z ground enabled, w first group' },
  { name: 'grid', type: 'vec4u', doc: 'x width, y height, z constraint count (leftover λ base), w leftover count' },
  { name: 'spheres', type: 'vec4f', count: MAX_SPHERES, doc: 'centre xyz at the end of the substep, w radius' },
  { name: 'previous_spheres', type: 'vec4f', count: MAX_SPHERES, doc: 'centre xyz at the start of the substep' },
  // The static mesh collider (mesh.ts packs its arrays into one buffer of MESH_SECTIONS).
  { name: 'mesh_grid', type: 'vec4f', doc: 'xyz grid origin m, w cell size m' },
  { name: 'mesh_params', type: 'vec4f', doc: 'x 1 / cell size (as C computes it), y grid diagonal m, z margin m (clamped to cell / 2)' },
  { name: 'mesh_dims', type: 'vec4u', doc: 'xyz cells along each axis, w closed (1) or open shell (0)' },
  { name: 'mesh_counts', type: 'vec4u', doc: 'x vertices, y triangles, z bounding spheres (0: no mesh collision), w cells' },
  {
    name: 'mesh_sections',
    type: 'vec4u',
    count: 3,
    doc: 'start of each MESH_SECTIONS entry in the buffer, in its unit (vec4 or u32 word)',
  },
  // Self-collision (weft_self_collision_view, read from the core) and the pins' scripted path.
  {
    name: 'self_lengths',
    type: 'vec4f',
    doc: "x thickness m, y reach m (the lists': weft_self_collision_view.largest_reach), z 1 / reach (their hash cell edge), w max step m",
  },
  {
    name: 'self_rest',
    type: 'vec4f',
    doc: "x rest limit m (rest distance × SELF_COLLISION.restTolerance), y skin m (reach − thickness: the lists are rebuilt when the displacements' box outgrows it), z 1 / the direct search's hash cell edge (thickness × SELF_GPU.cellEdge), w unused",
  },
  {
    name: 'self_hash',
    type: 'vec4u',
    doc: "x table size (buckets, a power of two), y scan blocks, z substeps a direct search's reference lasts before the lists return, w the fewest substeps lists must have lasted to be rebuilt (else a direct search) (SELF_GPU.switch)",
  },
  { name: 'pins', type: 'vec4f', doc: 'xyz pin velocity m/s, w pin travel time min(pin time, pin motion time) s' },
  {
    name: 'motion',
    type: 'vec4f',
    doc: "x tether scale this frame (weft_world_tether_scale: the core's for the hand, weft_world_grab_step, coming down at most TETHER_RELAX_RATE a second), y velocity kick s (h, h/2 on the first substep since reset), z stretch limit (1 + strain limit, 0 = none), w unused",
  },
]);

/// The grab tethers' slack (GRAB_TETHER_SLACK in src/grab.c; checked by the layout test): a free
/// particle may be |rest_p − rest_g| × (1 + slack) × tether scale from the grabbed particle g.
export const GRAB_TETHER_SLACK = 0.01;

/// How fast the tethers' scale comes down, per s (WEFT_TETHER_RELAX_RATE in weft.h; checked by the
/// layout test): each frame's scale is the larger of the core's (weft_world_grab_step) and the last
/// frame's less this × dt, so a release at the hand's reach does not snap the cloth in at once.
export const TETHER_RELAX_RATE = 0.04;

/// Substeps or iterations raised on a solver that has stepped are worked up to by this factor a
/// frame (WEFT_SETTINGS_RAMP in weft.h, which says why; checked by the layout test): the count a
/// frame takes, from the last frame's.
export const SETTINGS_RAMP = 1.15;
export function rampedCount(last: number, wanted: number): number {
  return last < wanted ? Math.min(wanted, Math.ceil(Math.fround(last * Math.fround(SETTINGS_RAMP)))) : wanted;
}

/// The self-collision hash and response as C runs them (src/self_collision.c): the multipliers of
/// the cell hash (WEFT_SELF_HASH_PRIME_* in weft.h), the most partners a particle takes (the nearest
/// kept), the factor on the rest distance below which a pair is never a partner, the distance
/// below which a pair has no direction, how much more of a vertical pair's push the upper particle
/// takes (STACK_LEAN). The layout test checks each against the C sources. (The
/// lists' reach, and so their skin, comes from the core: weft_self_collision_view.largest_reach.)
export const SELF_COLLISION = {
  primes: [92837111, 689287499, 283923481],
  maxPartners: 16,
  restTolerance: 1.01,
  minDistance: 1e-9,
  stackLean: 0.5,
} as const;

/// Aerodynamics as C runs it (src/aerodynamics.c): the relative air speed below which a triangle
/// feels nothing (MIN_AIR_SPEED) and the floats of a triangle's force record (world->triangle_forces:
/// a third of its force xyz, the air speed). The layout test checks both against the C sources.
export const AIR = { minSpeed: 1e-6, floatsPerTriangle: 4 } as const;

/// Where the triangles' air forces live in the `lambdas` buffer, after the λ of the constraints and
/// leftovers (the solve module binds 8 storage buffers with a mesh collider: no room for a 9th).
export function airSection(lambdaCount: number, triangles: number): { start: number; floats: number } {
  const start = Math.ceil(lambdaCount / 4) * 4;
  return { start, floats: start + AIR.floatsPerTriangle * triangles };
}

/// The hash's counting sort: a scan block is SCAN_ITEMS buckets per invocation of a
/// SELF_GPU.scanWorkgroupSize workgroup; the last block to finish scans the blocks' totals.
export const SCAN_ITEMS = 16;

/// The GPU's own part of self-collision (self_collision.wgsl): C's Verlet lists (cells of reach)
/// while they last, a direct search of a fresh hash (cells of `cellEdge` thicknesses) in the
/// substeps where they would not. `switch`: searching directly, the lists return once the
/// positions of the last rebuild have lasted `toLists` substeps; with lists, a rebuild searches
/// directly instead when the lists lasted fewer than `toDirect` substeps (`toLists` ≥ `toDirect`).
/// The table has at least `bucketsPerParticle` × n buckets (a power of two, at least the core's).
/// bench/gpu/README.md has the measurements.
/// From `splitAt` particles on, the contacts are two kernels (the lists', the search's: the search
/// keeps its own registers), below one (a dispatch fewer a substep); there the lists' kernel runs
/// `listSlots` slots an invocation (a smaller dispatch in the substeps where it has nothing to do).
export const SELF_GPU = {
  cellEdge: 1,
  bucketsPerParticle: 2,
  switch: { toLists: 3, toDirect: 1 },
  splitAt: 1 << 18,
  listSlots: 4,
  // Invocations a workgroup of self_settle and self_scatter, of self_scan (a scan block is
  // scanWorkgroupSize × SCAN_ITEMS buckets; its workgroup memory must stay within 16 KiB: ≤ 128)
  // and of the contacts' kernels. H200, fold 1024²: 256 / 128 / 128 3.67–3.68 ms a frame against
  // 3.82–3.85 at 64 / 64 / 64 (settle 337 → 270 µs, scan 214 → 165, search 2 330 → 2 280);
  // bench/gpu/README.md.
  hashWorkgroupSize: 256,
  scanWorkgroupSize: 128,
  contactsWorkgroupSize: 128,
};

/// The self modules' workgroup sizes (self_common.wgsl), declared ahead of each of them.
export function selfWgslSizes(sizes: { hash: number; scan: number; contacts: number }): string {
  return `const SELF_WORKGROUP_SIZE: u32 = ${sizes.hash}u;
const SCAN_WORKGROUP_SIZE: u32 = ${sizes.scan}u;
const CONTACTS_WORKGROUP_SIZE: u32 = ${sizes.contacts}u;`;
}

/// Forced policies (tests, benchmarks): never lists, never a direct search.
export const SELF_SWITCH = {
  auto: SELF_GPU.switch,
  direct: { toLists: 0xffffffff, toDirect: 0xffffffff },
  lists: { toLists: 0, toDirect: 0 },
} as const;
export type SelfSwitch = { toLists: number; toDirect: number };

/// The GPU hash's table size for n particles (the core's, weft_self_collision_view, as the least).
export function selfTableSize(coreTableSize: number, n: number, bucketsPerParticle: number = SELF_GPU.bucketsPerParticle): number {
  let size = Math.max(coreTableSize, 1);
  while (size < bucketsPerParticle * n) size *= 2;
  return size;
}

/// State words of `hash_counts` after the bucket counts (self_common.wgsl: SELF_FLAG …) and the
/// displacement box: `words` in all.
export const SELF_STATE = { rebuilds: 4, direct: 5, box: 8, words: 8 + 6 } as const; // the box: 6 words

/// Words of the self-collision buffers (self_collision.wgsl) for n particles: `hash` holds the
/// bucket starts within their scan block [0, table), the blocks' starts [table, table + blocks),
/// then per particle its rank in its bucket (n), per slot its list's length (n) and the lists
/// (maxPartners × n, partner e of all slots together); `hash_counts` the bucket counts [0, table),
/// the state words and the box (SELF_STATE.words); `scanState` (self_scan.wgsl) the count of scan
/// blocks done and the blocks' totals.
export function selfHashWords(
  tableSize: number,
  scanWorkgroupSize: number,
  n: number,
): { blocks: number; words: number; counts: number; scanState: number } {
  const blocks = Math.ceil(tableSize / (scanWorkgroupSize * SCAN_ITEMS));
  return {
    blocks,
    words: tableSize + blocks + (2 + SELF_COLLISION.maxPartners) * n,
    counts: tableSize + SELF_STATE.words,
    scanState: 1 + blocks,
  };
}

/// Cell classes of the mesh collider's grid (WEFT_CELL_* in src/mesh.h, documented on
/// weft_mesh_collider_view.cell_flags in weft.h; checked by the layout test).
export const MESH_CELL = { OUTSIDE: 0, SURFACE: 1, INSIDE: 2, FAR: 3 } as const;

/// Voronoi regions of a triangle for the closest point (weft_triangle_region in src/mesh.h;
/// checked by the layout test): which pseudo-normal the side test uses.
export const MESH_REGION = { FACE: 0, VERTEX_A: 1, VERTEX_B: 2, VERTEX_C: 3, EDGE_AB: 4, EDGE_BC: 5, EDGE_CA: 6 } as const;

/// The mesh collider's arrays packed into ONE read-only storage buffer of vec4<u32> (floats as their
/// bits), because the tiled module already binds 8 storage buffers. Float4 arrays are vec4
/// sections (start in vec4s); u32 arrays are word sections (start in words: word w is component
/// w % 4 of vec4 w / 4). Order = index in Step.mesh_sections.
export const MESH_SECTIONS = [
  { name: 'vertex_normals', unit: 'vec4' },
  { name: 'triangles', unit: 'vec4' }, // TRIANGLE_RECORD per triangle
  { name: 'edge_normals', unit: 'vec4' },
  { name: 'spheres', unit: 'vec4' },
  { name: 'indices', unit: 'word' },
  { name: 'cells', unit: 'vec4' }, // CELL_RECORD per grid cell
  { name: 'cell_triangles', unit: 'word' },
  { name: 'entries', unit: 'vec4' }, // ENTRY_RECORD per cell_triangles entry
] as const;
export type MeshSectionName = (typeof MESH_SECTIONS)[number]['name'];

/// What the searches read of grid cell c, in one load: its entries [first, end) of cell_triangles
/// (the core's cell_start[c], cell_start[c + 1]) and its class (MESH_CELL), the first hops of every
/// search's chain of loads.
export const CELL_RECORD = { first: 0, end: 1, flag: 2 } as const;

/// What the narrow phase reads of triangle t, gathered into one record of vec4s (corners through
/// the core's indices, face_normals, triangle_spheres): the searches are chains of dependent loads
/// (cell → triangle → corners), so one hop and one cache line less per triangle tested.
export const TRIANGLE_RECORD = { vec4s: 5, corners: 0, plane: 3, bound: 4 } as const;

/// What the searches read of grid entry k (cell_triangles[k]'s TRIANGLE_RECORD: plane, bound and
/// corners), in entry order: the address depends on k alone, so a search reads four entries at
/// once instead of one chain of loads (cell → triangle → record) after another.
export const ENTRY_RECORD = { vec4s: 5, plane: 0, bound: 1, corners: 2 } as const;

/// Per-particle clearances of the mesh collider (mesh_collide.c's mesh->clearance): a point (xyz)
/// and a lower bound on its distance to the surface (w; 0 unknown), so a particle whose path stays
/// farther than the margin from the surface skips its search. They live in the solve module's
/// prediction buffer after integrate's sections (particle.wgsl), section `section` (vec4 × n), with
/// a mesh collider only; `slack` shrinks the bounds for the rounding of the distances
/// (CLEARANCE_SLACK in mesh_collide.c). A bound is looked for within `reach` cells of its point (C:
/// one cell, up to 27 cells to read; half a cell reads at most 8 and still lets a particle move
/// several substeps without a search).
export const MESH_CLEARANCE = { section: 4, slack: 1e-4, reach: 0.5 } as const;

/// weft_constraint as C lays it out (core/layout.ts): what the plain per-colour kernel reads
/// straight from the core's array.
export { CONSTRAINT_LAYOUT };

/// A constraint of the tiled schedule: particle slots local to its group packed as a | b << 16,
/// rest length, compliance, and the core's constraint index (for λ and for debugging).
export const TILE_CONSTRAINT_LAYOUT = {
  size: 16,
  offsets: { ab: 0, rest_length: 4, compliance: 8, index: 12 },
} as const;

/// Tether slots per particle (WEFT_TETHERS_PER_PARTICLE in weft.h; checked by the layout test and
/// against the core at run time).
export const TETHERS_PER_PARTICLE = 4;

/// Per-particle links (u32 words, no padding: WGSL lays this struct out with 4-byte alignment):
/// TETHERS_PER_PARTICLE tether anchors (NONE = no tether), as many max distances (f32), the
/// particle's leftover constraint of the tiled schedule (NONE = none), and its grab tether's limit
/// before the tether scale (f32: |rest_p − rest_g| × (1 + GRAB_TETHER_SLACK), rewritten on every
/// grab). Read by every finish pass, so every word counts.
export const LINK_LAYOUT = {
  words: 2 * TETHERS_PER_PARTICLE + 2,
  size: 4 * (2 * TETHERS_PER_PARTICLE + 2),
  anchor: 0,
  maxDistance: TETHERS_PER_PARTICLE,
  leftover: 2 * TETHERS_PER_PARTICLE,
  grabLimit: 2 * TETHERS_PER_PARTICLE + 1,
} as const;

/// A group of the tiled schedule: GROUP_LAYOUT.words u32 at the start of the schedule's words
/// (group g at g · words): first entry of its particle list (in the same words), particle count,
/// first of its constraints, colour steps, step stride (constraint slots a step). Step s owns
/// constraints [first + s·stride, first + (s+1)·stride), padded with ab = NONE, so an invocation
/// finds its constraint of any step without loading offsets.
export const GROUP_LAYOUT = { words: 5 } as const;

/// Kernel sizes. Compatibility-mode devices allow 128 invocations per workgroup.
export interface KernelConfig {
  /// Invocations of the per-particle and per-constraint kernels.
  readonly workgroupSize: number;
  /// Invocations of a tile workgroup.
  readonly tileWorkgroupSize: number;
  /// Particle slots in a tile workgroup's memory (vec4 each).
  readonly tileCapacity: number;
}

function wgslStruct(s: StructLayout): string {
  const lines = s.fields.map((f) => {
    const t = f.count ? `array<${f.type}, ${f.count}>` : f.type;
    return `  ${f.name}: ${t}, // ${f.doc}`;
  });
  return `struct ${s.name} {\n${lines.join('\n')}\n}\n`;
}

/// A record of 4-byte scalars as WGSL lays it out: fields in offset order, no padding (checked).
function wgslRecord<F extends string>(
  name: string,
  layout: { size: number; offsets: Readonly<Record<F, number>> },
  types: Record<F, 'u32' | 'f32'>,
): string {
  const fields = (Object.entries(layout.offsets) as [F, number][]).sort((x, y) => x[1] - y[1]);
  if (fields.some(([, offset], i) => offset !== 4 * i) || layout.size !== 4 * fields.length)
    throw new Error(`${name}: not a packed record of 4-byte fields`);
  return `struct ${name} { ${fields.map(([field]) => `${field}: ${types[field]}`).join(', ')} }`;
}

/// The WGSL declarations every module starts with.
export function wgslPrelude(config: KernelConfig): string {
  const flags = Object.entries(FLAGS)
    .map(([k, v]) => `const FLAG_${k}: u32 = ${v}u;`)
    .join('\n');
  return `// generated by web/src/gpu/layout.ts: do not edit in the .wgsl files
const WORKGROUP_SIZE: u32 = ${config.workgroupSize}u;
const TILE_WORKGROUP_SIZE: u32 = ${config.tileWorkgroupSize}u;
const TILE_CAPACITY: u32 = ${config.tileCapacity}u;
const MAX_SPHERES: u32 = ${MAX_SPHERES}u;
const TETHERS_PER_PARTICLE: u32 = ${TETHERS_PER_PARTICLE}u;
const NONE: u32 = ${NONE}u;
${flags}
const SELF_PRIME_X: u32 = ${SELF_COLLISION.primes[0]}u;
const SELF_PRIME_Y: u32 = ${SELF_COLLISION.primes[1]}u;
const SELF_PRIME_Z: u32 = ${SELF_COLLISION.primes[2]}u;
const SELF_MAX_PARTNERS: u32 = ${SELF_COLLISION.maxPartners}u;
const SELF_MIN_DISTANCE: f32 = ${SELF_COLLISION.minDistance};
const SELF_STACK_LEAN: f32 = ${SELF_COLLISION.stackLean};
const SELF_REBUILDS: u32 = ${SELF_STATE.rebuilds}u;
const SELF_DIRECT: u32 = ${SELF_STATE.direct}u;
const SELF_BOX: u32 = ${SELF_STATE.box}u;
const SCAN_ITEMS: u32 = ${SCAN_ITEMS}u;
const AIR_MIN_SPEED: f32 = ${AIR.minSpeed};
const AIR_FLOATS_PER_TRIANGLE: u32 = ${AIR.floatsPerTriangle}u;
${wgslStruct(STEP)}
${wgslRecord('Constraint', CONSTRAINT_LAYOUT, { a: 'u32', b: 'u32', rest_length: 'f32', compliance: 'f32' })}
${wgslRecord('TileConstraint', TILE_CONSTRAINT_LAYOUT, { ab: 'u32', rest_length: 'f32', compliance: 'f32', index: 'u32' })}
struct Link {
  anchor: array<u32, TETHERS_PER_PARTICLE>,
  max_distance: array<f32, TETHERS_PER_PARTICLE>,
  leftover: u32,
  grab_limit: f32,
}
const GROUP_WORDS: u32 = ${GROUP_LAYOUT.words}u;
struct Group { particle_start: u32, particle_count: u32, constraint_start: u32, step_count: u32, stride: u32 }
// Large batches are dispatched as a 2D grid of workgroups (65535 a dimension at most).
fn flat_index(id: vec3u, groups: vec3u) -> u32 {
  return id.x + id.y * groups.x * WORKGROUP_SIZE;
}
`;
}

/// The declarations of the mesh collision module (mesh_collide.wgsl), after wgslPrelude: cell
/// classes, triangle regions and where each packed section starts (read from the dispatch's Step record).
export function wgslMeshPrelude(): string {
  const cells = Object.entries(MESH_CELL).map(([k, v]) => `const MESH_CELL_${k}: u32 = ${v}u;`);
  cells.push(...Object.entries(MESH_REGION).map(([k, v]) => `const REGION_${k}: u32 = ${v}u;`));
  cells.push(...Object.entries(TRIANGLE_RECORD).map(([k, v]) => `const TRIANGLE_${k.toUpperCase()}: u32 = ${v}u;`));
  cells.push(...Object.entries(ENTRY_RECORD).map(([k, v]) => `const ENTRY_${k.toUpperCase()}: u32 = ${v}u;`));
  cells.push(...Object.entries(CELL_RECORD).map(([k, v]) => `const CELL_${k.toUpperCase()}: u32 = ${v}u;`));
  cells.push(
    `const CLEARANCE_SECTION: u32 = ${MESH_CLEARANCE.section}u;`,
    `const CLEARANCE_SLACK: f32 = ${MESH_CLEARANCE.slack};`,
    `const CLEARANCE_REACH: f32 = ${MESH_CLEARANCE.reach};`,
  );
  const sections = MESH_SECTIONS.map((m, i) => `fn mesh_section_${m.name}() -> u32 { return step.mesh_sections[${i >> 2}][${i & 3}]; }`);
  return `// generated by web/src/gpu/layout.ts (mesh collider)\n${[...cells, ...sections].join('\n')}\n`;
}
