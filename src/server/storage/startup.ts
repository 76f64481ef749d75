// Start-up check shared by `npm start` and `npm run worker`: with MEDIA_STORAGE=s3 the bucket
// must be reachable and writable, or the process stops with the reason.
import { config } from '../config.ts';

/** `always`: probe the S3_* bucket whatever MEDIA_STORAGE says (storage:migrate copies into it). */
export async function checkStorageOrExit(log: (line: string) => void = console.log, always = false): Promise<void> {
  if (config.MEDIA_STORAGE !== 's3' && !always) return;
  const { probeBucket } = await import('./s3.ts');
  try {
    await probeBucket();
  } catch (e) {
    console.error(e instanceof Error ? e.message : e);
    process.exit(1);
  }
  if (!always) log(`Media files in S3 bucket "${config.S3_BUCKET}" (${config.S3_DELIVERY} delivery)`);
}
