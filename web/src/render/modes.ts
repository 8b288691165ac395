// The shading modes and the constants both shader languages share. They reach WGSL and GLSL through
// shaderConstants(), never by hand.
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
   * pale cream.
   */
  GOLD_F0: [1.0, 0.62, 0.15],
} as const;

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
  for (const [name, rgb] of Object.entries(SHADER_COLORS)) {
    const components = rgb.map(float).join(', ');
    lines.push(language === 'wgsl' ? `const ${name}: vec3f = vec3f(${components});` : `const vec3 ${name} = vec3(${components});`);
  }
  return lines.join('\n') + '\n';
}
