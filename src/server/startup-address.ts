// The address the start-up banner prints (issue 39): SITE_URL when it is set (the address
// people use, and the only origin the cross-site check accepts), else the bound HOST and port,
// with localhost for the wildcard addresses (0.0.0.0, ::) that are no address to visit.
const WILDCARDS = new Set(['', '0.0.0.0', '::', '[::]']);

export function startupAddress(siteUrl: string | undefined, host: string, port: number): string {
  if (siteUrl) return siteUrl.replace(/\/+$/, '');
  const name = WILDCARDS.has(host) ? 'localhost' : host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  return `http://${name}:${port}`;
}
