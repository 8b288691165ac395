// Runs each C unit test compiled for wasm32-wasi (command model) under Node's WASI, with the
// repository root preopened as "/" (and ".") so tests that read files find them. A test fails on a
// non-zero exit code or a trap (abort, out-of-bounds access): the wasm build must fail `make test`
// where the native build passes only by luck of the platform.
import { WASI } from 'node:wasi';
import { readFile } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(fileURLToPath(import.meta.url), '../../..');
const files = process.argv.slice(2);
if (files.length === 0) {
  console.error('run-unit: no test modules given');
  process.exit(2);
}

let passed = 0;
let failed = 0;
for (const file of files) {
  const name = basename(file, '.wasm');
  console.log(`-- ${name} (wasm32-wasi)`);
  let code;
  try {
    const wasi = new WASI({
      version: 'preview1',
      args: [name],
      // WEFT_TEST_FILTER passes through: the same case filter as the native tests (tests/unit/test.h).
      env: { WEFT_WASM: '1', ...(process.env.WEFT_TEST_FILTER ? { WEFT_TEST_FILTER: process.env.WEFT_TEST_FILTER } : {}) },
      preopens: { '/': root, '.': root },
      returnOnExit: true,
    });
    const module = await WebAssembly.compile(await readFile(file));
    const instance = await WebAssembly.instantiate(module, wasi.getImportObject());
    code = wasi.start(instance);
  } catch (error) {
    console.error(`${name}: trapped: ${error?.stack ?? error}`);
    code = -1;
  }
  if (code === 0) {
    passed++;
  } else {
    failed++;
    console.error(`${name}: FAILED (exit ${code})`);
  }
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
