/** Marks a job's scratch files, so a retaken job (and the S3 driver's clean-up) can tell them from others'. */
export const JOB_SCRATCH = '.job';
