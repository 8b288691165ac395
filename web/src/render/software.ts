// Whether the renderer draws on the CPU (no GPU: SwiftShader in Chromium, llvmpipe in Mesa,
// Microsoft's Basic Render Driver), from the name the browser gives its device. The HUD says so:
// there the page is slow because the machine has no GPU, not because of the cloth.
const SOFTWARE_DEVICES = /swiftshader|llvmpipe|softpipe|lavapipe|basic render driver|software/i;

export function isSoftwareDevice(name: string): boolean {
  return SOFTWARE_DEVICES.test(name);
}

/** The WebGL2 context's device, as unmasked as the browser allows (else its masked name). */
export function webgl2DeviceName(gl: WebGL2RenderingContext): string {
  const info = gl.getExtension('WEBGL_debug_renderer_info');
  const name = info ? gl.getParameter(info.UNMASKED_RENDERER_WEBGL) : gl.getParameter(gl.RENDERER);
  return typeof name === 'string' ? name : '';
}

/** The WebGPU adapter's vendor, architecture, device and description, and whether it is a fallback (CPU) adapter. */
export function webgpuDeviceName(adapter: GPUAdapter): { name: string; fallback: boolean } {
  const info = (adapter as GPUAdapter & { info?: GPUAdapterInfo & { isFallbackAdapter?: boolean } }).info;
  const name = info ? [info.vendor, info.architecture, info.device, info.description].filter(Boolean).join(' ') : '';
  const fallback = info?.isFallbackAdapter ?? (adapter as GPUAdapter & { isFallbackAdapter?: boolean }).isFallbackAdapter ?? false;
  return { name, fallback };
}
