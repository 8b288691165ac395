// Self-collision's list build and contacts (self_collision.wgsl's header has the algorithm), a
// module of its own: BINDINGS.selfContacts binds `particles` read-only (nothing here writes it).

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
// SELF_MAX_PARTNERS nearest kept as C keeps them (list_insert: appended while the list fills, then
// the farthest replaced). A warp runs a branch whenever one of its invocations takes it, so a
// candidate has one branch, after both its loads and all its tests, and the insertion writes the
// list by select over constant indices (registers): the build is 11% cheaper at 1024² than with the
// sorted list's compare-and-swap down all 16 entries, and no load waits behind a branch.
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
    ids[e] = i;
    far[e] = reach2;
  }
  // While the list fills, a partner goes to entry `count`; once full, to the farthest entry's
  // place (`worst`: C's list_insert). Entries are written by select over constant indices, so the
  // list stays in registers.
  var count = 0u;
  var worst = 0u;
  var bound = reach2; // the farthest entry's d2 once full
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
        // Both loads, then every test without a branch: one branch a candidate (a warp pays for a
        // branch whenever any of its invocations takes it, and a load behind one waits its latency).
        let xj = sorted_of(s);
        let rd = ri - sorted_rest_of(s);
        let d = xi - xj.xyz;
        let d2 = d.x * d.x + d.y * d.y + d.z * d.z;
        let j = bitcast<u32>(xj.w);
        let partner = (d2 < bound) & (j != i) & (cell_coordinate(xj.y) == cy) &
            (cell_coordinate(xj.z) == cz) & !(rd.x * rd.x + rd.y * rd.y + rd.z * rd.z <= rest_limit2);
        if (!partner) {
          continue;
        }
        let place = select(worst, count, count < SELF_MAX_PARTNERS);
        for (var e = 0u; e < SELF_MAX_PARTNERS; e += 1u) {
          far[e] = select(far[e], d2, e == place);
          ids[e] = select(ids[e], j, e == place);
        }
        count = min(count + 1u, SELF_MAX_PARTNERS);
        if (count == SELF_MAX_PARTNERS) {
          // The farthest entry (the first of equals, as C's list_insert finds it).
          worst = 0u;
          bound = far[0];
          for (var e = 1u; e < SELF_MAX_PARTNERS; e += 1u) {
            let farther = far[e] > bound;
            worst = select(worst, e, farther);
            bound = select(bound, far[e], farther);
          }
        }
      }
    }
  }
  for (var e = 0u; e < SELF_MAX_PARTNERS; e += 1u) {
    if (e < count) {
      hash[list_word(k, e)] = ids[e];
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
