// A small static file server for the built app, bound to loopback only. Used by `make run`
// (port 8080) and by the e2e tests and the browser benchmark (port 0: a free port).
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.obj': 'text/plain; charset=utf-8',
};

/** Serves `root` on 127.0.0.1:`port`; resolves with { server, url } once listening. */
export function serve(root, port = 0) {
  const base = resolve(root);
  const server = createServer(async (request, response) => {
    try {
      const path = decodeURIComponent(new URL(request.url, 'http://localhost').pathname);
      let file = normalize(join(base, path));
      if (file !== base && !file.startsWith(base + sep)) throw Object.assign(new Error('outside root'), { status: 403 });
      if ((await stat(file).catch(() => null))?.isDirectory()) file = join(file, 'index.html');
      const body = await readFile(file);
      response.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-store' });
      response.end(request.method === 'HEAD' ? undefined : body);
    } catch (error) {
      const status = error.status ?? (error.code === 'ENOENT' ? 404 : 500);
      response.writeHead(status, { 'content-type': 'text/plain' });
      response.end(`${status}\n`);
    }
  });
  return new Promise((resolvePromise, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      resolvePromise({ server, url: `http://127.0.0.1:${server.address().port}/` });
    });
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [root = 'web/dist', port = '8080'] = process.argv.slice(2);
  const { url } = await serve(root, Number(port)).catch((error) => {
    console.error(`error: cannot serve on 127.0.0.1:${port}: ${error.message}`);
    process.exit(2);
  });
  console.log(`weft is running at ${url}  (Ctrl+C stops it)`);
}
