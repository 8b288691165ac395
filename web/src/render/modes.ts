// The shading modes. Their numbers reach WGSL and GLSL through shaderConstants(), never by hand.
export const SHADING_MODES = ['silk', 'gold', 'strain', 'normal'] as const;
export type ShadingMode = (typeof SHADING_MODES)[number];

/** Strain shown at full heatmap colour (|L−L0|/L0). */
export const STRAIN_FULL_SCALE = 0.06;
export const MAX_DRAWN_SPHERES = 8;

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
  return lines.join('\n') + '\n';
}
