import { endpoint, json } from '../../server/http.ts';
import { requireStaff } from '../../server/auth/guard.ts';

export const GET = endpoint((ctx) => json(requireStaff(ctx)));
