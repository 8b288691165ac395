// Self-collision's list build, search and contacts (self_collision.wgsl's header has the
// algorithm), a module of its own: BINDINGS.selfContacts binds `particles` read-only (nothing here
// writes it).

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
  let inverse = step.self_lengths.z;
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
  let c = cell_of(xi, step.self_lengths.z);
  let u = clamp(xi * step.self_lengths.z - vec3f(c), vec3f(0.0), vec3f(1.0));
  var next = row_slots(c, u, 0u);
  for (var row = 0u; row < 9u; row += 1u) {
    let slots = next;
    if (row < 8u) {
      next = row_slots(c, u, row + 1u);
    }
    let cy = f32(c.y + i32(row % 3u) - 1);
    let cz = f32(c.z + i32(row / 3u) - 1);
    for (var part = 0u; part < 2u; part += 1u) {
      let end = select(slots.y, slots.z, part == 1u);
      for (var s = select(slots.x, 0u, part == 1u); s < end; s += 1u) {
        // Both loads, then every test without a branch: one branch a candidate (a warp pays for a
        // branch whenever any of its invocations takes it, and a load behind one waits its latency).
        let xj = sorted_of(s);
        let rj = sorted_rest_of(s);
        let rd = ri - rj.xyz;
        let d = xi - xj.xyz;
        let d2 = d.x * d.x + d.y * d.y + d.z * d.z;
        let j = bitcast<u32>(rj.w);
        let partner = (d2 < bound) & (j != i) & (floor(xj.y * inverse) == cy) &
            (floor(xj.z * inverse) == cz) & !(rd.x * rd.x + rd.y * rd.y + rd.z * rd.z <= rest_limit2);
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

// What a search of the hash found for the particle in slot k.
struct SelfFound {
  push: vec3f, // the sum of the pushes and frictions (partners within the thickness)
  sizes: f32, // the sum of the pushes' sizes, the shares of the depths (partners within the thickness and farther than SELF_MIN_DISTANCE)
  largest: f32, // the largest size
  partners: u32, // partners found (any distance within the search's radius)
};

// The partners of the particle in slot k (at xi now, ri at rest, inverse mass wi, slip si): the
// particles within `radius` now that were not close at rest, found in the cells (edge e =
// step.self_rest.z or step.self_lengths.z: 1 / the edge of this substep's cells) the sphere of `radius` reaches: rows of cells along x (consecutive buckets: one
// slot range, two where it wraps past the table's end), each trimmed to the cells within the
// radius in x, each candidate in its own row only (a range may hold other rows' particles: hash
// collisions). `first`: stop at the first partner (the max-step clamp only asks whether there is
// one), no pushes. Otherwise every partner within the thickness pushes (C's contact, for every
// pair, not only C's 16 listed ones). `rows`: test each candidate's row (false where rows_apart:
// no slot is then in two of the ranges, and a candidate within the radius is in its own row's).
fn search(k: u32, xi: vec3f, ri: vec3f, wi: f32, si: vec3f, radius: f32, first: bool, inverse_edge: f32, rows: bool) -> SelfFound {
  var found = SelfFound(vec3f(0.0), 0.0, 0.0, 0u);
  let lean_up = stack_lean();
  let t = step.self_lengths.x;
  let friction = step.ground.y;
  let radius2 = radius * radius;
  let rest_limit = step.self_rest.x;
  let rest_limit2 = rest_limit * rest_limit;
  let table = step.self_hash.x;
  let c = cell_of(xi, inverse_edge);
  // The query in cells: its offset in its cell ([0, 1)³), the radius and the rows it can reach.
  let u = clamp(xi * inverse_edge - vec3f(c), vec3f(0.0), vec3f(1.0));
  let rc = radius * inverse_edge;
  let rc2 = rc * rc * (1.0 + 1e-4) + 1e-4; // slack for the rounding of u
  let m = i32(ceil(rc));
  for (var dz = -m; dz <= m; dz += 1) {
    let gz = select(select(0.0, f32(dz) - u.z, dz > 0), u.z - f32(dz + 1), dz < 0);
    let left_z = rc2 - gz * gz;
    if (left_z <= 0.0) {
      continue;
    }
    for (var dy = -m; dy <= m; dy += 1) {
      let gy = select(select(0.0, f32(dy) - u.y, dy > 0), u.y - f32(dy + 1), dy < 0);
      let left = left_z - gy * gy;
      if (left <= 0.0) {
        continue;
      }
      let w = sqrt(left);
      let low = max(i32(floor(u.x - w)), -m);
      let high = min(i32(floor(u.x + w)), m);
      let cells = u32(high - low + 1);
      let cy = c.y + dy;
      let cz = c.z + dz;
      // The row's cell coordinates as floats: the candidate's row test is a plain floor.
      let fy = f32(cy);
      let fz = f32(cz);
      let b = (bitcast<u32>(c.x + low) + row_hash(cy, cz)) & (table - 1u);
      let wraps = b + cells > table;
      let first_end = select(bucket_start(b + cells), particle_count(), wraps);
      let second_end = select(0u, bucket_start(b + cells - table), wraps);
      for (var part = 0u; part < 2u; part += 1u) {
        let end = select(first_end, second_end, part == 1u);
        for (var s = select(bucket_start(b), 0u, part == 1u); s < end; s += 1u) {
          // Both loads, then every test without a branch: one branch a candidate.
          let xj = sorted_of(s);
          let rj = sorted_rest_of(s);
          let rd = ri - rj.xyz;
          let v = xi - xj.xyz;
          let d2 = v.x * v.x + v.y * v.y + v.z * v.z;
          let own_row = (floor(xj.y * inverse_edge) == fy) & (floor(xj.z * inverse_edge) == fz);
          let partner = (d2 < radius2) & (s != k) & (!rows | own_row) &
              !(rd.x * rd.x + rd.y * rd.y + rd.z * rd.z <= rest_limit2);
          if (!partner) {
            continue;
          }
          found.partners += 1u;
          if (first) {
            return found;
          }
          if (!(d2 < t * t) || d2 < SELF_MIN_DISTANCE * SELF_MIN_DISTANCE) {
            continue;
          }
          let d = sqrt(d2);
          let nrm = v / d;
          let share = contact_share(wi, xj.w, nrm, lean_up);
          // Friction: the pair's relative slip over the substep, its tangential part.
          let sl = si - (xj.xyz - positions[bitcast<u32>(rj.w)].xyz);
          let along = sl.x * nrm.x + sl.y * nrm.y + sl.z * nrm.z;
          let tangential = sl - along * nrm;
          let size = (t - d) * share;
          found.push += size * nrm - static_or_sliding(tangential, t - d, friction) * share * tangential;
          found.sizes += size;
          found.largest = max(found.largest, size);
        }
      }
    }
  }
  return found;
}

// Up (against gravity) times SELF_STACK_LEAN, 0 without gravity: contact_share's lean (C's
// weft_self_collision_contacts), worked out once a particle.
fn stack_lean() -> vec3f {
  let g = step.gravity_h.xyz;
  let g_length = sqrt(g.x * g.x + g.y * g.y + g.z * g.z);
  return select(vec3f(0.0), -g * (SELF_STACK_LEAN / g_length), g_length > 0.0);
}

// A pair's share of its push for the particle of inverse mass wi (the pair's direction nrm, from
// the partner of inverse mass wj; lean from stack_lean): C's (self_collision.c, contact_push) — the
// upper of the two (against gravity) weighs less, as far as the pair is vertical, so a pile does
// not sink into itself.
fn contact_share(wi: f32, wj: f32, nrm: vec3f, lean_up: vec3f) -> f32 {
  let lean = nrm.x * lean_up.x + nrm.y * lean_up.y + nrm.z * lean_up.z;
  let a = wi * (1.0 + lean);
  let b = wj * (1.0 - lean);
  return a / (a + b);
}

// How much of a pair's tangential slip friction removes (self_collision.c, contact_push): all of it
// where it is at most friction × the depth (static friction), else friction × it.
fn static_or_sliding(tangential: vec3f, depth: f32, friction: f32) -> f32 {
  let hold = friction * depth;
  return select(friction, 1.0, dot(tangential, tangential) <= hold * hold);
}

// C's combination of a particle's pushes (self_collision.c, apply): their sum over their worth in
// pushes (the sum of their sizes, the shares of the depths, over the largest): the mean of equal
// pushes, continuous as a contact opens.
fn combined(x: vec3f, push: vec3f, sizes: f32, largest: f32) -> vec3f {
  if (!(sizes > 0.0)) {
    return x;
  }
  return x + push * (largest / sizes);
}

// Jacobi pushes and friction on the particle i (at x, slip si) from its listed partners closer
// than the thickness, combined as C does, then C's max-step clamp (a listed partner: near another
// layer).
fn list_contacts(k: u32, i: u32, x0: vec4f, count: u32) -> vec4f {
  var x = x0;
  let lean_up = stack_lean();
  let t = step.self_lengths.x;
  let friction = step.ground.y;
  let start = positions[i].xyz;
  let si = x.xyz - start;
  var push = vec3f(0.0);
  var sizes = 0.0;
  var largest = 0.0;
  for (var e = 0u; e < count; e += 1u) {
    let j = hash[list_word(k, e)];
    let xj = settled_of(j);
    let v = x.xyz - xj.xyz;
    let d2 = v.x * v.x + v.y * v.y + v.z * v.z;
    if (!(d2 < t * t) || d2 < SELF_MIN_DISTANCE * SELF_MIN_DISTANCE) {
      continue;
    }
    let d = sqrt(d2);
    let nrm = v / d;
    let share = contact_share(x.w, xj.w, nrm, lean_up);
    // Friction: the pair's relative slip over the substep, its tangential part.
    let s = si - slip_of(j).xyz;
    let along = s.x * nrm.x + s.y * nrm.y + s.z * nrm.z;
    let tangential = s - along * nrm;
    let size = (t - d) * share;
    push += size * nrm - static_or_sliding(tangential, t - d, friction) * share * tangential;
    sizes += size;
    largest = max(largest, size);
  }
  x = vec4f(combined(x.xyz, push, sizes, largest), x.w);
  let d = x.xyz - start;
  let step2 = d.x * d.x + d.y * d.y + d.z * d.z;
  let max_step = step.self_lengths.w;
  if (step2 > max_step * max_step) {
    x = vec4f(start + d * (max_step / sqrt(step2)), x.w);
  }
  return x;
}

// Whether a search of `radius` around x reads rows of at most 3 cells (radius ≤ the cell edge)
// whose windows of 3 buckets (the row's cells x − 1 … x + 1) are pairwise apart in the table: their
// row hashes at least 3 apart, modulo the table (then no slot is in two of the search's ranges).
fn rows_apart(x: vec3f, radius: f32, inverse_edge: f32) -> bool {
  if (!(ceil(radius * inverse_edge) <= 1.0)) {
    return false;
  }
  let c = cell_of(x, inverse_edge);
  let mask = step.self_hash.x - 1u;
  var hashes: array<u32, 9>; // row r: cells (c.y + r % 3 − 1, c.z + r / 3 − 1)
  for (var r = 0u; r < 9u; r += 1u) {
    hashes[r] = row_hash(c.y + i32(r % 3u) - 1, c.z + i32(r / 3u) - 1);
  }
  // (a − b + 2) mod table < 5: a and b within 2 of each other.
  var near = 0xffffffffu;
  for (var a = 0u; a < 8u; a += 1u) {
    for (var b = a + 1u; b < 9u; b += 1u) {
      near = min(near, (hashes[a] - hashes[b] + 2u) & mask);
    }
  }
  return near >= 5u;
}

// The same from a search of this substep's hash (no lists): every partner within the thickness
// pushes; a particle with a partner within reach (C: a listed partner) moves at most max_step.
fn direct_contacts(k: u32, i: u32, settled: vec4f, ri: vec3f, inverse_edge: f32) -> vec4f {
  var x = settled;
  let start = positions[i].xyz;
  let si = settled.xyz - start;
  // Where the rows' windows are apart in the table, no candidate is in two of them and each
  // partner (within the radius) is in its own row: the row test is left out (the same partners).
  var near: SelfFound;
  if (rows_apart(settled.xyz, step.self_lengths.x, inverse_edge)) {
    near = search(k, settled.xyz, ri, x.w, si, step.self_lengths.x, false, inverse_edge, false);
  } else {
    near = search(k, settled.xyz, ri, x.w, si, step.self_lengths.x, false, inverse_edge, true);
  }
  x = vec4f(combined(x.xyz, near.push, near.sizes, near.largest), x.w);
  // Near another layer (a partner within reach) a particle moves at most max_step a substep:
  // only a particle that moves farther asks for one beyond the thickness.
  let d = x.xyz - start;
  let step2 = d.x * d.x + d.y * d.y + d.z * d.z;
  let max_step = step.self_lengths.w;
  if (step2 > max_step * max_step) {
    var partnered = near.partners > 0u;
    if (!partnered) {
      partnered = search(k, settled.xyz, ri, x.w, si, step.self_lengths.y, true, inverse_edge, true).partners > 0u;
    }
    if (partnered) {
      x = vec4f(start + d * (max_step / sqrt(step2)), x.w);
    }
  }
  return x;
}

// weft_self_collision_contacts for the particle in slot k of the last build, from its list (built
// here in a substep that builds). The prediction the finish (FLAG_SETTLED) reads.
fn list_slot(k: u32, flag: u32) {
  let r = sorted_rest_of(k);
  let i = bitcast<u32>(r.w);
  var x = settled_of(i);
  var count = 0u;
  if ((flag & SELF_DOES_BUILD) != 0u) {
    if (x.w != 0.0) {
      count = build_list(k, i, x.xyz, r.xyz);
    } else {
      hash[list_count_word(k)] = 0u;
    }
  } else if (x.w != 0.0) {
    count = hash[list_count_word(k)];
  }
  if (count > 0u) {
    x = list_contacts(k, i, x, count);
  }
  predicted[i] = x;
}

// The same from a search of this substep's hash (SELF_DOES_DIRECT).
fn search_slot(k: u32, flag: u32) {
  let r = sorted_rest_of(k);
  let i = bitcast<u32>(r.w);
  let settled = sorted_of(k);
  var x = settled;
  if (x.w != 0.0) {
    x = direct_contacts(k, i, settled, r.xyz, inverse_edge((flag & SELF_HASH_REACH) != 0u));
  }
  predicted[i] = x;
}

// Run by the substep's last kernel: invocations 0–5 empty the box for the next substep's
// self_settle (a NaN box where the next substep must rebuild), 6 sets the next substep's mode.
fn next_substep(k: u32, flag: u32) {
  if (k < 6u) {
    let low = k < 3u;
    let force = (flag & SELF_NEXT_FORCE) != 0u;
    atomicStore(&hash_counts[state_word(SELF_BOX + k)], select(select(0u, 0xffffffffu, low), 0u, force));
  } else if (k == 6u) {
    atomicStore(&hash_counts[state_word(SELF_MODE)], flag >> SELF_NEXT_SHIFT);
  }
}

// One kernel for both ways (the solver's choice below SELF_GPU.splitAt particles: one dispatch
// fewer a substep, ≈7 µs on the H200, where the grid is too small for the registers to matter).
@compute @workgroup_size(CONTACTS_WORKGROUP_SIZE)
fn self_contacts(@builtin(global_invocation_id) id: vec3u,
        @builtin(num_workgroups) groups: vec3u) {
  let k = sized_flat_index(id, groups, CONTACTS_WORKGROUP_SIZE);
  let flag = substep_flag();
  next_substep(k, flag);
  if (k >= particle_count()) {
    return;
  }
  if ((flag & SELF_DOES_DIRECT) != 0u) {
    search_slot(k, flag);
  } else {
    list_slot(k, flag);
  }
}

// From SELF_GPU.splitAt particles on, two kernels, each doing nothing in the other's substeps, so
// that the search's registers are not the list build's (at 1024² the search took 20% longer in
// one kernel with it). self_search is dispatched last.
// self_lists runs SELF_GPU.listSlots slots an invocation (a grid-stride loop: consecutive lanes,
// consecutive slots), so that in the substeps that search (at 1024² all of them) its dispatch
// is that many times smaller: it only reads the flag and exits.
@compute @workgroup_size(CONTACTS_WORKGROUP_SIZE)
fn self_lists(@builtin(global_invocation_id) id: vec3u,
        @builtin(num_workgroups) groups: vec3u) {
  let flag = substep_flag();
  if ((flag & SELF_DOES_DIRECT) != 0u) {
    return;
  }
  let stride = groups.x * groups.y * CONTACTS_WORKGROUP_SIZE;
  for (var k = sized_flat_index(id, groups, CONTACTS_WORKGROUP_SIZE); k < particle_count(); k += stride) {
    list_slot(k, flag);
  }
}

@compute @workgroup_size(CONTACTS_WORKGROUP_SIZE)
fn self_search(@builtin(global_invocation_id) id: vec3u,
        @builtin(num_workgroups) groups: vec3u) {
  let k = sized_flat_index(id, groups, CONTACTS_WORKGROUP_SIZE);
  let flag = substep_flag();
  next_substep(k, flag);
  if (k < particle_count() && (flag & SELF_DOES_DIRECT) != 0u) {
    search_slot(k, flag);
  }
}
