// URL parameters (?solver= &scene= &grid= &mode= &renderer=). Bad values never stop the page: each
// one falls back to its default and leaves a sentence in `problems` for the on-page message; so do
// names the page does not take (?substeps=0) and a parameter given twice.
import { SHADING_MODES, isShadingMode, type ShadingMode } from './render/modes';
import type { SolverKind } from './solver/seam';

export type RendererChoice = 'auto' | 'webgpu' | 'webgl2';

export interface Params {
  solver: SolverKind;
  scene: string;
  grid: number;
  mode: ShadingMode;
  renderer: RendererChoice;
  problems: string[];
}

export const DEFAULT_PARAMS = { solver: 'wasm', scene: 'sphere', grid: 64, mode: 'silk', renderer: 'auto' } as const;
/** The URL parameters the page takes. */
export const PARAM_NAMES = Object.keys(DEFAULT_PARAMS) as readonly (keyof typeof DEFAULT_PARAMS)[];
/** At most this many sentences about the parameters' names (a URL may carry any number of them). */
const MAX_NAME_PROBLEMS = 3;
/** Unknown names quoted in their sentence (the rest counted). */
const MAX_UNKNOWN_SHOWN = 3;
export const GRID_MIN = 4;
export const GRID_MAX = 512;
/** Grid sizes the panel offers. */
export const GRID_CHOICES = [16, 32, 48, 64, 96, 128, 192, 256];

export function parseParams(search: string): Params {
  const query = new URLSearchParams(search);
  const problems: string[] = [];
  const params: Params = { ...DEFAULT_PARAMS, problems };

  // Names the page does not know (one sentence for all of them), and known ones given twice (the
  // first counts), are said too.
  const seen = new Set<string>();
  const unknown: string[] = [];
  for (const name of query.keys()) {
    if (seen.has(name)) continue;
    seen.add(name);
    if (!(PARAM_NAMES as readonly string[]).includes(name)) unknown.push(name);
    else if (query.getAll(name).length > 1 && problems.length < MAX_NAME_PROBLEMS)
      problems.push(`${name} is given ${query.getAll(name).length} times; using the first`);
  }
  if (unknown.length > 0) {
    const shown = unknown.slice(0, MAX_UNKNOWN_SHOWN).map((name) => `"${name.slice(0, 20)}"`);
    const more = unknown.length > MAX_UNKNOWN_SHOWN ? ` and ${unknown.length - MAX_UNKNOWN_SHOWN} more` : '';
    problems.unshift(
      `${shown.join(', ')}${more} ${unknown.length === 1 ? 'is' : 'are'} unknown (the page takes ${PARAM_NAMES.join(', ')}); ignored`,
    );
  }
  const solver = query.get('solver');
  if (solver !== null) {
    if (solver === 'wasm' || solver === 'gpu') params.solver = solver;
    else problems.push(`unknown solver "${solver}" (use wasm or gpu); using ${DEFAULT_PARAMS.solver}`);
  }
  const scene = query.get('scene');
  if (scene !== null) {
    if (/^[a-z0-9_-]{1,32}$/i.test(scene)) params.scene = scene;
    else problems.push(`invalid scene name "${scene.slice(0, 40)}"; using ${DEFAULT_PARAMS.scene}`);
  }
  const grid = query.get('grid');
  if (grid !== null) {
    const value = Number(grid);
    if (/^\d+$/.test(grid) && value >= GRID_MIN && value <= GRID_MAX) params.grid = value;
    else problems.push(`invalid grid "${grid.slice(0, 20)}" (an integer from ${GRID_MIN} to ${GRID_MAX}); using ${DEFAULT_PARAMS.grid}`);
  }
  const mode = query.get('mode');
  if (mode !== null) {
    if (isShadingMode(mode)) params.mode = mode;
    else problems.push(`unknown mode "${mode.slice(0, 20)}" (use ${SHADING_MODES.join(', ')}); using ${DEFAULT_PARAMS.mode}`);
  }
  const renderer = query.get('renderer');
  if (renderer !== null) {
    if (renderer === 'webgpu' || renderer === 'webgl2' || renderer === 'auto') params.renderer = renderer;
    else problems.push(`unknown renderer "${renderer.slice(0, 20)}" (use auto, webgpu or webgl2); choosing automatically`);
  }
  return params;
}
