/** Marks a job's scratch files, so a retaken job (and the S3 driver's clean-up) can tell them from others'. */
export const JOB_SCRATCH = '.job';
/** Marks a watermark job's scratch files (followed by the link id), apart from conversions'. */
export const WATERMARK_SCRATCH = '.wm';
/** Marks an open-captions job's scratch files (followed by the burn id, issue 54). */
export const BURN_SCRATCH = '.oc';
