// `make run`'s server: loopback only, prints its URL, serves the app and the wasm with the right
// MIME type (streaming compilation needs application/wasm), refuses paths outside the app.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { root } from './harness.mjs';

test('scripts/serve.sh serves the built app on 127.0.0.1 and prints the URL', async () => {
  // Port 0: a free port, so the test never collides with a running `make run`.
  const child = spawn('bash', ['scripts/serve.sh'], {
    cwd: root,
    env: { ...process.env, WEFT_PORT: '0' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    let output = '';
    const url = await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no URL printed: ${output}`)), 10_000);
      child.stdout.on('data', (chunk) => {
        output += chunk;
        const match = output.match(/http:\/\/127\.0\.0\.1:\d+\//);
        if (match) {
          clearTimeout(timer);
          resolve(match[0]);
        }
      });
      child.once('exit', (code) => reject(new Error(`server exited with ${code}: ${output}`)));
    });
    const page = await fetch(url);
    assert.equal(page.status, 200);
    assert.match(await page.text(), /<canvas id="view"/);
    const wasm = await fetch(`${url}weft.wasm`);
    assert.equal(wasm.headers.get('content-type'), 'application/wasm');
    assert.ok(WebAssembly.validate(new Uint8Array(await wasm.arrayBuffer())));
    assert.equal((await fetch(`${url}no-such-file.js`)).status, 404);
    assert.notEqual((await fetch(`${url}..%2f..%2fMakefile`)).status, 200);
  } finally {
    child.kill('SIGTERM');
    if (child.exitCode === null) await once(child, 'exit');
  }
});
