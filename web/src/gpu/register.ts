// Plugs the GPU solver into the page (main.ts imports this file when it exists): ?solver=gpu and
// the panel's solver switch build a GpuClothSolver on the renderer's WebGPU device. app.ts falls
// back to wasm, with a message, when there is no WebGPU device or the solver fails to start; a
// device lost later hands the cloth to the wasm solver where it was (cloth-solver.ts).
import { solverFactories } from '../app';
import { Messages } from '../ui/messages';
import { GpuClothSolver } from './cloth-solver';

solverFactories.gpu = async ({ world, gpuDevice, startFrame }) => {
  if (!gpuDevice) throw new Error('no WebGPU device');
  const container = document.getElementById('messages');
  const messages = container ? new Messages(container) : null;
  return new GpuClothSolver(world, gpuDevice, (text) => messages?.show(text, 'warning', 'gpu-solver'), startFrame ?? 0);
};
