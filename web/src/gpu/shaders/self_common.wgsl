// The self-collision modules' shared part (self_collision.wgsl's header has the algorithm): the
// sections of `particles` and `hash`, the cell coordinate and hash (weft_self_cell_coordinate and
// weft_self_cell_hash in src/self_collision.c), the bucket starts, the rebuild flag. It only reads
// `particles` (bound read-only in self_contacts.wgsl's module).

const SELF_BOX: u32 = 0u;
const SELF_FLAG: u32 = 6u;
const SELF_DONE: u32 = 7u;
const SELF_REBUILDS: u32 = 8u;
const SELF_TOTALS: u32 = 9u;
const SELF_WRITTEN: u32 = 0x80000000u;

fn rest_of(i: u32) -> vec4f {
  return particles[i];
}

fn settled_of(i: u32) -> vec4f {
  return particles[particle_count() + i];
}

fn slip_of(i: u32) -> vec4f {
  return particles[2u * particle_count() + i];
}

// Grouped by bucket (self_scatter): the settled position (w: the particle's id bits) and the rest
// position of the particle in slot k, side by side (one 32-byte record a slot: a candidate's two
// loads hit one sector), so a bucket's candidates lie side by side too.
fn sorted_word(k: u32) -> u32 {
  return 3u * particle_count() + 2u * k;
}

fn sorted_of(k: u32) -> vec4f {
  return particles[sorted_word(k)];
}

fn sorted_rest_of(k: u32) -> vec3f {
  return particles[sorted_word(k) + 1u].xyz;
}

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

// weft_self_cell_coordinate: floor(x / reach), clamped to ±1e9 (NaN → -1e9).
fn cell_coordinate(x: f32) -> i32 {
  let c = x * step.self_lengths.z;
  if (!(c > -1.0e9)) {
    return -1000000000;
  }
  if (c > 1.0e9) {
    return 1000000000;
  }
  return i32(floor(c));
}

fn cell_of(x: vec3f) -> vec3i {
  return vec3i(cell_coordinate(x.x), cell_coordinate(x.y), cell_coordinate(x.z));
}

// The row's part of the hash (weft_self_cell_hash's y and z terms).
fn row_hash(cy: i32, cz: i32) -> u32 {
  return (bitcast<u32>(cy) * SELF_PRIME_Y) ^ (bitcast<u32>(cz) * SELF_PRIME_Z);
}

// Linear in the cell's x (the header says why): the cells of a row lie in consecutive buckets.
fn cell_hash(c: vec3i) -> u32 {
  return (bitcast<u32>(c.x) + row_hash(c.y, c.z)) & (step.self_hash.x - 1u);
}

const SCAN_BLOCK: u32 = WORKGROUP_SIZE * SCAN_ITEMS;

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

fn rebuilding() -> bool {
  return atomicLoad(&hash_counts[step.self_hash.x + SELF_FLAG]) != 0u;
}

