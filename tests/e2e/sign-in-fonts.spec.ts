// Issue 19 #15: the sign-in pages load the brand display font for their headings, as the
// public pages do, instead of falling back to a Times-like serif.
import { test, expect } from './fixtures.ts';

for (const path of ['/auth', '/client/login']) {
  test(`${path} headings render in Fraunces`, async ({ page }) => {
    await page.goto(path);
    const h1 = page.getByRole('heading', { level: 1 });
    await expect(h1).toBeVisible();
    const loaded = await page.evaluate(async () => {
      const h = document.querySelector('h1')!;
      const family = getComputedStyle(h).fontFamily;
      await document.fonts.ready;
      // Loads the face the heading asks for; only a declared @font-face can load.
      const faces = await document.fonts.load(`600 30px ${family}`, h.textContent ?? 'A');
      return { family, faces: faces.map((f) => f.family) };
    });
    expect(loaded.family).toContain('Fraunces');
    expect(loaded.faces.some((f) => f.includes('Fraunces'))).toBe(true);
  });
}
