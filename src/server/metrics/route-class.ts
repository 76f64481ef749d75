// The route class a request is counted under (issue 56): a fixed, small set, so a scanner asking
// for a million made-up paths adds no series.
const API_AREAS = new Set([
  'admin', 'audit', 'branding-settings', 'client', 'clients', 'contact', 'contact-info', 'enquiries', 'galleries', 'generate-sitemap', 'health',
  'jobs', 'live', 'login', 'logout', 'media', 'notifications', 'permissions', 'portfolio-categories', 'register', 'roles', 'seo-settings',
  'share', 'share-links', 'stats', 'uploads', 'user', 'users', 'website-settings',
]);

export function routeClass(url: string): string {
  const path = url.split('?')[0] ?? '/';
  if (path === '/metrics') return 'metrics';
  if (path.startsWith('/_astro/')) return 'asset';
  if (path.startsWith('/media/')) return 'media';
  if (path === '/api/live/stream' || /^\/api\/share\/[^/]+\/live$/.test(path)) return 'event-stream';
  if (path.startsWith('/api/')) {
    const area = path.split('/')[2] ?? '';
    return API_AREAS.has(area) ? `api:${area}` : 'api:other';
  }
  if (path.startsWith('/s/')) return 'share';
  if (path.startsWith('/admin')) return 'admin';
  if (path.startsWith('/client')) return 'portal';
  return 'page';
}
