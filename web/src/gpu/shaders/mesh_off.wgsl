// Stands in for mesh_collide.wgsl in modules of a scene without a mesh collider: those modules bind
// no mesh buffer (and in the tiled module, which never collides: see solver.ts).
fn collide_mesh(p: u32, x: vec4f, start: vec3f) -> vec4f {
  return x;
}
