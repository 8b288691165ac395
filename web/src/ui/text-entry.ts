// Whether a key pressed with focus on an element is typing into it (a text or number box), so the
// page's shortcut keys leave it alone. Other controls (a drop-down, a checkbox, a button, a slider)
// keep focus after a click, but a letter or Space there is the user's shortcut: a drop-down would
// otherwise jump to the option starting with that letter (F: the scene "flag") and Space would flip
// the checkbox instead of pausing.
const TEXT_INPUT_TYPES = new Set(['text', 'number', 'search', 'email', 'url', 'tel', 'password']);

export function typesText(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable || target.tagName === 'TEXTAREA') return true;
  return target instanceof HTMLInputElement && TEXT_INPUT_TYPES.has(target.type);
}
