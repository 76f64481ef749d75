import { endpoint, json } from '../../../server/http.ts';
import { listPortfolioMedia } from '../../../server/media/queries.ts';

export const GET = endpoint(async () => json(await listPortfolioMedia()));
