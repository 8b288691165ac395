// Buttons for what the keys do (for touch screens and for finding them at all): help, frame the
// cloth, screenshot, fullscreen, and what others add (the record button). Bottom-left; the
// messages stack above it.
export interface ToolbarActions {
  help(): void;
  step(): void;
  frame(): void;
  screenshot(): void;
  obj(): void;
  fullscreen(): void;
}

export class Toolbar {
  readonly element = document.createElement('div');
  private readonly hint = document.createElement('span');

  constructor(actions: ToolbarActions, parent: HTMLElement = document.getElementById('dock') ?? document.body) {
    const e = this.element;
    e.id = 'toolbar';
    e.className = 'weft-overlay';
    e.setAttribute('role', 'toolbar');
    const buttons: [string, string, string, () => void][] = [
      ['help', '?', 'help: every control (? or H)', actions.help],
      ['step', 'step', 'one frame: pauses when running, then steps (.)', actions.step],
      ['frame', 'frame', 'frame the cloth (F, double-click)', actions.frame],
      ['screenshot', 'PNG', 'screenshot: download a PNG of the view (P)', actions.screenshot],
      ['obj', 'OBJ', 'the cloth as it is now: download an OBJ (O)', actions.obj],
      ['fullscreen', 'full screen', 'fullscreen (Shift+F)', actions.fullscreen],
    ];
    for (const [name, label, title, action] of buttons) {
      const button = document.createElement('button');
      button.type = 'button';
      button.dataset.action = name;
      button.textContent = label;
      button.title = title;
      button.setAttribute('aria-label', title);
      button.addEventListener('click', () => action());
      e.append(button);
    }
    this.hint.className = 'hint';
    this.hint.textContent = 'press ? for help · drop an .obj, .glb or .gltf: collider';
    e.append(this.hint);
    parent.appendChild(e);
  }

  /** Adds a button after the others (before the hint). */
  add(button: HTMLButtonElement): void {
    this.element.insertBefore(button, this.hint);
  }
}

/** Fullscreen on and off (the whole page, so the panel and HUD come along). */
export function toggleFullscreen(): Promise<void> {
  if (document.fullscreenElement) return document.exitFullscreen();
  const page = document.documentElement;
  // iPhone Safari has no fullscreen for pages: say so (the caller shows why) instead of doing nothing.
  if (typeof page.requestFullscreen !== 'function') return Promise.reject(new Error('this browser has no fullscreen for web pages'));
  return page.requestFullscreen();
}

/** Downloads a PNG data URL as `name`. */
export function download(url: string, name: string): void {
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.style.display = 'none';
  document.body.appendChild(link);
  link.click();
  link.remove();
}
