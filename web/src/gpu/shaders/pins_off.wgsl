// Pins that stay where they are (no scripted pin motion, or a module without the rest positions).
fn pin_path(p: u32, x: vec3f) -> vec3f {
  return x;
}
