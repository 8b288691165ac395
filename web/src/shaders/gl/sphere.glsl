// GLSL twin of sphere.wgsl.
#ifdef VERTEX
layout(location = 0) in vec3 unit_position;
layout(location = 1) in vec4 sphere;
out vec3 v_world;
out vec3 v_normal;
void main() {
  v_world = sphere.xyz + unit_position * sphere.w * 0.985;
  v_normal = unit_position;
  gl_Position = frame.view_projection * vec4(v_world, 1.0);
}
#else
in vec3 v_world;
in vec3 v_normal;
out vec4 out_color;
void main() {
  vec3 n = normalize(v_normal);
  vec3 v = normalize(frame.eye.xyz - v_world);
  vec3 l = frame.light_dir.xyz;
  out_color = to_display(shade_glazed(vec3(0.3, 0.34, 0.4), n, v, l, 64.0, 0.35, 0.4, 0.6));
}
#endif
