// Prometheus metrics of this process (issue 56; src/server/metrics). Off without METRICS_TOKEN.
import { endpoint } from '../server/http.ts';
import { metricsResponse } from '../server/metrics/endpoint.ts';

export const GET = endpoint((ctx) => metricsResponse(ctx));
