// WebGL2 renderer: the same passes and shading modes as the WebGPU one (GLSL twins of the WGSL).
// CPU sources are uploaded with bufferSubData straight from the views on wasm memory.
import commonGlsl from '../shaders/gl/common.glsl?raw';
import clothGlsl from '../shaders/gl/cloth.glsl?raw';
import groundGlsl from '../shaders/gl/ground.glsl?raw';
import sphereGlsl from '../shaders/gl/sphere.glsl?raw';
import meshGlsl from '../shaders/gl/mesh.glsl?raw';
import type { WeftWorld } from '../core/world';
import { colliderInset, insetVertices } from './collider-inset';
import { FRAME_UNIFORM_BYTES, frameUniforms, sphereInstances } from './frame-uniforms';
import { BACKGROUND_RGBA, MAX_DRAWN_SPHERES, shaderConstants } from './modes';
import { rgbaToPng, type FrameInput, type Renderer } from './renderer';
import { isSoftwareDevice, webgl2DeviceName } from './software';
import { unitSphere } from './sphere-mesh';

interface ClothObjects {
  vao: WebGLVertexArrayObject;
  buffers: WebGLBuffer[];
  positions: WebGLBuffer;
  normals: WebGLBuffer;
  strain: WebGLBuffer;
  indexCount: number;
}

export class WebGl2Renderer implements Renderer {
  readonly kind = 'webgl2' as const;
  readonly device = null;
  /** MSAA samples of the off-screen target every frame is drawn into, then resolved (blit) to the canvas. */
  readonly samples: number;
  readonly software: boolean;
  private msaa: {
    framebuffer: WebGLFramebuffer;
    color: WebGLRenderbuffer;
    depth: WebGLRenderbuffer;
    width: number;
    height: number;
  } | null = null;
  private readonly gl: WebGL2RenderingContext;
  private readonly clothProgram: WebGLProgram;
  private readonly groundProgram: WebGLProgram;
  private readonly sphereProgram: WebGLProgram;
  private readonly meshProgram: WebGLProgram;
  private mesh: { vao: WebGLVertexArrayObject; buffers: WebGLBuffer[]; indexCount: number } | null = null;
  private readonly uniformBuffer: WebGLBuffer;
  private readonly sphereVao: WebGLVertexArrayObject;
  private readonly sphereInstanceBuffer: WebGLBuffer;
  private readonly sphereIndexCount: number;
  private readonly emptyVao: WebGLVertexArrayObject;
  private cloth: ClothObjects | null = null;

  static create(canvas: HTMLCanvasElement, onLost: (message: string) => void): WebGl2Renderer {
    // No default-framebuffer antialiasing (not every browser honours it: headless Chromium did
    // not): the renderer draws into its own multisampled target and resolves it.
    // alpha: true because a multisampled blit needs matching formats, and an alpha-less default
    // framebuffer is RGB8 in some implementations (the resolve then fails: a black canvas). Every
    // pass writes alpha 1.
    const gl = canvas.getContext('webgl2', {
      antialias: false,
      alpha: true,
      premultipliedAlpha: true,
      depth: false,
      powerPreference: 'high-performance',
    });
    if (!gl) throw new Error('this browser offers neither WebGPU nor WebGL2');
    canvas.addEventListener('webglcontextlost', (event) => {
      event.preventDefault();
      onLost('the WebGL2 context was lost');
    });
    return new WebGl2Renderer(gl);
  }

  private constructor(gl: WebGL2RenderingContext) {
    this.gl = gl;
    this.samples = Math.max(1, Math.min(4, gl.getParameter(gl.MAX_SAMPLES) as number));
    this.software = isSoftwareDevice(webgl2DeviceName(gl));
    this.clothProgram = this.program('cloth', clothGlsl);
    this.groundProgram = this.program('ground', groundGlsl);
    this.sphereProgram = this.program('sphere', sphereGlsl);
    this.meshProgram = this.program('mesh collider', meshGlsl);
    this.uniformBuffer = gl.createBuffer()!;
    gl.bindBuffer(gl.UNIFORM_BUFFER, this.uniformBuffer);
    gl.bufferData(gl.UNIFORM_BUFFER, FRAME_UNIFORM_BYTES, gl.DYNAMIC_DRAW);
    gl.bindBufferBase(gl.UNIFORM_BUFFER, 0, this.uniformBuffer);

    const sphere = unitSphere();
    this.sphereVao = gl.createVertexArray()!;
    gl.bindVertexArray(this.sphereVao);
    this.arrayBuffer(sphere.positions, gl.STATIC_DRAW);
    gl.enableVertexAttribArray(0);
    gl.vertexAttribPointer(0, 3, gl.FLOAT, false, 12, 0);
    this.sphereInstanceBuffer = this.arrayBuffer(new Float32Array(MAX_DRAWN_SPHERES * 4), gl.DYNAMIC_DRAW);
    gl.enableVertexAttribArray(1);
    gl.vertexAttribPointer(1, 4, gl.FLOAT, false, 16, 0);
    gl.vertexAttribDivisor(1, 1);
    const indices = gl.createBuffer()!;
    gl.bindBuffer(gl.ELEMENT_ARRAY_BUFFER, indices);
    gl.bufferData(gl.ELEMENT_ARRAY_BUFFER, sphere.indices, gl.STATIC_DRAW);
    this.sphereIndexCount = sphere.indices.length;
    this.emptyVao = gl.createVertexArray()!;
    gl.bindVertexArray(null);
  }

  private program(name: string, source: string): WebGLProgram {
    const gl = this.gl;
    // Precision first: the generated constants include floats.
    const header = `#version 300 es\nprecision highp float;\nprecision highp int;\n${shaderConstants('glsl')}`;
    const compile = (type: number, stage: string) => {
      const shader = gl.createShader(type)!;
      gl.shaderSource(shader, `${header}${stage}\n${commonGlsl}\n${source}`);
      gl.compileShader(shader);
      if (!gl.getShaderParameter(shader, gl.COMPILE_STATUS)) throw new Error(`${name} shader: ${gl.getShaderInfoLog(shader)}`);
      return shader;
    };
    const program = gl.createProgram()!;
    gl.attachShader(program, compile(gl.VERTEX_SHADER, '#define VERTEX 1'));
    gl.attachShader(program, compile(gl.FRAGMENT_SHADER, ''));
    gl.linkProgram(program);
    if (!gl.getProgramParameter(program, gl.LINK_STATUS)) throw new Error(`${name} program: ${gl.getProgramInfoLog(program)}`);
    gl.uniformBlockBinding(program, gl.getUniformBlockIndex(program, 'Frame'), 0);
    return program;
  }

  private arrayBuffer(data: ArrayBufferView | number, usage: number): WebGLBuffer {
    const gl = this.gl;
    const buffer = gl.createBuffer()!;
    gl.bindBuffer(gl.ARRAY_BUFFER, buffer);
    if (typeof data === 'number') gl.bufferData(gl.ARRAY_BUFFER, data, usage);
    else gl.bufferData(gl.ARRAY_BUFFER, data, usage);
    return buffer;
  }

  setCloth(world: WeftWorld): void {
    const gl = this.gl;
    this.destroyCloth();
    const n = world.particleCount;
    const vao = gl.createVertexArray()!;
    gl.bindVertexArray(vao);
    const attribute = (location: number, size: number, bytes: number | ArrayBufferView, usage: number) => {
      const buffer = this.arrayBuffer(bytes, usage);
      gl.enableVertexAttribArray(location);
      gl.vertexAttribPointer(location, size, gl.FLOAT, false, 0, 0);
      return buffer;
    };
    const positions = attribute(0, 4, n * 16, gl.STREAM_DRAW);
    const normals = attribute(1, 4, n * 16, gl.STREAM_DRAW);
    const strain = attribute(2, 1, n * 4, gl.STREAM_DRAW);
    const uvs = attribute(3, 2, world.uvs(), gl.STATIC_DRAW);
    const indices = gl.createBuffer()!;
    gl.bindBuffer(gl.ELEMENT_ARRAY_BUFFER, indices);
    gl.bufferData(gl.ELEMENT_ARRAY_BUFFER, world.indices(), gl.STATIC_DRAW);
    gl.bindVertexArray(null);
    this.cloth = { vao, buffers: [positions, normals, strain, uvs, indices], positions, normals, strain, indexCount: world.indexCount };

    const mesh = world.meshCollider();
    if (mesh) {
      const meshVao = gl.createVertexArray()!;
      gl.bindVertexArray(meshVao);
      const meshVertices = attribute(0, 4, insetVertices(mesh.vertices, mesh.normals, colliderInset(world)), gl.STATIC_DRAW);
      const meshNormals = attribute(1, 4, mesh.normals, gl.STATIC_DRAW);
      const meshIndices = gl.createBuffer()!;
      gl.bindBuffer(gl.ELEMENT_ARRAY_BUFFER, meshIndices);
      gl.bufferData(gl.ELEMENT_ARRAY_BUFFER, mesh.indices, gl.STATIC_DRAW);
      gl.bindVertexArray(null);
      this.mesh = { vao: meshVao, buffers: [meshVertices, meshNormals, meshIndices], indexCount: mesh.indices.length };
    }
  }

  private destroyCloth(): void {
    if (this.mesh) {
      this.mesh.buffers.forEach((buffer) => this.gl.deleteBuffer(buffer));
      this.gl.deleteVertexArray(this.mesh.vao);
      this.mesh = null;
    }
    if (!this.cloth) return;
    this.cloth.buffers.forEach((buffer) => this.gl.deleteBuffer(buffer));
    this.gl.deleteVertexArray(this.cloth.vao);
    this.cloth = null;
  }

  resize(width: number, height: number): void {
    const canvas = this.gl.canvas as HTMLCanvasElement;
    canvas.width = Math.max(1, Math.floor(width));
    canvas.height = Math.max(1, Math.floor(height));
  }

  /** The multisampled colour and depth target at the drawing buffer's size. */
  private target(width: number, height: number): WebGLFramebuffer {
    const gl = this.gl;
    if (this.msaa && this.msaa.width === width && this.msaa.height === height) return this.msaa.framebuffer;
    this.destroyTarget();
    const framebuffer = gl.createFramebuffer()!;
    gl.bindFramebuffer(gl.FRAMEBUFFER, framebuffer);
    const storage = (format: number, attachment: number) => {
      const buffer = gl.createRenderbuffer()!;
      gl.bindRenderbuffer(gl.RENDERBUFFER, buffer);
      gl.renderbufferStorageMultisample(gl.RENDERBUFFER, this.samples, format, width, height);
      gl.framebufferRenderbuffer(gl.FRAMEBUFFER, attachment, gl.RENDERBUFFER, buffer);
      return buffer;
    };
    const color = storage(gl.RGBA8, gl.COLOR_ATTACHMENT0);
    const depth = storage(gl.DEPTH_COMPONENT24, gl.DEPTH_ATTACHMENT);
    if (gl.checkFramebufferStatus(gl.FRAMEBUFFER) !== gl.FRAMEBUFFER_COMPLETE)
      throw new Error('WebGL2: the multisampled target is incomplete');
    this.msaa = { framebuffer, color, depth, width, height };
    return framebuffer;
  }

  private destroyTarget(): void {
    if (!this.msaa) return;
    this.gl.deleteFramebuffer(this.msaa.framebuffer);
    this.gl.deleteRenderbuffer(this.msaa.color);
    this.gl.deleteRenderbuffer(this.msaa.depth);
    this.msaa = null;
  }

  draw(frame: FrameInput): void {
    const gl = this.gl;
    const width = gl.drawingBufferWidth,
      height = gl.drawingBufferHeight;
    gl.bindFramebuffer(gl.FRAMEBUFFER, this.target(width, height));
    gl.viewport(0, 0, width, height);
    gl.clearColor(BACKGROUND_RGBA.r, BACKGROUND_RGBA.g, BACKGROUND_RGBA.b, BACKGROUND_RGBA.a);
    gl.clear(gl.COLOR_BUFFER_BIT | gl.DEPTH_BUFFER_BIT);
    gl.enable(gl.DEPTH_TEST);
    gl.depthFunc(gl.LESS);
    gl.disable(gl.CULL_FACE);
    gl.bindBuffer(gl.UNIFORM_BUFFER, this.uniformBuffer);
    gl.bufferSubData(gl.UNIFORM_BUFFER, 0, frameUniforms(frame));
    gl.bindBufferBase(gl.UNIFORM_BUFFER, 0, this.uniformBuffer);

    if (frame.groundHeight !== null) {
      gl.useProgram(this.groundProgram);
      gl.bindVertexArray(this.emptyVao);
      gl.drawArrays(gl.TRIANGLES, 0, 6);
    }
    if (frame.spheres.length > 0) {
      gl.useProgram(this.sphereProgram);
      gl.bindVertexArray(this.sphereVao);
      gl.bindBuffer(gl.ARRAY_BUFFER, this.sphereInstanceBuffer);
      gl.bufferSubData(gl.ARRAY_BUFFER, 0, sphereInstances(frame));
      gl.drawElementsInstanced(
        gl.TRIANGLES,
        this.sphereIndexCount,
        gl.UNSIGNED_SHORT,
        0,
        Math.min(frame.spheres.length, MAX_DRAWN_SPHERES),
      );
    }
    if (this.mesh) {
      gl.useProgram(this.meshProgram);
      gl.bindVertexArray(this.mesh.vao);
      gl.drawElements(gl.TRIANGLES, this.mesh.indexCount, gl.UNSIGNED_INT, 0);
    }
    if (this.cloth && frame.source.kind === 'cpu') {
      const { positions, normals, strain } = frame.source;
      for (const [buffer, data] of [
        [this.cloth.positions, positions],
        [this.cloth.normals, normals],
        [this.cloth.strain, strain],
      ] as const) {
        gl.bindBuffer(gl.ARRAY_BUFFER, buffer);
        gl.bufferSubData(gl.ARRAY_BUFFER, 0, data);
      }
      gl.useProgram(this.clothProgram);
      gl.bindVertexArray(this.cloth.vao);
      gl.drawElements(gl.TRIANGLES, this.cloth.indexCount, gl.UNSIGNED_INT, 0);
    }
    gl.bindVertexArray(null);
    // Resolve the samples onto the canvas.
    gl.bindFramebuffer(gl.READ_FRAMEBUFFER, this.msaa!.framebuffer);
    gl.bindFramebuffer(gl.DRAW_FRAMEBUFFER, null);
    gl.blitFramebuffer(0, 0, width, height, 0, 0, width, height, gl.COLOR_BUFFER_BIT, gl.NEAREST);
    gl.bindFramebuffer(gl.FRAMEBUFFER, null);
  }

  async capture(frame: FrameInput): Promise<string> {
    const gl = this.gl;
    this.draw(frame);
    const width = gl.drawingBufferWidth,
      height = gl.drawingBufferHeight;
    const flipped = new Uint8Array(width * height * 4);
    gl.readPixels(0, 0, width, height, gl.RGBA, gl.UNSIGNED_BYTE, flipped);
    const pixels = new Uint8Array(width * height * 4);
    for (let row = 0; row < height; row++)
      pixels.set(flipped.subarray((height - 1 - row) * width * 4, (height - row) * width * 4), row * width * 4);
    return rgbaToPng(pixels, width, height);
  }

  destroy(): void {
    this.destroyCloth();
    this.destroyTarget();
    this.gl.getExtension('WEBGL_lose_context')?.loseContext();
  }
}
