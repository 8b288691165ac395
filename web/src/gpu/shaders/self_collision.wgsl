// Self-collision (src/self_collision.c, the rule of weft_self_collision_view in weft.h) as four
// kernels that run every substep after the constraint solve and the tethers, before the finish
// (spheres, ground, mesh, velocity update). Unlike C the GPU keeps no neighbour lists: every
// substep it hashes the settled positions afresh and each particle searches the hash for its
// partners within the thickness (all of them, not C's 16 nearest within reach). A particle that
// would move farther than max_step this substep also asks whether it has a partner within reach
// (C: a listed partner), and if so moves at most max_step. At 1024² the lists were rebuilt every
// substep anyway (C's rule and one box of all displacements: a pile where some parts fall and
// others rest), and a search within the thickness reads ≈3.4× fewer candidates than a list build
// within reach, with no insertion and no list to write or read (bench/gpu/README.md).
// Thickness, reach, max step and rest distance are C's (weft_self_collision_view); the cell edge
// (SELF_GPU.cellEdge: one thickness) and table size (SELF_GPU.bucketsPerParticle) the GPU's own.
//
// The hash is C's form (weft_self_cell_hash): a hash linear in the cell's x,
// h = (cx + (cy·P_Y ^ cz·P_Z)) mod table, so the cells of a row are consecutive buckets and a query
// reads one slot range a row of cells (two where it wraps past the table's end), only the rows and
// cells a sphere of the search's radius can reach (a search within the thickness: ≈9 rows of ≤ 3
// cells). The counting sort then lays a row's particles out along x: the slot order is spatial.
// Where the GPU differs from C (for speed; the tests hold the physics, not the bits): no lists (the
// partners are the pairs within the thickness now), neighbouring invocations (one a slot) query
// the same rows and read the same candidates, and a slot's candidate record (settled and rest
// position) is 32 bytes, both halves loaded and every test made before the one branch a candidate.
//
//   self_settle    settles the particle (leftover, tethers: what the finish would do first), stores
//                  its settled position, its slip over the substep and its bucket, counts the bucket
//                  (its rank there is the atomic's old value);
//   self_scan      the exclusive scan of the counts inside each block of WORKGROUP_SIZE ×
//                  SCAN_ITEMS buckets (zeroing them), and the last block to finish scans the blocks'
//                  totals;
//   self_scatter   copies each particle's settled position, id and rest position into its slot;
//   self_contacts  (self_contacts.wgsl, a module of its own that binds `particles` read-only, so
//                  the candidates' loads take the read-only path) one invocation per slot: the
//                  search, Jacobi pushes and friction from the partners closer than the thickness,
//                  their mean, the max-step clamp; writes the prediction the finish
//                  (FLAG_SETTLED) reads.
// Inside a bucket the ids lie in the order the atomics gave, so GPU runs agree physically, not
// bit for bit, with each other and with C.

// Bindings: BINDINGS.self in gpu/bindings.ts (declared ahead of this file; self_contacts.wgsl's
// module: BINDINGS.selfContacts), the accessors both modules share in self_common.wgsl.
// `particles` holds vec4 sections of n: rest positions, settled positions (w inverse mass), slip
// (w the bucket's bits), then 2n grouped by bucket (a slot's settled position, w the inverse mass,
// beside its rest position, w the particle id's bits). `hash_counts` (layout.ts: selfHashWords):
// the bucket counts [0, table), then at table + SELF_DONE the blocks finished, at table +
// SELF_REBUILDS the substeps hashed, and from table + SELF_TOTALS the blocks' totals (top bit:
// written). `hash`: bucket starts within their block [0, table), the blocks' starts, then per
// particle its rank in its bucket.

fn solved(i: u32) -> vec4f {
  return predicted[i];
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn self_settle(@builtin(global_invocation_id) id: vec3u,
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
  hash[rank_word(p)] = atomicAdd(&hash_counts[key], 1u);
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
  if (block == 0u && local == 0u) {
    atomicAdd(&hash_counts[table + SELF_REBUILDS], 1u);
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
  if (p >= n) {
    return;
  }
  let key = bitcast<u32>(slip_of(p).w);
  let slot = min(bucket_start(key) + hash[rank_word(p)], n - 1u);
  let w = sorted_word(slot);
  particles[w] = settled_of(p);
  particles[w + 1u] = vec4f(rest_of(p).xyz, bitcast<f32>(p));
}
