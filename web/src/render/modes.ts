// The shading modes and the constants both shader languages share. They reach WGSL and GLSL through
// shaderConstants(), never by hand.
import { DISTANCE_MAX } from '../camera';

export const SHADING_MODES = ['silk', 'gold', 'strain', 'normal'] as const;
export type ShadingMode = (typeof SHADING_MODES)[number];

/** Strain shown at full heatmap colour (|L−L0|/L0). */
export const STRAIN_FULL_SCALE = 0.06;
export const MAX_DRAWN_SPHERES = 8;

/** Linear RGB colours of the lighting (shaders/common.wgsl and its twin gl/common.glsl). */
export const SHADER_COLORS = {
  LIGHT_COLOR: [1.0, 0.96, 0.9],
  /** Also the clear colour of both renderers. */
  BACKGROUND: [0.085, 0.09, 0.105],
  /**
   * Polished yellow gold's F0 (shade_gold). Deeper than measured gold (1.0, 0.77, 0.34): per-channel
   * tone mapping pushes bright reflections toward white, so that F0 under a sky this bright came out
   * pale cream. (Blue 0.15 → 0.1, green 0.62 → 0.58 since a draped cloth stays on top of the sphere,
   * facing the sky: blue/red of the `sphere` drape 0.46 → 0.37, `hang` 0.33 → 0.24.)
   */
  GOLD_F0: [1.0, 0.58, 0.1],
  /** The strain heatmap (heat() in cloth.wgsl / gl/cloth.glsl, and the legend, ui/legend.ts): at rest ... */
  HEAT_REST: [0.3, 0.36, 0.45],
  /** ... compressed by the full scale ... */
  HEAT_COMPRESSED: [0.1, 0.3, 0.95],
  /** ... stretched by half of it ... */
  HEAT_WARM: [1.0, 0.85, 0.1],
  /** ... and by the full scale or more. */
  HEAT_HOT: [0.95, 0.1, 0.05],
} as const;

/** Lighting of the strain mode's back faces and front faces alike: heat × (STRAIN_AMBIENT + STRAIN_DIFFUSE·n·l). */
export const STRAIN_AMBIENT = 0.5;
export const STRAIN_DIFFUSE = 0.6;
/** The gold cloth's diffuse share (its weave scatters; cloth.wgsl, gl/cloth.glsl). */
export const GOLD_WEAVE = 0.3;

/**
 * The ground (ground.wgsl, gl/ground.glsl) is solid out to the point looked at, at least
 * GROUND_SOLID m from the eye, then fades into the background over GROUND_FADE m. Its quad follows
 * the eye and reaches GROUND_EXTENT m around it: past the fade from the farthest the camera goes.
 */
export const GROUND_SOLID = 4;
export const GROUND_FADE = 12;
export const GROUND_EXTENT = DISTANCE_MAX + GROUND_FADE + 8;

const mix = (a: readonly number[], b: readonly number[], t: number) => a.map((v, i) => v + (b[i] - v) * t);
const smoothstep = (e0: number, e1: number, x: number) => {
  const t = Math.min(1, Math.max(0, (x - e0) / (e1 - e0)));
  return t * t * (3 - 2 * t);
};

/** TS twin of the shaders' heat(): linear RGB of a strain (|L−L0|/L0, negative = compressed). */
export function heatColor(strain: number): number[] {
  const t = Math.min(1, Math.max(-1, strain / STRAIN_FULL_SCALE));
  const c = SHADER_COLORS;
  if (t < 0) return mix(c.HEAT_REST, c.HEAT_COMPRESSED, -t);
  const warm = mix(c.HEAT_REST, c.HEAT_WARM, smoothstep(0, 0.5, t));
  return mix(warm, c.HEAT_HOT, smoothstep(0.5, 1, t));
}

/** TS twin of to_display() (exposure, ACES-like curve, gamma): linear RGB to 0..255 sRGB-ish bytes. */
export function toDisplay(linear: readonly number[]): number[] {
  return linear.map((v) => {
    const x = v * 0.75;
    const mapped = Math.min(1, Math.max(0, (x * (2.51 * x + 0.03)) / (x * (2.43 * x + 0.59) + 0.14)));
    return Math.round(255 * mapped ** (1 / 2.2));
  });
}

/** The background as a GPUColor-like record. */
export const BACKGROUND_RGBA = {
  r: SHADER_COLORS.BACKGROUND[0],
  g: SHADER_COLORS.BACKGROUND[1],
  b: SHADER_COLORS.BACKGROUND[2],
  a: 1,
} as const;

const PI = 3.14159265;

export function isShadingMode(value: string): value is ShadingMode {
  return (SHADING_MODES as readonly string[]).includes(value);
}

export function modeIndex(mode: ShadingMode): number {
  return SHADING_MODES.indexOf(mode);
}

/** Constant declarations prepended to every shader of the given language. */
export function shaderConstants(language: 'wgsl' | 'glsl'): string {
  const lines = SHADING_MODES.map((mode, i) =>
    language === 'wgsl' ? `const MODE_${mode.toUpperCase()}: i32 = ${i};` : `const int MODE_${mode.toUpperCase()} = ${i};`,
  );
  lines.push(language === 'wgsl' ? `const MAX_SPHERES: i32 = ${MAX_DRAWN_SPHERES};` : `const int MAX_SPHERES = ${MAX_DRAWN_SPHERES};`);
  const float = (v: number) => (Number.isInteger(v) ? v.toFixed(1) : String(v));
  lines.push(language === 'wgsl' ? `const PI: f32 = ${PI};` : `const float PI = ${PI};`);
  for (const [name, value] of [
    ['STRAIN_AMBIENT', STRAIN_AMBIENT],
    ['STRAIN_DIFFUSE', STRAIN_DIFFUSE],
    ['GOLD_WEAVE', GOLD_WEAVE],
    ['GROUND_SOLID', GROUND_SOLID],
    ['GROUND_FADE', GROUND_FADE],
    ['GROUND_EXTENT', GROUND_EXTENT],
  ] as const)
    lines.push(language === 'wgsl' ? `const ${name}: f32 = ${float(value)};` : `const float ${name} = ${float(value)};`);
  for (const [name, rgb] of Object.entries(SHADER_COLORS)) {
    const components = rgb.map(float).join(', ');
    lines.push(language === 'wgsl' ? `const ${name}: vec3f = vec3f(${components});` : `const vec3 ${name} = vec3(${components});`);
  }
  return lines.join('\n') + '\n';
}
