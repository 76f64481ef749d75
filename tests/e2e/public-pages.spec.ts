// The five public pages and privacy policy: sections and exact texts (000 §2), navigation,
// footer, theme, mobile menu, signed-in navigation, toast swipe (000 §9) and accessibility.
import type { Locator, Page } from '@playwright/test';
import { test, expect, afterReactRender, signInStaff } from './fixtures.ts';
import { TOOLTIP_DELAY_MS } from '../../src/islands/ui/Tooltip.tsx';
import { TOAST_DURATION_MS } from '../../src/shared/toast.ts';
import { hydrated, seriousViolations } from './public-helpers.ts';

const PAGES = ['/', '/portfolio', '/about', '/services', '/contact', '/privacy-policy', '/terms-of-service'];

test.describe('navigation and footer', () => {
  test('top navigation: company name, links, theme toggle, Client Portal', async ({ page }) => {
    await page.goto('/about');
    const nav = page.getByRole('navigation', { name: 'Main' });
    await expect(nav.getByTestId('company-name')).toHaveText('Studio');
    for (const [name, href] of [['Home', '/'], ['Portfolio', '/portfolio'], ['About', '/about'], ['Services', '/services'], ['Contact', '/contact']]) {
      await expect(nav.getByRole('link', { name, exact: true })).toHaveAttribute('href', href);
    }
    await expect(nav.getByRole('link', { name: 'About', exact: true })).toHaveAttribute('aria-current', 'page');
    await expect(nav.getByRole('link', { name: 'Client Portal' })).toHaveAttribute('href', '/client/login');
    await expect(nav.getByTestId('theme-toggle')).toBeVisible();
  });

  test('footer: services, quick links, placeholders, year, policy links, Staff Access', async ({ page }) => {
    await page.goto('/');
    const footer = page.locator('footer');
    await expect(footer.getByRole('link', { name: 'Corporate Video Production' })).toHaveAttribute('href', '/services');
    await expect(footer.getByRole('link', { name: 'Social Media Content Creation' })).toHaveAttribute('href', '/services');
    for (const [name, href] of [['Portfolio', '/portfolio'], ['About', '/about'], ['Contact', '/contact'], ['Client Portal', '/client/login']]) {
      await expect(footer.getByRole('link', { name, exact: true })).toHaveAttribute('href', href);
    }
    await expect(footer.getByTestId('contact-email')).toHaveText('hello@studio.example');
    await expect(footer.getByTestId('contact-phone')).toHaveText('+44 (0)116 000 0000');
    await expect(footer.getByTestId('contact-address')).toHaveText('Leicestershire, United Kingdom');
    await expect(footer.getByTestId('copyright')).toContainText(`© ${new Date().getFullYear()} Studio`);
    // Issue 53: they looked like links and were not.
    await expect(footer.getByRole('link', { name: 'Privacy Policy' })).toHaveAttribute('href', '/privacy-policy');
    await expect(footer.getByRole('link', { name: 'Terms of Service' })).toHaveAttribute('href', '/terms-of-service');
    await expect(footer.getByRole('button', { name: 'Cookie settings' })).toBeVisible();
    await expect(footer.getByRole('link', { name: 'Staff Access' })).toHaveAttribute('href', '/auth');
    await expect(footer.getByRole('link', { name: /Instagram|Facebook|LinkedIn/ })).toHaveCount(0);
  });
});

test.describe('pages', () => {
  test('home: hero, sections in order, CTAs', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByTestId('hero').getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByTestId('hero-cta')).toHaveText("Let's Create");
    await expect(page.getByTestId('hero-cta')).toHaveAttribute('href', '/contact');
    const h2 = await page.locator('main section > div > div h2, main section > div > div > div h2').allTextContents();
    expect(h2.filter((t) => t !== '')).toEqual(['What We Do', 'Who We Work With', 'How We Work', 'Retainer Partnerships', "Who We've Worked With", "Let's Connect"]);
    await expect(page.getByTestId('connect-cta')).toHaveText('Get In Touch');
    await expect(page.getByTestId('connect-cta')).toHaveAttribute('href', '/contact');
  });

  test('about: Our Mission with the default image, three value cards', async ({ page }) => {
    await page.goto('/about');
    await expect(page.getByRole('heading', { level: 1, name: 'About' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Our Mission' })).toBeVisible();
    const img = page.getByTestId('mission-image');
    await expect(img).toHaveAttribute('src', '/images/about-mission.webp');
    await expect(img).toHaveAttribute('width', '1200');
    await expect(img).toHaveAttribute('loading', 'lazy');
    const res = await page.request.get('/images/about-mission.webp');
    expect(res.status()).toBe(200);
    expect((await res.body()).length).toBeLessThan(100 * 1024);
    const values = page.getByTestId('about-values').getByRole('heading', { level: 3 });
    await expect(values).toHaveText(['Creativity and Excellence', 'Client Collaboration', 'Professionalism and Reliability']);
  });

  test('services: six cards with five bullets each, four steps, Start Your Project', async ({ page }) => {
    await page.goto('/services');
    const cards = page.getByTestId('service-card');
    await expect(cards.getByRole('heading', { level: 3 })).toHaveText([
      'Corporate Video Production',
      'Commercial Video Production',
      'Documentary Filmmaking',
      'Luxury Event Videography',
      'Music Video Production',
      'Social Media Content Creation',
    ]);
    for (let i = 0; i < 6; i++) await expect(cards.nth(i).locator('ul > li')).toHaveCount(5);
    await expect(page.getByTestId('process-step').getByRole('heading')).toHaveText([
      'Discovery & Concept',
      'Planning & Preparation',
      'Production & Filming',
      'Post-Production & Delivery',
    ]);
    const cta = page.getByRole('link', { name: 'Start Your Project' });
    await expect(cta).toHaveAttribute('href', '/contact');
  });

  test('contact: form titled Start Your Project, details, Response Time card', async ({ page }) => {
    await page.goto('/contact');
    await expect(page.getByRole('heading', { name: 'Start Your Project' })).toBeVisible();
    for (const label of ['First Name', 'Last Name', 'Email', 'Message']) await expect(page.getByLabel(label, { exact: true })).toHaveAttribute('required', '');
    await expect(page.getByLabel('Project Type')).not.toHaveAttribute('required', '');
    const options = await page.getByLabel('Project Type').locator('option').evaluateAll((els) => els.map((o) => [(o as HTMLOptionElement).value, o.textContent]));
    expect(options).toEqual([
      ['', 'Select a project type'],
      ['commercial', 'Commercial'],
      ['documentary', 'Documentary'],
      ['corporate', 'Corporate'],
      ['music-video', 'Music Video'],
      ['event', 'Event Coverage'],
      ['other', 'Other'],
    ]);
    await expect(page.getByTestId('contact-info').getByTestId('contact-email')).toHaveText('hello@studio.example');
    await expect(page.getByTestId('response-time')).toContainText('Response Time');
    await expect(page.getByTestId('response-time')).toContainText('within 24 hours');
  });

  test('privacy policy explains the cookie categories and the enquiry data', async ({ page }) => {
    await page.goto('/privacy-policy');
    await expect(page.getByRole('heading', { level: 1, name: 'Privacy Policy' })).toBeVisible();
    for (const t of ['Necessary', 'Analytics', 'Marketing', 'Preferences']) await expect(page.locator('article strong', { hasText: t })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Enquiries' })).toBeVisible();
  });

  test('terms of service: the site, the portal and links, under the law of England and Wales', async ({ page }) => {
    await page.goto('/');
    await page.locator('footer').getByRole('link', { name: 'Terms of Service' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Terms of Service' })).toBeVisible();
    for (const h of ['Our films and photographs', 'Enquiries and quotes', 'Client portal, review links and galleries']) await expect(page.getByRole('heading', { name: h })).toBeVisible();
    await expect(page.locator('article')).toContainText('England and Wales');
    await expect(page.locator('article').getByRole('link', { name: 'Privacy Policy' })).toHaveAttribute('href', '/privacy-policy');
  });
});

test.describe('theme', () => {
  test('dark by default on public pages; the toggle persists across a reload without a flash', async ({ page }) => {
    const first = await page.request.get('/');
    expect(await first.text()).toMatch(/<html lang="en-GB" class="dark">/);
    await page.goto('/');
    await expect(page.locator('html')).toHaveClass(/dark/);
    await hydrated(page);
    await page.getByTestId('theme-toggle').click();
    await expect(page.locator('html')).not.toHaveClass(/dark/);
    expect(await page.evaluate(() => localStorage.getItem('studio-theme'))).toBe('light');
    // The server puts the stored theme on <html> in the first response (no flash).
    const html = await page.request.get('/portfolio', { headers: { cookie: 'studio-theme=light' } });
    expect(await html.text()).toMatch(/<html lang="en-GB">/);
    const classes: string[] = [];
    page.on('response', async (r) => {
      if (r.url().endsWith('/services') && r.request().resourceType() === 'document') {
        const m = (await r.text()).match(/<html[^>]*>/);
        if (m) classes.push(m[0]);
      }
    });
    await page.goto('/services');
    await expect(page.locator('html')).not.toHaveClass(/dark/);
    expect(classes[0]).toBe('<html lang="en-GB">');
    await page.reload();
    await expect(page.locator('html')).not.toHaveClass(/dark/);
    await page.getByTestId('theme-toggle').click();
    await expect(page.locator('html')).toHaveClass(/dark/);
  });

  test('the toggle names itself in a tooltip: after 700 ms of hover, at once on keyboard focus, not after a click', async ({ page }) => {
    // The page's timers on Playwright's clock (running as real time unless moved), so "does not
    // reopen" can run the clock past the delay rather than hope a wait was long enough.
    await page.clock.install();
    await page.goto('/about');
    await hydrated(page);
    const toggle = page.getByTestId('theme-toggle');
    const tip = page.locator('[role="tooltip"]');
    // Timed in the page (pointer arrival to bubble insertion), so a loaded machine cannot
    // make a correct delay look early or a missing one look right.
    await page.evaluate(() => {
      const w = window as unknown as { enteredAt?: number; shownAt?: number };
      const trigger = document.querySelector('[data-testid="theme-toggle"]')!.closest('[data-tooltip-trigger]')!;
      // Captured at the document, before React (listening at its root) starts the timer.
      document.addEventListener('pointerover', (e) => trigger.contains(e.target as Node) && (w.enteredAt ??= performance.now()), true);
      new MutationObserver(() => {
        if (trigger.querySelector('[role="tooltip"]')) w.shownAt ??= performance.now();
      }).observe(trigger, { childList: true, subtree: true });
    });
    await toggle.hover();
    await expect(tip).toHaveText('Switch to light theme');
    const waited = await page.evaluate(() => {
      const w = window as unknown as { enteredAt?: number; shownAt?: number };
      return w.shownAt! - w.enteredAt!;
    });
    expect(waited).toBeGreaterThanOrEqual(700);
    await expect(tip).toHaveCSS('pointer-events', 'none');
    await page.mouse.move(0, 400);
    await expect(tip).toHaveCount(0);

    // Pressing the control closes its tooltip, and the pointer resting there does not reopen it.
    await toggle.click();
    // The click was handled (the theme switched); a tooltip timer it left would now fire.
    await expect(page.locator('html')).not.toHaveClass(/dark/);
    await page.clock.runFor(TOOLTIP_DELAY_MS);
    await afterReactRender(page);
    await expect(tip).toHaveCount(0);
    await page.mouse.move(0, 400);

    // Keyboard focus shows it without a delay; Escape hides it and leaves focus in place.
    await page.keyboard.press('Tab');
    await toggle.focus();
    await expect(tip).toHaveText('Switch to dark theme');
    await page.keyboard.press('Escape');
    await expect(tip).toHaveCount(0);
    await expect(toggle).toBeFocused();
  });
});

test.describe('mobile (375 px)', () => {
  test.use({ viewport: { width: 375, height: 740 } });

  test('slide-out menu lists every link and Client Portal; Escape closes it', async ({ page }) => {
    await page.goto('/services');
    await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Portfolio' })).toBeHidden();
    await hydrated(page);
    await page.getByRole('button', { name: 'Open menu' }).click();
    const menu = page.getByRole('dialog', { name: 'Menu' });
    await expect(menu).toBeVisible();
    await expect(menu.getByRole('link')).toHaveText(['Home', 'Portfolio', 'About', 'Services', 'Contact', 'Client Portal']);
    await expect(menu.getByRole('link', { name: 'Services' })).toHaveAttribute('aria-current', 'page');
    await page.keyboard.press('Escape');
    await expect(menu).toBeHidden();
    await page.getByRole('button', { name: 'Open menu' }).click();
    await menu.getByRole('link', { name: 'Portfolio' }).click();
    await expect(page).toHaveURL(/\/portfolio$/);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBe(0);
  });
});

test.describe('every page at 375 px', () => {
  test.use({ viewport: { width: 375, height: 740 } });
  for (const path of PAGES) {
    test(`${path} has no horizontal scrolling`, async ({ page }) => {
      await page.goto(path);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow).toBe(0);
    });
  }
});

test.describe('toasts', () => {
  /** Raises a real toast through the navigation carry-over (sessionStorage), on any page. */
  async function showToast(page: Page): Promise<Locator> {
    // Stored from a same-origin document without a toaster, so no earlier page can take it.
    await page.goto('/api/contact-info');
    await page.evaluate(() => sessionStorage.setItem('studio-toast', JSON.stringify({ title: 'Swipe me' })));
    // The 5000 ms display time starts when the toaster hydrates, which need not wait for the
    // load event: look for the toast from the start.
    await page.goto('/privacy-policy', { waitUntil: 'commit' });
    const toast = page.getByTestId('toast');
    await expect(toast).toContainText('Swipe me');
    return toast;
  }

  /** Presses on the toast's text, moves `dx` px sideways and returns the toast's offset mid-drag. */
  async function dragBy(page: Page, toast: Locator, dx: number): Promise<number> {
    const box = (await toast.boundingBox())!;
    const x = box.x + box.width / 2;
    const y = box.y + box.height / 2;
    await page.mouse.move(x, y);
    await page.mouse.down();
    await page.mouse.move(x + dx, y, { steps: 6 });
    // React renders pointermoves after the event: let two frames pass before measuring.
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const moved = (await toast.boundingBox())!.x - box.x;
    await page.mouse.up();
    return moved;
  }

  // The toast would vanish on its own after 5000 ms: a dismissal must come well before that.
  const SOON = { timeout: 1500 };

  test('dragged 60 px right it follows the pointer and is dismissed on release', async ({ page }) => {
    const toast = await showToast(page);
    expect(await dragBy(page, toast, 60)).toBeCloseTo(60, 0);
    await expect(toast).toHaveCount(0, SOON);
  });

  test('dragged 30 px right it snaps back and stays', async ({ page }) => {
    const toast = await showToast(page);
    expect(await dragBy(page, toast, 30)).toBeCloseTo(30, 0);
    await expect(toast).toHaveCSS('transform', 'none', SOON);
    await expect(toast).toBeVisible();
  });

  test('dragged left it does not move and stays', async ({ page }) => {
    const toast = await showToast(page);
    expect(await dragBy(page, toast, -80)).toBe(0);
    await expect(toast).toHaveCSS('transform', 'none');
    await expect(toast).toBeVisible();
  });

  test('a swipe that starts on the close button still swipes; a plain click still closes', async ({ page }) => {
    let toast = await showToast(page);
    const close = toast.getByRole('button', { name: 'Close notification' });
    const box = (await close.boundingBox())!;
    await page.mouse.move(box.x + 4, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x - 20, box.y + box.height / 2, { steps: 4 });
    await page.mouse.up();
    // Leftward from the button: not a swipe, and not a click on it either (released elsewhere).
    await expect(toast).toBeVisible();
    await close.click();
    await expect(toast).toHaveCount(0, SOON);
    toast = await showToast(page);
    await page.mouse.move(box.x + 4, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + 70, box.y + box.height / 2, { steps: 6 });
    await page.mouse.up();
    await expect(toast).toHaveCount(0, SOON);
  });

  test('the 5000 ms display time is held while a swipe is in progress and resumes after it', async ({ page }) => {
    // The toast's timers on Playwright's clock: held past the whole display time by running the
    // clock, not by a wait that a slow machine may shorten.
    await page.clock.install();
    const toast = await showToast(page);
    const box = (await toast.boundingBox())!;
    const y = box.y + box.height / 2;
    await page.mouse.move(box.x + box.width / 2, y);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 + 20, y, { steps: 4 });
    // The swipe has begun (the toast follows the pointer), so its timer is held.
    await expect.poll(async () => (await toast.boundingBox())!.x).toBeGreaterThan(box.x + 10);
    // Held past the whole display time: a running timer would have removed it by now.
    await page.clock.runFor(TOAST_DURATION_MS + 600);
    await afterReactRender(page);
    await expect(toast).toBeVisible();
    await page.mouse.up();
    await expect(toast).toHaveCSS('transform', 'none', SOON);
    // Released short of the threshold: the time that was left runs out and it goes on its own.
    await page.clock.runFor(TOAST_DURATION_MS);
    await expect(toast).toHaveCount(0, SOON);
  });

  test('with reduced motion a swiped toast is removed without sliding out', async ({ page }) => {
    const slidOut = async () => {
      const toast = await showToast(page);
      // Records whether the toast ever took its slide-out style before being removed.
      await toast.evaluate((el) => {
        const w = window as unknown as { slidOut: boolean };
        w.slidOut = false;
        new MutationObserver(() => (w.slidOut ||= el.style.opacity === '0')).observe(el, { attributes: true, attributeFilter: ['style'] });
      });
      await dragBy(page, toast, 60);
      await expect(toast).toHaveCount(0, SOON);
      return page.evaluate(() => (window as unknown as { slidOut: boolean }).slidOut);
    };
    expect(await slidOut()).toBe(true);
    await page.emulateMedia({ reducedMotion: 'reduce' });
    expect(await slidOut()).toBe(false);
  });

  test.describe('touch', () => {
    test.use({ viewport: { width: 375, height: 740 }, hasTouch: true, isMobile: true });

    test('a finger swiping 60 px right dismisses it, 30 px does not', async ({ page }) => {
      const toast = await showToast(page);
      const cdp = await page.context().newCDPSession(page);
      const swipe = async (dx: number) => {
        const box = (await toast.boundingBox())!;
        const x = box.x + 20;
        const y = box.y + box.height / 2;
        await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x, y }] });
        for (let i = 1; i <= 6; i++) await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x: x + (dx * i) / 6, y }] });
        await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
      };
      await swipe(30);
      await expect(toast).toHaveCSS('transform', 'none', SOON);
      await expect(toast).toBeVisible();
      await swipe(60);
      await expect(toast).toHaveCount(0, SOON);
    });
  });
});

test.describe('signed in', () => {
  test('staff user menu shows username, email, Dashboard and logs out with a toast', async ({ page }) => {
    await signInStaff(page);
    await expect(page).toHaveURL(/\/admin\/dashboard$/);
    await page.goto('/');
    const nav = page.getByRole('navigation', { name: 'Main' });
    await expect(nav.getByRole('link', { name: 'Client Portal' })).toHaveCount(0);
    await hydrated(page);
    await page.getByTestId('user-menu-button').click();
    await expect(page.getByTestId('user-menu-username')).toHaveText('admin');
    await expect(page.getByTestId('user-menu-email')).toHaveText('admin@studio.test');
    await expect(page.getByRole('menuitem', { name: 'Dashboard' })).toHaveAttribute('href', '/admin/dashboard');
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await expect(page.getByTestId('toast')).toContainText('Logged out');
    await expect(page.getByTestId('toast')).toContainText('You have been successfully logged out.');
    await expect(nav.getByRole('link', { name: 'Client Portal' })).toBeVisible();
    const me = await page.request.get('/api/user');
    expect(me.status()).toBe(401);
  });

  test('a failed logout still signs out locally with its own toast', async ({ page }) => {
    await signInStaff(page);
    await expect(page).toHaveURL(/\/admin\/dashboard$/);
    await page.goto('/about');
    await hydrated(page);
    // The only simulated answer in this file: the server failing the logout call.
    await page.route('**/api/logout', (r) => r.fulfill({ status: 500, contentType: 'application/json', body: '{"message":"boom"}' }));
    await page.getByTestId('user-menu-button').click();
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await expect(page.getByTestId('toast')).toContainText('Logout completed');
    await expect(page.getByTestId('toast')).toContainText('You have been logged out (session cleared locally).');
    await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Client Portal' })).toBeVisible();
  });
});

test.describe('accessibility (axe)', () => {
  for (const theme of ['dark', 'light'] as const) {
    for (const path of PAGES) {
      test(`${path} in ${theme}: no serious or critical violations`, async ({ page }) => {
        const cspErrors: string[] = [];
        page.on('console', (m) => m.type() === 'error' && /Content Security Policy/i.test(m.text()) && cspErrors.push(m.text()));
        await page.addInitScript((t) => localStorage.setItem('studio-theme', t), theme);
        await page.goto(path);
        await expect(page.locator('html')).toHaveClass(theme === 'dark' ? /dark/ : /^(?!.*dark).*$/);
        await hydrated(page);
        expect(await seriousViolations(page)).toEqual([]);
        // The stored theme was applied by the inline head script, so the CSP must allow it.
        expect(cspErrors).toEqual([]);
      });
    }
  }
});
