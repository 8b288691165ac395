// WebGPU renderer. Cloth vertex data comes either from core memory (a CpuRenderSource: views on
// memory.buffer handed to queue.writeBuffer, no JS-side packing) or from the GPU solver's own
// buffers (bound directly as vertex buffers). The canvas is configured as rgba8unorm so the same
// pipelines render to the screen and to the off-screen capture target.
import commonWgsl from '../shaders/common.wgsl?raw';
import clothWgsl from '../shaders/cloth.wgsl?raw';
import groundWgsl from '../shaders/ground.wgsl?raw';
import sphereWgsl from '../shaders/sphere.wgsl?raw';
import meshWgsl from '../shaders/mesh.wgsl?raw';
import type { WeftWorld } from '../core/world';
import { requiredLimits } from '../gpu/device';
import { colliderInset, insetVertices } from './collider-inset';
import { FRAME_UNIFORM_BYTES, frameUniforms, sphereInstances } from './frame-uniforms';
import { BACKGROUND_RGBA, MAX_DRAWN_SPHERES, shaderConstants } from './modes';
import { rgbaToPng, type FrameInput, type Renderer } from './renderer';
import { isSoftwareDevice, webgpuDeviceName } from './software';
import { unitSphere } from './sphere-mesh';

const COLOR_FORMAT: GPUTextureFormat = 'rgba8unorm';
const DEPTH_FORMAT: GPUTextureFormat = 'depth24plus';
const SAMPLES = 4;

export class NoWebGpuError extends Error {}

interface Targets {
  width: number;
  height: number;
  msaa: GPUTexture;
  depth: GPUTexture;
}

interface ClothBuffers {
  positions: GPUBuffer;
  normals: GPUBuffer;
  strain: GPUBuffer;
  uvs: GPUBuffer;
  indices: GPUBuffer;
  indexCount: number;
}

export class WebGpuRenderer implements Renderer {
  readonly kind = 'webgpu' as const;
  readonly samples = SAMPLES;
  readonly software: boolean;
  /** null when the canvas cannot be presented: frames are then only rendered by capture(). */
  private readonly context: GPUCanvasContext | null;
  private readonly uniformBuffer: GPUBuffer;
  private readonly bindGroup: GPUBindGroup;
  private readonly clothPipeline: GPURenderPipeline;
  private readonly groundPipeline: GPURenderPipeline;
  private readonly spherePipeline: GPURenderPipeline;
  private readonly meshPipeline: GPURenderPipeline;
  private mesh: { vertices: GPUBuffer; normals: GPUBuffer; indices: GPUBuffer; indexCount: number } | null = null;
  private readonly sphereVertices: GPUBuffer;
  private readonly sphereIndices: GPUBuffer;
  private readonly sphereIndexCount: number;
  private readonly sphereInstanceBuffer: GPUBuffer;
  private targets: Targets | null = null;
  private cloth: ClothBuffers | null = null;
  private width = 1;
  private height = 1;

  /**
   * Throws NoWebGpuError when the browser has no usable WebGPU adapter. `onPresentFailed` is called
   * when the canvas cannot be presented (headless Chromium loses the device on the first present):
   * the renderer then runs off-screen on a fresh device, and capture() still works.
   */
  static async create(canvas: HTMLCanvasElement, onLost: (message: string) => void, onPresentFailed: () => void): Promise<WebGpuRenderer> {
    if (!('gpu' in navigator) || !navigator.gpu) throw new NoWebGpuError('this browser has no WebGPU (navigator.gpu is missing)');
    // The GPU solver runs on this device (to hand over its buffers as vertex buffers): ask for its
    // limits (gpu/device.ts), more than the default compute limits.
    const requestDevice = async () => {
      const adapter = await requestAdapterWithRetries();
      if (!adapter) throw new NoWebGpuError('WebGPU is present but no adapter is available');
      // GPU timestamps let the GPU solver time its own step (the HUD's sim ms) where the adapter has them.
      const requiredFeatures: GPUFeatureName[] = adapter.features.has('timestamp-query') ? ['timestamp-query'] : [];
      return {
        adapter,
        device: await adapter.requestDevice({ label: 'weft device', requiredLimits: requiredLimits(adapter), requiredFeatures }),
      };
    };
    let { adapter, device } = await requestDevice();
    const context = canvas.getContext('webgpu');
    if (!context) throw new NoWebGpuError('the canvas refused a WebGPU context');
    const presentable = await probePresentation(device, context);
    if (!presentable) {
      context.unconfigure();
      ({ adapter, device } = await requestDevice());
      onPresentFailed();
    }
    const renderer = new WebGpuRenderer(adapter, device, presentable ? context : null);
    device.lost.then((info) => {
      if (info.reason !== 'destroyed') onLost(info.message || 'unknown reason');
    });
    return renderer;
  }

  // The adapter is kept referenced: when it is garbage-collected, Chromium may drop the instance
  // behind it and lose the device ("A valid external Instance reference no longer exists").
  private constructor(
    readonly adapter: GPUAdapter,
    readonly device: GPUDevice,
    context: GPUCanvasContext | null,
  ) {
    this.context = context;
    const named = webgpuDeviceName(adapter);
    this.software = named.fallback || isSoftwareDevice(named.name);
    context?.configure({ device, format: COLOR_FORMAT, alphaMode: 'opaque' });
    const prefix = shaderConstants('wgsl') + commonWgsl;
    const module = (label: string, code: string) => device.createShaderModule({ label, code: prefix + code });

    this.uniformBuffer = device.createBuffer({
      label: 'frame uniforms',
      size: FRAME_UNIFORM_BYTES,
      usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
    });
    const bindGroupLayout = device.createBindGroupLayout({
      label: 'frame bind group layout',
      entries: [{ binding: 0, visibility: GPUShaderStage.VERTEX | GPUShaderStage.FRAGMENT, buffer: { type: 'uniform' } }],
    });
    this.bindGroup = device.createBindGroup({
      label: 'frame bind group',
      layout: bindGroupLayout,
      entries: [{ binding: 0, resource: { buffer: this.uniformBuffer } }],
    });
    const layout = device.createPipelineLayout({ label: 'scene pipeline layout', bindGroupLayouts: [bindGroupLayout] });
    const common = {
      layout,
      multisample: { count: SAMPLES },
      depthStencil: { format: DEPTH_FORMAT, depthWriteEnabled: true, depthCompare: 'less' as const },
    };

    const clothModule = module('cloth shader', clothWgsl);
    this.clothPipeline = device.createRenderPipeline({
      label: 'cloth pipeline',
      ...common,
      vertex: {
        module: clothModule,
        entryPoint: 'vs_cloth',
        buffers: [
          { arrayStride: 16, attributes: [{ shaderLocation: 0, offset: 0, format: 'float32x4' }] },
          { arrayStride: 16, attributes: [{ shaderLocation: 1, offset: 0, format: 'float32x4' }] },
          { arrayStride: 4, attributes: [{ shaderLocation: 2, offset: 0, format: 'float32' }] },
          { arrayStride: 8, attributes: [{ shaderLocation: 3, offset: 0, format: 'float32x2' }] },
        ],
      },
      fragment: { module: clothModule, entryPoint: 'fs_cloth', targets: [{ format: COLOR_FORMAT }] },
      primitive: { topology: 'triangle-list', cullMode: 'none' },
    });
    const groundModule = module('ground shader', groundWgsl);
    this.groundPipeline = device.createRenderPipeline({
      label: 'ground pipeline',
      ...common,
      vertex: { module: groundModule, entryPoint: 'vs_ground' },
      fragment: { module: groundModule, entryPoint: 'fs_ground', targets: [{ format: COLOR_FORMAT }] },
      primitive: { topology: 'triangle-list', cullMode: 'none' },
    });
    const sphereModule = module('sphere shader', sphereWgsl);
    this.spherePipeline = device.createRenderPipeline({
      label: 'sphere pipeline',
      ...common,
      vertex: {
        module: sphereModule,
        entryPoint: 'vs_sphere',
        buffers: [
          { arrayStride: 12, attributes: [{ shaderLocation: 0, offset: 0, format: 'float32x3' }] },
          { arrayStride: 16, stepMode: 'instance', attributes: [{ shaderLocation: 1, offset: 0, format: 'float32x4' }] },
        ],
      },
      fragment: { module: sphereModule, entryPoint: 'fs_sphere', targets: [{ format: COLOR_FORMAT }] },
      primitive: { topology: 'triangle-list', cullMode: 'none' },
    });

    const meshModule = module('mesh collider shader', meshWgsl);
    this.meshPipeline = device.createRenderPipeline({
      label: 'mesh collider pipeline',
      ...common,
      vertex: {
        module: meshModule,
        entryPoint: 'vs_mesh',
        buffers: [
          { arrayStride: 16, attributes: [{ shaderLocation: 0, offset: 0, format: 'float32x4' }] },
          { arrayStride: 16, attributes: [{ shaderLocation: 1, offset: 0, format: 'float32x4' }] },
        ],
      },
      fragment: { module: meshModule, entryPoint: 'fs_mesh', targets: [{ format: COLOR_FORMAT }] },
      primitive: { topology: 'triangle-list', cullMode: 'none' },
    });

    const sphere = unitSphere();
    this.sphereVertices = this.staticBuffer('sphere vertices', sphere.positions, GPUBufferUsage.VERTEX);
    this.sphereIndices = this.staticBuffer('sphere indices', sphere.indices, GPUBufferUsage.INDEX);
    this.sphereIndexCount = sphere.indices.length;
    this.sphereInstanceBuffer = device.createBuffer({
      label: 'sphere instances',
      size: MAX_DRAWN_SPHERES * 16,
      usage: GPUBufferUsage.VERTEX | GPUBufferUsage.COPY_DST,
    });
  }

  private staticBuffer(label: string, data: ArrayBufferView, usage: number): GPUBuffer {
    // Sizes must be multiples of 4 for writeBuffer.
    const buffer = this.device.createBuffer({ label, size: Math.ceil(data.byteLength / 4) * 4, usage: usage | GPUBufferUsage.COPY_DST });
    this.device.queue.writeBuffer(buffer, 0, data.buffer as ArrayBuffer, data.byteOffset, Math.floor(data.byteLength / 4) * 4);
    if (data.byteLength % 4) {
      const tail = new Uint8Array(4);
      tail.set(new Uint8Array(data.buffer, data.byteOffset + Math.floor(data.byteLength / 4) * 4, data.byteLength % 4));
      this.device.queue.writeBuffer(buffer, Math.floor(data.byteLength / 4) * 4, tail);
    }
    return buffer;
  }

  setCloth(world: WeftWorld): void {
    this.destroyCloth();
    const n = world.particleCount;
    const usage = GPUBufferUsage.VERTEX | GPUBufferUsage.COPY_DST;
    this.cloth = {
      positions: this.device.createBuffer({ label: 'cloth positions', size: n * 16, usage }),
      normals: this.device.createBuffer({ label: 'cloth normals', size: n * 16, usage }),
      strain: this.device.createBuffer({ label: 'cloth strain', size: n * 4, usage }),
      uvs: this.staticBuffer('cloth uvs', world.uvs(), GPUBufferUsage.VERTEX),
      indices: this.staticBuffer('cloth indices', world.indices(), GPUBufferUsage.INDEX),
      indexCount: world.indexCount,
    };
    const mesh = world.meshCollider();
    if (mesh) {
      this.mesh = {
        vertices: this.staticBuffer(
          'mesh collider vertices',
          insetVertices(mesh.vertices, mesh.normals, colliderInset(world)),
          GPUBufferUsage.VERTEX,
        ),
        normals: this.staticBuffer('mesh collider normals', mesh.normals, GPUBufferUsage.VERTEX),
        indices: this.staticBuffer('mesh collider indices', mesh.indices, GPUBufferUsage.INDEX),
        indexCount: mesh.indices.length,
      };
    }
  }

  private destroyCloth(): void {
    if (this.mesh) for (const buffer of [this.mesh.vertices, this.mesh.normals, this.mesh.indices]) buffer.destroy();
    this.mesh = null;
    if (!this.cloth) return;
    for (const buffer of [this.cloth.positions, this.cloth.normals, this.cloth.strain, this.cloth.uvs, this.cloth.indices])
      buffer.destroy();
    this.cloth = null;
  }

  resize(width: number, height: number): void {
    this.width = Math.max(1, Math.floor(width));
    this.height = Math.max(1, Math.floor(height));
  }

  private ensureTargets(width: number, height: number): Targets {
    if (this.targets && this.targets.width === width && this.targets.height === height) return this.targets;
    this.targets?.msaa.destroy();
    this.targets?.depth.destroy();
    const size = { width, height };
    this.targets = {
      width,
      height,
      msaa: this.device.createTexture({
        label: 'msaa color',
        size,
        sampleCount: SAMPLES,
        format: COLOR_FORMAT,
        usage: GPUTextureUsage.RENDER_ATTACHMENT,
      }),
      depth: this.device.createTexture({
        label: 'depth',
        size,
        sampleCount: SAMPLES,
        format: DEPTH_FORMAT,
        usage: GPUTextureUsage.RENDER_ATTACHMENT,
      }),
    };
    return this.targets;
  }

  private encode(frame: FrameInput, resolveTarget: GPUTextureView, width: number, height: number): GPUCommandEncoder {
    const queue = this.device.queue;
    queue.writeBuffer(this.uniformBuffer, 0, frameUniforms(frame));
    queue.writeBuffer(this.sphereInstanceBuffer, 0, sphereInstances(frame));
    const targets = this.ensureTargets(width, height);
    const encoder = this.device.createCommandEncoder({ label: 'frame encoder' });
    const pass = encoder.beginRenderPass({
      label: 'scene pass',
      colorAttachments: [
        { view: targets.msaa.createView(), resolveTarget, loadOp: 'clear', storeOp: 'discard', clearValue: BACKGROUND_RGBA },
      ],
      depthStencilAttachment: { view: targets.depth.createView(), depthLoadOp: 'clear', depthClearValue: 1, depthStoreOp: 'discard' },
    });
    pass.setBindGroup(0, this.bindGroup);
    if (frame.groundHeight !== null) {
      pass.setPipeline(this.groundPipeline);
      pass.draw(6);
    }
    if (frame.spheres.length > 0) {
      pass.setPipeline(this.spherePipeline);
      pass.setVertexBuffer(0, this.sphereVertices);
      pass.setVertexBuffer(1, this.sphereInstanceBuffer);
      pass.setIndexBuffer(this.sphereIndices, 'uint16');
      pass.drawIndexed(this.sphereIndexCount, Math.min(frame.spheres.length, MAX_DRAWN_SPHERES));
    }
    if (this.mesh) {
      pass.setPipeline(this.meshPipeline);
      pass.setVertexBuffer(0, this.mesh.vertices);
      pass.setVertexBuffer(1, this.mesh.normals);
      pass.setIndexBuffer(this.mesh.indices, 'uint32');
      pass.drawIndexed(this.mesh.indexCount);
    }
    if (this.cloth) {
      const cloth = this.cloth;
      let buffers: [GPUBuffer, GPUBuffer, GPUBuffer];
      if (frame.source.kind === 'cpu') {
        // Zero copy: the views on wasm memory go to the queue as they are.
        const { positions, normals, strain } = frame.source;
        queue.writeBuffer(cloth.positions, 0, positions.buffer as ArrayBuffer, positions.byteOffset, positions.byteLength);
        queue.writeBuffer(cloth.normals, 0, normals.buffer as ArrayBuffer, normals.byteOffset, normals.byteLength);
        queue.writeBuffer(cloth.strain, 0, strain.buffer as ArrayBuffer, strain.byteOffset, strain.byteLength);
        buffers = [cloth.positions, cloth.normals, cloth.strain];
      } else {
        buffers = [frame.source.positions, frame.source.normals, frame.source.strain];
      }
      pass.setPipeline(this.clothPipeline);
      buffers.forEach((buffer, slot) => pass.setVertexBuffer(slot, buffer));
      pass.setVertexBuffer(3, cloth.uvs);
      pass.setIndexBuffer(cloth.indices, 'uint32');
      pass.drawIndexed(cloth.indexCount);
    }
    pass.end();
    return encoder;
  }

  draw(frame: FrameInput): void {
    if (!this.context) return;
    const canvas = this.context.canvas as HTMLCanvasElement;
    if (canvas.width !== this.width || canvas.height !== this.height) {
      canvas.width = this.width;
      canvas.height = this.height;
    }
    const texture = this.context.getCurrentTexture();
    this.device.queue.submit([this.encode(frame, texture.createView(), texture.width, texture.height).finish()]);
  }

  async capture(frame: FrameInput): Promise<string> {
    const width = this.width,
      height = this.height;
    const target = this.device.createTexture({
      label: 'capture target',
      size: { width, height },
      format: COLOR_FORMAT,
      usage: GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.COPY_SRC,
    });
    const bytesPerRow = Math.ceil((width * 4) / 256) * 256;
    const readback = this.device.createBuffer({
      label: 'capture readback',
      size: bytesPerRow * height,
      usage: GPUBufferUsage.COPY_DST | GPUBufferUsage.MAP_READ,
    });
    const encoder = this.encode(frame, target.createView(), width, height);
    encoder.copyTextureToBuffer({ texture: target }, { buffer: readback, bytesPerRow }, { width, height });
    this.device.queue.submit([encoder.finish()]);
    try {
      await readback.mapAsync(GPUMapMode.READ);
      const padded = new Uint8Array(readback.getMappedRange());
      const pixels = new Uint8Array(width * height * 4);
      for (let row = 0; row < height; row++) pixels.set(padded.subarray(row * bytesPerRow, row * bytesPerRow + width * 4), row * width * 4);
      return rgbaToPng(pixels, width, height);
    } finally {
      readback.destroy();
      target.destroy();
    }
  }

  destroy(): void {
    this.destroyCloth();
    this.targets?.msaa.destroy();
    this.targets?.depth.destroy();
    this.device.destroy();
  }
}

/**
 * requestAdapter() can answer null for a moment while the browser's GPU process is busy (seen in
 * headless Chromium right after another page let go of its device); ask again a few times before
 * falling back to WebGL2.
 */
async function requestAdapterWithRetries(): Promise<GPUAdapter | null> {
  const delaysMs = [0, 250, 750, 1500];
  for (const delay of delaysMs) {
    if (delay) await new Promise((resolve) => setTimeout(resolve, delay));
    const adapter = await navigator.gpu.requestAdapter({ powerPreference: 'high-performance' });
    if (adapter) return adapter;
  }
  return null;
}

/** Presents one cleared frame and reports whether the device survived it. */
async function probePresentation(device: GPUDevice, context: GPUCanvasContext): Promise<boolean> {
  let lost = false;
  device.lost.then(() => (lost = true));
  try {
    context.configure({ device, format: COLOR_FORMAT, alphaMode: 'opaque' });
    const encoder = device.createCommandEncoder({ label: 'presentation probe' });
    encoder
      .beginRenderPass({
        colorAttachments: [
          { view: context.getCurrentTexture().createView(), loadOp: 'clear', storeOp: 'store', clearValue: BACKGROUND_RGBA },
        ],
      })
      .end();
    device.queue.submit([encoder.finish()]);
    await new Promise((resolve) => requestAnimationFrame(resolve));
    await Promise.race([device.queue.onSubmittedWorkDone(), new Promise((resolve) => setTimeout(resolve, 2000))]);
    await new Promise((resolve) => setTimeout(resolve, 0));
  } catch {
    return false;
  }
  return !lost;
}
