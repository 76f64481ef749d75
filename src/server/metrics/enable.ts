// Loads the metrics at start-up when METRICS_TOKEN is set (imported by the middleware), so the
// first requests are counted too; without it prom-client never loads (issue 56).
import { config } from '../config.ts';

export const metricsOn = !!config.METRICS_TOKEN;
if (metricsOn) void import('./registry.ts');
