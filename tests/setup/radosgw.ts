// Vitest global set-up of the "s3" project: one real Ceph radosgw (Debian's ceph-mon,
// ceph-osd, radosgw) for the whole run, shared by every test file that stores media in S3.
// Each such server makes its own bucket (tests/helpers/server.ts, tests/helpers/s3.ts).
// No fake S3 servers.
import type { TestProject } from 'vitest/node';
import { startRadosgw, type RadosgwEnv } from '../helpers/radosgw.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    radosgw: RadosgwEnv;
  }
}

export default function setup(project: TestProject) {
  const rgw = startRadosgw();
  project.provide('radosgw', rgw.env);
  return rgw.stop;
}
