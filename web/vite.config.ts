import { defineConfig } from 'vite';

// weft.wasm is copied into public/ by the wasm build and served as is (fetched, not bundled).
export default defineConfig({
  base: './',
  build: { outDir: 'dist', target: 'es2022', emptyOutDir: true, chunkSizeWarningLimit: 1024 },
  server: { host: '127.0.0.1', port: 8080, strictPort: true },
  preview: { host: '127.0.0.1', port: 8080, strictPort: true },
});
