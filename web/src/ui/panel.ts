// The parameter panel (lil-gui). Solver settings apply live; scene, grid and solver rebuild the
// cloth in place (no page reload). Compliances are edited as log10 values: they span decades.
import GUI, { NumberController, type Controller } from 'lil-gui';
import type { App } from '../app';
import { GRID_CHOICES } from '../params';
import { SHADING_MODES } from '../render/modes';
import type { Messages } from './messages';

/** Below this viewport width or height (CSS px: a phone, upright or on its side) the panel starts
 * collapsed, so the view and the HUD show; a window that shrinks below them (a phone turned)
 * collapses it too. */
export const NARROW_WIDTH = 700;
export const SHORT_HEIGHT = 500;

/** The density of air at sea level (kg/m³): what the Air folder fills a scene without air with. */
const SEA_LEVEL_AIR_DENSITY = 1.225;

const small = () => window.innerWidth < NARROW_WIDTH || window.innerHeight < SHORT_HEIGHT;

/** Decimals that show a multiple of `step` exactly (0.1 → 1, 0.005 → 3, 1 → 0). */
function decimalsOf(step: number): number {
  let decimals = 0;
  while (decimals < 6 && Math.abs(step * 10 ** decimals - Math.round(step * 10 ** decimals)) > 1e-9) decimals++;
  return decimals;
}

/** The view's actions the panel offers as buttons (the keys do the same). */
export interface ViewActions {
  frame(): void;
  screenshot(): void;
  fullscreen(): void;
  help(): void;
}

export class Panel {
  private readonly gui = new GUI({ title: 'weft' });

  /** The panel's root element (main.ts frames the cloth beside it). */
  get element(): HTMLElement {
    return this.gui.domElement;
  }
  private readonly controllers: Controller[] = [];
  private sphereMoving!: Controller; // shown only where the scene has a sphere
  private ridgeLifts!: Controller; // shown only where the wasm solver has a mesh collider
  private maxSubsteps!: Controller; // shown only on the wasm solver
  /** The wind's vertical component as the scene set it (the panel edits the horizontal one). */
  private windY = 0;
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
    strainLimit: 0.2,
    selfCollision: false,
    thicknessMm: 10,
    ridgeLifts: true,
    maxSubsteps: 32,
    windSpeed: 0,
    windHeading: 0,
    gusts: 0,
    drag: 0.5,
    lift: 0.6,
    airDensity: 0,
    paused: false,
    sphereMoving: true,
    reset: () => void this.app.reset(),
  };

  /** pickObj opens a file picker for a user OBJ collider (ui/drop.ts); without it no such buttons. */
  constructor(
    private readonly app: App,
    sceneNames: string[],
    private readonly messages: Messages,
    pickObj?: () => void,
    view?: ViewActions,
  ) {
    const m = this.model;
    this.gui.domElement.classList.add('weft-panel');
    // Small windows start with the panel closed, and a window made small closes it; made large
    // again, the panel opens again if it was closed for being small (not by the user's click).
    let closedForSize = small();
    if (closedForSize) this.gui.close();
    let wasSmall = small();
    window.addEventListener('resize', () => {
      if (small() && !wasSmall && !this.gui._closed) {
        this.gui.close();
        closedForSize = true;
      } else if (!small() && wasSmall && closedForSize) {
        this.gui.open();
        closedForSize = false;
      }
      wasSmall = small();
    });
    this.gui.$title.addEventListener('click', () => (closedForSize = false)); // the user's choice from now on
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
      scene
        .add(m, 'mode', [...SHADING_MODES])
        .name('shading')
        .onChange(() => (app.mode = m.mode as typeof app.mode)),
    );
    if (pickObj) {
      // Drag-and-drop does the same; this is for users who cannot drag a file onto the page.
      scene.add({ load: pickObj }, 'load').name('collider from file…');
      scene.add({ clear: () => void app.clearObj().then(() => this.refresh()) }, 'clear').name("scene's own collider");
    }
    const solver = this.gui.addFolder('Solver');
    const applySubsteps = live(() => app.solver.apply({ substeps: m.substeps, iterations: m.iterations }));
    this.controllers.push(
      solver.add(m, 'substeps', 1, 40, 1).onChange(applySubsteps),
      solver.add(m, 'iterations', 1, 10, 1).onChange(applySubsteps),
      solver
        .add(m, 'stretchLog', -10, -2, 0.1)
        .name('stretch log₁₀α')
        .onChange(live(() => app.solver.apply({ stretchCompliance: 10 ** m.stretchLog }))),
      solver
        .add(m, 'shearLog', -10, -2, 0.1)
        .name('shear log₁₀α')
        .onChange(live(() => app.solver.apply({ shearCompliance: 10 ** m.shearLog }))),
      solver
        .add(m, 'bendLog', -10, 0, 0.1)
        .name('bend log₁₀α')
        .onChange(live(() => app.solver.apply({ bendCompliance: 10 ** m.bendLog }))),
      solver
        .add(m, 'damping', 0, 5, 0.01)
        .name('damping 1/s')
        .onChange(live(() => app.solver.apply({ damping: m.damping }))),
      solver
        .add(m, 'strainLimit', 0, 1, 0.01)
        .name('strain limit')
        .onChange(live(() => app.solver.apply({ strainLimit: m.strainLimit }))),
      solver
        .add(m, 'selfCollision')
        .name('self-collision')
        .onChange(live(() => app.solver.apply({ selfCollision: m.selfCollision }))),
      // The grid spacing unless set (a 1 m cloth at 64²: 15.9 mm; 0 sets it); a rebuild at another
      // grid keeps a set one; a thicker one is worked up to ×1.1 a frame.
      solver
        .add(m, 'thicknessMm', 0, 300, 0.1)
        .name('thickness mm')
        .onChange(live(() => app.solver.apply({ thickness: m.thicknessMm / 1000 }))),
      (this.ridgeLifts = solver
        .add(m, 'ridgeLifts')
        .name('ridge lifts')
        .onChange(live(() => app.solver.apply({ ridgeLifts: m.ridgeLifts })))),
      (this.maxSubsteps = solver
        .add(m, 'maxSubsteps', 0, 256, 1) // the bunny at 512² takes up to 160 (scenes.c)
        .name('max substeps')
        .onChange(live(() => app.solver.apply({ maxSubsteps: m.maxSubsteps })))),
    );
    const air = this.gui.addFolder('Air');
    // The wind as a horizontal speed and a heading (degrees from +x towards +z); the core keeps the
    // vector, and the gusts, coefficients and density of weft_world_def.
    const applyAir = live(() => {
      const heading = (m.windHeading * Math.PI) / 180;
      app.solver.apply({
        wind: { x: m.windSpeed * Math.cos(heading), y: this.windY, z: m.windSpeed * Math.sin(heading) },
        gustStrength: m.gusts,
        drag: m.drag,
        lift: m.lift,
        airDensity: m.airDensity,
      });
    });
    // Wind, gusts, drag and lift act through the air's density: at 0 (no air, the default outside
    // `flag`) they would do nothing at all. Setting one of them to something that acts fills the scene
    // with air at sea level, and says so; the density box still takes 0 for a user who wants none.
    let density!: Controller;
    const withAir = (acts: () => boolean) => () => {
      if (m.airDensity === 0 && acts()) {
        m.airDensity = SEA_LEVEL_AIR_DENSITY;
        density.updateDisplay();
        messages.show(
          `Wind, gusts, drag and lift need air: air density set from 0 to ${SEA_LEVEL_AIR_DENSITY} kg/m³ (sea level).`,
          'info',
          'air',
        );
      }
      applyAir();
    };
    const windBlows = withAir(() => m.windSpeed > 0);
    this.controllers.push(
      air.add(m, 'windSpeed', 0, 30, 0.1).name('wind m/s').onChange(windBlows),
      air.add(m, 'windHeading', -180, 180, 1).name('wind heading °').onChange(windBlows),
      air.add(m, 'gusts', 0, 1, 0.01).name('gusts (× speed)').onChange(windBlows),
      air
        .add(m, 'drag', 0, 10, 0.01)
        .name('drag coefficient')
        .onChange(withAir(() => m.drag > 0)),
      air
        .add(m, 'lift', 0, 10, 0.01)
        .name('lift coefficient')
        .onChange(withAir(() => m.lift > 0)),
      (density = air.add(m, 'airDensity', 0, 5, 0.005).name('air density kg/m³').onChange(applyAir)),
    );
    const run = this.gui.addFolder('Run');
    this.controllers.push(
      run
        .add(m, 'paused')
        .name('paused (Space)')
        .onChange(() => (app.paused = m.paused)),
      (this.sphereMoving = run
        .add(m, 'sphereMoving')
        .name('sphere moves (S)')
        .onChange(live(() => app.setSphereMoving(m.sphereMoving)))),
    );
    run.add(m, 'reset').name('reset (R)');
    // Numbers show as many decimals as their step has (log₁₀ 1e-7 in float reads -7.0, not -6.9999;
    // a wind of 8.544 m/s reads 8.5 and fits its box); the value itself is left as it is.
    // A typed value outside a slider's range is clamped by lil-gui as it is typed: say so when the box
    // is left (capture: before lil-gui's own blur handler puts the clamped value back in the box).
    for (const controller of this.controllers) {
      if (!(controller instanceof NumberController)) continue;
      controller.decimals(decimalsOf(controller._step as number));
      controller.domElement.addEventListener('blur', () => this.reportClamped(controller), true);
    }
    if (view) {
      const folder = this.gui.addFolder('View');
      folder.add(view, 'frame').name('frame the cloth (F)');
      folder.add(view, 'screenshot').name('screenshot PNG (P)');
      folder.add(view, 'fullscreen').name('fullscreen (Shift+F)');
      folder.add(view, 'help').name('help (?)');
    }
    this.refresh();
  }

  /** A warning when what was typed in `controller`'s box is not a number (lil-gui kept the value) or lies
   *  outside its range (lil-gui clamped it). */
  private reportClamped(controller: NumberController): void {
    const text = controller.$input.value.trim(),
      typed = Number(text);
    const min = controller._min as number,
      max = controller._max as number;
    if (text === '' || (typed >= min && typed <= max)) return;
    if (!Number.isFinite(typed)) {
      this.messages.show(
        `${controller._name}: "${text.slice(0, 20)}" is not a number; kept ${controller.getValue()}.`,
        'warning',
        'panel-range',
      );
      return;
    }
    this.messages.show(
      `${controller._name}: ${text} is outside ${min} … ${max}; set to ${controller.getValue()}.`,
      'warning',
      'panel-range',
    );
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

  /** Reads everything back from the app (after a rebuild, a key press, a hook call); `sceneChanged`
   *  after another scene was built, whose settings are all its own (the wind's heading too). */
  refresh(sceneChanged = false): void {
    const m = this.model,
      app = this.app;
    const settings = app.solver.settings();
    this.windY = settings.wind.y;
    const windSpeed = Math.hypot(settings.wind.x, settings.wind.z);
    Object.assign(m, {
      ...app.current,
      mode: app.mode,
      substeps: settings.substeps,
      iterations: settings.iterations,
      stretchLog: Math.log10(Math.max(settings.stretchCompliance, 1e-10)),
      shearLog: Math.log10(Math.max(settings.shearCompliance, 1e-10)),
      bendLog: Math.log10(Math.max(settings.bendCompliance, 1e-10)),
      damping: settings.damping,
      strainLimit: settings.strainLimit,
      selfCollision: settings.selfCollision,
      thicknessMm: settings.thickness * 1000,
      ridgeLifts: settings.ridgeLifts,
      maxSubsteps: settings.maxSubsteps,
      windSpeed,
      // A calm has no heading of its own: the one chosen for the wind to come stays, until another
      // scene brings its own air (a calm one heads along +x, as on a fresh page).
      windHeading: windSpeed > 0 ? (Math.atan2(settings.wind.z, settings.wind.x) * 180) / Math.PI : sceneChanged ? 0 : m.windHeading,
      gusts: settings.gustStrength,
      drag: settings.drag,
      lift: settings.lift,
      airDensity: settings.airDensity,
      paused: app.paused,
      sphereMoving: app.sphereMoving,
    });
    this.controllers.forEach((controller) => controller.updateDisplay());
    this.sphereMoving.show(app.hasSphere);
    this.ridgeLifts.show(app.solver.kind === 'wasm' && app.solver.world.meshTriangleCount > 0);
    this.maxSubsteps.show(app.solver.kind === 'wasm'); // the GPU solver keeps the panel's substeps
  }
}
