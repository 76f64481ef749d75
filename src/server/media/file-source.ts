// What delivery.ts serves a media file from, on either storage driver: the local file
// (delivery.ts) or the S3 object (s3-delivery.ts). Its own module so neither imports the other for it.

/** Where a file's bytes come from: its size and validators, and a stream of part of it. */
export interface FileSource {
  size: number;
  etag: string;
  /** HTTP date, whole seconds. */
  lastModified: string;
  open(start: number, end: number): Promise<ReadableStream<Uint8Array>>;
}
