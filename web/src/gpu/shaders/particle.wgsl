// Per-particle phases of a substep and the distance-constraint projection, shared by every solver
// module (WGSL has no include: the TypeScript side compiles prelude + this file + the kernels).
// The formulas follow src/solver.c and src/collide.c operation by operation, so the GPU agrees with
// the C solver to float rounding. Two position buffers play the roles of the C arrays:
//   positions  — the finished positions (C's x between steps, and C's previous_positions during a
//                substep): what the renderer draws, only written by the finish pass;
//   predicted  — C's x during a substep: written by integrate, moved by the constraint solves.
// Each module declares the bindings these functions read with the same names (and `solved(i)`, the
// solved position of particle i that finish.wgsl reads). The end-of-substep phases (leftover
// constraint, tethers, collisions, velocity update) are in finish.wgsl.

struct Projection {
  da: vec3f,
  db: vec3f,
  delta_lambda: f32,
  valid: bool,
}

// XPBD distance constraint (solver_simd.c: solve_scalar). λ is the multiplier accumulated so far in
// this substep (0 in its first iteration).
fn project_distance(a: vec4f, b: vec4f, rest_length: f32, compliance: f32, lambda: f32,
                    inverse_h2: f32) -> Projection {
  var r: Projection;
  r.valid = false;
  let w = a.w + b.w;
  if (w == 0.0) {
    return r;
  }
  let d = a.xyz - b.xyz;
  let length = sqrt(d.x * d.x + d.y * d.y + d.z * d.z);
  if (length < 1e-9) {
    return r;
  }
  let alpha = compliance * inverse_h2;
  r.delta_lambda = (-(length - rest_length) - alpha * lambda) / (w + alpha);
  let s = r.delta_lambda / length;
  r.da = a.w * s * d;
  r.db = -(b.w * s * d);
  r.valid = true;
  return r;
}

fn particle_count() -> u32 {
  return step.range.x;
}

// Forces, damping and the predicted position of particle p from its state at the start of the
// substep (solver.c: weft_phase_integrate); returns the prediction (w = inverse mass). The new velocity is not
// stored: the update at the end of the substep replaces it before anything reads it.
fn integrate_state(p: u32, x: vec4f, v: vec3f) -> vec4f {
  let h = step.gravity_h.w;
  var predicted_x = x;
  if (x.w != 0.0) {
    var a = step.gravity_h.xyz;
    // Drag and lift of the triangles around it, clamped for this kick (air_on.wgsl; air_off.wgsl: none).
    a += air_acceleration(p, v, x.w, h);
    // Damping acts on the motion so far, not on this substep's forces (solver.c).
    let damping = max(0.0, 1.0 - step.ground.w * h);
    let nv = v * damping + h * a;
    predicted_x = vec4f(x.xyz + h * nv, x.w);
  } else if (p != step.misc.x) {
    // A pinned particle on its scripted path (pins_on.wgsl; pins_off.wgsl leaves it).
    predicted_x = vec4f(pin_path(p, x.xyz), x.w);
  }
  if (p == step.misc.x) {
    // The grabbed particle is kinematic (inverse mass 0 in positions): it sits on the target.
    predicted_x = vec4f(step.grab.xyz, predicted_x.w);
  }
  return predicted_x;
}

// λ of constraint k so far in this substep: 0 in its first iteration.
fn load_lambda(k: u32) -> f32 {
  if ((step.range.w & FLAG_ACCUMULATE_LAMBDA) != 0u && k < arrayLength(&lambdas)) {
    return lambdas[k];
  }
  return 0.0;
}

fn store_lambda(k: u32, lambda: f32) {
  if ((step.range.w & FLAG_STORE_LAMBDA) != 0u && k < arrayLength(&lambdas)) {
    lambdas[k] = lambda;
  }
}
