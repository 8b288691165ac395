// Static triangle-mesh colliders (the bunny, a user OBJ): the core's world-space vertices and
// pseudo-normals, drawn in the current shading mode: normals as RGB and gold as gold (both say
// something about the surface), strain as the heatmap's rest colour (a rigid mesh never stretches).
// Silk stays glazed porcelain: a velvet collider under velvet cloth would hide the cloth's folds.
struct MeshVarying {
  @builtin(position) clip: vec4f,
  @location(0) world: vec3f,
  @location(1) normal: vec3f,
  // One corner's pseudo-normal, the same over the whole triangle (crease test below).
  @location(2) @interpolate(flat) corner: vec3f,
};

@vertex
fn vs_mesh(@location(0) position: vec4f, @location(1) normal: vec4f) -> MeshVarying {
  var out: MeshVarying;
  out.world = position.xyz;
  out.normal = normal.xyz;
  out.corner = normal.xyz;
  out.clip = frame.view_projection * vec4f(position.xyz, 1.0);
  return out;
}

@fragment
fn fs_mesh(in: MeshVarying) -> @location(0) vec4f {
  // Pseudo-normals are smooth across every edge, which rounds a box's faces into gradients. A
  // triangle whose corner normal strays far (> ~37°) from its own normal sits on a crease and is
  // shaded flat; a finely tessellated mesh (the bunny) stays smooth. Decided once per triangle
  // (a flat-interpolated corner), never per fragment, which would cut discs into large faces.
  // (`smooth` is a reserved word in WGSL.)
  let smooth_normal = normalize(in.normal);
  var face = normalize(cross(dpdx(in.world), dpdy(in.world)));
  if (dot(face, smooth_normal) < 0.0) {
    face = -face;
  }
  let n = select(smooth_normal, face, dot(face, normalize(in.corner)) < 0.8);
  let v = normalize(frame.eye.xyz - in.world);
  let l = frame.light_dir.xyz;
  let mode = i32(frame.params.x);
  if (mode == MODE_NORMAL) {
    return vec4f(n * 0.5 + 0.5, 1.0);
  }
  if (mode == MODE_GOLD) {
    return to_display(shade_gold(n, v, l));
  }
  if (mode == MODE_STRAIN) {
    return to_display(vec3f(0.3, 0.36, 0.45) * (0.5 + 0.6 * max(dot(n, l), 0.0)));
  }
  return to_display(shade_glazed(vec3f(0.62, 0.6, 0.56), n, v, l, 80.0, 0.4, 0.35, 0.5));
}
