// Asking for a device the solver can run on, in the browser (navigator.gpu) and in Node (the npm
// package `webgpu`, Dawn): the same code, given a GPU object. Compatibility-mode adapters (GLES,
// llvmpipe) start with low default limits (4 storage buffers a stage, 128 invocations); the solver
// asks for what it needs up to what the adapter has. The one place device limits are chosen: the
// WebGPU renderer (render/webgpu.ts) asks for the same, since the solver runs on its device.
import { BINDINGS, MESH_BINDING, PIN_BINDING, storageBufferCount } from './bindings';
import type { KernelConfig } from './layout';

/// Storage buffers the largest solver module binds in one stage (8, WebGPU's default: the tiled
/// module, the self-collision module, and the solve module of a scene with a mesh collider or with
/// moving pins; the solver refuses a world with both).
export const STORAGE_BUFFERS_NEEDED = Math.max(
  storageBufferCount(BINDINGS.tiles),
  storageBufferCount(BINDINGS.self),
  storageBufferCount([...BINDINGS.solve, PIN_BINDING]),
  storageBufferCount([...BINDINGS.solve, MESH_BINDING]),
  storageBufferCount(BINDINGS.renderData),
);

/// What the solver needs of a device, up to what the adapter has (no more: large limits can cost
/// memory on some drivers).
export function requiredLimits(adapter: GPUAdapter): Record<string, number> {
  const l = adapter.limits;
  return {
    maxStorageBuffersPerShaderStage: Math.min(l.maxStorageBuffersPerShaderStage, STORAGE_BUFFERS_NEEDED),
    maxComputeInvocationsPerWorkgroup: Math.min(l.maxComputeInvocationsPerWorkgroup, 256),
    maxComputeWorkgroupSizeX: Math.min(l.maxComputeWorkgroupSizeX, 256),
    maxComputeWorkgroupStorageSize: Math.min(l.maxComputeWorkgroupStorageSize, 32768),
    maxStorageBufferBindingSize: l.maxStorageBufferBindingSize,
    maxBufferSize: l.maxBufferSize,
  };
}

export async function requestSolverDevice(gpu: GPU, options: GPURequestAdapterOptions = {}): Promise<GPUDevice> {
  const adapter = await gpu.requestAdapter(options);
  if (!adapter) throw new Error('no WebGPU adapter');
  if (adapter.limits.maxStorageBuffersPerShaderStage < STORAGE_BUFFERS_NEEDED) {
    throw new Error(
      `the adapter allows ${adapter.limits.maxStorageBuffersPerShaderStage} storage buffers a stage; the solver needs ${STORAGE_BUFFERS_NEEDED}`,
    );
  }
  const features: GPUFeatureName[] = adapter.features.has('timestamp-query') ? ['timestamp-query'] : [];
  return adapter.requestDevice({ label: 'weft gpu solver', requiredLimits: requiredLimits(adapter), requiredFeatures: features });
}

/// Kernel sizes for a device: the largest square tile whose particles fit the workgroup memory.
export function kernelConfig(device: GPUDevice, tileSize?: number): KernelConfig & { tileSize: number } {
  const l = device.limits;
  const invocations = Math.min(l.maxComputeInvocationsPerWorkgroup, l.maxComputeWorkgroupSizeX);
  const slots = Math.floor(l.maxComputeWorkgroupStorageSize / 16);
  let t = tileSize ?? 16;
  while (t * t > slots) t -= 2;
  // A colour solves at most t²/2 constraints of a tile (it is a matching): one invocation each.
  const tileWorkgroupSize = Math.max(32, Math.min((t * t) / 2, invocations));
  return { workgroupSize: Math.min(64, invocations), tileWorkgroupSize, tileCapacity: t * t, tileSize: t };
}
