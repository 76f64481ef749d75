// The app's zod: jitless, because zod's JIT probes `new Function` and the CSP forbids eval
// (the probe would log a CSP violation in the browser). Import `z` from here, not 'zod'.
import { z } from 'zod';

z.config({ jitless: true });

export { z };
export type { ZodType, ZodError } from 'zod';
