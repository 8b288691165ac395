// Per-frame uniforms and the lighting shared by every pass (layout: render/frame-uniforms.ts).
struct Frame {
  view_projection: mat4x4f,
  eye: vec4f,          // xyz camera position, w its horizontal distance to the point looked at
  light_dir: vec4f,    // xyz unit vector towards the key light
  params: vec4f,       // x shading mode, y strain full scale, z ground height, w sphere count
  spheres: array<vec4f, MAX_SPHERES>, // xyz centre, w radius
};
@group(0) @binding(0) var<uniform> frame: Frame;

// PI, LIGHT_COLOR, BACKGROUND and GOLD_F0 come from shaderConstants() (render/modes.ts).

// The fill light's direction: horizontally towards the camera, raised (at the start view it is
// (-0.35, 0.36, 0.87), where a fixed fill used to be).
fn fill_direction() -> vec3f {
  let flat_eye = vec3f(frame.eye.x, 0.0, frame.eye.z);
  let towards = select(vec3f(0.0, 0.0, 1.0), normalize(flat_eye), dot(flat_eye, flat_eye) > 1e-8);
  return normalize(towards * 0.93 + vec3f(0.0, 0.37, 0.0));
}

// A studio sky: warm overhead softbox, cool horizon, dark floor. Stands in for an environment map.
fn sky(direction: vec3f) -> vec3f {
  let up = direction.y;
  let horizon = vec3f(0.5, 0.53, 0.6);
  let zenith = vec3f(0.9, 0.88, 0.84);
  let floor_color = vec3f(0.15, 0.148, 0.145); // the lit ground as the cloth's underside sees it (was 0.07: near-black undersides)
  var color = mix(horizon, zenith, smoothstep(0.0, 0.8, up));
  color = mix(floor_color, color, smoothstep(-0.25, 0.05, up));
  let key = max(dot(direction, frame.light_dir.xyz), 0.0);
  // A broad fill from the camera's side, a little above it (it follows the orbit): what makes metal
  // read as metal, from the front and from behind alike.
  let fill = max(dot(direction, fill_direction()), 0.0);
  return color + LIGHT_COLOR * (pow(key, 48.0) * 3.0 + pow(key, 6.0) * 0.35 + pow(fill, 4.0) * 0.45);
}

fn fresnel_schlick(f0: vec3f, cos_theta: f32) -> vec3f {
  return f0 + (vec3f(1.0) - f0) * pow(1.0 - clamp(cos_theta, 0.0, 1.0), 5.0);
}

// Polished yellow gold (the cloth's gold mode and a mesh collider's): GGX specular from the key light
// plus the sky reflected, Fresnel-weighted. Tuned for how it reads after to_display, not for the
// measured F0 of gold (GOLD_F0, render/modes.ts, says why): a deeper F0 and a reflection about half
// as strong keep most of the surface in the curve's saturated middle; the hot spot still clips.
fn shade_gold(n: vec3f, v: vec3f, l: vec3f) -> vec3f {
  let f0 = GOLD_F0;
  let roughness = 0.3;
  let a2 = pow(roughness * roughness, 2.0);
  let h = normalize(l + v);
  let n_dot_l = max(dot(n, l), 0.0);
  let n_dot_v = max(dot(n, v), 1e-3);
  let n_dot_h = max(dot(n, h), 0.0);
  let d = a2 / (PI * pow(n_dot_h * n_dot_h * (a2 - 1.0) + 1.0, 2.0));
  let k = pow(roughness + 1.0, 2.0) / 8.0;
  let g = (n_dot_l / (n_dot_l * (1.0 - k) + k)) * (n_dot_v / (n_dot_v * (1.0 - k) + k));
  let f = fresnel_schlick(f0, dot(h, v));
  let specular = d * g * f / max(4.0 * n_dot_l * n_dot_v, 1e-3) * n_dot_l;
  let environment = sky(reflect(-v, n)) * fresnel_schlick(f0, n_dot_v);
  return specular * LIGHT_COLOR + environment * 0.85 + f0 * 0.02;
}

// ACES-like curve then gamma: the canvas is a plain 8-bit target.
fn to_display(linear: vec3f) -> vec4f {
  let color = linear * 0.75; // exposure
  let mapped = clamp((color * (2.51 * color + 0.03)) / (color * (2.43 * color + 0.59) + 0.14), vec3f(0.0), vec3f(1.0));
  return vec4f(pow(mapped, vec3f(1.0 / 2.2)), 1.0);
}

// A glazed, non-metallic collider surface (sphere, mesh): Lambert + Blinn-Phong under the light, sky
// ambient, and a Fresnel glaze reflecting the sky. Returns linear colour (before to_display).
fn shade_glazed(albedo: vec3f, n: vec3f, v: vec3f, l: vec3f, shininess: f32, specular_strength: f32,
                ambient_strength: f32, glaze_strength: f32) -> vec3f {
  let h = normalize(l + v);
  let diffuse = albedo * max(dot(n, l), 0.0) * LIGHT_COLOR;
  let specular = pow(max(dot(n, h), 0.0), shininess) * specular_strength * LIGHT_COLOR;
  let ambient = albedo * sky(n) * ambient_strength;
  let glaze = fresnel_schlick(vec3f(0.04), dot(n, v)) * sky(reflect(-v, n)) * glaze_strength;
  return diffuse + specular + ambient + glaze;
}
