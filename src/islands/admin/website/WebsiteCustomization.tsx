// Website Customization (001 §2): seven tabs. Initial values come from the server as props,
// so every form shows what is stored from the first paint.
import { useState } from 'react';
import { SECTION_TABS } from '../../../shared/schemas/settings.ts';
import { Tabs } from '../../ui/Tabs.tsx';
import type { PlaceholderField } from '../../../components/content.ts';
import { BrandingForm } from './BrandingForm.tsx';
import { ContactForm } from './ContactForm.tsx';
import { SectionBackgrounds } from './SectionBackgrounds.tsx';
import { PortfolioCategories } from './PortfolioCategories.tsx';
import { SeoForm } from './SeoForm.tsx';
import { SitemapCard } from './SitemapCard.tsx';
import type { BrandingSettings, ContactInfo, SeoSettings, WebsiteSectionEntry } from './settings-api.ts';

type Tab = 'homepage' | 'portfolio' | 'about' | 'services' | 'branding' | 'seo' | 'contact';
const TABS: { value: Tab; label: string }[] = [
  { value: 'homepage', label: 'Homepage' },
  { value: 'portfolio', label: 'Portfolio' },
  { value: 'about', label: 'About' },
  { value: 'services', label: 'Services' },
  { value: 'branding', label: 'Branding' },
  { value: 'seo', label: 'SEO' },
  { value: 'contact', label: 'Contact Info' },
];

export default function WebsiteCustomization(props: {
  sections: WebsiteSectionEntry[];
  branding: BrandingSettings;
  seo: SeoSettings;
  contact: ContactInfo;
  placeholders?: PlaceholderField[];
  /** ?tab=contact (the dashboard's placeholder warning links there). */
  initialTab?: string;
}) {
  const [tab, setTab] = useState<Tab>(() => TABS.find((t) => t.value === props.initialTab)?.value ?? 'homepage');
  const [sections, setSections] = useState(props.sections);
  const onSaved = (saved: WebsiteSectionEntry) =>
    setSections((list) => (list.some((e) => e.section === saved.section) ? list.map((e) => (e.section === saved.section ? saved : e)) : [...list, saved]));

  return (
    <Tabs tabs={TABS} value={tab} onChange={setTab} label="Website areas">
      {(tab === 'homepage' || tab === 'about' || tab === 'services') && <SectionBackgrounds sections={SECTION_TABS[tab]} entries={sections} onSaved={onSaved} />}
      {tab === 'portfolio' && (
        <div className="space-y-6">
          <SectionBackgrounds sections={SECTION_TABS.portfolio} entries={sections} onSaved={onSaved} />
          <PortfolioCategories initial={props.branding.portfolioCategories} />
        </div>
      )}
      {tab === 'branding' && <BrandingForm initial={props.branding} />}
      {tab === 'seo' && <SeoForm initial={props.seo} sitemap={<SitemapCard />} />}
      {tab === 'contact' && (
        <div className="space-y-6">
          <SectionBackgrounds sections={SECTION_TABS.contact} entries={sections} onSaved={onSaved} />
          <ContactForm initial={props.contact} placeholders={props.placeholders ?? []} />
        </div>
      )}
    </Tabs>
  );
}
