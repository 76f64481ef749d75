// Resumable uploads (tus): the id both the media and the review-version finish schemas accept.
/** Last path segment of a resumable upload's Location (/api/uploads/<id>). */
export const UPLOAD_ID_PATTERN = /^[a-f0-9]{32}$/;
