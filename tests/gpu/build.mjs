// Bundles TypeScript entry points that use the GPU solver into single Node ES modules (the parity
// tests and the H200 benchmark). The web app imports WGSL as `./x.wgsl?raw` (Vite); the plugin
// below gives esbuild the same meaning, so the solver module is bundled unchanged. `webgpu` stays
// external: its dawn.node is found next to its index.js at run time (see node-gpu.ts).
//
// usage: node tests/gpu/build.mjs OUT_DIR ENTRY.ts...
import { createRequire } from 'node:module';
import { readFile } from 'node:fs/promises';
import { basename, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '../..');
const require = createRequire(resolve(root, 'web/package.json'));
const esbuild = require('esbuild');

const raw = {
  name: 'raw',
  setup(build) {
    build.onResolve({ filter: /\?raw$/ }, (args) => ({
      path: resolve(args.resolveDir, args.path.slice(0, -'?raw'.length)),
      namespace: 'raw',
    }));
    build.onLoad({ filter: /.*/, namespace: 'raw' }, async (args) => ({
      contents: await readFile(args.path, 'utf8'),
      loader: 'text',
    }));
  },
};

const [outDir, ...entries] = process.argv.slice(2);
if (!outDir || entries.length === 0) {
  console.error('usage: node tests/gpu/build.mjs OUT_DIR ENTRY.ts...');
  process.exit(2);
}
for (const entry of entries) {
  await esbuild.build({
    entryPoints: [entry],
    outfile: resolve(outDir, basename(entry).replace(/\.ts$/, '.mjs')),
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    external: ['webgpu'],
    plugins: [raw],
    logLevel: 'warning',
  });
}
