// Pinned particles on their scripted path (solver.c: weft_phase_integrate): rest + pin velocity ×
// min(pin time, pin motion time), the travel time in Step.pins.w. `rest` is the core's rest pose.
fn pin_path(p: u32, x: vec3f) -> vec3f {
  if (p >= arrayLength(&rest) || rest[p].w != 0.0) {
    return x;
  }
  return rest[p].xyz + step.pins.xyz * step.pins.w;
}
