// Still air: modules that never integrate with air (the tiled and self-collision modules, see
// solver.ts) or a world without it.
fn air_acceleration(p: u32, v: vec3f, inverse_mass: f32, kick: f32) -> vec3f {
  return vec3f(0.0);
}
