// The bucket's origin for the pages' CSP (img-src, media-src) with S3 redirects: worked out from
// the settings alone, so the middleware of every web process does not load the S3 SDK for it.
import { config } from '../config.ts';

export const bucket = () => config.S3_BUCKET!;

/** The origin presigned URLs point to, for the page's CSP (img-src, media-src) in redirect mode. */
export function bucketOrigin(): string {
  if (config.S3_ENDPOINT) {
    const u = new URL(config.S3_ENDPOINT);
    return config.S3_FORCE_PATH_STYLE ? u.origin : `${u.protocol}//${bucket()}.${u.host}`;
  }
  return config.S3_FORCE_PATH_STYLE ? `https://s3.${config.S3_REGION}.amazonaws.com` : `https://${bucket()}.s3.${config.S3_REGION}.amazonaws.com`;
}
