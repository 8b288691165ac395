// A user's .obj as the collider: dropped anywhere on the page, or picked with the panel's button
// (for users without drag-and-drop: touch devices, keyboards). Either way the file's bytes go to
// App.loadObj, which has the C core parse them and says on the page what happened.
import type { App } from '../app';
import { MAX_OBJ_BYTES, notObjText } from '../core/obj';
import { isGltfName, MAX_GLTF_BYTES } from '../core/gltf';
import type { Messages } from './messages';

export class ObjDrop {
  private readonly picker = document.createElement('input');
  /** dragenter/dragleave fire for every child crossed: count them to know when the drag left the page. */
  private depth = 0;

  constructor(
    private readonly app: App,
    private readonly messages: Messages,
    private readonly overlay: HTMLElement,
  ) {
    this.picker.type = 'file';
    this.picker.accept = '.obj,model/obj,text/plain,.glb,.gltf,model/gltf-binary,model/gltf+json';
    this.picker.hidden = true;
    this.picker.addEventListener('change', () => {
      const file = this.picker.files?.[0];
      this.picker.value = ''; // picking the same file again is a new choice
      if (file) void this.load(file);
    });
    document.body.appendChild(this.picker);

    document.addEventListener('dragenter', (event) => {
      if (!carriesFiles(event)) return;
      event.preventDefault();
      this.depth++;
      this.overlay.hidden = false;
    });
    // Without preventDefault on dragover the browser refuses the drop (and would open the file).
    document.addEventListener('dragover', (event) => {
      if (!carriesFiles(event)) return;
      event.preventDefault();
      if (event.dataTransfer) event.dataTransfer.dropEffect = 'copy';
    });
    document.addEventListener('dragleave', () => {
      this.depth = Math.max(0, this.depth - 1);
      if (this.depth === 0) this.overlay.hidden = true;
    });
    document.addEventListener('drop', (event) => {
      this.depth = 0;
      this.overlay.hidden = true;
      if (!carriesFiles(event)) return;
      event.preventDefault();
      const files = [...(event.dataTransfer?.files ?? [])];
      if (files.length === 0) return;
      if (files.length > 1) this.messages.show(`${files.length} files dropped: using ${files[0].name}.`, 'info', 'obj-many');
      void this.load(files[0]);
    });
  }

  /** Opens the file picker (the panel's "load .obj…" button). */
  pick(): void {
    this.picker.click();
  }

  private async load(file: File): Promise<void> {
    // A .glb or .gltf goes to the glTF reader (core/gltf.ts) and becomes the collider the same way.
    const gltf = isGltfName(file.name);
    const limit = gltf ? MAX_GLTF_BYTES : MAX_OBJ_BYTES;
    // Checked before reading: a huge file would be read into memory only to be refused.
    if (file.size > limit) {
      this.messages.show(
        `${file.name} is ${(file.size / 2 ** 20).toFixed(0)} MiB; ${gltf ? 'a glTF' : 'an OBJ'} may have at most ${limit / 2 ** 20} MiB here. The scene keeps running unchanged.`,
        'warning',
        'obj',
      );
      return;
    }
    let bytes: Uint8Array;
    try {
      bytes = new Uint8Array(await file.arrayBuffer());
    } catch (error) {
      this.messages.show(`Could not read ${file.name}: ${(error as Error).message}. The scene keeps running unchanged.`, 'warning', 'obj');
      return;
    }
    if (gltf) {
      await this.app.loadGltf(bytes, file.name);
      return;
    }
    // Text under another name is tried as OBJ (said once); a binary file is refused by App.loadObj
    // as "not an OBJ text file", with no "trying" message before it.
    if (!/\.obj$/i.test(file.name) && !notObjText(bytes, file.name)) {
      this.messages.show(`${file.name} is not an .obj file; trying to read it as one.`, 'info', 'obj-type');
    }
    await this.app.loadObj(bytes, file.name);
  }
}

function carriesFiles(event: DragEvent): boolean {
  return !!event.dataTransfer && [...event.dataTransfer.types].includes('Files');
}
