// Boot: read the URL, load the C core, pick a renderer (WebGPU, else WebGL2, saying so), build the
// scene, then wire input, panel, HUD and window.weft. Every failure ends in an on-page message.
import { App } from './app';
import { WeftCore } from './core/wasm';
import { installHooks } from './hooks';
import { DEFAULT_PARAMS, parseParams, type RendererChoice } from './params';
import type { Renderer } from './render/renderer';
import { WebGl2Renderer } from './render/webgl2';
import { NoWebGpuError, WebGpuRenderer } from './render/webgpu';
import { Help } from './ui/help';
import { Hud } from './ui/hud';
import { StrainLegend } from './ui/legend';
import { download, Toolbar, toggleFullscreen } from './ui/toolbar';
import { Input } from './ui/input';
import { ObjDrop } from './ui/drop';
import { Messages } from './ui/messages';
import { Panel } from './ui/panel';
import { Recorder } from './record';
import { RecordButton } from './ui/record-button';

const messages = new Messages(document.getElementById('messages')!);
let canvas = document.getElementById('view') as HTMLCanvasElement;

async function createRenderer(choice: RendererChoice, onLost: (message: string) => void): Promise<Renderer> {
  if (choice !== 'webgl2') {
    try {
      return await WebGpuRenderer.create(canvas, onLost, () =>
        messages.show(
          'This browser cannot present a WebGPU canvas (headless?): rendering off-screen, capture() still works.',
          'warning',
          'present',
        ),
      );
    } catch (error) {
      const reason = error instanceof NoWebGpuError ? error.message : `WebGPU failed to start: ${(error as Error).message}`;
      messages.show(`${reason}. Falling back to WebGL2.`, 'warning', 'renderer');
      // A canvas that handed out a WebGPU context cannot give a WebGL2 one.
      replaceCanvas();
    }
  }
  return WebGl2Renderer.create(canvas, onLost);
}

function replaceCanvas(): void {
  const fresh = canvas.cloneNode(false) as HTMLCanvasElement;
  canvas.replaceWith(fresh);
  canvas = fresh;
}

async function boot(): Promise<void> {
  const params = parseParams(location.search);
  // Every bad URL value in one message (at most three messages stack).
  const urlProblems = [...params.problems];
  const showUrlProblems = () => {
    if (urlProblems.length === 0) return;
    const prefix = urlProblems.length === 1 ? 'URL parameter' : 'URL parameters';
    messages.show(`${prefix}: ${urlProblems.join('; ')}.`, 'warning', 'url');
  };
  showUrlProblems();

  let core: WeftCore;
  try {
    core = await WeftCore.load(new URL('weft.wasm', document.baseURI));
  } catch (error) {
    messages.show(`The physics core (weft.wasm) failed to load: ${(error as Error).message}`, 'error', 'core');
    return;
  }
  const scenes = core.sceneNames();
  if (!scenes.includes(params.scene)) {
    const fallback = scenes.includes(DEFAULT_PARAMS.scene) ? DEFAULT_PARAMS.scene : scenes[0];
    urlProblems.push(`unknown scene "${params.scene}" (have ${scenes.join(', ')}); using ${fallback}`);
    showUrlProblems();
    params.scene = fallback;
  }

  let app: App;
  let input: Input;
  let recovering = false;
  const onLost = (message: string) => void recover(message);
  const renderer = await createRenderer(params.renderer, onLost);
  app = new App(core, renderer, messages, params.mode);
  // Sized before the first scene: its framing needs the view's shape.
  const resize = () => {
    const dpr = Math.min(window.devicePixelRatio || 1, 2);
    const width = Math.max(1, Math.round(canvas.clientWidth * dpr));
    const height = Math.max(1, Math.round(canvas.clientHeight * dpr));
    app.setAspect(width / height);
    app.renderer.resize(width, height);
  };
  new ResizeObserver(resize).observe(document.body);
  window.matchMedia?.(`(resolution: ${window.devicePixelRatio}dppx)`).addEventListener?.('change', resize);
  resize();
  await app.load({ scene: params.scene, grid: params.grid, solver: params.solver });

  // Device loss: the cloth lives in wasm memory, so a new renderer picks it up where it was.
  async function recover(message: string): Promise<void> {
    if (recovering) return;
    recovering = true;
    messages.show(`The GPU device was lost (${message}); recovering.`, 'warning', 'lost');
    app.stop();
    const previous = app.renderer.kind;
    // A lost context stays lost on its canvas: start over on a fresh one.
    replaceCanvas();
    try {
      app.renderer = await createRenderer(previous === 'webgpu' ? 'webgpu' : 'webgl2', onLost);
    } catch (error) {
      messages.show(`Could not get the GPU back: ${(error as Error).message}`, 'error', 'lost');
      recovering = false;
      return;
    }
    input.attach(canvas);
    // A GPU solver that lost its device has already handed the cloth to wasm (solver/gpu.ts):
    // it goes back to the GPU from where the cloth is now. One still on the GPU is rebuilt.
    if (app.solver.kind === 'gpu') await app.load({ ...app.current, solver: app.renderer.device ? 'gpu' : 'wasm' });
    else if (!(await app.resumeOnGpu())) app.renderer.setCloth(app.solver.world);
    resize();
    app.start();
    recovering = false;
    messages.show(`Recovered after losing the GPU device; rendering with ${app.renderer.kind}, the cloth kept its state.`, 'info', 'lost');
  }

  const drop = new ObjDrop(app, messages, document.getElementById('drop')!);
  const help = new Help();
  const legend = new StrainLegend();
  // One frame: paused, it steps; running, it pauses first (as a video player's frame key).
  const stepFrame = () => {
    if (!app.paused) {
      app.paused = true;
      panel.refresh();
      return;
    }
    void app.step(1);
  };
  const view = {
    frame: () => void app.frameCloth(),
    step: () => stepFrame(),
    screenshot: () => void screenshot(),
    obj: () => void downloadObj(),
    fullscreen: () =>
      void toggleFullscreen().catch((error) => messages.show(`Fullscreen refused: ${(error as Error).message}`, 'info', 'fullscreen')),
    help: () => help.toggle(),
  };
  async function downloadObj(): Promise<void> {
    try {
      const text = await app.clothObj();
      const name = `weft-${app.current.scene}-frame${app.solver.frame}.obj`;
      const url = URL.createObjectURL(new Blob([text], { type: 'model/obj' }));
      download(url, name);
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
      messages.show(`The cloth saved as ${name}.`, 'info', 'obj');
    } catch (error) {
      messages.show(`The OBJ export failed: ${(error as Error).message}`, 'error', 'obj');
    }
  }
  async function screenshot(): Promise<void> {
    try {
      const url = await app.capture();
      const name = `weft-${app.current.scene}-frame${app.solver.frame}.png`;
      download(url, name);
      messages.show(`Screenshot saved as ${name}.`, 'info', 'screenshot');
    } catch (error) {
      messages.show(`The screenshot failed: ${(error as Error).message}`, 'error', 'screenshot');
    }
  }
  const toolbar = new Toolbar(view);
  const panel = new Panel(app, scenes, messages, () => drop.pick(), view);
  app.onRebuilt = (sceneChanged) => panel.refresh(sceneChanged);
  // The panel open down the right side: the camera centres the picture in the rest of the view.
  const panelInset = () => {
    const area = canvas.getBoundingClientRect(),
      box = panel.element.getBoundingClientRect();
    const down = box.height > 0.4 * area.height;
    app.setViewInset(down && area.width > 0 ? Math.max(0, area.right - box.left) / area.width : 0);
  };
  new ResizeObserver(panelInset).observe(panel.element);
  window.addEventListener('resize', panelInset); // the window's (a recovered renderer's canvas is a new element)
  panelInset();
  app.onPausedByError = () => panel.refresh();
  input = new Input(app.camera, app, {
    frame: view.frame,
    fullscreen: view.fullscreen,
    screenshot: view.screenshot,
    obj: view.obj,
    toggleHelp: view.help,
    toggleHud: () => hud.toggle(),
    escape: () => {
      if (!help.open) return false;
      help.close();
      return true;
    },
    togglePause: () => {
      app.paused = !app.paused;
      panel.refresh();
    },
    stepFrame,
    toggleSphere: () => {
      if (!app.hasSphere) {
        messages.show('S moves the sphere: this scene has none.', 'info', 'sphere');
        return;
      }
      app.setSphereMoving(!app.sphereMoving);
      panel.refresh();
    },
    reset: () => void app.reset(),
  });
  input.attach(canvas);
  const recorder = new Recorder(app);
  const record = new RecordButton(
    recorder,
    messages,
    () => `weft-${app.current.scene}`,
    (button) => toolbar.add(button),
    () => app.paused,
  );
  installHooks(app, () => panel.refresh(), recorder, messages);
  const hud = new Hud(document.getElementById('hud')!);
  app.onFrame = (now) => {
    const world = app.solver.world;
    const stats = app.stats();
    hud.update({ ...stats, scene: app.current.scene, grid: `${world.width}×${world.height}` }, now, app.history);
    legend.visible = stats.mode === 'strain';
    record.refresh();
  };
  app.start();
}

boot().catch((error) => messages.show(`weft failed to start: ${(error as Error).message}`, 'error', 'boot'));
