// Sphere colliders: one unit-sphere mesh, instanced with (centre, radius) per sphere.
struct SphereVarying {
  @builtin(position) clip: vec4f,
  @location(0) world: vec3f,
  @location(1) normal: vec3f,
};

@vertex
fn vs_sphere(@location(0) unit: vec3f, @location(1) sphere: vec4f) -> SphereVarying {
  var out: SphereVarying;
  // Drawn a hair smaller than the collider so the cloth resting on it never dips inside the surface.
  out.world = sphere.xyz + unit * sphere.w * 0.985;
  out.normal = unit;
  out.clip = frame.view_projection * vec4f(out.world, 1.0);
  return out;
}

@fragment
fn fs_sphere(in: SphereVarying) -> @location(0) vec4f {
  let n = normalize(in.normal);
  let v = normalize(frame.eye.xyz - in.world);
  let l = frame.light_dir.xyz;
  return to_display(shade_glazed(vec3f(0.3, 0.34, 0.4), n, v, l, 64.0, 0.35, 0.4, 0.6));
}
