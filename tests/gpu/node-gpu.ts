// A WebGPU device in Node through the npm package `webgpu` (Dawn), for the parity tests and the
// benchmark. Without a GPU (here, CI): Mesa llvmpipe through GLES in compatibility mode (the GPU
// solver in docs/architecture.md); on the H200: Vulkan. WEFT_WEBGPU names the package's index.js
// when it is not in web/node_modules (the device bundle carries its own copy).
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { requestSolverDevice } from '../../web/src/gpu/device';

export type Backend = 'opengles' | 'vulkan';

// Dawn's GPU object must outlive the device (it owns the instance).
const keep: unknown[] = [];

export async function nodeDevice(backend: Backend): Promise<GPUDevice> {
  const path = process.env.WEFT_WEBGPU ?? resolve('web/node_modules/webgpu/index.js');
  const { create, globals } = await import(pathToFileURL(path).href);
  Object.assign(globalThis, globals);
  if (backend === 'opengles') process.env.EGL_PLATFORM ??= 'surfaceless';
  // Unquantised timestamps: the benchmark times whole passes of many frames.
  const gpu = create([`backend=${backend}`, 'disable-dawn-features=timestamp_quantization']);
  keep.push(gpu);
  const device = await requestSolverDevice(
    gpu,
    backend === 'opengles' ? { featureLevel: 'compatibility' } : { powerPreference: 'high-performance' },
  );
  device.addEventListener('uncapturederror', (event) => {
    console.error('webgpu error:', (event as GPUUncapturedErrorEvent).error.message);
    process.exitCode = 1;
  });
  return device;
}
