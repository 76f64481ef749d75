// The CC menu's "Off" (issue 54), apart from the caption schemas: the players import it, and the
// schemas' zod must not ride along into every page with a video (bench/js-growth.mjs).
export const CAPTION_CHOICE_OFF = 'off';
