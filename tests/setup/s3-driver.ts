// Set-up of each test file in the vitest project "s3": hands the run's radosgw to
// tests/helpers/server.ts, which then starts every server on the S3 driver with a bucket of its own.
import { inject } from 'vitest';

process.env.STUDIO_TEST_S3 = JSON.stringify(inject('radosgw'));
