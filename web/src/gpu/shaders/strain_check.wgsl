// The frame-end strain check (src/strain_sweeps.c: any_edge_beyond), the one dispatch of the strain
// limit in a frame whose solve held it. One invocation per particle tests its grid edges to the
// right and below: longer than rest × Step.strain.x (the trigger, 1 + 2 × strain limit), or not
// finite, and this frame's set of indirect arguments (Step.range.y) asks for the sweeps (one
// workgroup, strain_sweeps.wgsl: strain_sweep) and the push-out (Step.range.z workgroups across).
// Its x counts start at 0, so a frame with no such edge dispatches nothing more. The same dispatch
// clears the other set, which the previous frame's sweeps and push-out were dispatched from: the
// next frame's check fills it (solver.ts alternates the sets frame by frame).

// Bindings: BINDINGS.strainCheck in gpu/bindings.ts (declared ahead of this file).

// Squared length of grid edge (p, q) now.
fn length2_now(p: u32, q: u32) -> f32 {
  let d = positions[p].xyz - positions[q].xyz;
  return d.x * d.x + d.y * d.y + d.z * d.z;
}

@compute @workgroup_size(WORKGROUP_SIZE)
fn strain_check(@builtin(global_invocation_id) id: vec3u,
        @builtin(num_workgroups) groups: vec3u) {
  let p = flat_index(id, groups);
  let filled = step.range.y;
  let other = (1u - filled) * STRAIN_ARGS_WORDS;
  if (p == 0u) {
    atomicStore(&strain_args[other + STRAIN_ARGS_SWEEP], 0u);
    atomicStore(&strain_args[other + STRAIN_ARGS_PUSH], 0u);
  }
  let n = particle_count();
  let w = step.grid.x;
  if (p >= n || p >= arrayLength(&strain_rest) || w == 0u) {
    return;
  }
  let trigger2 = step.strain.x * step.strain.x;
  let rest2 = strain_rest[p]; // x: the edge to the right, y: the edge below (0: none)
  var beyond = false;
  if (rest2.x > 0.0 && p + 1u < n) {
    beyond = beyond || !(length2_now(p, p + 1u) <= rest2.x * trigger2);
  }
  if (rest2.y > 0.0 && p + w < n) {
    beyond = beyond || !(length2_now(p, p + w) <= rest2.y * trigger2);
  }
  if (beyond) {
    let at = filled * STRAIN_ARGS_WORDS;
    atomicStore(&strain_args[at + STRAIN_ARGS_SWEEP], 1u);
    atomicStore(&strain_args[at + STRAIN_ARGS_PUSH], step.range.z);
  }
}
