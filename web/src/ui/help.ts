// The help overlay: every control of the page (mouse, touch, keys, files). `?`, H or F1 opens it
// (ui/input.ts), Esc, the close button or a click outside the card closes it.
const SECTIONS: [string, [string, string][]][] = [
  [
    'Mouse',
    [
      ['drag on the cloth', 'grab it and pull'],
      ['drag elsewhere', 'orbit the camera'],
      ['Shift + drag', 'pan'],
      ['right-drag', 'orbit (never grabs)'],
      ['Alt + drag, wheel', 'zoom'],
      ['double-click', 'frame the cloth'],
    ],
  ],
  [
    'Touch',
    [
      ['one finger on the cloth', 'grab it'],
      ['one finger elsewhere', 'orbit'],
      ['two fingers', 'pinch to zoom'],
      ['double-tap', 'frame the cloth'],
    ],
  ],
  [
    'Keys',
    [
      ['Space', 'pause / run'],
      ['.', 'one frame (pauses first when running)'],
      ['R', 'reset the cloth'],
      ['S', 'sphere motion on / off'],
      ['F', 'frame the cloth (the camera)'],
      ['Shift + F', 'fullscreen on / off'],
      ['P', 'screenshot (downloads a PNG)'],
      ['O', 'the cloth as it is now (downloads an OBJ)'],
      ['I', 'the stats (HUD) off / on'],
      ['K', 'record the cloth into a .glb (again to stop and download)'],
      ['Shift+K', 'record the cloth into an OBJ sequence, a .zip of one OBJ a frame (again to stop and download)'],
      ['?  H  F1', 'this help'],
      ['Esc', 'close this help'],
    ],
  ],
  [
    'Files',
    [
      ['drop an .obj, .glb or .gltf', 'it becomes the collider, fitted under the cloth'],
      ['panel: "collider from file…"', 'the same with a file picker'],
    ],
  ],
];

export class Help {
  readonly element = document.createElement('div');

  constructor(parent: HTMLElement = document.body) {
    const e = this.element;
    e.id = 'help-overlay';
    e.className = 'weft-overlay';
    e.hidden = true;
    e.setAttribute('role', 'dialog');
    e.setAttribute('aria-modal', 'true');
    e.setAttribute('aria-label', 'help: controls');
    const card = document.createElement('div');
    card.className = 'card';
    const title = document.createElement('h2');
    title.textContent = 'weft — controls';
    const close = document.createElement('button');
    close.type = 'button';
    close.className = 'close';
    close.setAttribute('aria-label', 'close help');
    close.textContent = '×';
    close.addEventListener('click', () => this.close());
    card.append(close, title);
    for (const [heading, rows] of SECTIONS) {
      const section = document.createElement('section');
      const h = document.createElement('h3');
      h.textContent = heading;
      const list = document.createElement('dl');
      for (const [control, action] of rows) {
        const dt = document.createElement('dt');
        dt.textContent = control;
        const dd = document.createElement('dd');
        dd.textContent = action;
        list.append(dt, dd);
      }
      section.append(h, list);
      card.append(section);
    }
    const footer = document.createElement('p');
    footer.className = 'note';
    footer.textContent = 'The panel (top right) changes scene, grid, solver, shading and the physics live. Esc closes this help.';
    card.append(footer);
    e.append(card);
    e.addEventListener('click', (event) => {
      if (event.target === e) this.close();
    });
    parent.appendChild(e);
  }

  get open(): boolean {
    return !this.element.hidden;
  }

  toggle(): void {
    if (this.open) this.close();
    else this.show();
  }

  show(): void {
    this.element.hidden = false;
    this.element.querySelector<HTMLButtonElement>('.close')?.focus();
  }

  close(): void {
    this.element.hidden = true;
  }
}
