// Public read of the branding: logos, favicon, company name (000 §3, §7).
import { endpoint, json } from '../../server/http.ts';
import { getBrandingSettings } from '../../server/settings/read.ts';

export const GET = endpoint(async () => json(await getBrandingSettings()));
