// Which methods an API route answers, for the 405's Allow header. Astro answers a method a
// route does not export with an empty 404 (then the HTML 404 page); the middleware turns that
// into a JSON 405. The route modules are already in the bundle; they are looked up lazily.
const routes = import.meta.glob('../pages/api/**/*.ts');

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

function patternOf(file: string): string {
  return file.replace(/^\.\.\/pages/, '').replace(/\.ts$/, '').replace(/\/index$/, '');
}

const byPattern = new Map(Object.entries(routes).map(([file, load]) => [patternOf(file), load]));

/** The methods the route at `routePattern` (Astro's, e.g. /api/users/[id]) answers, or null. */
export async function allowedMethods(routePattern: string | undefined): Promise<string[] | null> {
  const load = routePattern ? byPattern.get(routePattern) : undefined;
  if (!load) return null;
  const mod = (await load()) as Record<string, unknown>;
  if (typeof mod.ALL === 'function') return null;
  const list: string[] = METHODS.filter((m) => typeof mod[m] === 'function');
  if (list.includes('GET') && !list.includes('HEAD')) list.splice(1, 0, 'HEAD');
  return list.length ? list : null;
}
