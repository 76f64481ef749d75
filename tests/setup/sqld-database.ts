// Set-up of each test file in the vitest project "sqld": tests/helpers/server.ts then starts
// every server with DATABASE_URL on a sqld of its own instead of a file.
import { inject } from 'vitest';

process.env.STUDIO_TEST_SQLD = inject('sqld');
