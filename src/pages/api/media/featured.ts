import { endpoint, json } from '../../../server/http.ts';
import { listFeaturedMedia } from '../../../server/media/queries.ts';

export const GET = endpoint(async () => json(await listFeaturedMedia()));
