// After `astro build`: writes a brotli (.br) and a gzip (.gz) copy beside each text asset of
// the build's hashed assets (<out>/client/_astro), for nginx's brotli_static and gzip_static
// (deploy/nginx/studio.conf). Only copies that are smaller are kept; each gets its
// original's mtime. The app itself ignores them (it compresses on the fly when run alone).
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const TEXT = /\.(js|mjs|css|svg|json|txt|html|xml|map|wasm)$/;
const MIN_BYTES = 256;

export function precompress(dir) {
  let files = 0;
  let saved = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !TEXT.test(entry.name)) continue;
    const file = path.join(entry.parentPath, entry.name);
    const data = fs.readFileSync(file);
    const { mtime } = fs.statSync(file);
    if (data.length < MIN_BYTES) continue;
    const copies = {
      '.br': zlib.brotliCompressSync(data, {
        params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length, [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT },
      }),
      '.gz': zlib.gzipSync(data, { level: 9 }),
    };
    for (const [ext, bytes] of Object.entries(copies)) {
      const out = file + ext;
      if (bytes.length >= data.length) {
        fs.rmSync(out, { force: true });
        continue;
      }
      fs.writeFileSync(out, bytes);
      fs.utimesSync(out, mtime, mtime);
      saved += data.length - bytes.length;
    }
    files++;
  }
  return { files, saved };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const dir = path.resolve(process.env.STUDIO_OUT_DIR || 'dist', 'client', '_astro');
  if (!fs.existsSync(dir)) {
    console.error(`precompress: no ${dir} (run astro build first)`);
    process.exit(1);
  }
  const started = Date.now();
  const { files } = precompress(dir);
  console.log(`precompress: .br and .gz beside ${files} assets in ${path.relative(process.cwd(), dir)} (${Date.now() - started} ms)`);
}
