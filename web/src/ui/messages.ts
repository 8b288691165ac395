// On-page messages (fallbacks, load failures, device loss). A message with a key replaces the
// previous one with that key; info messages fade after a while, warnings and errors stay.
export type MessageLevel = 'info' | 'warning' | 'error';

export class Messages {
  private readonly byKey = new Map<string, HTMLElement>();

  constructor(private readonly container: HTMLElement) {}

  show(text: string, level: MessageLevel = 'info', key?: string): void {
    if (key) this.clear(key);
    const element = document.createElement('div');
    element.className = `message ${level}`;
    element.textContent = text;
    element.dataset.level = level;
    this.container.appendChild(element);
    if (key) this.byKey.set(key, element);
    if (level === 'info') setTimeout(() => element.remove(), 8000);
    (level === 'error' ? console.error : console.info)(`weft: ${text}`);
  }

  clear(key: string): void {
    this.byKey.get(key)?.remove();
    this.byKey.delete(key);
  }
}
