// The release this build is (package.json's version), shown in the admin footer and by
// GET /api/health. A named import: the bundle takes the one field, not the whole manifest.
import { version } from '../../package.json';

export const APP_VERSION: string = version;
