// The parameter panel (lil-gui). Solver settings apply live; scene, grid and solver rebuild the
// cloth in place (no page reload). Compliances are edited as log10 values: they span decades.
import GUI, { type Controller } from 'lil-gui';
import type { App } from '../app';
import { GRID_CHOICES } from '../params';
import { SHADING_MODES } from '../render/modes';
import type { Messages } from './messages';

export class Panel {
  private readonly gui = new GUI({ title: 'weft' });
  private readonly controllers: Controller[] = [];
  private readonly model = {
    scene: '',
    grid: 64,
    solver: 'wasm',
    mode: 'silk',
    substeps: 10,
    iterations: 1,
    stretchLog: -8,
    shearLog: -7,
    bendLog: -5,
    damping: 0.5,
    selfCollision: false,
    drag: 0.3,
    windX: 0,
    windZ: 0,
    paused: false,
    sphereMoving: true,
    reset: () => void this.app.reset(),
  };

  /** pickObj opens a file picker for a user OBJ collider (ui/drop.ts); without it no such buttons. */
  constructor(private readonly app: App, sceneNames: string[], private readonly messages: Messages, pickObj?: () => void) {
    const m = this.model;
    const grids = [...new Set([...GRID_CHOICES, app.current.grid])].sort((a, b) => a - b); // a URL grid may be off the list
    const rebuild = () => this.rebuild();
    const live = (apply: () => void) => () => {
      try {
        apply();
      } catch (error) {
        messages.show((error as Error).message, 'warning', 'settings');
      }
    };
    const scene = this.gui.addFolder('Scene');
    this.controllers.push(
      scene.add(m, 'scene', sceneNames).onChange(rebuild),
      scene.add(m, 'grid', grids).name('grid (N×N)').onChange(rebuild),
      scene.add(m, 'solver', ['wasm', 'gpu']).onChange(rebuild),
      scene.add(m, 'mode', [...SHADING_MODES]).name('shading').onChange(() => (app.mode = m.mode as typeof app.mode)),
    );
    if (pickObj) {
      // Drag-and-drop does the same; this is for users who cannot drag a file onto the page.
      scene.add({ load: pickObj }, 'load').name('collider from .obj…');
      scene.add({ clear: () => void app.clearObj().then(() => this.refresh()) }, 'clear').name("scene's own collider");
    }
    const solver = this.gui.addFolder('Solver');
    const applySubsteps = live(() => app.solver.apply({ substeps: m.substeps, iterations: m.iterations }));
    this.controllers.push(
      solver.add(m, 'substeps', 1, 40, 1).onChange(applySubsteps),
      solver.add(m, 'iterations', 1, 10, 1).onChange(applySubsteps),
      solver.add(m, 'stretchLog', -10, -2, 0.1).name('stretch log₁₀α').onChange(live(() => app.solver.apply({ stretchCompliance: 10 ** m.stretchLog }))),
      solver.add(m, 'shearLog', -10, -2, 0.1).name('shear log₁₀α').onChange(live(() => app.solver.apply({ shearCompliance: 10 ** m.shearLog }))),
      solver.add(m, 'bendLog', -10, 0, 0.1).name('bend log₁₀α').onChange(live(() => app.solver.apply({ bendCompliance: 10 ** m.bendLog }))),
      solver.add(m, 'damping', 0, 5, 0.01).name('damping 1/s').onChange(live(() => app.solver.apply({ damping: m.damping }))),
      solver.add(m, 'selfCollision').name('self-collision').onChange(live(() => app.solver.apply({ selfCollision: m.selfCollision }))),
    );
    const air = this.gui.addFolder('Air');
    const applyWind = live(() => app.solver.apply({ wind: { x: m.windX, y: 0, z: m.windZ }, drag: m.drag }));
    this.controllers.push(
      air.add(m, 'windX', -15, 15, 0.1).name('wind x m/s').onChange(applyWind),
      air.add(m, 'windZ', -15, 15, 0.1).name('wind z m/s').onChange(applyWind),
      air.add(m, 'drag', 0, 3, 0.01).name('drag 1/s').onChange(applyWind),
    );
    const run = this.gui.addFolder('Run');
    this.controllers.push(
      run.add(m, 'paused').name('paused (Space)').onChange(() => (app.paused = m.paused)),
      run.add(m, 'sphereMoving').name('sphere moves (S)').onChange(live(() => app.setSphereMoving(m.sphereMoving))),
    );
    run.add(m, 'reset').name('reset (R)');
    this.refresh();
  }

  private async rebuild(): Promise<void> {
    const m = this.model;
    try {
      await this.app.load({ scene: m.scene, grid: Number(m.grid), solver: m.solver as 'wasm' | 'gpu' });
    } catch (error) {
      this.messages.show(`Could not rebuild the cloth: ${(error as Error).message}`, 'error', 'rebuild');
    }
    this.refresh();
  }

  /** Reads everything back from the app (after a rebuild, a key press, a hook call). */
  refresh(): void {
    const m = this.model, app = this.app;
    const settings = app.solver.settings();
    Object.assign(m, {
      ...app.current,
      mode: app.mode,
      substeps: settings.substeps,
      iterations: settings.iterations,
      stretchLog: Math.log10(Math.max(settings.stretchCompliance, 1e-10)),
      shearLog: Math.log10(Math.max(settings.shearCompliance, 1e-10)),
      bendLog: Math.log10(Math.max(settings.bendCompliance, 1e-10)),
      damping: settings.damping,
      selfCollision: settings.selfCollision,
      drag: settings.drag,
      windX: settings.wind.x,
      windZ: settings.wind.z,
      paused: app.paused,
      sphereMoving: app.sphereMoving,
    });
    this.controllers.forEach((controller) => controller.updateDisplay());
  }
}
