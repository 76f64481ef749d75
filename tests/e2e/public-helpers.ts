import type { Page } from '@playwright/test';

/** Waits until the islands that hydrate on idle (navigation, theme, toasts) are live. */
export async function hydrated(page: Page) {
  await page.waitForFunction(() => document.querySelectorAll('astro-island[ssr][client="idle"]').length === 0);
}

/**
 * Waits until no finite animation or transition has run for 300 ms. Controls enabled at
 * hydration fade in, and React may commit that after the island's `ssr` marker is gone, so a
 * single look at `document.getAnimations()` can come too early; contrast is measured after this.
 */
export async function settled(page: Page) {
  await page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        let quietSince = performance.now();
        const tick = () => {
          const busy = document
            .getAnimations()
            .some((a) => a.playState === 'running' && a.effect?.getTiming().iterations !== Infinity);
          if (busy) quietSince = performance.now();
          if (performance.now() - quietSince >= 300) resolve();
          else requestAnimationFrame(tick);
        };
        tick();
      }),
  );
}

/** Serious and critical axe violations on the page, once transitions have settled, as readable lines. */
export async function seriousViolations(page: Page): Promise<string[]> {
  await settled(page);
  const { default: AxeBuilder } = await import('@axe-core/playwright');
  const result = await new AxeBuilder({ page }).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}
