// Self-collision's contacts (self_collision.wgsl's header has the algorithm), a module of its own:
// BINDINGS.selfContacts binds `particles` read-only (nothing here writes it).

// What a search of the hash found for the particle in slot k.
struct SelfFound {
  push: vec3f, // the sum of the pushes and frictions (partners within the thickness)
  pushes: u32, // partners within the thickness and farther than SELF_MIN_DISTANCE
  partners: u32, // partners found (any distance within the search's radius)
};

// The partners of the particle in slot k (at xi now, ri at rest, inverse mass wi, slip si): the
// particles within `radius` now that were not close at rest, found in the cells (edge e =
// step.self_rest.y) the sphere of `radius` reaches: rows of cells along x (consecutive buckets: one
// slot range, two where it wraps past the table's end), each trimmed to the cells within the
// radius in x, each candidate in its own row only (a range may hold other rows' particles: hash
// collisions). `first`: stop at the first partner (the max-step clamp only asks whether there is
// one), no pushes. Otherwise every partner within the thickness pushes (C's contact, for every
// pair, not only C's 16 listed ones).
fn search(k: u32, xi: vec3f, ri: vec3f, wi: f32, si: vec3f, radius: f32, first: bool) -> SelfFound {
  var found = SelfFound(vec3f(0.0), 0u, 0u);
  let t = step.self_lengths.x;
  let friction = step.ground.y;
  let inverse_edge = step.self_lengths.z;
  let radius2 = radius * radius;
  let rest_limit = step.self_rest.x;
  let rest_limit2 = rest_limit * rest_limit;
  let table = step.self_hash.x;
  let c = cell_of(xi);
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
          let partner = (d2 < radius2) & (s != k) & (cell_coordinate(xj.y) == cy) & (cell_coordinate(xj.z) == cz) &
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
          let share = wi / (wi + xj.w);
          let d = sqrt(d2);
          let nrm = v / d;
          // Friction: the pair's relative slip over the substep, its tangential part.
          let sl = si - (xj.xyz - positions[bitcast<u32>(rj.w)].xyz);
          let along = sl.x * nrm.x + sl.y * nrm.y + sl.z * nrm.z;
          let f = friction * share;
          found.push += (t - d) * share * nrm - f * (sl - along * nrm);
          found.pushes += 1u;
        }
      }
    }
  }
  return found;
}

// weft_self_collision_contacts for the particle in slot k: Jacobi pushes and friction from every
// partner closer than the thickness, their mean; a particle with a partner within reach (C: a
// listed partner) moves at most max_step from where the substep started. The prediction the
// finish (FLAG_SETTLED) reads.
@compute @workgroup_size(WORKGROUP_SIZE)
fn self_contacts(@builtin(global_invocation_id) id: vec3u,
        @builtin(num_workgroups) groups: vec3u) {
  let k = flat_index(id, groups);
  if (k >= particle_count()) {
    return;
  }
  let settled = sorted_of(k);
  var x = settled;
  let r = sorted_rest_of(k);
  let i = bitcast<u32>(r.w);
  if (x.w != 0.0) {
    let start = positions[i].xyz;
    let si = settled.xyz - start;
    let near = search(k, settled.xyz, r.xyz, x.w, si, step.self_lengths.x, false);
    if (near.pushes > 0u) {
      x = vec4f(x.xyz + near.push * (1.0 / f32(near.pushes)), x.w);
    }
    // Near another layer (a partner within reach) a particle moves at most max_step a substep:
    // only a particle that moves farther asks for one beyond the thickness.
    let d = x.xyz - start;
    let step2 = d.x * d.x + d.y * d.y + d.z * d.z;
    let max_step = step.self_lengths.w;
    if (step2 > max_step * max_step) {
      var partnered = near.partners > 0u;
      if (!partnered) {
        partnered = search(k, settled.xyz, r.xyz, x.w, si, step.self_lengths.y, true).partners > 0u;
      }
      if (partnered) {
        x = vec4f(start + d * (max_step / sqrt(step2)), x.w);
      }
    }
  }
  predicted[i] = x;
}
