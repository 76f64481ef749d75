// What is wrong with a caption file: a 400 (or 413, 415) whose message names the line, so the
// editor can find it. Nothing of a refused file is stored (src/server/captions/store.ts).
import { HttpError } from '../http.ts';

export class CaptionInputError extends HttpError {
  readonly line: number | null;
  constructor(line: number | null, problem: string, status = 400) {
    super(status, line ? `Line ${line}: ${problem}` : `${problem.charAt(0).toUpperCase()}${problem.slice(1)}`);
    this.line = line;
  }
}
