// GET /api/health: no session needed (systemd, nginx and monitoring call it). Anonymous callers
// get the status alone; signed-in staff and a monitor with HEALTH_TOKEN get the details
// (src/server/health.ts). 200 when every part is well, else 503.
import { endpoint, json } from '../../server/http.ts';
import { checkHealth, healthAnswer, readsHealthDetails } from '../../server/health.ts';

export const GET = endpoint(async (ctx) => {
  const detailed = readsHealthDetails(ctx);
  const { status, body } = healthAnswer(await checkHealth(), detailed);
  return json(body, status);
});
