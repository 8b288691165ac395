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
// built in registers with C's insertion (appended while it fills, then the farthest replaced),
// written by select over constant indices; a slot's candidate record (settled and rest position)
// is 32 bytes, both halves loaded and every test made before the one branch a candidate.
// bench/gpu/README.md has the measurements.
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
//                  its slot and keeps its settled position as the built one;
//   self_contacts  (self_contacts.wgsl, a module of its own that binds `particles` read-only, so
//                  the candidates' and partners' loads take the read-only path) one invocation per
//                  slot of the last build. On a rebuild: the particle's list. Then Jacobi pushes and friction from the listed partners
//                  closer than the thickness, their mean, the max-step clamp; writes the prediction
//                  the finish (FLAG_SETTLED) reads. Invocation 0 empties the box for the next substep.
// Inside a bucket the ids lie in the order the atomics gave, so GPU runs agree physically, not
// bit for bit, with each other and with C.

// Bindings: BINDINGS.self in gpu/bindings.ts (declared ahead of this file; self_contacts.wgsl's
// module: BINDINGS.selfContacts), the accessors both modules share in self_common.wgsl.
// `particles` holds vec4 sections of n: rest positions, settled positions (w inverse mass), slip
// (w the bucket's bits), 2n grouped by bucket (a slot's settled position, w the particle id's
// bits, beside its rest position), and the positions at the last build. `hash_counts` (layout.ts: selfHashWords): the bucket counts
// [0, table), then at table + SELF_BOX the box (min xyz, max xyz as order bits), the rebuild flag,
// the blocks finished, the rebuilds, and from table + SELF_TOTALS the blocks' totals (top bit:
// written). `hash`: bucket starts within their block [0, table), the blocks' starts, then per
// particle its rank in its bucket, per slot its list's length, and the lists (SELF_MAX_PARTNERS
// ids a slot, partner e of all slots together).
// Zeroed buffers (as made) decode to a NaN box: the first substep rebuilds.

fn solved(i: u32) -> vec4f {
  return predicted[i];
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
  let x = settled_of(p);
  particles[sorted_word(slot)] = vec4f(x.xyz, bitcast<f32>(p));
  particles[sorted_word(slot) + 1u] = rest_of(p);
  particles[5u * n + p] = x; // the position the lists are built at
}

