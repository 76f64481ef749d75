// Debian's nginx in front of test servers, configured with the shipped deploy/nginx/studio.conf
// (only its listen port, upstream lines and the media and build folders rewritten), in a
// temporary prefix, under a main configuration like Debian's own (modules-enabled, mime.types).
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { OUT_DIR, ROOT } from './server.ts';
import { track } from './processes.ts';

export interface Nginx {
  url: string;
  /** Lines of the access log: `METHOD URI STATUS UPSTREAM`. */
  accessLog: () => string[];
  /** Lines of the access log the shipped file itself writes (its own format). */
  shippedAccessLog: () => string[];
  errorLog: () => string;
  stop: () => Promise<void>;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

export interface NginxOptions {
  /** The web process's MEDIA_DIR, for the internal /_protected/ location (ACCEL_REDIRECT). */
  mediaDir?: string;
  /** More configuration inside the server block (benchmarks: a plain static location). */
  extra?: string;
}

export async function startNginx(upstreamPorts: number[], options: NginxOptions = {}): Promise<Nginx> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'studio-nginx-'));
  const port = await freePort();
  const shipped = fs.readFileSync(path.join(ROOT, 'deploy/nginx/studio.conf'), 'utf8');
  const upstreams = upstreamPorts.map((p) => `    server 127.0.0.1:${p} max_fails=1 fail_timeout=5s;`).join('\n');
  const site = shipped
    .replace(/^\s*server 127\.0\.0\.1:\d+[^\n]*\n(?:\s*server 127\.0\.0\.1:\d+[^\n]*\n)*/m, `${upstreams}\n`)
    .replace(/listen 80;/, `listen 127.0.0.1:${port};\n    access_log ${dir}/access.log upstreams;${options.extra ? `\n${options.extra}` : ''}`)
    .replace('alias /srv/studio/data/media/;', `alias ${options.mediaDir ? path.resolve(options.mediaDir) : path.join(dir, 'no-media')}/;`)
    .replace('root /srv/studio/dist/client;', `root ${path.join(OUT_DIR, 'client')};`)
    .replace('proxy_cache_path /var/lib/nginx/studio-pages ', `proxy_cache_path ${dir}/studio-pages `)
    .replace('access_log /var/log/nginx/studio-access.log ', `access_log ${dir}/studio-access.log `);
  if (site === shipped || !site.includes(`127.0.0.1:${upstreamPorts[0]}`)) throw new Error('deploy/nginx/studio.conf no longer has the expected listen/upstream lines');
  if (/\/srv\/studio\/|\/var\/(?:lib|log)\/nginx\//.test(site)) throw new Error('deploy/nginx/studio.conf has a /srv/studio path or /var/lib/nginx or /var/log/nginx path this helper does not rewrite');
  fs.writeFileSync(path.join(dir, 'studio.conf'), site);
  // Debian's modules-enabled files say `load_module modules/…`, relative to the prefix.
  if (fs.existsSync('/usr/lib/nginx/modules')) fs.symlinkSync('/usr/lib/nginx/modules', path.join(dir, 'modules'));
  fs.writeFileSync(
    path.join(dir, 'nginx.conf'),
    `${process.getuid?.() === 0 ? 'user root root;\n' : ''}daemon off;
include /etc/nginx/modules-enabled/*.conf;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 512; }
http {
  include /etc/nginx/mime.types;
  default_type application/octet-stream;
  log_format upstreams '$request_method $uri $status $upstream_addr';
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  include ${dir}/studio.conf;
}
`,
  );
  // In the registry of tests/helpers/processes.ts: stopped after the test file if a test did not.
  const proc: ChildProcess = track(spawn('nginx', ['-p', dir, '-c', path.join(dir, 'nginx.conf')], { stdio: ['ignore', 'pipe', 'pipe'] }), 'SIGQUIT');
  let out = '';
  proc.stdout!.on('data', (c: Buffer) => (out += c));
  proc.stderr!.on('data', (c: Buffer) => (out += c));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`nginx exited ${proc.exitCode}: ${out}`);
    const up = await fetch(`${url}/robots.txt`).then((r) => r.status === 200, () => false);
    if (up) break;
    if (Date.now() > deadline) {
      proc.kill('SIGKILL');
      throw new Error(`nginx did not answer: ${out}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const lines = (name: string) => {
    const file = path.join(dir, name);
    return fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n').filter(Boolean) : [];
  };
  return {
    url,
    accessLog: () => lines('access.log'),
    shippedAccessLog: () => lines('studio-access.log'),
    errorLog: () => {
      const file = path.join(dir, 'error.log');
      return fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
    },
    stop: () =>
      new Promise<void>((resolve) => {
        if (proc.exitCode !== null) return resolve(fs.rmSync(dir, { recursive: true, force: true }));
        proc.once('exit', () => {
          fs.rmSync(dir, { recursive: true, force: true });
          resolve();
        });
        proc.kill('SIGQUIT');
      }),
  };
}
