// A user's glTF (.glb, or .gltf with embedded data: buffers) as the collider: @gltf-transform/core
// reads the file; its triangles (every mesh of the default scene, in world space) go to the core,
// which fits them under the cloth exactly as it does an OBJ's (wasm/weft_wasm_gltf.c). Before the
// reader sees the file, a few checks give a clear message for what it would refuse obscurely or
// try to fetch: a truncated GLB, malformed JSON, external URIs, absurd counts.
import type { Document, Node, Primitive } from '@gltf-transform/core';
import type { WeftCore } from './wasm';

/** Larger files are refused before reading (as an OBJ is: memory, and the element caps below). */
export const MAX_GLTF_BYTES = 512 * 1024 * 1024;
/** Most vertices and most triangles a glTF collider may have (each), as for an OBJ. */
export const MAX_GLTF_ELEMENTS = 1 << 24;

/** The glTF's triangles, world space: 3 floats per vertex, 3 indices per triangle. */
export interface TriangleMesh {
  positions: Float32Array;
  indices: Uint32Array;
}

/** What weft's own export marks on its nodes (src/gltf_writer.c): these are not colliders. */
const NOT_COLLIDERS = new Set(['cloth', 'ground']);

const GLB_MAGIC = 0x46546c67; // "glTF"
const CHUNK_JSON = 0x4e4f534a;

/** True when the file name says glTF. */
export function isGltfName(name: string): boolean {
  return /\.(glb|gltf)$/i.test(name);
}

/** The file's JSON, checked for what this page cannot or will not read. Throws with the reason. */
function preflight(bytes: Uint8Array): { glb: boolean; json: Record<string, unknown> } {
  if (bytes.length > MAX_GLTF_BYTES) {
    throw new Error(`${(bytes.length / 2 ** 20).toFixed(0)} MiB is more than the ${MAX_GLTF_BYTES / 2 ** 20} MiB a glTF may have here`);
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const glb = bytes.length >= 4 && view.getUint32(0, true) === GLB_MAGIC;
  let text: string;
  if (glb) {
    if (bytes.length < 20) throw new Error(`truncated .glb: ${bytes.length} bytes, not even a header`);
    const version = view.getUint32(4, true);
    if (version !== 2) throw new Error(`a .glb of version ${version}; only glTF 2.0 is read`);
    const length = view.getUint32(8, true);
    if (length !== bytes.length) {
      throw new Error(
        `${length > bytes.length ? 'truncated' : 'malformed'} .glb: its header says ${length} bytes, the file has ${bytes.length}`,
      );
    }
    const jsonLength = view.getUint32(12, true);
    if (view.getUint32(16, true) !== CHUNK_JSON) throw new Error('malformed .glb: its first chunk is not JSON');
    if (20 + jsonLength > bytes.length) throw new Error(`truncated .glb: a JSON chunk of ${jsonLength} bytes does not fit`);
    text = new TextDecoder().decode(bytes.subarray(20, 20 + jsonLength));
  } else {
    text = new TextDecoder().decode(bytes);
  }
  let json: Record<string, unknown>;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new Error(`${glb ? 'its JSON chunk' : 'not a .glb, and not glTF JSON'}: ${(error as Error).message}`);
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw new Error('the glTF JSON is not an object');
  const version = (json.asset as { version?: unknown } | undefined)?.version;
  if (typeof version !== 'string' || !version.startsWith('2.')) throw new Error(`not glTF 2.0 (asset.version ${JSON.stringify(version)})`);
  for (const key of ['buffers', 'images'] as const) {
    const list = json[key];
    if (list === undefined) continue;
    if (!Array.isArray(list)) throw new Error(`"${key}" is not an array`);
    list.forEach((entry: { uri?: unknown }, index) => {
      const uri = entry?.uri;
      if (uri === undefined) return;
      if (typeof uri !== 'string' || !uri.startsWith('data:')) {
        throw new Error(
          `${key}[${index}] refers to an external file (${String(uri).slice(0, 60)}); only embedded data is read: use a .glb or data: URIs`,
        );
      }
    });
  }
  checkAccessors(json);
  return { glb, json };
}

const COMPONENT_BYTES: Record<number, number> = { 5120: 1, 5121: 1, 5122: 2, 5123: 2, 5125: 4, 5126: 4 };
const TYPE_COMPONENTS: Record<string, number> = { SCALAR: 1, VEC2: 2, VEC3: 3, VEC4: 4, MAT2: 4, MAT3: 9, MAT4: 16 };

/** Counts in range, and every accessor inside its bufferView inside its buffer (the reader would read past them). */
function checkAccessors(json: Record<string, unknown>): void {
  const list = (key: string): Record<string, unknown>[] => {
    const value = json[key] ?? [];
    if (!Array.isArray(value)) throw new Error(`"${key}" is not an array`);
    return value;
  };
  const buffers = list('buffers');
  const views = list('bufferViews');
  const number = (value: unknown, what: string, fallback?: number): number => {
    if (value === undefined && fallback !== undefined) return fallback;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) throw new Error(`${what} is not a whole number ≥ 0`);
    return value;
  };
  views.forEach((view, index) => {
    const buffer = buffers[number(view?.buffer, `bufferViews[${index}].buffer`)];
    if (!buffer) throw new Error(`bufferViews[${index}] refers to a missing buffer`);
    const end =
      number(view.byteOffset, `bufferViews[${index}].byteOffset`, 0) + number(view.byteLength, `bufferViews[${index}].byteLength`);
    if (end > number(buffer.byteLength, 'a buffer byteLength')) throw new Error(`bufferViews[${index}] reaches past its buffer`);
  });
  list('accessors').forEach((accessor, index) => {
    const count = number(accessor?.count, `accessors[${index}].count`);
    if (count > 3 * MAX_GLTF_ELEMENTS)
      throw new Error(`accessors[${index}] has ${count} elements; at most ${3 * MAX_GLTF_ELEMENTS} are read`);
    if (accessor.bufferView === undefined || count === 0) return;
    const view = views[number(accessor.bufferView, `accessors[${index}].bufferView`)];
    if (!view) throw new Error(`accessors[${index}] refers to a missing bufferView`);
    const element = (COMPONENT_BYTES[accessor.componentType as number] ?? 0) * (TYPE_COMPONENTS[accessor.type as string] ?? 0);
    if (element === 0) throw new Error(`accessors[${index}] has an unknown componentType or type`);
    const stride = view.byteStride === undefined ? element : number(view.byteStride, `bufferViews[${accessor.bufferView}].byteStride`);
    const end = number(accessor.byteOffset, `accessors[${index}].byteOffset`, 0) + (count - 1) * stride + element;
    if (end > number(view.byteLength, `bufferViews[${accessor.bufferView}].byteLength`)) {
      throw new Error(`accessors[${index}]: ${count} elements do not fit in bufferViews[${accessor.bufferView}]`);
    }
  });
}

/** Triangle indices of a primitive (lists, strips and fans; other modes have none). */
function triangleIndices(primitive: Primitive, vertexCount: number): number[] | null {
  const accessor = primitive.getIndices();
  const source = accessor ? accessor.getArray() : null;
  const count = source ? source.length : vertexCount;
  const at = (i: number) => (source ? source[i] : i);
  const out: number[] = [];
  switch (primitive.getMode()) {
    case 4: // TRIANGLES
      for (let i = 0; i + 2 < count; i += 3) out.push(at(i), at(i + 1), at(i + 2));
      return out;
    case 5: // TRIANGLE_STRIP
      for (let i = 0; i + 2 < count; i++) out.push(...(i % 2 ? [at(i + 1), at(i), at(i + 2)] : [at(i), at(i + 1), at(i + 2)]));
      return out;
    case 6: // TRIANGLE_FAN
      for (let i = 1; i + 1 < count; i++) out.push(at(0), at(i), at(i + 1));
      return out;
    default:
      return null;
  }
}

/** Every triangle of the document's default scene (all scenes' nodes if it names none), world space. */
function collectTriangles(document: Document): TriangleMesh {
  const root = document.getRoot();
  const scene = root.getDefaultScene() ?? root.listScenes()[0];
  const nodes: Node[] = [];
  if (scene) scene.traverse((node) => void nodes.push(node));
  const positions: number[] = [];
  const indices: number[] = [];
  const element = [0, 0, 0];
  const add = (primitive: Primitive, matrix: ArrayLike<number> | null) => {
    const attribute = primitive.getAttribute('POSITION');
    if (!attribute) return;
    const vertexCount = attribute.getCount();
    const triangles = triangleIndices(primitive, vertexCount);
    if (!triangles || triangles.length === 0) return;
    const base = positions.length / 3;
    if (base + vertexCount > MAX_GLTF_ELEMENTS) throw new Error(`more than ${MAX_GLTF_ELEMENTS} vertices`);
    for (let i = 0; i < vertexCount; i++) {
      attribute.getElement(i, element);
      const [x, y, z] = element;
      if (!Number.isFinite(x) || !Number.isFinite(y) || !Number.isFinite(z)) throw new Error(`vertex ${i} of a mesh is not finite`);
      if (matrix) {
        const m = matrix;
        positions.push(
          m[0] * x + m[4] * y + m[8] * z + m[12],
          m[1] * x + m[5] * y + m[9] * z + m[13],
          m[2] * x + m[6] * y + m[10] * z + m[14],
        );
      } else positions.push(x, y, z);
    }
    for (const index of triangles) {
      if (!Number.isInteger(index) || index < 0 || index >= vertexCount) {
        throw new Error(`a triangle refers to vertex ${index} of a mesh with ${vertexCount}`);
      }
      indices.push(base + index);
    }
    if (indices.length / 3 > MAX_GLTF_ELEMENTS) throw new Error(`more than ${MAX_GLTF_ELEMENTS} triangles`);
  };
  if (scene) {
    for (const node of nodes) {
      const mesh = node.getMesh();
      const extras = node.getExtras() as { weft?: unknown };
      if (!mesh || NOT_COLLIDERS.has(String(extras?.weft))) continue;
      const matrix = node.getWorldMatrix();
      for (const primitive of mesh.listPrimitives()) add(primitive, matrix);
    }
  } else {
    for (const mesh of root.listMeshes()) for (const primitive of mesh.listPrimitives()) add(primitive, null);
  }
  if (indices.length === 0) throw new Error('it has no triangles (no mesh, or only points and lines)');
  return { positions: new Float32Array(positions), indices: new Uint32Array(indices) };
}

/** Reads a .glb or an embedded .gltf into its triangles; throws with the reason when it cannot. */
export async function readGltfTriangles(bytes: Uint8Array): Promise<TriangleMesh> {
  const { glb, json } = preflight(bytes);
  // Loaded on the first glTF only: the page starts without the reader.
  const { WebIO } = await import('@gltf-transform/core');
  const io = new WebIO();
  let document: Document;
  try {
    document = glb ? await io.readBinary(bytes) : await io.readJSON({ json: json as never, resources: {} });
  } catch (error) {
    throw new Error(`malformed glTF: ${(error as Error).message}`);
  }
  try {
    return collectTriangles(document);
  } catch (error) {
    if (error instanceof RangeError) throw new Error(`malformed glTF: ${error.message}`);
    throw error;
  }
}

/**
 * Creates `scene` at grid × grid with `mesh` as its collider (fitted under the cloth, in place of
 * the scene's spheres or mesh) and returns the core world's handle; throws with the core's reason.
 */
export function createSceneWithMesh(core: WeftCore, scene: string, grid: number, mesh: TriangleMesh, name: string): number {
  const e = core.exports;
  const positions = e.obj_alloc(mesh.positions.byteLength);
  const indices = e.obj_alloc(mesh.indices.byteLength);
  try {
    if (!positions || !indices) throw new Error(`${name}: not enough memory for its ${mesh.indices.length / 3} triangles`);
    new Float32Array(core.memory, positions, mesh.positions.length).set(mesh.positions);
    new Uint32Array(core.memory, indices, mesh.indices.length).set(mesh.indices);
    core.writeString(scene);
    const handle = e.world_create_scene_mesh(grid, positions, mesh.positions.length / 3, indices, mesh.indices.length / 3);
    if (!handle) throw new Error(core.lastError() || `${name}: could not be used as a collider`);
    return handle;
  } finally {
    if (positions) e.obj_free(positions);
    if (indices) e.obj_free(indices);
  }
}
