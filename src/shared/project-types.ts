// Enquiry project types (000 §5), in a module without zod so the public enquiry form can
// import them without shipping the schema library to the browser.
export const PROJECT_TYPES = [
  { value: 'commercial', label: 'Commercial' },
  { value: 'documentary', label: 'Documentary' },
  { value: 'corporate', label: 'Corporate' },
  { value: 'music-video', label: 'Music Video' },
  { value: 'event', label: 'Event Coverage' },
  { value: 'other', label: 'Other' },
] as const;

export type ProjectType = (typeof PROJECT_TYPES)[number]['value'];
