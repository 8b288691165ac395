// Self-collision (src/self_collision.c, the rule of weft_self_collision_view in weft.h) as four
// kernels that run every substep after the constraint solve and the tethers, before the finish
// (spheres, ground, mesh, velocity update). As in C, the partners come from Verlet lists (the 16
// nearest within reach), rebuilt only in a substep where the bounding box of the displacements
// since the last build has a diagonal longer than the skin; the other substeps only test the
// listed pairs. Thickness, reach, skin, max step and table size are C's (weft_self_collision_view).
//
// The hash is C's (weft_self_cell_hash): cells of edge reach and a hash linear in the cell's x,
// h = (cx + (cy·P_Y ^ cz·P_Z)) mod table, so the cells x − 1, x, x + 1 of a row are consecutive
// buckets and a query reads 9 slot ranges (rows), not 27 buckets, and of those only the cells that
// can come within reach (≈21 of 27). The counting sort then lays a row's particles out along x:
// the slot order is spatial. Where the GPU differs from C (for speed; the tests hold the physics,
// not the bits): the rebuild test is one box of all displacements (C's is per pair of near grid
// patches), neighbouring invocations (one a slot) query the same rows and read the same candidates,
// and the lists are stored by slot, partner e of every slot side by side (coalesced). A list is
// built in registers: sorted by distance, a candidate enters it by compare-and-swap down its length
// (constant indices; C's insertion replaces the farthest). bench/gpu/README.md has the measurements.
//
//   self_settle    settles the particle (leftover, tethers: what the finish would do first), stores
//                  its settled position, its slip over the substep and its bucket, counts the bucket
//                  (its rank there is the atomic's old value: whether or not this substep rebuilds)
//                  and grows the displacement box (a tree reduction in the workgroup, then 6
//                  atomics a workgroup);
//   self_scan      decides from the box whether this substep rebuilds (the flag the next two read)
//                  and zeroes the counts; when it does, the exclusive scan of the counts inside each
//                  block of WORKGROUP_SIZE × SCAN_ITEMS buckets, and the last block to finish scans
//                  the blocks' totals;
//   self_scatter   (rebuilds) copies each particle's settled position, id and rest position into
//                  its slot;
//   self_contacts  one invocation per slot of the last build. On a rebuild: the particle's list and
//                  its built position. Then Jacobi pushes and friction from the listed partners
//                  closer than the thickness, their mean, the max-step clamp; writes the prediction
//                  the finish (FLAG_SETTLED) reads. Invocation 0 empties the box for the next substep.
// Inside a bucket the ids lie in the order the atomics gave, so GPU runs agree physically, not
// bit for bit, with each other and with C.

// Bindings: BINDINGS.self in gpu/bindings.ts (declared ahead of this file). `particles` holds six
// vec4 sections of n: rest positions, settled positions (w inverse mass), slip (w the bucket's
// bits), grouped by bucket: settled positions (w the particle id's bits) and rest positions, and
// the positions at the last build. `hash_counts` (layout.ts: selfHashWords): the bucket counts
// [0, table), then at table + SELF_BOX the box (min xyz, max xyz as order bits), the rebuild flag,
// the blocks finished, the rebuilds, and from table + SELF_TOTALS the blocks' totals (top bit:
// written). `hash`: bucket starts within their block [0, table), the blocks' starts, then per
// particle its rank in its bucket, per slot its list's length, and the lists (SELF_MAX_PARTNERS
// ids a slot, partner e of all slots together).
// Zeroed buffers (as made) decode to a NaN box: the first substep rebuilds.

const SELF_BOX: u32 = 0u;
const SELF_FLAG: u32 = 6u;
const SELF_DONE: u32 = 7u;
const SELF_REBUILDS: u32 = 8u;
const SELF_TOTALS: u32 = 9u;
const SELF_WRITTEN: u32 = 0x80000000u;

fn solved(i: u32) -> vec4f {
  return predicted[i];
}

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
// position of the particle in slot k, so a bucket's candidates lie side by side.
fn sorted_of(k: u32) -> vec4f {
  return particles[3u * particle_count() + k];
}

fn sorted_rest_of(k: u32) -> vec3f {
  return particles[4u * particle_count() + k].xyz;
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

var<workgroup> box_low: array<vec3u, WORKGROUP_SIZE>;
var<workgroup> box_high: array<vec3u, WORKGROUP_SIZE>;

@compute @workgroup_size(WORKGROUP_SIZE)
fn self_settle(@builtin(global_invocation_id) id: vec3u,
               @builtin(num_workgroups) groups: vec3u,
               @builtin(local_invocation_index) local: u32) {
  let p = flat_index(id, groups);
  let n = particle_count();
  var low = vec3u(0xffffffffu);
  var high = vec3u(0u);
  if (p < n) {
    let x = settle_particle(p);
    let key = cell_hash(cell_of(x.xyz));
    particles[n + p] = x;
    particles[2u * n + p] = vec4f(x.xyz - positions[p].xyz, bitcast<f32>(key));
    hash[rank_word(p)] = atomicAdd(&hash_counts[key], 1u);
    // weft_self_collision_bounds: the displacement since the lists were built.
    let d = x.xyz - built_of(p).xyz;
    low = vec3u(order_bits(d.x), order_bits(d.y), order_bits(d.z));
    high = low;
  }
  box_low[local] = low;
  box_high[local] = high;
  workgroupBarrier();
  for (var half = WORKGROUP_SIZE / 2u; half > 0u; half >>= 1u) {
    if (local < half) {
      box_low[local] = min(box_low[local], box_low[local + half]);
      box_high[local] = max(box_high[local], box_high[local + half]);
    }
    workgroupBarrier();
  }
  let box = step.self_hash.x + SELF_BOX;
  if (local < 3u) {
    atomicMin(&hash_counts[box + local], box_low[0][local]);
  } else if (local < 6u) {
    atomicMax(&hash_counts[box + local], box_high[0][local - 3u]);
  }
}

// weft_self_collision_decide: the lists stay while the box's diagonal is within the skin.
fn rebuild_needed() -> bool {
  let box = step.self_hash.x + SELF_BOX;
  let dx = from_order_bits(atomicLoad(&hash_counts[box + 3u])) - from_order_bits(atomicLoad(&hash_counts[box]));
  let dy = from_order_bits(atomicLoad(&hash_counts[box + 4u])) - from_order_bits(atomicLoad(&hash_counts[box + 1u]));
  let dz = from_order_bits(atomicLoad(&hash_counts[box + 5u])) - from_order_bits(atomicLoad(&hash_counts[box + 2u]));
  let skin = step.self_rest.y;
  return !(dx * dx + dy * dy + dz * dz <= skin * skin);
}

fn rebuilding() -> bool {
  return atomicLoad(&hash_counts[step.self_hash.x + SELF_FLAG]) != 0u;
}

// An invocation's SCAN_ITEMS consecutive counts, padded by one word every 32 so that the
// invocations' runs fall in different banks.
var<workgroup> scan_items: array<u32, SCAN_BLOCK + SCAN_BLOCK / 32u>;
var<workgroup> scan_totals: array<u32, WORKGROUP_SIZE>;
var<workgroup> scan_flag: u32;

fn padded(k: u32) -> u32 {
  return k + (k >> 5u);
}

// Exclusive prefix of `value` over the workgroup (Hillis–Steele in workgroup memory).
fn workgroup_exclusive_scan(local: u32, value: u32) -> u32 {
  scan_totals[local] = value;
  workgroupBarrier();
  for (var offset = 1u; offset < WORKGROUP_SIZE; offset <<= 1u) {
    var add = 0u;
    if (local >= offset) {
      add = scan_totals[local - offset];
    }
    workgroupBarrier();
    scan_totals[local] += add;
    workgroupBarrier();
  }
  return scan_totals[local] - value;
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn self_scan(@builtin(workgroup_id) workgroup: vec3u,
             @builtin(num_workgroups) workgroups: vec3u,
             @builtin(local_invocation_index) local: u32) {
  let block = workgroup.x + workgroup.y * workgroups.x;
  let table = step.self_hash.x;
  let blocks = step.self_hash.y;
  let base = block * SCAN_BLOCK;
  if (local == 0u) {
    scan_flag = select(0u, 1u, rebuild_needed());
  }
  let rebuild = workgroupUniformLoad(&scan_flag) != 0u;
  if (block == 0u && local == 0u) {
    atomicStore(&hash_counts[table + SELF_FLAG], select(0u, 1u, rebuild));
    if (rebuild) {
      atomicAdd(&hash_counts[table + SELF_REBUILDS], 1u);
    }
  }
  if (!rebuild) {
    for (var k = 0u; k < SCAN_ITEMS; k += 1u) {
      let b = base + k * WORKGROUP_SIZE + local;
      if (b < table) {
        atomicStore(&hash_counts[b], 0u);
      }
    }
    return;
  }
  for (var k = 0u; k < SCAN_ITEMS; k += 1u) {
    let item = k * WORKGROUP_SIZE + local;
    let b = base + item;
    var count = 0u;
    if (b < table) {
      count = atomicExchange(&hash_counts[b], 0u);
    }
    scan_items[padded(item)] = count;
  }
  workgroupBarrier();
  var sum = 0u;
  for (var k = 0u; k < SCAN_ITEMS; k += 1u) {
    let at = padded(local * SCAN_ITEMS + k);
    let v = scan_items[at];
    scan_items[at] = sum;
    sum += v;
  }
  let prefix = workgroup_exclusive_scan(local, sum);
  for (var k = 0u; k < SCAN_ITEMS; k += 1u) {
    scan_items[padded(local * SCAN_ITEMS + k)] += prefix;
  }
  workgroupBarrier();
  for (var k = 0u; k < SCAN_ITEMS; k += 1u) {
    let item = k * WORKGROUP_SIZE + local;
    let b = base + item;
    if (b < table) {
      hash[b] = scan_items[padded(item)];
    }
  }
  // The block's total, then the count of blocks done: the block that makes it `blocks` scans the
  // totals. It waits for each total's written bit (a block counted itself done only after writing
  // its total, so the wait is for the store to show, never for a block to run).
  if (local == WORKGROUP_SIZE - 1u) {
    atomicStore(&hash_counts[table + SELF_TOTALS + block], (prefix + sum) | SELF_WRITTEN);
    scan_flag = select(0u, 1u, atomicAdd(&hash_counts[table + SELF_DONE], 1u) == blocks - 1u);
  }
  let last = workgroupUniformLoad(&scan_flag) != 0u;
  if (!last) {
    return;
  }
  let chunk = (blocks + WORKGROUP_SIZE - 1u) / WORKGROUP_SIZE;
  let first = min(local * chunk, blocks);
  let end = min(first + chunk, blocks);
  var total = 0u;
  for (var k = first; k < end; k += 1u) {
    var v = 0u;
    loop {
      v = atomicLoad(&hash_counts[table + SELF_TOTALS + k]);
      if ((v & SELF_WRITTEN) != 0u) {
        break;
      }
    }
    atomicStore(&hash_counts[table + SELF_TOTALS + k], 0u);
    v &= ~SELF_WRITTEN;
    hash[table + k] = v; // the total for now, its block's start below
    total += v;
  }
  var start = workgroup_exclusive_scan(local, total);
  for (var k = first; k < end; k += 1u) {
    let v = hash[table + k];
    hash[table + k] = start;
    start += v;
  }
  if (local == 0u) {
    atomicStore(&hash_counts[table + SELF_DONE], 0u);
  }
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn self_scatter(@builtin(global_invocation_id) id: vec3u,
        @builtin(num_workgroups) groups: vec3u) {
  let p = flat_index(id, groups);
  let n = particle_count();
  if (p >= n || !rebuilding()) {
    return;
  }
  let key = bitcast<u32>(slip_of(p).w);
  let slot = min(bucket_start(key) + hash[rank_word(p)], n - 1u);
  particles[3u * n + slot] = vec4f(settled_of(p).xyz, bitcast<f32>(p));
  particles[4u * n + slot] = rest_of(p);
}

// Row `row` (0..8: dy, dz = row % 3 − 1, row / 3 − 1) of the cells around c, for a query at u
// (its offset in its cell, in cells: [0, 1)³): the slots [x, y) of the row's cells that come
// within reach of the query (cells of edge reach: none of a corner row's where the query is
// farther than reach from its edge, x − 1 and x + 1 where it is within the rest of reach from
// their face) and, where those consecutive buckets wrap past the table's end, [0, z).
fn row_slots(c: vec3i, u: vec3f, row: u32) -> vec3u {
  let dy = i32(row % 3u) - 1;
  let dz = i32(row / 3u) - 1;
  // The query's distance from the row in y and z, in cells; what is left of reach in x, squared.
  let gy = select(select(0.0, 1.0 - u.y, dy > 0), u.y, dy < 0);
  let gz = select(select(0.0, 1.0 - u.z, dz > 0), u.z, dz < 0);
  let left = 1.0 - gy * gy - gz * gz + 1e-4; // slack for the rounding of u
  if (left <= 0.0) {
    return vec3u(0u);
  }
  let low = select(0u, 1u, u.x * u.x >= left);
  let high = select(0u, 1u, (1.0 - u.x) * (1.0 - u.x) >= left);
  let cells = 3u - low - high;
  let table = step.self_hash.x;
  let b = (bitcast<u32>(c.x - 1 + i32(low)) + row_hash(c.y + dy, c.z + dz)) & (table - 1u);
  let wraps = b + cells > table;
  let end = select(bucket_start(b + cells), particle_count(), wraps);
  return vec3u(bucket_start(b), end, select(0u, bucket_start(b + cells - table), wraps));
}

// weft_self_collision_lists for the particle i in slot k (at xi now, ri at rest): the particles
// within reach in the 27 cells (edge reach) around xi's, read as 9 rows of 3 cells (3 consecutive
// buckets: one slot range, two where it wraps; cells that cannot come within reach left out:
// about 21 of the 27 are read), each particle in its own row only (a range may
// hold other rows' particles: hash collisions), not close in the rest pose; the
// SELF_MAX_PARTNERS nearest kept, in a list sorted by distance that a candidate enters by
// compare-and-swap down its length: constant indices, so the list stays in registers.
// (2 × 2 × 2 cells of edge 2·reach, 8 buckets but (4 reach)³ of candidates against (3 reach)³, were
// the slower on the H200, and in C.)
fn build_list(k: u32, i: u32, xi: vec3f, ri: vec3f) -> u32 {
  let reach = step.self_lengths.y;
  let reach2 = reach * reach;
  let rest_limit = step.self_rest.x;
  let rest_limit2 = rest_limit * rest_limit;
  var ids: array<u32, SELF_MAX_PARTNERS>;
  var far: array<f32, SELF_MAX_PARTNERS>;
  for (var e = 0u; e < SELF_MAX_PARTNERS; e += 1u) {
    far[e] = reach2;
  }
  let c = cell_of(xi);
  let u = clamp(xi * step.self_lengths.z - vec3f(c), vec3f(0.0), vec3f(1.0));
  var next = row_slots(c, u, 0u);
  for (var row = 0u; row < 9u; row += 1u) {
    let slots = next;
    if (row < 8u) {
      next = row_slots(c, u, row + 1u);
    }
    let cy = c.y + i32(row % 3u) - 1;
    let cz = c.z + i32(row / 3u) - 1;
    for (var part = 0u; part < 2u; part += 1u) {
      let end = select(slots.y, slots.z, part == 1u);
      for (var s = select(slots.x, 0u, part == 1u); s < end; s += 1u) {
        let xj = sorted_of(s);
        let d = xi - xj.xyz;
        var d2 = d.x * d.x + d.y * d.y + d.z * d.z;
        if (!(d2 < far[SELF_MAX_PARTNERS - 1u])) {
          continue;
        }
        var j = bitcast<u32>(xj.w);
        let rd = ri - sorted_rest_of(s);
        if (j == i || cell_coordinate(xj.y) != cy || cell_coordinate(xj.z) != cz ||
            rd.x * rd.x + rd.y * rd.y + rd.z * rd.z <= rest_limit2) {
          continue;
        }
        for (var e = 0u; e < SELF_MAX_PARTNERS; e += 1u) {
          let swap = d2 < far[e];
          let f = far[e];
          let id = ids[e];
          far[e] = select(f, d2, swap);
          ids[e] = select(id, j, swap);
          d2 = select(d2, f, swap);
          j = select(j, id, swap);
        }
      }
    }
  }
  var count = 0u;
  for (var e = 0u; e < SELF_MAX_PARTNERS; e += 1u) {
    if (far[e] < reach2) {
      hash[list_word(k, e)] = ids[e];
      count += 1u;
    }
  }
  hash[list_count_word(k)] = count;
  return count;
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn self_contacts(@builtin(global_invocation_id) id: vec3u,
        @builtin(num_workgroups) groups: vec3u) {
  let k = flat_index(id, groups);
  let n = particle_count();
  if (k == 0u) {
    // Nothing else here reads the box: empty it for the next substep's self_settle.
    let box = step.self_hash.x + SELF_BOX;
    for (var axis = 0u; axis < 3u; axis += 1u) {
      atomicStore(&hash_counts[box + axis], 0xffffffffu);
      atomicStore(&hash_counts[box + 3u + axis], 0u);
    }
  }
  if (k >= n) {
    return;
  }
  let i = bitcast<u32>(sorted_of(k).w);
  var x = settled_of(i);
  var count = 0u;
  if (rebuilding()) {
    particles[5u * n + i] = x;
    if (x.w != 0.0) {
      count = build_list(k, i, x.xyz, rest_of(i).xyz);
    } else {
      hash[list_count_word(k)] = 0u;
    }
  } else if (x.w != 0.0) {
    count = hash[list_count_word(k)];
  }
  if (count > 0u) {
    let t = step.self_lengths.x;
    let friction = step.ground.y;
    let si = slip_of(i).xyz;
    var push = vec3f(0.0);
    var pushes = 0u;
    for (var e = 0u; e < count; e += 1u) {
      let j = hash[list_word(k, e)];
      let xj = settled_of(j);
      let v = x.xyz - xj.xyz;
      let d2 = v.x * v.x + v.y * v.y + v.z * v.z;
      if (!(d2 < t * t) || d2 < SELF_MIN_DISTANCE * SELF_MIN_DISTANCE) {
        continue;
      }
      let share = x.w / (x.w + xj.w);
      let d = sqrt(d2);
      let nrm = v / d;
      // Friction: the pair's relative slip over the substep, its tangential part.
      let s = si - slip_of(j).xyz;
      let along = s.x * nrm.x + s.y * nrm.y + s.z * nrm.z;
      let f = friction * share;
      push += (t - d) * share * nrm - f * (s - along * nrm);
      pushes += 1u;
    }
    if (pushes > 0u) {
      x = vec4f(x.xyz + push * (1.0 / f32(pushes)), x.w);
    }
    // Near another layer a particle moves at most max_step a substep.
    let start = positions[i].xyz;
    let d = x.xyz - start;
    let step2 = d.x * d.x + d.y * d.y + d.z * d.z;
    let max_step = step.self_lengths.w;
    if (step2 > max_step * max_step) {
      x = vec4f(start + d * (max_step / sqrt(step2)), x.w);
    }
  }
  predicted[i] = x;
}
