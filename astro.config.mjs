// @ts-check
import { defineConfig } from 'astro/config';
import node from '@astrojs/node';
import react from '@astrojs/react';
import tailwindcss from '@tailwindcss/vite';

const site = process.env.SITE_URL || 'http://localhost:4321';
// Separate build folders let several builds (tests, benchmarks) coexist.
const outDir = process.env.STUDIO_OUT_DIR || './dist';

export default defineConfig({
  site,
  output: 'server',
  outDir,
  cacheDir: process.env.STUDIO_CACHE_DIR || './node_modules/.astro',
  adapter: node({
    mode: 'standalone',
    // Uploads stream up to MEDIA_MAX_BYTES (2.5 GB); each endpoint enforces its own limit
    // (JSON bodies 256 KB, uploads MEDIA_MAX_BYTES), so the adapter-wide cap is off.
    bodySizeLimit: 0,
  }),
  // The sitemaps are endpoints built from the database (src/server/settings/sitemap.ts), so
  // watch pages are listed as soon as they exist and each canonical URL appears once.
  integrations: [react()],
  security: {
    checkOrigin: true,
    // Astro hashes its own inline scripts into a per-page CSP <meta>; inline style
    // attributes (React style props) need 'unsafe-inline' for styles only.
    csp: {
      directives: [
        "default-src 'self'",
        "img-src 'self' data: blob:",
        "media-src 'self' blob:",
        "font-src 'self' data:",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-src 'none'",
        "frame-ancestors 'none'",
      ],
      styleDirective: { resources: ["'self'", "'unsafe-inline'"] },
    },
  },
  vite: {
    plugins: [tailwindcss()],
    // Bundled for the server like any source (issue 43). lucide-react: only the icons used are
    // in it (left external, the server loads its whole CommonJS build, 1.3 MB of source, every
    // icon). drizzle-orm: left external, Node resolves its 114 files one by one and parses its
    // 175 kB package.json again for each, about a second of CPU and 100 MB of garbage at start.
    ssr: { noExternal: ['lucide-react', 'drizzle-orm'] },
  },
  server: { port: 4321, host: true },
  devToolbar: { enabled: false },
});
