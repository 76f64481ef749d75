// Who decided and the approval refusals, shared by the client approval (issue 16) and review rounds (issue 57).
export const LOCKED_MESSAGE = 'The studio has locked this decision. Contact them if it needs to change.';
export const staleVersionMessage = (current: number) => `A newer version (v${current}) has been added since you opened this one: review it first.`;

/** Who decided: a client login, or a share-link visitor by the name they typed. */
export type Decider = { clientUserId: number } | { guestName: string; linkId: number };
