// Per-frame uniforms and the lighting shared by every pass (layout: render/frame-uniforms.ts).
struct Frame {
  view_projection: mat4x4f,
  eye: vec4f,          // xyz camera position
  light_dir: vec4f,    // xyz unit vector towards the key light
  params: vec4f,       // x shading mode, y strain full scale, z ground height, w sphere count
  spheres: array<vec4f, MAX_SPHERES>, // xyz centre, w radius
};
@group(0) @binding(0) var<uniform> frame: Frame;

const PI: f32 = 3.14159265;
const LIGHT_COLOR: vec3f = vec3f(1.0, 0.96, 0.9);
const BACKGROUND: vec3f = vec3f(0.085, 0.09, 0.105);

// A studio sky: warm overhead softbox, cool horizon, dark floor. Stands in for an environment map.
fn sky(direction: vec3f) -> vec3f {
  let up = direction.y;
  let horizon = vec3f(0.5, 0.53, 0.6);
  let zenith = vec3f(0.9, 0.88, 0.84);
  let floor_color = vec3f(0.07, 0.065, 0.06);
  var color = mix(horizon, zenith, smoothstep(0.0, 0.8, up));
  color = mix(floor_color, color, smoothstep(-0.25, 0.05, up));
  let key = max(dot(direction, frame.light_dir.xyz), 0.0);
  // A broad fill from the front (+z, where the camera starts): what makes metal read as metal.
  let fill = max(dot(direction, normalize(vec3f(-0.3, 0.35, 0.9))), 0.0);
  return color + LIGHT_COLOR * (pow(key, 48.0) * 3.0 + pow(key, 6.0) * 0.35 + pow(fill, 4.0) * 0.45);
}

fn fresnel_schlick(f0: vec3f, cos_theta: f32) -> vec3f {
  return f0 + (vec3f(1.0) - f0) * pow(1.0 - clamp(cos_theta, 0.0, 1.0), 5.0);
}

// ACES-like curve then gamma: the canvas is a plain 8-bit target.
fn to_display(linear: vec3f) -> vec4f {
  let color = linear * 0.75; // exposure
  let mapped = clamp((color * (2.51 * color + 0.03)) / (color * (2.43 * color + 0.59) + 0.14), vec3f(0.0), vec3f(1.0));
  return vec4f(pow(mapped, vec3f(1.0 / 2.2)), 1.0);
}
