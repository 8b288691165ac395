// The flag self_scan wrote for this substep (SELF_DOES_* and the next mode), as the modules that
// bind `hash_counts` as atomics read it (self_collision.wgsl, self_contacts.wgsl; self_scan.wgsl
// binds the counts as plain words and writes the flag).
fn substep_flag() -> u32 {
  return atomicLoad(&hash_counts[state_word(SELF_FLAG)]);
}
