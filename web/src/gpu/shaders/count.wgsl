// The particle count of the dispatch (Step.range.x): every module that binds `step` and reads
// particles (particle.wgsl's users and self_contacts.wgsl's module).
fn particle_count() -> u32 {
  return step.range.x;
}
