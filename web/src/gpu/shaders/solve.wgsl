// Kernels without workgroup barriers: per-particle passes and the plain one-dispatch-per-colour
// solve, which walks the constraints in exactly the C solver's order. Barrier-using kernels live in
// tiles.wgsl: sharing a module with them was measured to slow these down (the GPU solver in
// docs/architecture.md).

// Bindings: BINDINGS.solve in gpu/bindings.ts (declared ahead of this file).

fn solved(i: u32) -> vec4f {
  return predicted[i];
}

// One XPBD distance constraint c whose multiplier lives at lambdas[k].
fn solve_link(c: Constraint, k: u32) {
  let n = particle_count();
  if (c.a >= n || c.b >= n) {
    return;
  }
  let h = step.gravity_h.w;
  let lambda = load_lambda(k);
  let r = project_distance(predicted[c.a], predicted[c.b], c.rest_length, c.compliance, lambda,
                           1.0 / (h * h));
  if (!r.valid) {
    return;
  }
  store_lambda(k, lambda + r.delta_lambda);
  predicted[c.a] = vec4f(predicted[c.a].xyz + r.da, predicted[c.a].w);
  predicted[c.b] = vec4f(predicted[c.b].xyz + r.db, predicted[c.b].w);
}

// What integrate did to particle p this substep (particle.wgsl: Prediction).
fn integrated(p: u32) -> Prediction {
  let n = particle_count();
  return Prediction(predicted[3u * n + p], predicted[n + p].xyz, predicted[2u * n + p].xyz);
}

// Start of a substep: forces and prediction, one invocation per particle.
@compute @workgroup_size(WORKGROUP_SIZE)
fn integrate(@builtin(global_invocation_id) id: vec3u,
        @builtin(num_workgroups) groups: vec3u) {
  let p = flat_index(id, groups);
  let n = particle_count();
  if (p >= n) {
    return;
  }
  let q = integrate_state(p, positions[p], Motion(velocities[p].xyz, velocities[n + p].xyz));
  predicted[p] = q.x;
  store_integrated(p, q);
}

// One colour batch: constraints [range.y, range.z) share no particle, so they run in parallel.
@compute @workgroup_size(WORKGROUP_SIZE)
fn solve_color(@builtin(global_invocation_id) id: vec3u,
        @builtin(num_workgroups) groups: vec3u) {
  let k = step.range.y + flat_index(id, groups);
  if (k >= step.range.z || k >= arrayLength(&constraints)) {
    return;
  }
  solve_link(constraints[k], k);
}

// The overflow batch (constraints that fit no colour) in order, by one invocation.
@compute @workgroup_size(1)
fn solve_overflow() {
  let end = min(step.range.z, arrayLength(&constraints));
  for (var k = step.range.y; k < end; k += 1u) {
    solve_link(constraints[k], k);
  }
}

// Tethers between iterations (iterations > 1); the last iteration's run inside finish.
@compute @workgroup_size(WORKGROUP_SIZE)
fn tethers(@builtin(global_invocation_id) id: vec3u,
        @builtin(num_workgroups) groups: vec3u) {
  let p = flat_index(id, groups);
  if (p >= particle_count()) {
    return;
  }
  predicted[p] = apply_tether(p, predicted[p]);
}

// The leftover batch of an iteration that is not the last (iterations > 1): one invocation per
// leftover constraint, in place (they share no particle).
@compute @workgroup_size(WORKGROUP_SIZE)
fn solve_leftovers(@builtin(global_invocation_id) id: vec3u,
        @builtin(num_workgroups) groups: vec3u) {
  let l = flat_index(id, groups);
  if (l >= min(step.grid.w, arrayLength(&leftovers))) {
    return;
  }
  solve_link(leftovers[l], step.grid.z + l);
}

// End of a substep: (leftover), tethers, collisions, velocity update. Reads `predicted` (and its
// motion sections), writes the finished position, velocity and residual; `positions` still holds the start of the substep until then.
@compute @workgroup_size(WORKGROUP_SIZE)
fn finish(@builtin(global_invocation_id) id: vec3u,
        @builtin(num_workgroups) groups: vec3u) {
  let p = flat_index(id, groups);
  if (p >= particle_count()) {
    return;
  }
  let n = particle_count();
  let r = finish_particle(p, integrated(p));
  positions[p] = r.x;
  velocities[p] = vec4f(r.m.v, 0.0); // w unused, 0 as in the core
  velocities[n + p] = vec4f(r.m.r, 0.0);
}
