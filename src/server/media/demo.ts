// Demo media for a fresh install. Filled in by the media library (issue 4).
import type { Database } from '../../db/client.ts';

export async function seedDemoMedia(_db: Database, _clientId: number | null): Promise<void> {}
