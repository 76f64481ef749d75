// A share link's files: only those the link allows (src/server/sharing/viewer.ts).
import type { APIRoute } from 'astro';
import { endpoint } from '../../../../../server/http.ts';
import { serveLinkFile } from '../../../../../server/sharing/viewer.ts';

const serve: APIRoute = endpoint(serveLinkFile);
export const GET = serve;
export const HEAD = serve;
