// Self-collision (src/self_collision.c, the rule of weft_self_collision_view in weft.h) as five
// kernels that run every substep after the constraint solve and the tethers, before the finish
// (spheres, ground, mesh, velocity update). The GPU keeps no Verlet lists: every substep rebuilds the
// hash and queries the 27 cells around each particle.
//
//   self_count     settles the particle (leftover, tethers: what the finish would do first), stores
//                  its settled position, its slip over the substep and its bucket, counts the bucket;
//   self_scan      exclusive scan of the counts inside each block of WORKGROUP_SIZE × SCAN_ITEMS
//                  buckets, and the block's total;
//   self_scan_blocks  one workgroup: exclusive scan of the blocks' totals;
//   self_scatter   copies each particle's settled and rest position into its bucket's slots (a count
//                  back down to 0 as the cursor, so the counts are zero again for the next substep);
//   self_contacts  Jacobi pushes and friction from the partners closer than the thickness, their
//                  mean, the max-step clamp; writes the prediction the finish (FLAG_SETTLED) reads.
// Inside a bucket the ids lie in the order the atomics gave, so GPU runs agree physically, not
// bit for bit, with each other and with C.

// Bindings: BINDINGS.self in gpu/bindings.ts (declared ahead of this file). `particles` holds five
// vec4 sections of n: rest positions, settled positions (w inverse mass), slip (w the bucket's bits),
// and grouped by bucket: settled positions, rest positions (w the particle id's bits).

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

// Grouped by bucket (self_scatter): the settled position and the rest position (w: the particle's
// id bits) of the particle in slot k, so a bucket's candidates lie side by side.
fn sorted_of(k: u32) -> vec4f {
  return particles[3u * particle_count() + k];
}

fn sorted_rest_of(k: u32) -> vec4f {
  return particles[4u * particle_count() + k];
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

// weft_self_cell_hash.
fn cell_hash(c: vec3i) -> u32 {
  let h = (bitcast<u32>(c.x) * SELF_PRIME_X) ^ (bitcast<u32>(c.y) * SELF_PRIME_Y) ^ (bitcast<u32>(c.z) * SELF_PRIME_Z);
  return h & (step.self_hash.x - 1u);
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


@compute @workgroup_size(WORKGROUP_SIZE)
fn self_count(@builtin(global_invocation_id) id: vec3u,
        @builtin(num_workgroups) groups: vec3u) {
  let p = flat_index(id, groups);
  let n = particle_count();
  if (p >= n) {
    return;
  }
  let x = settle_particle(p);
  let key = cell_hash(cell_of(x.xyz));
  particles[n + p] = x;
  particles[2u * n + p] = vec4f(x.xyz - positions[p].xyz, bitcast<f32>(key));
  atomicAdd(&hash_counts[key], 1u);
}

var<workgroup> scan_items: array<u32, SCAN_BLOCK>;
var<workgroup> scan_totals: array<u32, WORKGROUP_SIZE>;

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
  let base = block * SCAN_BLOCK;
  for (var k = 0u; k < SCAN_ITEMS; k += 1u) {
    let b = base + k * WORKGROUP_SIZE + local;
    var count = 0u;
    if (b < table) {
      count = atomicLoad(&hash_counts[b]);
    }
    scan_items[k * WORKGROUP_SIZE + local] = count;
  }
  workgroupBarrier();
  var sum = 0u;
  for (var k = 0u; k < SCAN_ITEMS; k += 1u) {
    let v = scan_items[local * SCAN_ITEMS + k];
    scan_items[local * SCAN_ITEMS + k] = sum;
    sum += v;
  }
  let prefix = workgroup_exclusive_scan(local, sum);
  for (var k = 0u; k < SCAN_ITEMS; k += 1u) {
    scan_items[local * SCAN_ITEMS + k] += prefix;
  }
  workgroupBarrier();
  for (var k = 0u; k < SCAN_ITEMS; k += 1u) {
    let b = base + k * WORKGROUP_SIZE + local;
    if (b < table) {
      hash[b] = scan_items[k * WORKGROUP_SIZE + local];
    }
  }
  if (local == WORKGROUP_SIZE - 1u && block < step.self_hash.y) {
    hash[table + block] = prefix + sum;
  }
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn self_scan_blocks(@builtin(local_invocation_index) local: u32) {
  let table = step.self_hash.x;
  let blocks = step.self_hash.y;
  let chunk = (blocks + WORKGROUP_SIZE - 1u) / WORKGROUP_SIZE;
  let first = min(local * chunk, blocks);
  let end = min(first + chunk, blocks);
  var sum = 0u;
  for (var k = first; k < end; k += 1u) {
    sum += hash[table + k];
  }
  var start = workgroup_exclusive_scan(local, sum);
  for (var k = first; k < end; k += 1u) {
    let v = hash[table + k];
    hash[table + k] = start;
    start += v;
  }
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn self_scatter(@builtin(global_invocation_id) id: vec3u,
        @builtin(num_workgroups) groups: vec3u) {
  let p = flat_index(id, groups);
  if (p >= particle_count()) {
    return;
  }
  let key = bitcast<u32>(slip_of(p).w);
  let slot = bucket_start(key) + atomicSub(&hash_counts[key], 1u) - 1u;
  let n = particle_count();
  particles[3u * n + slot] = settled_of(p);
  particles[4u * n + slot] = vec4f(rest_of(p).xyz, bitcast<f32>(p));
}

struct Contacts {
  push: vec3f,   // sum of the pushes and friction
  count: u32,    // pushes summed
  partners: u32, // partners within reach
}

// The squared distance to the particle in grouped slot k if it is a partner of i (within reach,
// in `cell` itself rather than another cell of the same bucket, not close in the rest pose), else -1.
fn partner_distance2(i: u32, xi: vec3f, ri: vec3f, cell: vec3i, k: u32) -> f32 {
  let xj = sorted_of(k);
  let e = xi - xj.xyz;
  let d2 = e.x * e.x + e.y * e.y + e.z * e.z;
  let reach = step.self_lengths.y;
  if (!(d2 < reach * reach)) {
    return -1.0;
  }
  let rj = sorted_rest_of(k);
  if (bitcast<u32>(rj.w) == i || any(cell_of(xj.xyz) != cell)) {
    return -1.0;
  }
  let rd = ri - rj.xyz;
  let rest_limit = step.self_rest.x;
  if (rd.x * rd.x + rd.y * rd.y + rd.z * rd.z <= rest_limit * rest_limit) {
    return -1.0;
  }
  return d2;
}

// Whether a partner at squared distance d2 pushes (closer than the thickness, and a direction).
fn pushes(d2: f32) -> bool {
  let t = step.self_lengths.x;
  return d2 < t * t && d2 >= SELF_MIN_DISTANCE * SELF_MIN_DISTANCE;
}

// The partners of particle i in the 27 cells around it, in C's order (dz, dy, dx), and the pushes
// of those up to `limit2` (squared).
fn visit(i: u32, xi: vec4f, limit2: f32) -> Contacts {
  var r = Contacts(vec3f(0.0), 0u, 0u);
  let t = step.self_lengths.x;
  let friction = step.ground.y;
  let ri = rest_of(i).xyz;
  let si = slip_of(i).xyz;
  let c = cell_of(xi.xyz);
  for (var dz = -1; dz <= 1; dz += 1) {
    for (var dy = -1; dy <= 1; dy += 1) {
      for (var dx = -1; dx <= 1; dx += 1) {
        let cell = c + vec3i(dx, dy, dz);
        let b = cell_hash(cell);
        let end = bucket_start(b + 1u);
        for (var k = bucket_start(b); k < end; k += 1u) {
          let d2 = partner_distance2(i, xi.xyz, ri, cell, k);
          if (d2 < 0.0) {
            continue;
          }
          r.partners += 1u;
          if (!pushes(d2) || d2 > limit2) {
            continue;
          }
          let xj = sorted_of(k);
          let j = bitcast<u32>(sorted_rest_of(k).w);
          let share = xi.w / (xi.w + xj.w);
          let d = sqrt(d2);
          let e = xi.xyz - xj.xyz;
          let nrm = e / d;
          let push = (t - d) * share;
          // Friction: the pair's relative slip over the substep, its tangential part.
          let s = si - slip_of(j).xyz;
          let along = s.x * nrm.x + s.y * nrm.y + s.z * nrm.z;
          let f = friction * share;
          r.push += push * nrm - f * (s - along * nrm);
          r.count += 1u;
        }
      }
    }
  }
  return r;
}

// The largest of the SELF_MAX_PARTNERS smallest squared distances of i's pushing partners (a dense
// pile, where C keeps only the nearest).
fn nearest_limit(i: u32, xi: vec4f) -> f32 {
  var nearest: array<f32, SELF_MAX_PARTNERS>;
  var count = 0u;
  let ri = rest_of(i).xyz;
  let c = cell_of(xi.xyz);
  for (var dz = -1; dz <= 1; dz += 1) {
    for (var dy = -1; dy <= 1; dy += 1) {
      for (var dx = -1; dx <= 1; dx += 1) {
        let cell = c + vec3i(dx, dy, dz);
        let b = cell_hash(cell);
        let end = bucket_start(b + 1u);
        for (var k = bucket_start(b); k < end; k += 1u) {
          let d2 = partner_distance2(i, xi.xyz, ri, cell, k);
          if (d2 < 0.0 || !pushes(d2)) {
            continue;
          }
          if (count < SELF_MAX_PARTNERS) {
            nearest[count] = d2;
            count += 1u;
            continue;
          }
          var largest = 0u; // full: the nearest stay
          for (var q = 1u; q < SELF_MAX_PARTNERS; q += 1u) {
            largest = select(largest, q, nearest[q] > nearest[largest]);
          }
          nearest[largest] = min(nearest[largest], d2);
        }
      }
    }
  }
  var limit = 0.0;
  for (var q = 0u; q < min(count, SELF_MAX_PARTNERS); q += 1u) {
    limit = max(limit, nearest[q]);
  }
  return limit;
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn self_contacts(@builtin(global_invocation_id) id: vec3u,
        @builtin(num_workgroups) groups: vec3u) {
  let i = flat_index(id, groups);
  if (i >= particle_count()) {
    return;
  }
  var x = settled_of(i);
  if (x.w != 0.0) {
    let t = step.self_lengths.x;
    var r = visit(i, x, t * t);
    if (r.count > SELF_MAX_PARTNERS) {
      // More pushing partners than a particle takes (a dense pile): only the nearest push.
      r = visit(i, x, nearest_limit(i, x));
    }
    if (r.partners > 0u) {
      if (r.count > 0u) {
        let mean = 1.0 / f32(r.count);
        x = vec4f(x.xyz + r.push * mean, x.w);
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
  }
  predicted[i] = x;
}
