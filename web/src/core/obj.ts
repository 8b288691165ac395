// A user's OBJ file into the core (wasm/weft_wasm_obj.c). The bytes are copied into linear memory
// once and parsed there by the C reader, so the page and the CLI accept and refuse exactly the same
// files with the same "name:line: why" messages; TypeScript never parses OBJ.
import type { WeftCore } from './wasm';

/**
 * Larger files are refused before any copy: wasm32 memory tops out at 4 GiB, and the reader's own
 * cap (2^24 vertices and triangles) is reached by OBJ text well below this.
 */
export const MAX_OBJ_BYTES = 512 * 1024 * 1024;

/**
 * Creates `scene` at grid × grid with the OBJ in `bytes` as its collider (in place of the scene's
 * spheres or mesh; fitted under the cloth) and returns the core world's handle. Throws with the
 * reader's message (it names the line and the reason) when the file is malformed.
 */
export function createSceneWithObj(core: WeftCore, scene: string, grid: number, bytes: Uint8Array, name: string): number {
  const e = core.exports;
  if (bytes.length > MAX_OBJ_BYTES) {
    throw new Error(
      `${name}: ${(bytes.length / 2 ** 20).toFixed(0)} MiB is more than the ${MAX_OBJ_BYTES / 2 ** 20} MiB an OBJ may have here`,
    );
  }
  const data = e.obj_alloc(bytes.length);
  if (!data) throw new Error(`${name}: not enough memory for a ${(bytes.length / 2 ** 20).toFixed(1)} MiB file`);
  try {
    // After the allocation: it may have grown memory, and core.memory is the current buffer.
    new Uint8Array(core.memory, data, bytes.length).set(bytes);
    core.writeString(scene);
    core.writeString(name, { ptr: e.obj_name_buffer(), size: e.obj_name_buffer_size() });
    const handle = e.world_create_scene_obj(grid, data, bytes.length);
    if (!handle) throw new Error(namedError(core.lastError(), name, bytes));
    return handle;
  } finally {
    e.obj_free(data);
  }
}

/**
 * The core's message about a file, naming the file: the reader's own ("name:line: reason") as it is;
 * a collider check's ("weft_world_set_mesh_collider: reason", no line to give) with its C function
 * name replaced by the file's.
 */
export function namedError(message: string, name: string, bytes?: Uint8Array): string {
  if (!message) return `${name}: could not be used as a collider`;
  if (message.startsWith(`${name}:`)) return message;
  const reason = message.replace(/^weft_[a-z0-9_]+:\s*/, '');
  // The collider check counts vertices from 0 in file order: the line of the (k+1)-th `v`.
  const vertex = /^vertex (\d+)\b(.*)$/.exec(reason);
  const line = vertex && bytes ? vertexLine(bytes, Number(vertex[1])) : 0;
  if (vertex && line) return `${name}:${line}: vertex ${Number(vertex[1]) + 1}${vertex[2]}`;
  return `${name}: ${reason}`;
}

/** Line number (from 1) of the `index`-th (from 0) vertex statement, or 0 when there is none. */
export function vertexLine(bytes: Uint8Array, index: number): number {
  let line = 1,
    seen = 0,
    start = true;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (b === 0x0a) {
      line++;
      start = true;
    } else if (start && (b === 0x20 || b === 0x09)) {
      continue;
    } else if (start) {
      start = false;
      if (b === 0x76 && (bytes[i + 1] === 0x20 || bytes[i + 1] === 0x09) && seen++ === index) return line;
    }
  }
  return 0;
}

const SIGNATURES: [string, number[]][] = [
  ['a PNG image', [0x89, 0x50, 0x4e, 0x47]],
  ['a JPEG image', [0xff, 0xd8, 0xff]],
  ['a GIF image', [0x47, 0x49, 0x46, 0x38]],
  ['a PDF document', [0x25, 0x50, 0x44, 0x46]],
  ['a ZIP archive', [0x50, 0x4b, 0x03, 0x04]],
  ['a binary glTF (.glb)', [0x67, 0x6c, 0x54, 0x46]],
  ['gzip data', [0x1f, 0x8b]],
];
/** How much of a file is looked at to tell text from binary. */
const SNIFF_BYTES = 64 * 1024;

/**
 * Why `bytes` cannot be OBJ text, as "name:line: not an OBJ text file (...)", or null when they can
 * be: a known binary signature (line 1), or a NUL byte or many control characters in the first
 * SNIFF_BYTES (the line of the first one). OBJ is a text format; the core's reader would otherwise
 * report the first "statement" of a PNG.
 */
export function notObjText(bytes: Uint8Array, name: string): string | null {
  for (const [what, signature] of SIGNATURES) {
    if (bytes.length >= signature.length && signature.every((b, i) => bytes[i] === b))
      return `${name}:1: not an OBJ text file (it is ${what})`;
  }
  const head = bytes.subarray(0, SNIFF_BYTES);
  let control = 0,
    line = 1,
    firstControlLine = 0;
  for (const b of head) {
    if (b === 0x0a) line++;
    else if (b === 0) return `${name}:${line}: not an OBJ text file (it holds binary data: a NUL byte)`;
    else if (b < 0x20 && b !== 0x09 && b !== 0x0d && b !== 0x0c && b !== 0x0b) {
      control++;
      firstControlLine ||= line;
    }
  }
  if (control > Math.max(4, head.length / 100)) return `${name}:${firstControlLine}: not an OBJ text file (it holds binary data)`;
  // Not a UTF-8 check: OBJ files in Latin-1 (comments, names) are text the reader takes.
  return null;
}
