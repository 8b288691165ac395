// GLSL ES 3.00 twin of common.wgsl (same uniform layout, std140).
precision highp float;
precision highp int;
layout(std140) uniform Frame {
  mat4 view_projection;
  vec4 eye;
  vec4 light_dir;
  vec4 params; // x shading mode, y strain full scale, z ground height, w sphere count
  vec4 spheres[MAX_SPHERES];
} frame;

const float PI = 3.14159265;
const vec3 LIGHT_COLOR = vec3(1.0, 0.96, 0.9);
const vec3 BACKGROUND = vec3(0.085, 0.09, 0.105);

vec3 sky(vec3 direction) {
  float up = direction.y;
  vec3 horizon = vec3(0.5, 0.53, 0.6);
  vec3 zenith = vec3(0.9, 0.88, 0.84);
  vec3 floor_color = vec3(0.07, 0.065, 0.06);
  vec3 color = mix(horizon, zenith, smoothstep(0.0, 0.8, up));
  color = mix(floor_color, color, smoothstep(-0.25, 0.05, up));
  float key = max(dot(direction, frame.light_dir.xyz), 0.0);
  float fill = max(dot(direction, normalize(vec3(-0.3, 0.35, 0.9))), 0.0);
  return color + LIGHT_COLOR * (pow(key, 48.0) * 3.0 + pow(key, 6.0) * 0.35 + pow(fill, 4.0) * 0.45);
}

vec3 fresnel_schlick(vec3 f0, float cos_theta) {
  return f0 + (vec3(1.0) - f0) * pow(1.0 - clamp(cos_theta, 0.0, 1.0), 5.0);
}

vec4 to_display(vec3 linear_color) {
  vec3 color = linear_color * 0.75; // exposure
  vec3 mapped = clamp((color * (2.51 * color + 0.03)) / (color * (2.43 * color + 0.59) + 0.14), 0.0, 1.0);
  return vec4(pow(mapped, vec3(1.0 / 2.2)), 1.0);
}
