// The one place a phone number becomes something a phone can dial: tel: links and the JSON-LD
// telephone (issue 19 #11). The studio is in the UK, so a national number (leading trunk 0)
// is read as a UK one.

const DEFAULT_COUNTRY_CODE = '44';

/**
 * Normalises a written phone number to E.164 ("+441160000000"), or null when it has no digits.
 * - "+44 (0)116 000 0000": the "(0)" is the trunk prefix written for national callers; dropped.
 * - "+44 0116 000 0000": a UK number never has a 0 after +44, so that 0 is dropped too.
 * - "0044 116 …" (international prefix) becomes "+44 116 …".
 * - "0116 000 0000" (national) becomes "+44 116 000 0000".
 * A number in none of these shapes keeps its digits (dialled as written).
 */
export function toE164(raw: string | null | undefined): string | null {
  if (!raw) return null;
  // An extension ("ext. 12", "x12") is not part of the number.
  const main = raw.replace(/\s*(?:ext\.?|extension|x)\s*\d+\s*$/i, '');
  const international = /^\s*(\+|00)/.test(main);
  const withoutTrunk = main.replace(/\(\s*0\s*\)/g, '');
  let digits = withoutTrunk.replace(/\D/g, '');
  if (!digits) return null;
  if (international) {
    if (digits.startsWith('00') && !main.trim().startsWith('+')) digits = digits.slice(2);
    if (digits.startsWith(`${DEFAULT_COUNTRY_CODE}0`)) digits = DEFAULT_COUNTRY_CODE + digits.slice(3);
    return `+${digits}`;
  }
  if (digits.startsWith('0')) return `+${DEFAULT_COUNTRY_CODE}${digits.slice(1)}`;
  return digits;
}

/** The href for a phone link, or null when the text holds no number. */
export function telHref(raw: string | null | undefined): string | null {
  const number = toE164(raw);
  return number ? `tel:${number}` : null;
}
