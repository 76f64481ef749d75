// GET /metrics (issue 56): Prometheus text from prom-client, for this process only. Loaded only
// when METRICS_TOKEN is set (enable.ts). Counted as they happen: requests by route class, method
// and status with their durations (scripts/serve.mjs reports each), and the video worker's
// conversions with theirs (when the worker runs in this process). Read at each scrape: the job
// queue (the database's, the same from every process), this process's open event streams, a
// database round trip, the media folder's free space; plus Node's own (memory, CPU, event loop).
import client from 'prom-client';
import { db } from '../../db/index.ts';
import { config } from '../config.ts';
import { freeBytes } from '../storage/disk-space.ts';
import { count as openStreams } from '../live/hub.ts';
import { routeClass } from './route-class.ts';
import { CONVERSION_OBSERVER, REQUEST_OBSERVER } from './signals.ts';
import { sql } from 'drizzle-orm';

export const registry = new client.Registry();
client.collectDefaultMetrics({ register: registry, prefix: 'studio_' });

const requests = new client.Counter({ name: 'studio_http_requests_total', help: 'HTTP requests answered, by route class, method and status', labelNames: ['route', 'method', 'status'], registers: [registry] });
const requestSeconds = new client.Histogram({
  name: 'studio_http_request_duration_seconds',
  help: 'Time to answer a request (to the last byte), by route class and method',
  labelNames: ['route', 'method'],
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  registers: [registry],
});
const conversions = new client.Counter({ name: 'studio_conversions_total', help: 'Video worker jobs finished in this process, by kind and outcome (done, retry, failed)', labelNames: ['kind', 'outcome'], registers: [registry] });
const conversionSeconds = new client.Histogram({
  name: 'studio_conversion_duration_seconds',
  help: 'Time a video worker job ran in this process, by kind',
  labelNames: ['kind'],
  buckets: [0.5, 1, 5, 15, 30, 60, 120, 300, 600, 1800, 3600],
  registers: [registry],
});

new client.Gauge({
  name: 'studio_jobs',
  help: 'Jobs in the queue (all processes), by state and kind',
  labelNames: ['state', 'kind'],
  registers: [registry],
  async collect() {
    this.reset();
    const rows = await db.all<{ status: string; kind: string; n: number }>(sql`SELECT status, kind, count(*) AS n FROM jobs WHERE status IN ('queued', 'running') GROUP BY status, kind`);
    for (const r of rows) this.set({ state: r.status, kind: r.kind }, Number(r.n));
  },
});
new client.Gauge({
  name: 'studio_job_oldest_queued_age_seconds',
  help: 'Age of the oldest queued job that is due (0 when none)',
  registers: [registry],
  async collect() {
    const [row] = await db.all<{ at: number | null }>(sql`SELECT min(created_at) AS at FROM jobs WHERE status = 'queued' AND run_after <= ${Date.now()}`);
    this.set(row?.at ? Math.max(0, (Date.now() - Number(row.at)) / 1000) : 0);
  },
});
new client.Gauge({
  name: 'studio_event_streams_open',
  help: 'Event streams (live updates) open in this process',
  registers: [registry],
  collect() {
    this.set(openStreams());
  },
});
new client.Gauge({
  name: 'studio_database_latency_seconds',
  help: 'Time of one small read from the database, measured at this scrape',
  registers: [registry],
  async collect() {
    const started = performance.now();
    await db.all(sql`SELECT version FROM site_state LIMIT 1`);
    this.set((performance.now() - started) / 1000);
  },
});
new client.Gauge({
  name: 'studio_disk_free_bytes',
  help: 'Free bytes on the file system of the media folder (MEDIA_DIR)',
  registers: [registry],
  async collect() {
    const free = await freeBytes(config.mediaDir).catch(() => null);
    if (free !== null) this.set(free);
  },
});

const g = globalThis as Record<symbol, unknown>;
g[REQUEST_OBSERVER] = (method: string, url: string, status: number, seconds: number) => {
  const route = routeClass(url);
  requests.inc({ route, method, status: String(status) });
  requestSeconds.observe({ route, method }, seconds);
};
g[CONVERSION_OBSERVER] = (kind: string, outcome: string, seconds: number) => {
  conversions.inc({ kind, outcome });
  conversionSeconds.observe({ kind }, seconds);
};

export async function metricsText(): Promise<{ body: string; contentType: string }> {
  return { body: await registry.metrics(), contentType: registry.contentType };
}
