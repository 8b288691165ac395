// Stands in for mesh_collide.wgsl in modules of a scene without a mesh collider: those modules bind
// no mesh buffer (the tiled module is at the 8 storage buffers WebGPU guarantees).
fn collide_mesh(x: vec4f, start: vec3f) -> vec4f {
  return x;
}
