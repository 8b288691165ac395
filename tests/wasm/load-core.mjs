// Loads the app's own TypeScript core bindings (web/src/core) in Node, bundled on the fly with
// esbuild, and instantiates build-wasm/weft.wasm with them: the tests exercise exactly the code
// the browser runs, not a second copy of the bindings.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = resolve(fileURLToPath(import.meta.url), '../../..');
const require = createRequire(resolve(root, 'web/package.json'));

/** The ES module namespace of web/src/core (wasm.ts, world.ts, layout.ts, obj.ts) and solver/wasm.ts. */
export async function loadBindings() {
  const esbuild = require('esbuild');
  const entry = `export * from './wasm'; export * from './world'; export * from './layout'; export * from './obj'; export * from '../solver/wasm';`;
  const result = await esbuild.build({
    stdin: { contents: entry, resolveDir: resolve(root, 'web/src/core'), loader: 'ts' },
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    write: false,
    logLevel: 'silent',
  });
  const code = result.outputFiles[0].text;
  return import(`data:text/javascript;base64,${Buffer.from(code).toString('base64')}`);
}

export async function loadCore() {
  const bindings = await loadBindings();
  const bytes = await readFile(resolve(root, 'build-wasm/weft.wasm'));
  const core = await bindings.WeftCore.load(bytes);
  return { bindings, core };
}
