// Public read of the section backgrounds (000 §3, §7).
import { endpoint, json } from '../../server/http.ts';
import { getWebsiteSettings } from '../../server/settings/read.ts';

export const GET = endpoint(async () => json(await getWebsiteSettings()));
