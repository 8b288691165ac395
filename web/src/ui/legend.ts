// The strain heatmap's legend: a colour bar with percentages, shown in strain mode only. Colours and
// the scale come from render/modes.ts, the constants the shaders are built from (heatColor and
// toDisplay are the TS twins of heat() and to_display()), so the bar says what the cloth shows.
import { heatColor, STRAIN_FULL_SCALE, STRAIN_AMBIENT, STRAIN_DIFFUSE, toDisplay } from '../render/modes';

/** The bar's labels as strain fractions, from full compression to full stretch. */
export function legendTicks(): number[] {
  return [-1, -0.5, 0, 0.5, 1].map((t) => t * STRAIN_FULL_SCALE);
}

/** A strain as the legend writes it: "+3%", "0%", "−6%". */
export function percent(strain: number): string {
  const value = Math.round(strain * 1000) / 10;
  if (value === 0) return '0%';
  return `${value > 0 ? '+' : '−'}${Math.abs(value)}%`;
}

/** CSS colour of the cloth at `strain`, lit as a face turned half to the light. */
export function legendColor(strain: number): string {
  const [r, g, b] = toDisplay(heatColor(strain).map((v) => v * (STRAIN_AMBIENT + STRAIN_DIFFUSE * 0.5)));
  return `rgb(${r}, ${g}, ${b})`;
}

export class StrainLegend {
  readonly element = document.createElement('div');

  constructor(parent: HTMLElement = document.getElementById('dock') ?? document.body) {
    const e = this.element;
    e.id = 'legend';
    e.className = 'weft-overlay';
    e.hidden = true;
    e.setAttribute('aria-label', 'strain legend');
    const title = document.createElement('div');
    title.className = 'title';
    title.textContent = 'strain (ΔL / L₀)';
    const bar = document.createElement('div');
    bar.className = 'bar';
    const stops: string[] = [];
    for (let i = 0; i <= 16; i++) {
      const strain = (-1 + i / 8) * STRAIN_FULL_SCALE;
      stops.push(`${legendColor(strain)} ${((i / 16) * 100).toFixed(2)}%`);
    }
    bar.style.background = `linear-gradient(to right, ${stops.join(', ')})`;
    const labels = document.createElement('div');
    labels.className = 'labels';
    for (const tick of legendTicks()) {
      const label = document.createElement('span');
      label.textContent = percent(tick);
      label.dataset.strain = String(tick);
      labels.append(label);
    }
    const note = document.createElement('div');
    note.className = 'note';
    note.textContent = `blue compressed · grey at rest · red stretched ≥ ${percent(STRAIN_FULL_SCALE).slice(1)}`;
    e.append(title, bar, labels, note);
    parent.appendChild(e);
  }

  set visible(visible: boolean) {
    this.element.hidden = !visible;
  }
}
