// End-of-substep phases of one particle (solver.c and collide.c): its leftover constraint (tiled
// schedule), tethers, (self-collision, self_collision.wgsl), collisions with friction, velocity update. They read the solved positions
// through `solved(i)` and never write them, so one invocation per particle needs no barrier:
// solve.wgsl runs them as the finish pass, tiles.wgsl at the start of the next substep's pass A.

// The leftover constraints of the tiled schedule form a matching (no two share a particle), so
// each endpoint's invocation projects its constraint from the same inputs and keeps its own half.
fn apply_leftover(p: u32, x: vec4f) -> vec4f {
  let l = links[p].leftover;
  if (l >= min(step.grid.w, arrayLength(&leftovers))) {
    return x;
  }
  let c = leftovers[l];
  let n = particle_count();
  if (c.a >= n || c.b >= n || (c.a != p && c.b != p)) {
    return x;
  }
  let h = step.gravity_h.w;
  let k = step.grid.z + l;
  let lambda = load_lambda(k);
  let r = project_distance(solved(c.a), solved(c.b), c.rest_length, c.compliance, lambda, 1.0 / (h * h));
  if (!r.valid) {
    return x;
  }
  if (p == c.a) {
    store_lambda(k, lambda + r.delta_lambda);
    return vec4f(x.xyz + r.da, x.w);
  }
  return vec4f(x.xyz + r.db, x.w);
}

// The particle's tethers in order, then its grab tether (solver.c: weft_phase_tethers, grab.c:
// weft_grab_tethers), every limit × the frame's tether scale. Anchors are pinned and the grabbed
// particle kinematic, so reading their position races with no write: the solves never move a
// particle of inverse mass 0.
fn apply_tether(p: u32, x_in: vec4f) -> vec4f {
  var x = x_in;
  if (x.w == 0.0) {
    return x;
  }
  let scale = step.motion.x;
  for (var k = 0u; k < TETHERS_PER_PARTICLE; k += 1u) {
    let anchor = links[p].anchor[k];
    if (anchor >= particle_count()) {
      continue;
    }
    x = tether_to(x, solved(anchor).xyz, links[p].max_distance[k] * scale);
  }
  let g = step.misc.x;
  if (g < particle_count()) {
    x = tether_to(x, solved(g).xyz, links[p].grab_limit * scale);
  }
  return x;
}

// x no farther than limit from y.
fn tether_to(x: vec4f, y: vec3f, limit: f32) -> vec4f {
  let d = x.xyz - y;
  let d2 = d.x * d.x + d.y * d.y + d.z * d.z;
  if (d2 > limit * limit) {
    return vec4f(y + d * (limit / sqrt(d2)), x.w);
  }
  return x;
}

// collide.c: apply_friction. The slip relative to the collider, its tangential part stopped where
// it is at most friction × push (the contact's push along n: static friction), else friction × it
// removed.
fn friction(x: vec3f, start: vec3f, collider_motion: vec3f, n: vec3f, push: f32) -> vec3f {
  let s = x - start - collider_motion;
  let along = s.x * n.x + s.y * n.y + s.z * n.z;
  let tangential = s - along * n;
  let hold = step.ground.y * push;
  return x - select(step.ground.y, 1.0, dot(tangential, tangential) <= hold * hold) * tangential;
}

// Spheres in order, then the ground, then the mesh (collide.c: weft_collide).
fn collide_particle(p: u32, x_in: vec4f, start: vec3f) -> vec4f {
  var x = x_in;
  if (x.w == 0.0) {
    return x;
  }
  let margin = step.ground.z;
  let sphere_count = min(step.misc.y, MAX_SPHERES);
  for (var k = 0u; k < sphere_count; k += 1u) {
    let c = step.spheres[k].xyz;
    let reach = step.spheres[k].w + margin;
    let d = x.xyz - c;
    let d2 = d.x * d.x + d.y * d.y + d.z * d.z;
    if (d2 >= reach * reach) {
      continue;
    }
    let dl = sqrt(d2);
    let n = select(vec3f(0.0, 1.0, 0.0), d / dl, dl > 1e-9);
    let pushed = c + n * reach;
    x = vec4f(friction(pushed, start, c - step.previous_spheres[k].xyz, n, reach - dl), x.w);
  }
  let floor_y = step.ground.x + margin;
  if (step.misc.z != 0u && x.y < floor_y) {
    // world_internal.h: weft_ground_contact.
    let pushed = vec3f(x.x, floor_y, x.z);
    x = vec4f(friction(pushed, start, vec3f(0.0), vec3f(0.0, 1.0, 0.0), floor_y - x.y), x.w);
  }
  // The static triangle mesh last, as in C (mesh_collide.wgsl, or mesh_off.wgsl without one).
  return collide_mesh(p, x, start);
}

// The new velocity and residual (solver.c: weft_phase_update) from what integrate did (q, read back
// from memory). A free particle's velocity is state: it gains what the solve and the colliders did
// to the prediction, and the prediction's rounding error is carried in the residual. A kinematic
// one (pinned, scripted, grabbed) gets the velocity of its motion. Then the speed clamp.
fn update_motion(x: vec4f, start: vec3f, q: Prediction) -> Motion {
  let inverse_h = 1.0 / step.gravity_h.w;
  var v: vec3f;
  var r = q.step;
  if (x.w == 0.0) {
    v = (x.xyz - start) * inverse_h;
  } else {
    r = q.step - (q.x.xyz - start);
    v = q.v + (x.xyz - q.x.xyz) * inverse_h;
  }
  let max_speed = step.grab.w;
  if (max_speed > 0.0) {
    let speed2 = v.x * v.x + v.y * v.y + v.z * v.z;
    if (speed2 > max_speed * max_speed) {
      v *= max_speed / sqrt(speed2);
    }
  }
  return Motion(v, r);
}

struct Finished {
  x: vec4f, // the finished position (w = inverse mass)
  m: Motion, // the velocity and residual at the end of the substep
}

// The solved position of particle p after its leftover constraint and its tethers: what
// self-collision (self_collision.wgsl) starts from.
fn settle_particle(p: u32) -> vec4f {
  var x = solved(p);
  if ((step.range.w & FLAG_LEFTOVERS) != 0u) {
    x = apply_leftover(p, x);
  }
  return apply_tether(p, x);
}

// The end of a substep for particle p, whose integrate did q: `positions` still holds its start of
// the substep. With FLAG_SETTLED the self-collision kernels already settled it (and wrote the
// result as solved).
fn finish_particle(p: u32, q: Prediction) -> Finished {
  var x = solved(p);
  if ((step.range.w & FLAG_SETTLED) == 0u) {
    x = settle_particle(p);
  }
  let start = positions[p].xyz;
  x = collide_particle(p, x, start);
  return Finished(x, update_motion(x, start, q));
}
