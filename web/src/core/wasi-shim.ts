// The few WASI imports a reactor build of the core may reference (wasi-libc pulls some in even when
// the core never does I/O). In the browser there is no file system: writes to stdout/stderr go to
// the console, everything else answers ENOSYS, so a stray call is reported instead of trapping.
const ERRNO_SUCCESS = 0;
const ERRNO_BADF = 8;
const ERRNO_NOSYS = 52;

export function wasiImports(module: WebAssembly.Module, memory: () => WebAssembly.Memory): WebAssembly.ModuleImports {
  const lines: Record<number, string> = { 1: '', 2: '' };
  const known: Record<string, (...args: number[]) => number | bigint | void> = {
    fd_write(fd, iovs, iovsLength, writtenPtr) {
      if (fd !== 1 && fd !== 2) return ERRNO_BADF;
      const view = new DataView(memory().buffer);
      let written = 0;
      for (let i = 0; i < iovsLength; i++) {
        const ptr = view.getUint32(iovs + i * 8, true);
        const length = view.getUint32(iovs + i * 8 + 4, true);
        lines[fd] += new TextDecoder().decode(new Uint8Array(memory().buffer, ptr, length));
        written += length;
      }
      const parts = lines[fd].split('\n');
      lines[fd] = parts.pop() ?? '';
      for (const line of parts) (fd === 2 ? console.warn : console.log)(`weft.wasm: ${line}`);
      view.setUint32(writtenPtr, written, true);
      return ERRNO_SUCCESS;
    },
    proc_exit(code) {
      throw new Error(`weft.wasm called exit(${code})`);
    },
    environ_sizes_get(countPtr, sizePtr) {
      const view = new DataView(memory().buffer);
      view.setUint32(countPtr, 0, true);
      view.setUint32(sizePtr, 0, true);
      return ERRNO_SUCCESS;
    },
    environ_get: () => ERRNO_SUCCESS,
    clock_time_get(_id, _precision, timePtr) {
      const nanoseconds = BigInt(Math.round(performance.now() * 1e6));
      new DataView(memory().buffer).setBigUint64(timePtr, nanoseconds, true);
      return ERRNO_SUCCESS;
    },
    random_get(ptr, length) {
      crypto.getRandomValues(new Uint8Array(memory().buffer, ptr, length));
      return ERRNO_SUCCESS;
    },
  };
  const imports: WebAssembly.ModuleImports = {};
  for (const entry of WebAssembly.Module.imports(module)) {
    if (entry.module !== 'wasi_snapshot_preview1' || entry.kind !== 'function') continue;
    imports[entry.name] = known[entry.name] ?? (() => ERRNO_NOSYS);
  }
  return imports;
}
