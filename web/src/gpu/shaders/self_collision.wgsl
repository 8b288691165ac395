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
// particle and no hash. bench/gpu/README.md has the measurements. Thickness, max step and rest
// distance are C's (weft_self_collision_view), and so is the lists' reach: C's widest
// (largest_reach, 2 × thickness at most; C's lists widen to it while they last few substeps), so
// the skin is reach − thickness; the direct cell edge, the table size (SELF_GPU.bucketsPerParticle)
// and the switch (SELF_GPU.switch) are the GPU's own.
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
//                  is used, the exclusive scan of the counts inside each block of SCAN_WORKGROUP_SIZE ×
//                  SCAN_ITEMS buckets, and the last block to finish scans the blocks' totals
//                  (self_scan.wgsl, a module of its own: the counts as plain words);
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
// counters) and the box; `scan_state` (self_scan.wgsl's module only) the count of scan blocks
// done and the blocks' totals (top bit: written). `hash`: bucket starts within their block [0, table), the blocks'
// starts, then per particle its rank in its bucket, per slot its list's length, and the lists
// (SELF_MAX_PARTNERS ids a slot, partner e of all slots together).
// Zeroed buffers (as made) decode to a NaN box and lists mode: the first substep rebuilds.

fn solved(i: u32) -> vec4f {
  return predicted[i];
}

// settle and scatter run SELF_WORKGROUP_SIZE invocations a workgroup (SELF_GPU.hashWorkgroupSize,
// self_common.wgsl says where it is declared), not WORKGROUP_SIZE.
var<workgroup> box_low: array<vec3u, SELF_WORKGROUP_SIZE>;
var<workgroup> box_high: array<vec3u, SELF_WORKGROUP_SIZE>;

var<workgroup> settle_mode: u32;

@compute @workgroup_size(SELF_WORKGROUP_SIZE)
fn self_settle(@builtin(global_invocation_id) id: vec3u,
               @builtin(num_workgroups) groups: vec3u,
               @builtin(local_invocation_index) local: u32) {
  let p = sized_flat_index(id, groups, SELF_WORKGROUP_SIZE);
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
  for (var half = SELF_WORKGROUP_SIZE / 2u; half > 0u; half >>= 1u) {
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

// self_scan: self_scan.wgsl, a module of its own (the counts read without atomics).

@compute @workgroup_size(SELF_WORKGROUP_SIZE)
fn self_scatter(@builtin(global_invocation_id) id: vec3u,
        @builtin(num_workgroups) groups: vec3u) {
  let p = sized_flat_index(id, groups, SELF_WORKGROUP_SIZE);
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
