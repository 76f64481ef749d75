// What staff are told when a conversion fails (processingError): the reason, never where the
// server keeps its files. ffmpeg starts its messages with the file's path
// ("/srv/media/<key>/original.avi: Invalid data found when processing input") and Node's file
// errors quote both ends of a rename; staff get the file names, the server log gets it all.
import os from 'node:os';
import path from 'node:path';
import { config } from '../config.ts';

// Folders that may hold spaces are removed whole first; any other absolute path is then one
// run of non-space characters.
const ROOTS = [...new Set([path.resolve(config.MEDIA_DIR), os.tmpdir(), process.cwd()])].filter((r) => r !== '/').sort((a, b) => b.length - a.length);
const ABSOLUTE = /(^|[\s'"(=])(\/[^\s'"]+)/g;

/** The text with every absolute path cut down to its file name. */
export function withoutPaths(text: string): string {
  let out = text;
  for (const root of ROOTS) out = out.split(root + '/').join('/');
  return out.replace(ABSOLUTE, (_m, before: string, p: string) => before + (path.posix.basename(p) || p));
}
