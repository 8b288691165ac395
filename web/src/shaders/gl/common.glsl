// GLSL ES 3.00 twin of common.wgsl (same uniform layout, std140). The precision statements come
// first, with the generated constants (webgl2.ts).
layout(std140) uniform Frame {
  mat4 view_projection;
  vec4 eye; // xyz camera position, w its horizontal distance to the point looked at
  vec4 light_dir;
  vec4 params; // x shading mode, y strain full scale, z ground height, w sphere count
  vec4 spheres[MAX_SPHERES];
} frame;

// PI, LIGHT_COLOR, BACKGROUND and GOLD_F0 come from shaderConstants() (render/modes.ts).

// Twin of common.wgsl's fill_direction: towards the camera horizontally, raised.
vec3 fill_direction() {
  vec3 flat_eye = vec3(frame.eye.x, 0.0, frame.eye.z);
  vec3 towards = dot(flat_eye, flat_eye) > 1e-8 ? normalize(flat_eye) : vec3(0.0, 0.0, 1.0);
  return normalize(towards * 0.93 + vec3(0.0, 0.37, 0.0));
}

vec3 sky(vec3 direction) {
  float up = direction.y;
  vec3 horizon = vec3(0.5, 0.53, 0.6);
  vec3 zenith = vec3(0.9, 0.88, 0.84);
  vec3 floor_color = vec3(0.15, 0.148, 0.145); // twin of common.wgsl: the lit ground
  vec3 color = mix(horizon, zenith, smoothstep(0.0, 0.8, up));
  color = mix(floor_color, color, smoothstep(-0.25, 0.05, up));
  float key = max(dot(direction, frame.light_dir.xyz), 0.0);
  float fill = max(dot(direction, fill_direction()), 0.0);
  return color + LIGHT_COLOR * (pow(key, 48.0) * 3.0 + pow(key, 6.0) * 0.35 + pow(fill, 4.0) * 0.45);
}

vec3 fresnel_schlick(vec3 f0, float cos_theta) {
  return f0 + (vec3(1.0) - f0) * pow(1.0 - clamp(cos_theta, 0.0, 1.0), 5.0);
}

// Twin of common.wgsl's shade_gold (why the F0 is deeper than measured gold: GOLD_F0 in render/modes.ts).

vec3 shade_gold(vec3 n, vec3 v, vec3 l) {
  vec3 f0 = GOLD_F0;
  float roughness = 0.3;
  float a2 = pow(roughness * roughness, 2.0);
  vec3 h = normalize(l + v);
  float n_dot_l = max(dot(n, l), 0.0);
  float n_dot_v = max(dot(n, v), 1e-3);
  float n_dot_h = max(dot(n, h), 0.0);
  float d = a2 / (PI * pow(n_dot_h * n_dot_h * (a2 - 1.0) + 1.0, 2.0));
  float k = pow(roughness + 1.0, 2.0) / 8.0;
  float g = (n_dot_l / (n_dot_l * (1.0 - k) + k)) * (n_dot_v / (n_dot_v * (1.0 - k) + k));
  vec3 f = fresnel_schlick(f0, dot(h, v));
  vec3 specular = d * g * f / max(4.0 * n_dot_l * n_dot_v, 1e-3) * n_dot_l;
  vec3 environment = sky(reflect(-v, n)) * fresnel_schlick(f0, n_dot_v);
  return specular * LIGHT_COLOR + environment * 0.85 + f0 * 0.02;
}

vec4 to_display(vec3 linear_color) {
  vec3 color = linear_color * 0.75; // exposure
  vec3 mapped = clamp((color * (2.51 * color + 0.03)) / (color * (2.43 * color + 0.59) + 0.14), 0.0, 1.0);
  return vec4(pow(mapped, vec3(1.0 / 2.2)), 1.0);
}

// Twin of common.wgsl's shade_glazed (a glazed collider surface, linear colour).
vec3 shade_glazed(vec3 albedo, vec3 n, vec3 v, vec3 l, float shininess, float specular_strength,
                  float ambient_strength, float glaze_strength) {
  vec3 h = normalize(l + v);
  vec3 diffuse = albedo * max(dot(n, l), 0.0) * LIGHT_COLOR;
  vec3 specular = pow(max(dot(n, h), 0.0), shininess) * specular_strength * LIGHT_COLOR;
  vec3 ambient = albedo * sky(n) * ambient_strength;
  vec3 glaze = fresnel_schlick(vec3(0.04), dot(n, v)) * sky(reflect(-v, n)) * glaze_strength;
  return diffuse + specular + ambient + glaze;
}
