// Runs each C unit test compiled for wasm32-wasi (command model) under Node's WASI, with the
// repository root preopened as "/" (and ".") so tests that read files find them. A test fails on a
// non-zero exit code, a trap (abort, out-of-bounds access) or a crash of its process: the wasm build
// must fail `make test` where the native build passes only by luck of the platform.
//
// Each module runs in a Node process of its own (this file, called with --one): a module's memory
// and compiled code are gone when its process ends, and a crash names the module it happened in
// instead of ending the whole run.
import { WASI } from 'node:wasi';
import { spawnSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const self = fileURLToPath(import.meta.url);
const root = resolve(self, '../../..');

async function runOne(file) {
  const name = basename(file, '.wasm');
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
    return wasi.start(instance);
  } catch (error) {
    console.error(`${name}: trapped: ${error?.stack ?? error}`);
    return 3;
  }
}

if (process.argv[2] === '--one') {
  process.exit(await runOne(process.argv[3]));
}

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
  const child = spawnSync(process.execPath, ['--no-warnings', self, '--one', file], { stdio: 'inherit' });
  if (child.status === 0) {
    passed++;
    continue;
  }
  failed++;
  const how = child.signal ? `killed by ${child.signal}` : child.error ? String(child.error) : `exit ${child.status}`;
  console.error(`${name}: FAILED (${how})`);
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
