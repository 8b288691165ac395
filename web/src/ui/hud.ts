// The stats overlay, refreshed a few times a second (text layout is not free).
export interface HudStats {
  fps: number;
  simMs: number;
  particles: number;
  constraints: number;
  colors: number;
  solver: string;
  renderer: string;
  paused: boolean;
  frame: number;
  scene: string;
  grid: string;
  mesh: { triangles: number; name: string | null } | null;
}

export class Hud {
  private last = 0;

  constructor(private readonly element: HTMLElement) {}

  update(stats: HudStats, now: number): void {
    if (now - this.last < 250) return;
    this.last = now;
    this.element.textContent = [
      `${stats.fps.toFixed(0).padStart(3)} fps   sim ${stats.simMs.toFixed(2)} ms/frame${stats.paused ? '   PAUSED' : ''}`,
      `${stats.particles} particles   ${stats.constraints} constraints   ${stats.colors} colours`,
      `${stats.scene} ${stats.grid}   solver ${stats.solver}   renderer ${stats.renderer}   frame ${stats.frame}`,
      ...(stats.mesh ? [`collider ${stats.mesh.name ?? 'mesh'}: ${stats.mesh.triangles} triangles`] : []),
    ].join('\n');
  }
}
