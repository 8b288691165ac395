// Self-collision (src/self_collision.c, the rule of weft_self_collision_view in weft.h) as four
// kernels that run every substep after the constraint solve and the tethers, before the finish
// (spheres, ground, mesh, velocity update). Two ways to find the partners, chosen on the GPU
// substep by substep (self_scan's decide(), nothing read back):
//   - lists (C's): Verlet lists of the 16 nearest within reach, in a hash of cells of edge reach,
//     rebuilt only in a substep where the bounding box of the displacements since the last build
//     has a diagonal longer than the skin; the other substeps only test the listed pairs.
//   - direct (the GPU's own): where the lists would not last (rebuilt again after fewer than
//     step.self_hash.w substeps: at 1024² every substep rebuilds, a pile where some parts fall
//     and others rest), every substep hashes the settled positions afresh in cells of one
//     thickness (SELF_GPU.cellEdge) and each particle searches the hash for its partners within
//     the thickness (all of them, not C's 16 nearest within reach); one that would move farther
//     than max_step also asks whether it has a partner within reach (C: a listed partner), and if
//     so moves at most max_step. The box is still kept, against the positions of the last
//     (virtual) rebuild: once they have lasted step.self_hash.z substeps the lists would too, and
//     the next substep hashes in cells of reach and builds them.
// A search within the thickness reads ≈3.4× fewer candidates than a list build within reach, with
// no insertion and no list to write or read; a substep that keeps its lists reads 16 entries a
// particle and no hash. bench/gpu/README.md has the measurements. Thickness, reach, skin, max
// step and rest distance are C's (weft_self_collision_view); the direct cell edge, the table size
// (SELF_GPU.bucketsPerParticle) and the switch (SELF_GPU.switch) the GPU's own.
//
// The hash is C's form (weft_self_cell_hash): a hash linear in the cell's x,
// h = (cx + (cy·P_Y ^ cz·P_Z)) mod table, so the cells of a row are consecutive buckets and a query
// reads one slot range a row of cells (two where it wraps past the table's end), only the rows and
// cells a sphere of the query's radius can reach (a list build: ≈21 of 27 cells in 9 rows; a
// search within the thickness: ≈9 rows of ≤ 3 cells). The counting sort then lays a row's
// particles out along x: the slot order is spatial. Where the GPU differs from C (for speed; the
// tests hold the physics, not the bits): the rebuild test is one box of all displacements (C's is
// per pair of near grid patches), the direct search, neighbouring invocations (one a slot) query
// the same rows and read the same candidates, the lists are stored by slot (partner e of every
// slot side by side: coalesced) and a slot's candidate record (settled and rest position) is 32
// bytes, both halves loaded and every test made before the one branch a candidate.
//
//   self_settle    settles the particle (leftover, tethers: what the finish would do first), stores
//                  its settled position, its slip over the substep and its bucket (cells of this
//                  substep's mode), counts the bucket (its rank there is the atomic's old value:
//                  whether or not the hash is used) and grows the displacement box (a tree
//                  reduction in the workgroup, then 6 atomics a workgroup; searching directly,
//                  only in the substep that measures it);
//   self_scan      decides from the box whether this substep rebuilds, what it does (the flag the
//                  next two read) and the next substep's mode, and zeroes the counts; when the hash
//                  is used, the exclusive scan of the counts inside each block of WORKGROUP_SIZE ×
//                  SCAN_ITEMS buckets, and the last block to finish scans the blocks' totals;
//   self_scatter   (the hash used) copies each particle's settled position and rest position and
//                  id into its slot, and on a rebuild keeps its settled position as the reference;
//   self_contacts  (self_contacts.wgsl, a module of its own that binds `particles` read-only, so
//                  the candidates' and partners' loads take the read-only path) one invocation per
//                  slot: the list build (substeps that build), Jacobi pushes and friction from the
//                  partners closer than the thickness (listed, or found by the search), their mean,
//                  the max-step clamp; writes the prediction the finish (FLAG_SETTLED) reads. Its
//                  first invocations empty the box for the next substep and set its mode. From
//                  SELF_GPU.splitAt particles on it is two kernels, self_lists and self_search
//                  (last), each doing nothing in the other's substeps: the search keeps its own
//                  registers.
// Inside a bucket the ids lie in the order the atomics gave, so GPU runs agree physically, not
// bit for bit, with each other and with C.

// Bindings: BINDINGS.self in gpu/bindings.ts (declared ahead of this file; self_contacts.wgsl's
// module: BINDINGS.selfContacts), the accessors both modules share in self_common.wgsl.
// `particles` holds vec4 sections of n: rest positions, settled positions (w inverse mass), slip
// (w the bucket's bits), 2n grouped by bucket (a slot's settled position, w the inverse mass,
// beside its rest position, w the particle id's bits), and the settled positions at the last
// rebuild. `hash_counts` (layout.ts: selfHashWords, SELF_STATE): the bucket counts [0, table),
// then at table + … the state words (self_common.wgsl: the substep's flag, the mode, the age, the
// blocks finished, the counters), the boxes' copies and from table + SELF_TOTALS the blocks'
// totals (top bit: written). `hash`: bucket starts within their block [0, table), the blocks'
// starts, then per particle its rank in its bucket, per slot its list's length, and the lists
// (SELF_MAX_PARTNERS ids a slot, partner e of all slots together).
// Zeroed buffers (as made) decode to a NaN box and lists mode: the first substep rebuilds.

fn solved(i: u32) -> vec4f {
  return predicted[i];
}

var<workgroup> box_low: array<vec3u, WORKGROUP_SIZE>;
var<workgroup> box_high: array<vec3u, WORKGROUP_SIZE>;

var<workgroup> settle_mode: u32;

@compute @workgroup_size(WORKGROUP_SIZE)
fn self_settle(@builtin(global_invocation_id) id: vec3u,
               @builtin(num_workgroups) groups: vec3u,
               @builtin(local_invocation_index) local: u32) {
  let p = flat_index(id, groups);
  let n = particle_count();
  if (local == 0u) {
    settle_mode = atomicLoad(&hash_counts[state_word(SELF_MODE)]);
  }
  let mode = workgroupUniformLoad(&settle_mode);
  var low = vec3u(0xffffffffu);
  var high = vec3u(0u);
  if (p < n) {
    let x = settle_particle(p);
    // The cells of this substep's hash: reach for the lists, the direct search's own otherwise.
    let key = cell_hash(cell_of(x.xyz, inverse_edge(mode == SELF_MODE_LISTS)));
    particles[n + p] = x;
    particles[2u * n + p] = vec4f(x.xyz - positions[p].xyz, bitcast<f32>(key));
    hash[rank_word(p)] = atomicAdd(&hash_counts[key], 1u);
    // weft_self_collision_bounds: the displacement since the last rebuild.
    let d = x.xyz - built_of(p).xyz;
    low = vec3u(order_bits(d.x), order_bits(d.y), order_bits(d.z));
    high = low;
  }
  if (mode == SELF_MODE_DIRECT) {
    return; // no box
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
  let box = state_word(SELF_BOX);
  if (local < 3u) {
    atomicMin(&hash_counts[box + local], box_low[0][local]);
  } else if (local < 6u) {
    atomicMax(&hash_counts[box + local], box_high[0][local - 3u]);
  }
}

// An invocation's SCAN_ITEMS consecutive counts, padded by one word every 32 so that the
// invocations' runs fall in different banks.
var<workgroup> scan_items: array<u32, SCAN_BLOCK + SCAN_BLOCK / 32u>;
var<workgroup> scan_totals: array<u32, WORKGROUP_SIZE>;
var<workgroup> scan_flag: u32;
var<workgroup> scan_mode: u32;

// weft_self_collision_decide: the lists (or the direct search's reference) stay while the box of
// the displacements since the last rebuild has a diagonal within the skin.
fn rebuild_needed() -> bool {
  let box = state_word(SELF_BOX);
  let dx = from_order_bits(atomicLoad(&hash_counts[box + 3u])) - from_order_bits(atomicLoad(&hash_counts[box]));
  let dy = from_order_bits(atomicLoad(&hash_counts[box + 4u])) - from_order_bits(atomicLoad(&hash_counts[box + 1u]));
  let dz = from_order_bits(atomicLoad(&hash_counts[box + 5u])) - from_order_bits(atomicLoad(&hash_counts[box + 2u]));
  let skin = step.self_rest.y;
  return !(dx * dx + dy * dy + dz * dz <= skin * skin);
}

// Searching directly, the next substep measures the box (SELF_MODE_MEASURE) once the reference
// is step.self_hash.z substeps old.
fn direct_mode_after(age: u32) -> u32 {
  return select(SELF_MODE_DIRECT, SELF_MODE_MEASURE, age + 1u >= step.self_hash.z);
}

// What this substep does (SELF_FLAG) and how the next one hashes. In lists mode a substep that
// rebuilds builds the lists, unless the last ones lasted fewer than step.self_hash.w substeps:
// then it searches directly and so do the next ones (no box: SELF_MODE_DIRECT) until the
// positions of their last rebuild are step.self_hash.z substeps old; that substep measures the box
// (SELF_MODE_MEASURE): within the skin, the lists would have lasted as long, and the next substep
// hashes in cells of reach again and builds them; else the reference starts again. Both
// thresholds are the solver's (GpuSolverOptions.selfSwitch; bench/gpu/README.md has the
// measurements). One invocation runs this (block 0's first, after the box is complete).
fn decide(mode: u32, rebuild: bool) {
  let age_word = state_word(SELF_AGE);
  let age = atomicLoad(&hash_counts[age_word]);
  var does = 0u;
  var next = SELF_MODE_LISTS;
  if (mode == SELF_MODE_LISTS) {
    does = SELF_HASH_REACH;
    if (rebuild) {
      does |= SELF_DOES_REBUILD;
      if (age < step.self_hash.w) {
        does |= SELF_DOES_DIRECT;
        next = direct_mode_after(0u);
      } else {
        does |= SELF_DOES_BUILD;
        atomicAdd(&hash_counts[state_word(SELF_REBUILDS)], 1u);
      }
      atomicStore(&hash_counts[age_word], 0u);
    } else {
      atomicStore(&hash_counts[age_word], age + 1u);
    }
  } else {
    does = SELF_DOES_DIRECT;
    if (mode == SELF_MODE_MEASURE && !rebuild) {
      does |= SELF_NEXT_FORCE; // next = SELF_MODE_LISTS
      atomicStore(&hash_counts[age_word], age + 1u);
    } else if (mode == SELF_MODE_MEASURE) {
      does |= SELF_DOES_REBUILD; // a new reference
      atomicStore(&hash_counts[age_word], 0u);
      next = direct_mode_after(0u);
    } else {
      atomicStore(&hash_counts[age_word], age + 1u);
      next = direct_mode_after(age + 1u);
    }
  }
  if ((does & SELF_DOES_DIRECT) != 0u) {
    atomicAdd(&hash_counts[state_word(SELF_DIRECT)], 1u);
  }
  atomicStore(&hash_counts[state_word(SELF_FLAG)], does | (next << SELF_NEXT_SHIFT));
}

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
    let mode = atomicLoad(&hash_counts[state_word(SELF_MODE)]);
    // Lists mode: every block needs to know (no rebuild, no scan); searching directly, the hash is
    // scanned in any case and only the decision reads the box.
    let rebuild = mode != SELF_MODE_DIRECT && rebuild_needed();
    if (block == 0u) {
      decide(mode, rebuild);
    }
    scan_mode = select(0u, 1u, mode != SELF_MODE_LISTS || rebuild);
  }
  if (workgroupUniformLoad(&scan_mode) == 0u) {
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
  let flag = substep_flag();
  if (p >= n || (flag & (SELF_DOES_BUILD | SELF_DOES_DIRECT)) == 0u) {
    return;
  }
  let key = bitcast<u32>(slip_of(p).w);
  let slot = min(bucket_start(key) + hash[rank_word(p)], n - 1u);
  let w = sorted_word(slot);
  let x = settled_of(p);
  particles[w] = x;
  particles[w + 1u] = vec4f(rest_of(p).xyz, bitcast<f32>(p));
  if ((flag & SELF_DOES_REBUILD) != 0u) {
    particles[5u * n + p] = x; // the reference of the next displacements
  }
}
