// GET /api/health: no session needed (systemd, nginx and monitoring call it); the answer holds
// no secrets (src/server/health.ts). 200 when every part is well, else 503 naming what is not.
import { endpoint, json } from '../../server/http.ts';
import { checkHealth } from '../../server/health.ts';

export const GET = endpoint(async () => {
  const report = await checkHealth();
  if (report.ok) return json(report);
  return json({ message: `Unhealthy: ${report.problems.join('; ')}`, ...report }, 503);
});
