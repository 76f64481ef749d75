import { endpoint, json } from '../../../server/http.ts';
import { requireClient } from '../../../server/auth/guard.ts';

export const GET = endpoint((ctx) => {
  const c = requireClient(ctx);
  return json({ id: c.id, username: c.username, name: c.name, email: c.email });
});
