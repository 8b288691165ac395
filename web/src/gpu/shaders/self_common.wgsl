// The self-collision modules' shared part (self_collision.wgsl's header has the algorithm): the
// sections of `particles` and `hash`, the state words, the cell coordinate and hash
// (weft_self_cell_coordinate and weft_self_cell_hash in src/self_collision.c, for either cell
// edge), the bucket starts. It only reads `particles` (bound read-only in self_contacts.wgsl's
// module).

// State words after the bucket counts (hash_counts[table + …]).
const SELF_FLAG: u32 = 0u; // this substep's SELF_DOES_* bits (self_scan writes, scatter and contacts read)
const SELF_MODE: u32 = 1u; // SELF_MODE_*: how the next substep hashes (self_search writes)
const SELF_AGE: u32 = 2u; // substeps since the last rebuild (lists built, or the direct search's reference)
// Word 3 is free (self_scan.wgsl counts its blocks in `scan_state`). SELF_REBUILDS (list builds)
// and SELF_DIRECT (substeps searched directly): counters; SELF_BOX: the box of the displacements
// since the last rebuild (min xyz, max xyz as order bits); from the prelude (layout.ts: SELF_STATE).

const SELF_MODE_LISTS: u32 = 0u; // cells of reach, the box (lists kept while it stays within the skin)
const SELF_MODE_DIRECT: u32 = 1u; // cells of the direct edge, no box
const SELF_MODE_MEASURE: u32 = 2u; // cells of the direct edge and the box: would lists have lasted?

// SELF_FLAG's bits.
const SELF_DOES_REBUILD: u32 = 0x1u; // the displacements outgrew the skin: new lists (or a new reference)
const SELF_DOES_DIRECT: u32 = 0x2u; // the contacts search the hash (no lists)
const SELF_DOES_BUILD: u32 = 0x4u; // the contacts build the lists
const SELF_HASH_REACH: u32 = 0x8u; // the hash has cells of edge reach (lists mode), else of the GPU's direct edge
const SELF_NEXT_FORCE: u32 = 0x20u; // the next substep must rebuild (its lists are stale: back from direct)
const SELF_NEXT_SHIFT: u32 = 8u; // the next substep's SELF_MODE_* from this bit

fn rest_of(i: u32) -> vec4f {
  return particles[i];
}

fn settled_of(i: u32) -> vec4f {
  return particles[particle_count() + i];
}

fn slip_of(i: u32) -> vec4f {
  return particles[2u * particle_count() + i];
}

// Grouped by bucket (self_scatter): slot k's record of two vec4 (32 bytes: one sector), side by
// side so that a bucket's candidates lie side by side too: the settled position (w: the inverse
// mass), the rest position (w: the particle id's bits).
fn sorted_word(k: u32) -> u32 {
  return 3u * particle_count() + 2u * k;
}

fn sorted_of(k: u32) -> vec4f {
  return particles[sorted_word(k)];
}

fn sorted_rest_of(k: u32) -> vec4f {
  return particles[sorted_word(k) + 1u];
}

// The settled position at the last rebuild (lists built, or the direct search's reference).
fn built_of(i: u32) -> vec4f {
  return particles[5u * particle_count() + i];
}

fn rank_word(i: u32) -> u32 {
  return step.self_hash.x + step.self_hash.y + i;
}

fn list_count_word(k: u32) -> u32 {
  return step.self_hash.x + step.self_hash.y + particle_count() + k;
}

fn list_word(k: u32, e: u32) -> u32 {
  return step.self_hash.x + step.self_hash.y + (2u + e) * particle_count() + k;
}

fn state_word(w: u32) -> u32 {
  return step.self_hash.x + w;
}

// The inverse cell edge of the hash: reach (lists) or the direct search's edge.
fn inverse_edge(reach_cells: bool) -> f32 {
  return select(step.self_rest.z, step.self_lengths.z, reach_cells);
}

// weft_self_cell_coordinate: floor(x / edge), clamped to ±1e9 (NaN → -1e9).
fn cell_coordinate(x: f32, inverse: f32) -> i32 {
  let c = x * inverse;
  if (!(c > -1.0e9)) {
    return -1000000000;
  }
  if (c > 1.0e9) {
    return 1000000000;
  }
  return i32(floor(c));
}

fn cell_of(x: vec3f, inverse: f32) -> vec3i {
  return vec3i(cell_coordinate(x.x, inverse), cell_coordinate(x.y, inverse), cell_coordinate(x.z, inverse));
}

// The row's part of the hash (weft_self_cell_hash's y and z terms).
fn row_hash(cy: i32, cz: i32) -> u32 {
  return (bitcast<u32>(cy) * SELF_PRIME_Y) ^ (bitcast<u32>(cz) * SELF_PRIME_Z);
}

// Linear in the cell's x (the header says why): the cells of a row lie in consecutive buckets.
fn cell_hash(c: vec3i) -> u32 {
  return (bitcast<u32>(c.x) + row_hash(c.y, c.z)) & (step.self_hash.x - 1u);
}

// The self modules' workgroup sizes, declared by the solver ahead of them (layout.ts:
// selfWgslSizes; the benchmark varies them): SELF_WORKGROUP_SIZE (settle, scatter),
// SCAN_WORKGROUP_SIZE (the scan), CONTACTS_WORKGROUP_SIZE (the contacts' kernels).
fn sized_flat_index(id: vec3u, groups: vec3u, size: u32) -> u32 {
  return id.x + id.y * groups.x * size;
}

// A scan block's buckets (self_scan.wgsl).
const SCAN_BLOCK: u32 = SCAN_WORKGROUP_SIZE * SCAN_ITEMS;

// First slot of bucket b among the grouped ids (b = table size: the end).
fn bucket_start(b: u32) -> u32 {
  let table = step.self_hash.x;
  if (b >= table) {
    return particle_count();
  }
  return hash[b] + hash[table + b / SCAN_BLOCK];
}

// A float's bits in an order that u32 comparisons keep (NaN beyond ±infinity: a NaN box).
fn order_bits(x: f32) -> u32 {
  let u = bitcast<u32>(x);
  return select(u | 0x80000000u, ~u, (u & 0x80000000u) != 0u);
}

fn from_order_bits(u: u32) -> f32 {
  return bitcast<f32>(select(~u, u & 0x7fffffffu, (u & 0x80000000u) != 0u));
}

// substep_flag() (the flag self_scan wrote for this substep): self_flag.wgsl, in the modules that
// bind `hash_counts` as atomics (self_collision.wgsl, self_contacts.wgsl), not self_scan.wgsl's.
