// Generate Sitemap (001 §2 SEO tab, §7): answers the pages and videos counts.
import { useState } from 'react';
import { Map as MapIcon } from 'lucide-react';
import type { SitemapResult } from '../../../shared/schemas/settings.ts';
import { Button } from '../../ui/Button.tsx';
import { Card, CardBody, CardHeader } from '../../ui/Card.tsx';
import { generateSitemap } from './settings-api.ts';

export function SitemapCard() {
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<SitemapResult | null>(null);
  return (
    <Card>
      <CardHeader title="Sitemap" description="The public pages, a watch page for every portfolio and featured item, and a video entry for every film, for search engines." />
      <CardBody className="space-y-3">
        <Button
          variant="outline"
          disabled={busy}
          onClick={async () => {
            setBusy(true);
            const r = await generateSitemap();
            setBusy(false);
            if (r) setResult(r);
          }}
        >
          <MapIcon size={16} aria-hidden="true" /> {busy ? 'Generating...' : 'Generate Sitemap'}
        </Button>
        {result && (
          <p className="text-sm" data-testid="sitemap-result" role="status">
            <span data-testid="sitemap-pages">{result.pages}</span> pages (<span data-testid="sitemap-watch-pages">{result.watchPages}</span> watch pages) and <span data-testid="sitemap-videos">{result.videos}</span> videos in{' '}
            <a href={result.url} className="underline" target="_blank" rel="noopener">
              {new URL(result.url).pathname}
            </a>
          </p>
        )}
      </CardBody>
    </Card>
  );
}
