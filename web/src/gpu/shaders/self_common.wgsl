// The self-collision modules' shared part (self_collision.wgsl's header has the algorithm): the
// sections of `particles` and `hash`, the cell coordinate and hash (weft_self_cell_coordinate and
// weft_self_cell_hash in src/self_collision.c, with the GPU's cell edge), the bucket starts. It only reads
// `particles` (bound read-only in self_contacts.wgsl's module).

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

fn rank_word(i: u32) -> u32 {
  return step.self_hash.x + step.self_hash.y + i;
}

// weft_self_cell_coordinate with the GPU's cell edge (step.self_rest.y, 1 / it in self_lengths.z):
// floor(x / edge), clamped to ±1e9 (NaN → -1e9).
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
