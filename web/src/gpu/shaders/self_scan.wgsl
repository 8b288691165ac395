// Self-collision's scan (self_collision.wgsl's header has the algorithm), a module of its own
// (BINDINGS.selfScan): `hash_counts` bound as plain u32 words, not atomics, since nothing else
// touches them while it runs (settle counted in the dispatch before): plain loads of the bucket
// counts, all issued before the stores that zero them (an exchange each was ≈10 % slower at
// 1024²; loads and stores interleaved, plain or atomic, 3.7× slower: bench/gpu/README.md). The
// blocks' totals and the count of blocks done, which the blocks share within the dispatch, are
// atomics in `scan_state` (layout.ts: selfHashWords().scanState words: the count, then a total a
// block).

// SCAN_WORKGROUP_SIZE (SELF_GPU.scanWorkgroupSize, declared by the solver ahead of the self
// modules: layout.ts selfWgslSizes) invocations a block.

const SCAN_DONE: u32 = 0u;
const SCAN_TOTALS: u32 = 1u;
const SCAN_WRITTEN: u32 = 0x80000000u; // a block's total is written (its bit beside the total)

// An invocation's SCAN_ITEMS consecutive counts, padded by one word every 32 so that the
// invocations' runs fall in different banks.
var<workgroup> scan_items: array<u32, SCAN_BLOCK + SCAN_BLOCK / 32u>;
var<workgroup> scan_totals: array<u32, SCAN_WORKGROUP_SIZE>;
var<workgroup> scan_flag: u32;
var<workgroup> scan_mode: u32;

// weft_self_collision_decide: the lists (or the direct search's reference) stay while the box of
// the displacements since the last rebuild has a diagonal within the skin.
fn rebuild_needed() -> bool {
  let box = state_word(SELF_BOX);
  let dx = from_order_bits(hash_counts[box + 3u]) - from_order_bits(hash_counts[box]);
  let dy = from_order_bits(hash_counts[box + 4u]) - from_order_bits(hash_counts[box + 1u]);
  let dz = from_order_bits(hash_counts[box + 5u]) - from_order_bits(hash_counts[box + 2u]);
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
  let age = hash_counts[age_word];
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
        hash_counts[state_word(SELF_REBUILDS)] += 1u;
      }
      hash_counts[age_word] = 0u;
    } else {
      hash_counts[age_word] = age + 1u;
    }
  } else {
    does = SELF_DOES_DIRECT;
    if (mode == SELF_MODE_MEASURE && !rebuild) {
      does |= SELF_NEXT_FORCE; // next = SELF_MODE_LISTS
      hash_counts[age_word] = age + 1u;
    } else if (mode == SELF_MODE_MEASURE) {
      does |= SELF_DOES_REBUILD; // a new reference
      hash_counts[age_word] = 0u;
      next = direct_mode_after(0u);
    } else {
      hash_counts[age_word] = age + 1u;
      next = direct_mode_after(age + 1u);
    }
  }
  if ((does & SELF_DOES_DIRECT) != 0u) {
    hash_counts[state_word(SELF_DIRECT)] += 1u;
  }
  hash_counts[state_word(SELF_FLAG)] = does | (next << SELF_NEXT_SHIFT);
}

fn padded(k: u32) -> u32 {
  return k + (k >> 5u);
}

// Exclusive prefix of `value` over the workgroup (Hillis–Steele in workgroup memory).
fn workgroup_exclusive_scan(local: u32, value: u32) -> u32 {
  scan_totals[local] = value;
  workgroupBarrier();
  for (var offset = 1u; offset < SCAN_WORKGROUP_SIZE; offset <<= 1u) {
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

@compute @workgroup_size(SCAN_WORKGROUP_SIZE)
fn self_scan(@builtin(workgroup_id) workgroup: vec3u,
             @builtin(num_workgroups) workgroups: vec3u,
             @builtin(local_invocation_index) local: u32) {
  let block = workgroup.x + workgroup.y * workgroups.x;
  let table = step.self_hash.x;
  let blocks = step.self_hash.y;
  let base = block * SCAN_BLOCK;
  if (local == 0u) {
    let mode = hash_counts[state_word(SELF_MODE)];
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
      let b = base + k * SCAN_WORKGROUP_SIZE + local;
      if (b < table) {
        hash_counts[b] = 0u;
      }
    }
    return;
  }
  // All the loads first, then the zeros (the stores would otherwise order the next loads).
  for (var k = 0u; k < SCAN_ITEMS; k += 1u) {
    let item = k * SCAN_WORKGROUP_SIZE + local;
    let b = base + item;
    var count = 0u;
    if (b < table) {
      count = hash_counts[b];
    }
    scan_items[padded(item)] = count;
  }
  for (var k = 0u; k < SCAN_ITEMS; k += 1u) {
    let b = base + k * SCAN_WORKGROUP_SIZE + local;
    if (b < table) {
      hash_counts[b] = 0u;
    }
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
    let item = k * SCAN_WORKGROUP_SIZE + local;
    let b = base + item;
    if (b < table) {
      hash[b] = scan_items[padded(item)];
    }
  }
  // The block's total, then the count of blocks done: the block that makes it `blocks` scans the
  // totals. It waits for each total's written bit (a block counted itself done only after writing
  // its total, so the wait is for the store to show, never for a block to run).
  if (local == SCAN_WORKGROUP_SIZE - 1u) {
    atomicStore(&scan_state[SCAN_TOTALS + block], (prefix + sum) | SCAN_WRITTEN);
    scan_flag = select(0u, 1u, atomicAdd(&scan_state[SCAN_DONE], 1u) == blocks - 1u);
  }
  let last = workgroupUniformLoad(&scan_flag) != 0u;
  if (!last) {
    return;
  }
  let chunk = (blocks + SCAN_WORKGROUP_SIZE - 1u) / SCAN_WORKGROUP_SIZE;
  let first = min(local * chunk, blocks);
  let end = min(first + chunk, blocks);
  var total = 0u;
  for (var k = first; k < end; k += 1u) {
    var v = 0u;
    loop {
      v = atomicLoad(&scan_state[SCAN_TOTALS + k]);
      if ((v & SCAN_WRITTEN) != 0u) {
        break;
      }
    }
    atomicStore(&scan_state[SCAN_TOTALS + k], 0u);
    v &= ~SCAN_WRITTEN;
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
    atomicStore(&scan_state[SCAN_DONE], 0u);
  }
}

