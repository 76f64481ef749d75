// A comparison key for names people read (role names): two names with the same key look the
// same on screen, so they must not both exist. NFKC folds compatibility forms (fullwidth
// "Ａｄｍｉｎ", ligatures, superscripts), case is folded, invisible characters dropped, and the
// common Cyrillic and Greek letters that look like Latin ones (NFKC leaves those alone) are
// mapped to them, as Unicode's confusable "skeletons" do.

const LOOK_ALIKES: Record<string, string> = {
  // Cyrillic (lower case; upper case is folded first)
  а: 'a', в: 'b', е: 'e', ё: 'e', һ: 'h', н: 'h', і: 'i', ї: 'i', ј: 'j', к: 'k', ӏ: 'l', м: 'm', о: 'o', р: 'p',
  ԛ: 'q', г: 'r', ѕ: 's', с: 'c', т: 't', у: 'y', ԝ: 'w', х: 'x', ԁ: 'd', ɡ: 'g', ү: 'y', п: 'n',
  // Greek
  α: 'a', β: 'b', ε: 'e', η: 'h', ι: 'i', ί: 'i', κ: 'k', μ: 'm', ν: 'v', ο: 'o', ό: 'o', ρ: 'p', τ: 't', υ: 'u', χ: 'x',
  ζ: 'z', γ: 'y', ϲ: 'c', ϳ: 'j',
  // Latin look-alikes of other Latin letters
  ı: 'i', ȷ: 'j', ſ: 's',
};

export function nameKey(name: string): string {
  const folded = name
    .normalize('NFKC')
    .replace(/[\p{Cc}\p{Cf}]/gu, '')
    .toLowerCase()
    .normalize('NFKC');
  let out = '';
  for (const ch of folded) out += LOOK_ALIKES[ch] ?? ch;
  return out.replace(/\s+/g, ' ').trim();
}
