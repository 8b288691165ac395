// GLSL twin of mesh.wgsl (why each mode looks as it does: see there).
#ifdef VERTEX
layout(location = 0) in vec4 position;
layout(location = 1) in vec4 normal;
out vec3 v_world;
out vec3 v_normal;
flat out vec3 v_corner;
void main() {
  v_world = position.xyz;
  v_normal = normal.xyz;
  v_corner = normal.xyz;
  gl_Position = frame.view_projection * vec4(position.xyz, 1.0);
}
#else
in vec3 v_world;
in vec3 v_normal;
flat in vec3 v_corner;
out vec4 out_color;
void main() {
  vec3 smooth_normal = normalize(v_normal);
  vec3 face = normalize(cross(dFdx(v_world), dFdy(v_world)));
  if (dot(face, smooth_normal) < 0.0) face = -face;
  vec3 n = dot(face, normalize(v_corner)) < 0.8 ? face : smooth_normal;
  vec3 v = normalize(frame.eye.xyz - v_world);
  vec3 l = frame.light_dir.xyz;
  int mode = int(frame.params.x);
  if (mode == MODE_NORMAL) {
    out_color = vec4(n * 0.5 + 0.5, 1.0);
    return;
  }
  if (mode == MODE_GOLD) {
    out_color = to_display(shade_gold(n, v, l));
    return;
  }
  if (mode == MODE_STRAIN) {
    out_color = to_display(vec3(0.3, 0.36, 0.45) * (0.5 + 0.6 * max(dot(n, l), 0.0)));
    return;
  }
  out_color = to_display(shade_glazed(vec3(0.62, 0.6, 0.56), n, v, l, 80.0, 0.4, 0.35, 0.5));
}
#endif
