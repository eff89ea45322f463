// A small static file server for dist/ that serves the precompressed copies the build
// writes (scripts/dist-post.mjs: FILE.br, FILE.gz) as a production host would:
// Content-Encoding by the request's Accept-Encoding (br, then gzip), Vary, the right
// Content-Type (application/wasm, so the browser compiles while it downloads), no caching.
// A compressible file without a precompressed copy is gzipped on the fly.
//
//   node scripts/static-server.mjs [DIR=dist] [PORT=8080] [--no-br]
//   import { serve } from './static-server.mjs'; const s = await serve(dir, { brotli: false });
//   ... s.url ... await s.close();
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';

const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm', '.json': 'application/json', '.svg': 'image/svg+xml',
  '.png': 'image/png', '.ico': 'image/x-icon', '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8', '.map': 'application/json',
};
const COMPRESSIBLE = new Set(['.html', '.js', '.mjs', '.css', '.wasm', '.json', '.svg', '.txt', '.md', '.map']);

/** Which encodings the request accepts (q=0 refuses one). */
function accepted(header = '') {
  const out = new Set();
  for (const part of header.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (name && !(q && Number(q.slice(2)) === 0)) out.add(name);
  }
  return out;
}

/**
 * Serves `dir` on 127.0.0.1 (`port` 0: one the OS picks). `brotli: false` answers as a
 * host with gzip only. Resolves to { url, port, close() }; `log` (an array) gets one
 * { path, encoding, bytes } per answer.
 */
export function serve(dir, { port = 0, brotli = true, log = null } = {}) {
  const root = path.resolve(dir);
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://x');
    let rel = decodeURIComponent(url.pathname);
    if (rel.endsWith('/')) rel += 'index.html';
    const file = path.resolve(root, `.${rel}`);
    if (file !== root && !file.startsWith(root + path.sep)) {
      res.writeHead(403).end();
      return;
    }
    let stat;
    try {
      stat = fs.statSync(file);
    } catch {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found');
      return;
    }
    if (stat.isDirectory()) {
      res.writeHead(301, { Location: `${url.pathname}/` }).end();
      return;
    }
    const ext = path.extname(file);
    const headers = { 'Content-Type': TYPES[ext] || 'application/octet-stream', 'Cache-Control': 'no-cache', Vary: 'Accept-Encoding' };
    const ok = accepted(req.headers['accept-encoding']);
    let body;
    let encoding = 'identity';
    if (brotli && ok.has('br') && fs.existsSync(`${file}.br`)) {
      body = fs.readFileSync(`${file}.br`);
      encoding = 'br';
    } else if (ok.has('gzip') && fs.existsSync(`${file}.gz`)) {
      body = fs.readFileSync(`${file}.gz`);
      encoding = 'gzip';
    } else if (ok.has('gzip') && COMPRESSIBLE.has(ext)) {
      body = zlib.gzipSync(fs.readFileSync(file), { level: 6 });
      encoding = 'gzip';
    } else {
      body = fs.readFileSync(file);
    }
    if (encoding !== 'identity') headers['Content-Encoding'] = encoding;
    headers['Content-Length'] = body.length;
    log?.push({ path: url.pathname, encoding, bytes: body.length });
    res.writeHead(200, headers);
    res.end(req.method === 'HEAD' ? undefined : body);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      const p = server.address().port;
      resolve({
        port: p,
        url: `http://127.0.0.1:${p}/`,
        close: () => new Promise((r) => { server.closeAllConnections?.(); server.close(() => r()); }),
      });
    });
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const flags = new Set(args.filter((a) => a.startsWith('--')));
  const [dir = 'dist', port = '8080'] = args.filter((a) => !a.startsWith('--'));
  const s = await serve(dir, { port: Number(port), brotli: !flags.has('--no-br') });
  console.log(`serving ${dir} at ${s.url} (precompressed: ${flags.has('--no-br') ? 'gzip' : 'br, gzip'}; Ctrl-C stops)`);
}
