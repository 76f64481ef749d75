import { endpoint } from '../../server/http.ts';
import { logout } from '../../server/auth/logout.ts';

export const POST = endpoint((ctx) => logout(ctx, 'staff'));
