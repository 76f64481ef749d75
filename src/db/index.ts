// The app's database handle, opened once per process from the validated config.
import { config } from '../server/config.ts';
import { openDatabase } from './client.ts';

export const { db, client } = await openDatabase(config.DATABASE_URL, config.DATABASE_AUTH_TOKEN, config.DATABASE_REPLICA_URL);
export * as tables from './schema.ts';
