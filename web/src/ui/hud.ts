// The stats overlay, refreshed a few times a second (text layout is not free): rendered frames and
// simulated steps per second apart, the solver's own ms per step and how it was measured, slow
// motion when the machine cannot keep real time, "(software)" after a renderer that draws on the
// CPU, a badge while frames want far more substeps than they are given (App.stats().tooFewSubsteps:
// the cloth may pass through a collider), and a small graph of recent frame and step times.
import { SLOW_MOTION_THRESHOLD } from '../stepping';

export interface HudStats {
  fps: number;
  simMs: number;
  stepsPerSecond: number;
  slowMotion: number;
  simTiming: string;
  particles: number;
  constraints: number;
  colors: number;
  solver: string;
  renderer: string;
  softwareRendering: boolean;
  paused: boolean;
  frame: number;
  scene: string;
  grid: string;
  mesh: { triangles: number; name: string | null } | null;
  /** A frame lately wanted far more substeps than it took (App.stats().tooFewSubsteps): the badge. */
  tooFewSubsteps: { wanted: number; took: number } | null;
}

/** The graph's full height in ms (a 30 fps frame is half of it). */
const GRAPH_MS = 66.7;
const TIMING_NAMES: Record<string, string> = { cpu: 'wasm, wall', 'gpu-timestamp': 'GPU timestamps', 'gpu-submit': 'GPU submit→done' };

export class Hud {
  private last = 0;
  private readonly text = document.createElement('pre');
  private readonly slow = document.createElement('div');
  private readonly substeps = document.createElement('div');
  private readonly graph = document.createElement('canvas');

  constructor(private readonly element: HTMLElement) {
    this.text.className = 'text';
    this.slow.className = 'slow-motion';
    this.slow.hidden = true;
    this.substeps.className = 'too-few-substeps';
    this.substeps.hidden = true;
    this.graph.className = 'graph';
    this.graph.width = 240;
    this.graph.height = 48;
    this.graph.setAttribute('aria-label', 'frame time (grey) and simulation time per step (orange), last 120 frames');
    element.replaceChildren(this.text, this.slow, this.substeps, this.graph);
    // The dock (messages, bottom left) grows upwards only as far as the HUD's bottom edge (style.css):
    // long messages on a short window (a phone on its side) scroll instead of covering the HUD.
    const publish = () =>
      document.documentElement.style.setProperty('--hud-bottom', `${Math.ceil(element.getBoundingClientRect().bottom)}px`);
    new ResizeObserver(publish).observe(element);
    window.addEventListener('resize', publish);
    publish();
  }

  /** Hides or shows it (I): on a small window it covers the top of the picture. */
  toggle(): void {
    this.element.hidden = !this.element.hidden;
  }

  update(stats: HudStats, now: number, history: readonly { frameMs: number; simMs: number }[] = []): void {
    if (now - this.last < 250) return;
    this.last = now;
    const state = stats.paused ? '   PAUSED' : '';
    this.text.textContent = [
      `render ${stats.fps.toFixed(0).padStart(3)} fps   sim ${stats.paused ? '  –' : stats.stepsPerSecond.toFixed(0).padStart(3)} steps/s${state}`,
      // Not measured yet (a GPU solver's first steps, its pipelines compiling): a dash, not 0.00.
      stats.simMs > 0
        ? `sim ${stats.simMs.toFixed(2)} ms/step (${TIMING_NAMES[stats.simTiming] ?? stats.simTiming})`
        : 'sim    – ms/step (measuring)',
      `${stats.particles} particles   ${stats.constraints} constraints   ${stats.colors} colours`,
      `${stats.scene} ${stats.grid}   solver ${stats.solver}   renderer ${stats.renderer}${stats.softwareRendering ? ' (software)' : ''}   frame ${stats.frame}`,
      ...(stats.mesh ? [`collider ${stats.mesh.name ?? 'mesh'}: ${stats.mesh.triangles} triangles`] : []),
    ].join('\n');
    const slow = !stats.paused && stats.slowMotion >= SLOW_MOTION_THRESHOLD;
    this.slow.hidden = !slow;
    if (slow) {
      this.slow.textContent = `slow motion ×${stats.slowMotion.toFixed(1)}`;
      this.slow.title = `this machine simulates 1/${stats.slowMotion.toFixed(1)} of real time${stats.softwareRendering ? ' (it draws without a GPU, on the CPU the simulation shares)' : ''}`;
    }
    const short = stats.tooFewSubsteps;
    this.substeps.hidden = !short;
    if (short) {
      this.substeps.textContent = `${short.took} substep${short.took === 1 ? '' : 's'}, the motion wants ${short.wanted}: the cloth may pass through`;
      this.substeps.title =
        `a frame near a collider (or at the hand) moved the cloth more than its substeps hold: ` +
        `raise substeps, or max substeps to at least ${short.wanted} (panel: Solver)`;
    }
    this.drawGraph(history);
  }

  private drawGraph(history: readonly { frameMs: number; simMs: number }[]): void {
    const g = this.graph.getContext('2d');
    if (!g) return;
    const { width, height } = this.graph;
    g.clearRect(0, 0, width, height);
    const bar = width / 120;
    const y = (ms: number) => height - Math.min(1, ms / GRAPH_MS) * height;
    history.forEach((h, i) => {
      const x = width - (history.length - i) * bar;
      g.fillStyle = 'rgba(200, 200, 200, 0.55)';
      g.fillRect(x, y(h.frameMs), Math.max(1, bar - 0.5), height - y(h.frameMs));
      g.fillStyle = 'rgba(255, 150, 40, 0.9)';
      g.fillRect(x, y(h.simMs), Math.max(1, bar - 0.5), height - y(h.simMs));
    });
    // 60 fps and 30 fps lines.
    g.fillStyle = 'rgba(120, 200, 255, 0.8)';
    g.fillRect(0, Math.round(y(1000 / 60)), width, 1);
    g.fillStyle = 'rgba(120, 200, 255, 0.4)';
    g.fillRect(0, Math.round(y(1000 / 30)), width, 1);
  }
}
