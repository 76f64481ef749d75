// Public read of the studio's contact details (000 §3, §7).
import { endpoint, json } from '../../server/http.ts';
import { getContactInfo } from '../../server/settings/read.ts';

export const GET = endpoint(async () => json(await getContactInfo()));
