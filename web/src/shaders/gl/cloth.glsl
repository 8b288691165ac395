// GLSL twin of cloth.wgsl.
#ifdef VERTEX
layout(location = 0) in vec4 position;
layout(location = 1) in vec4 normal;
layout(location = 2) in float strain;
layout(location = 3) in vec2 uv;
out vec3 v_world;
out vec3 v_normal;
out vec2 v_uv;
out float v_strain;
void main() {
  gl_Position = frame.view_projection * vec4(position.xyz, 1.0);
  v_world = position.xyz;
  v_normal = normal.xyz;
  v_uv = uv;
  v_strain = strain;
}
#else
in vec3 v_world;
in vec3 v_normal;
in vec2 v_uv;
in float v_strain;
out vec4 out_color;

vec3 shade_silk(vec3 n, vec3 v, vec3 l, vec2 uv, bool front) {
  vec3 base = front ? vec3(0.42, 0.025, 0.08) : vec3(0.36, 0.022, 0.07);
  vec3 sheen_color = vec3(1.0, 0.62, 0.7);
  float weave = 0.94 + 0.06 * sin(uv.x * 300.0) * sin(uv.y * 300.0);
  vec3 h = normalize(l + v);
  float n_dot_l = dot(n, l);
  float wrap = clamp((n_dot_l + 0.4) / 1.4, 0.0, 1.0);
  float n_dot_v = clamp(dot(n, v), 0.0, 1.0);
  float sin_h = sqrt(max(1.0 - pow(dot(n, h), 2.0), 0.0));
  float inv_r = 1.0 / 0.35;
  float charlie = (2.0 + inv_r) * pow(sin_h, inv_r) / (2.0 * PI);
  vec3 sheen = sheen_color * charlie * max(n_dot_l, 0.0) * 0.3;
  vec3 rim = sheen_color * pow(1.0 - n_dot_v, 4.0) * 0.25;
  vec3 ambient = base * sky(n) * 0.3;
  return base * wrap * weave * LIGHT_COLOR + sheen + rim + ambient;
}

vec3 heat(float strain) {
  float t = clamp(strain / frame.params.y, -1.0, 1.0);
  if (t < 0.0) return mix(HEAT_REST, HEAT_COMPRESSED, -t);
  vec3 warm = mix(HEAT_REST, HEAT_WARM, smoothstep(0.0, 0.5, t));
  return mix(warm, HEAT_HOT, smoothstep(0.5, 1.0, t));
}

// Twin of cloth.wgsl's back_light: a back face turned from the key light is lit by its mirror image.
vec3 back_light(vec3 n, vec3 l, bool front) {
  float n_dot_l = dot(n, l);
  if (front || n_dot_l >= 0.0) return l;
  return l - 2.0 * n_dot_l * n;
}

void main() {
  vec3 n = normalize(v_normal);
  if (!gl_FrontFacing) n = -n;
  vec3 v = normalize(frame.eye.xyz - v_world);
  vec3 l = back_light(n, frame.light_dir.xyz, gl_FrontFacing);
  int mode = int(frame.params.x);
  if (mode == MODE_NORMAL) {
    out_color = vec4(n * 0.5 + 0.5, 1.0);
    return;
  }
  vec3 color;
  if (mode == MODE_GOLD) color = shade_gold(n, v, l) + GOLD_F0 * LIGHT_COLOR * clamp((dot(n, l) + 0.4) / 1.4, 0.0, 1.0) * GOLD_WEAVE;
  else if (mode == MODE_STRAIN) color = heat(v_strain) * (STRAIN_AMBIENT + STRAIN_DIFFUSE * max(dot(n, l), 0.0));
  else color = shade_silk(n, v, l, v_uv, gl_FrontFacing);
  out_color = to_display(color);
}
#endif
