// On-page messages (fallbacks, load failures, device loss). A message with a key replaces the
// previous one with that key. Info fades after INFO_MS, warnings after WARNING_MS; errors stay until
// closed. Every message has a close button; at most MAX_MESSAGES are shown (the oldest goes first,
// errors last). The container sits bottom-left, clear of the panel (style.css).
export type MessageLevel = 'info' | 'warning' | 'error';

export const INFO_MS = 5000;
export const WARNING_MS = 15000;
export const MAX_MESSAGES = 3;
/** The fade-out before removal (matches the CSS transition). */
const FADE_MS = 400;

export class Messages {
  private readonly byKey = new Map<string, HTMLElement>();

  constructor(private readonly container: HTMLElement) {}

  show(text: string, level: MessageLevel = 'info', key?: string): void {
    if (key) this.clear(key);
    const element = document.createElement('div');
    element.className = `message ${level}`;
    element.dataset.level = level;
    element.setAttribute('role', level === 'error' ? 'alert' : 'status');
    const body = document.createElement('span');
    body.className = 'text';
    body.textContent = text;
    const close = document.createElement('button');
    close.type = 'button';
    close.className = 'close';
    close.title = 'Close';
    close.setAttribute('aria-label', 'close message');
    close.textContent = '×';
    close.addEventListener('click', () => this.remove(element));
    element.append(body, close);
    this.container.appendChild(element);
    // On a short window older messages scroll (style.css): the newest is the one in view.
    this.container.scrollTop = this.container.scrollHeight;
    if (key) this.byKey.set(key, element);
    this.limit();
    const lifetime = level === 'info' ? INFO_MS : level === 'warning' ? WARNING_MS : 0;
    if (lifetime) setTimeout(() => this.fade(element), lifetime);
    (level === 'error' ? console.error : console.info)(`weft: ${text}`);
  }

  clear(key: string): void {
    const element = this.byKey.get(key);
    if (element) this.remove(element);
  }

  /** Messages shown now, oldest first. */
  private shown(): HTMLElement[] {
    return [...this.container.querySelectorAll<HTMLElement>('.message:not(.leaving)')];
  }

  private limit(): void {
    let shown = this.shown();
    while (shown.length > MAX_MESSAGES) {
      const victim = shown.find((m) => m.dataset.level !== 'error') ?? shown[0];
      this.remove(victim);
      shown = this.shown();
    }
  }

  private fade(element: HTMLElement): void {
    if (!element.isConnected) return;
    element.classList.add('leaving');
    setTimeout(() => this.remove(element), FADE_MS);
  }

  private remove(element: HTMLElement): void {
    element.remove();
    for (const [k, e] of this.byKey) if (e === element) this.byKey.delete(k);
  }
}
