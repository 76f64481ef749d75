// GET /metrics (issue 56): off (404) without METRICS_TOKEN; 401 without the token or with another;
// with it, this process's series in Prometheus text format: requests by route class and status
// with latency histograms, the job queue, conversions and their durations, open event streams,
// database latency and free disk.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.ts';
import { adminSession } from '../helpers/accounts.ts';
import { openStream } from '../helpers/sse.ts';
import { uploadImage } from '../helpers/media-uploads.ts';
import { createGallery } from '../helpers/proofing.ts';
import { until } from '../helpers/until.ts';

const TOKEN = 'scraper-4c1e9a7b3f5d2e8c6a0b4d9f1e3c7a5b';

test('without METRICS_TOKEN there is no /metrics (404), token or not', async () => {
  const off = await startServer({ env: { WORKER: 'off' } });
  try {
    expect((await fetch(`${off.url}/metrics`)).status).toBe(404);
    expect((await fetch(`${off.url}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } })).status).toBe(404);
  } finally {
    await off.stop();
  }
});

describe('with METRICS_TOKEN', () => {
  let server: TestServer;
  const scrape = async () => {
    const res = await fetch(`${server.url}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    return res.text();
  };
  beforeAll(async () => {
    server = await startServer({ env: { METRICS_TOKEN: TOKEN, JOB_POLL_MS: '100' } });
  });
  afterAll(() => server?.stop());

  test.each([
    ['no token', {}],
    ['another token', { Authorization: 'Bearer scraper-0000000000000000000000000000000000' }],
    ['another scheme', { Authorization: `Basic ${Buffer.from(`x:${TOKEN}`).toString('base64')}` }],
  ])('%s: 401', async (_what, headers) => {
    const res = await fetch(`${server.url}/metrics`, { headers });
    expect(res.status).toBe(401);
    expect((await res.json()).message).toContain('METRICS_TOKEN');
  });

  test('the named series, in the text format', async () => {
    const admin = await adminSession(server.url);
    expect((await fetch(`${server.url}/api/health`)).status).toBeGreaterThanOrEqual(200);
    expect((await fetch(`${server.url}/no-such-page`)).status).toBe(404);
    const stream = await openStream(admin, '/api/live/stream?as=staff');
    // A gallery image's sizes are one job of the worker in this process: a conversion.
    const image = await uploadImage(admin, { title: 'Counted' });
    await createGallery(admin, { title: 'Metrics', mediaIds: [image.id] });
    const text = await until('a finished conversion in the metrics', async () => {
      const t = await scrape();
      return /studio_conversions_total\{kind="stills",outcome="done"\} 1/.test(t) ? t : null;
    }, 60_000);
    try {
      for (const series of [
        '# TYPE studio_http_requests_total counter',
        '# TYPE studio_http_request_duration_seconds histogram',
        '# TYPE studio_jobs gauge',
        '# TYPE studio_job_oldest_queued_age_seconds gauge',
        '# TYPE studio_conversion_duration_seconds histogram',
        '# TYPE studio_event_streams_open gauge',
        '# TYPE studio_database_latency_seconds gauge',
        '# TYPE studio_disk_free_bytes gauge',
      ]) {
        expect(text).toContain(series);
      }
      expect(text).toMatch(/studio_http_requests_total\{route="api:health",method="GET",status="(200|503)"\} [1-9]/);
      expect(text).toMatch(/studio_http_requests_total\{route="page",method="GET",status="404"\} 1/);
      expect(text).toMatch(/studio_http_request_duration_seconds_bucket\{le="0\.005",route="api:media",method="POST"\} \d+/);
      expect(text).toMatch(/studio_conversion_duration_seconds_count\{kind="stills"\} 1/);
      expect(text).toMatch(/^studio_event_streams_open 1$/m);
      expect(text).toMatch(/^studio_database_latency_seconds \d/m);
      expect(text).toMatch(/^studio_disk_free_bytes [1-9]\d*$/m);
      expect(text).toMatch(/^studio_job_oldest_queued_age_seconds \d/m);
      // A scanner's made-up paths add no series: they are counted under their class.
      expect(text).not.toContain('no-such-page');
    } finally {
      stream.close();
    }
  }, 90_000);
});
