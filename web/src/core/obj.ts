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
    if (!handle) throw new Error(core.lastError() || `${name}: could not be used as a collider`);
    return handle;
  } finally {
    e.obj_free(data);
  }
}
