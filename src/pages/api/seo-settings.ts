// Public read of the search engine settings, image urls included (000 §3, §7).
import { endpoint, json } from '../../server/http.ts';
import { getSeoSettings } from '../../server/settings/read.ts';

export const GET = endpoint(async () => json(await getSeoSettings()));
