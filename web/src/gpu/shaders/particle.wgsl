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
  // The strain limit (solver.h: weft_strain_limited): never longer than rest × the stretch limit
  // (motion.z, 0 for none: WGSL gives no infinity).
  let stretch_limit = step.motion.z;
  if (stretch_limit > 0.0) {
    let room = rest_length * stretch_limit - length;
    r.delta_lambda = select(r.delta_lambda, room / w, r.delta_lambda * w > room);
  }
  let s = r.delta_lambda / length;
  r.da = a.w * s * d;
  r.db = -(b.w * s * d);
  r.valid = true;
  return r;
}

// A particle's velocity and the residual of its prediction's rounding (solver.c): between substeps
// they live in `velocities` (v in its first n entries, r in the next n).
struct Motion {
  v: vec3f,
  r: vec3f,
}

// What integrate did to a particle: its prediction x (w = inverse mass), its velocity after this
// substep's forces, and the step x − x_prev = h v + r it added (for a kinematic particle, which
// keeps v, its unchanged residual r). The update needs all three (finish.wgsl: update_motion), so
// integrate leaves them in the prediction buffer's sections 1–3 (store_integrated), where the finish
// (of the solve module, or of the tiled module's next pass A) reads them. The prediction itself must
// come from memory there: recomputed, (x_prev + step) − x_prev would be folded to step by the
// shader compilers, and the residual lost. (With a mesh collider a fifth section holds the
// particles' clearances: mesh_collide.wgsl.)
struct Prediction {
  x: vec4f,
  v: vec3f,
  step: vec3f,
}

// Forces, damping and the predicted position of particle p from its state at the start of the
// substep (solver.c: weft_phase_integrate).
fn integrate_state(p: u32, x: vec4f, m: Motion) -> Prediction {
  let h = step.gravity_h.w;
  var predicted = Prediction(x, m.v, m.r);
  if (x.w != 0.0) {
    var a = step.gravity_h.xyz;
    // Drag and lift of the triangles around it, clamped for this kick (air_on.wgsl; air_off.wgsl: none).
    a += air_acceleration(p, m.v, x.w, step.motion.y);
    // Damping acts on the motion so far, not on this substep's forces (solver.c); the first
    // substep since reset kicks by h/2 (the leapfrog's half step, Step.motion.y).
    let damping = max(0.0, 1.0 - step.ground.w * h);
    predicted.v = m.v * damping + step.motion.y * a;
    // The step carries what rounding kept out of the last prediction.
    predicted.step = h * predicted.v + m.r;
    predicted.x = vec4f(x.xyz + predicted.step, x.w);
  } else if (p != step.misc.x) {
    // A pinned particle on its scripted path (pins_on.wgsl; pins_off.wgsl leaves it).
    predicted.x = vec4f(pin_path(p, x.xyz), x.w);
  }
  if (p == step.misc.x) {
    // The grabbed particle is kinematic (inverse mass 0 in positions): it sits on the target.
    predicted.x = vec4f(step.grab.xyz, predicted.x.w);
  }
  return predicted;
}

// What integrate did to particle p, for the update (the solve starts from q.x: the caller stores it
// where its solve reads it).
fn store_integrated(p: u32, q: Prediction) {
  let n = particle_count();
  predicted[n + p] = vec4f(q.v, 0.0);
  predicted[2u * n + p] = vec4f(q.step, 0.0);
  predicted[3u * n + p] = q.x;
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
