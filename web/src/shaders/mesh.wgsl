// Static triangle-mesh colliders (the bunny, a user OBJ): the core's world-space vertices and
// pseudo-normals, drawn as glazed porcelain so the cloth's colour stays the star.
struct MeshVarying {
  @builtin(position) clip: vec4f,
  @location(0) world: vec3f,
  @location(1) normal: vec3f,
};

@vertex
fn vs_mesh(@location(0) position: vec4f, @location(1) normal: vec4f) -> MeshVarying {
  var out: MeshVarying;
  out.world = position.xyz;
  out.normal = normal.xyz;
  out.clip = frame.view_projection * vec4f(position.xyz, 1.0);
  return out;
}

@fragment
fn fs_mesh(in: MeshVarying) -> @location(0) vec4f {
  let n = normalize(in.normal);
  let v = normalize(frame.eye.xyz - in.world);
  let l = frame.light_dir.xyz;
  let albedo = vec3f(0.62, 0.6, 0.56);
  let h = normalize(l + v);
  let diffuse = albedo * max(dot(n, l), 0.0) * LIGHT_COLOR;
  let specular = pow(max(dot(n, h), 0.0), 80.0) * 0.4 * LIGHT_COLOR;
  let ambient = albedo * sky(n) * 0.35;
  let glaze = fresnel_schlick(vec3f(0.04), dot(n, v)) * sky(reflect(-v, n)) * 0.5;
  return to_display(diffuse + specular + ambient + glaze);
}
