// GET /api/media and GET /admin/media with 10,000 media items and 500 clients seeded straight
// into the database. Goal: p95 under 100 ms for the API.
import { startServer, ADMIN, signIn, sampleLatency, emit, main, ms, num } from './lib.mjs';
import { seedLibrary } from './seed.mjs';

const MEDIA = Number(process.env.BENCH_MEDIA || 10_000);
const CLIENTS = Number(process.env.BENCH_CLIENTS || 500);
const SAMPLES = Number(process.env.BENCH_SAMPLES || 60);

main(async () => {
  const server = await startServer();
  try {
    const t = performance.now();
    await seedLibrary(server.sql, { media: MEDIA, clients: CLIENTS });
    const seedMs = performance.now() - t;
    console.log(`seeded ${num(MEDIA)} media items and ${num(CLIENTS)} clients in ${ms(seedMs)}`);
    const cookie = await signIn(server.url, 'staff', ADMIN.username, ADMIN.password);

    const rows = [];
    for (const [path, check] of [
      ['/api/media', (body) => JSON.parse(body).length === MEDIA],
      ['/admin/media', (body) => body.includes('<html')],
    ]) {
      // The content is checked once, untimed; timed requests end when the whole body has
      // arrived (parsing 6 MB of JSON in this process would otherwise count as latency).
      const first = await fetch(server.url + path, { headers: { Cookie: cookie } });
      const firstBody = await first.text();
      if (first.status !== 200 || !check(firstBody)) throw new Error(`${path} did not answer as expected`);
      const bytes = firstBody.length;
      const get = async () => {
        const res = await fetch(server.url + path, { headers: { Cookie: cookie } });
        const body = await res.arrayBuffer();
        return res.status === 200 && body.byteLength > 0;
      };
      const stats = await sampleLatency(get, { count: SAMPLES, concurrency: 2 });
      rows.push({ path, bytes, ...stats });
      console.log(
        `${path.padEnd(13)} ${num(bytes)} B  p50 ${ms(stats.p50)}  p95 ${ms(stats.p95)}  p99 ${ms(stats.p99)}  ` +
          `${num(stats.rps, 1)} req/s (2 concurrent, ${stats.count} requests, ${stats.failures} failed)`,
      );
    }
    emit('admin-lists', { media: MEDIA, clients: CLIENTS, seedMs, rows, goalP95Ms: 100 });
  } finally {
    await server.stop();
  }
});
