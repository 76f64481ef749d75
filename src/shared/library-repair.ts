// The library check after an upgrade (issue 39): how far the repair of renditions made by an
// older pipeline has got (src/server/jobs/queue.ts counts it; the dashboard island shows it).
// A type only, so the island need not import from src/server.
export interface RepairProgress {
  /** Videos checked or made again so far, and in all. */
  done: number;
  total: number;
  /** Of those done, the ones whose files had to be made again. */
  remade: number;
  /** Repairs that failed for good: their old files stay; "Process again" on the item retries. */
  failed: number;
}
