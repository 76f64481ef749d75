// Public pages through the shipped nginx configuration (deploy/nginx/studio.conf, one web
// process upstream) against the same app process answered directly, alternating, same run.
// Shows what the proxy hop costs; no goal is set by the issue (issue 18 asks for the figure).
import { startServer, cannon, emit, main, num, DURATION, CONNECTIONS } from './lib.mjs';
import { startNginx } from '../tests/helpers/nginx.ts';

const PAGES = (process.env.BENCH_PAGES || '/,/portfolio').split(',');
const ROUNDS = Number(process.env.BENCH_ROUNDS || 3);

main(async () => {
  const server = await startServer({ env: { DEMO_CONTENT: 'true', WORKER: 'off', TRUST_PROXY: 'true' } });
  const proxy = await startNginx([server.port]);
  try {
    const rows = [];
    for (const page of PAGES) {
      for (const base of [server.url, proxy.url]) await cannon({ url: base + page, duration: 2 });
      const app = [];
      const viaNginx = [];
      for (let round = 0; round < ROUNDS; round++) {
        const order = round % 2 ? [[proxy.url, viaNginx], [server.url, app]] : [[server.url, app], [proxy.url, viaNginx]];
        for (const [base, runs] of order) runs.push(await cannon({ url: base + page }));
      }
      const avg = (runs, k) => runs.reduce((s, r) => s + r[k], 0) / runs.length;
      const row = {
        page,
        appRps: avg(app, 'rps'),
        nginxRps: avg(viaNginx, 'rps'),
        appP99: Math.max(...app.map((r) => r.p99)),
        nginxP99: Math.max(...viaNginx.map((r) => r.p99)),
        appErrors: app.reduce((s, r) => s + r.errors + r.non2xx, 0),
        nginxErrors: viaNginx.reduce((s, r) => s + r.errors + r.non2xx, 0),
      };
      rows.push(row);
    }
    console.log(`autocannon, ${CONNECTIONS} connections, ${DURATION} s per run, ${ROUNDS} alternating runs per side; page cache warm`);
    for (const r of rows) {
      console.log(`${r.page.padEnd(11)} app ${num(r.appRps).padStart(6)} req/s (p99 ${r.appP99} ms)   via nginx ${num(r.nginxRps).padStart(6)} req/s (p99 ${r.nginxP99} ms)   ratio ${num(r.nginxRps / r.appRps, 2)}   errors/non-2xx: app ${r.appErrors}, nginx ${r.nginxErrors}`);
    }
    // autocannon cuts the requests in flight when a run ends: nginx logs those as 499.
    const statuses = {};
    for (const line of proxy.accessLog()) {
      const status = line.split(' ')[2];
      if (status !== '200') statuses[status] = (statuses[status] ?? 0) + 1;
    }
    console.log(`nginx access log, answers other than 200: ${Object.entries(statuses).map(([k, v]) => `${v} × ${k}`).join(', ') || 'none'} (499 = the client closed the connection first)`);
    const problems = proxy.errorLog().split('\n').filter((l) => /\[(error|crit|alert|emerg)\]/.test(l));
    if (problems.length) console.log(`nginx error log (${problems.length} lines), first: ${problems[0]}`);
    emit('nginx', { rows });
  } finally {
    await proxy.stop();
    await server.stop();
  }
});
