// SEO tab (001 §2, §3, §5): sub-tabs Basic SEO, Social Media, Business Data, Advanced;
// 'Update SEO Settings'. Every field starts from the stored value (001 §3 describes a form
// that reset some of them on load; that defect is not copied).
import { useClearFixedErrors } from '../../ui/useLiveErrors.ts';
import { useState, type FormEvent, type ReactNode } from 'react';
import { fieldErrors } from '../../../shared/forms.ts';
import { BUSINESS_TYPES, DESCRIPTION_GUIDE, ROBOTS_DIRECTIVES, seoSchema, TITLE_GUIDE, type SeoForm as SeoPayload } from '../../../shared/schemas/settings.ts';
import { Button } from '../../ui/Button.tsx';
import { Card, CardBody, CardHeader } from '../../ui/Card.tsx';
import { Field } from '../../ui/Field.tsx';
import { Select } from '../../ui/Select.tsx';
import { Switch } from '../../ui/Switch.tsx';
import { Tabs } from '../../ui/Tabs.tsx';
import { Textarea } from '../../ui/Textarea.tsx';
import { ImagePickerField } from './ImagePickerField.tsx';
import { saveSeo, type MediaRef, type SeoSettings } from './settings-api.ts';

type Sub = 'basic' | 'social' | 'business' | 'advanced';
const SUBTABS: { value: Sub; label: string }[] = [
  { value: 'basic', label: 'Basic SEO' },
  { value: 'social', label: 'Social Media' },
  { value: 'business', label: 'Business Data' },
  { value: 'advanced', label: 'Advanced' },
];

type TextKey =
  | 'metaTitle' | 'metaDescription' | 'metaKeywords' | 'canonicalUrl' | 'businessName' | 'businessDescription' | 'businessType'
  | 'businessUrl' | 'addressLocality' | 'addressRegion' | 'addressCountry' | 'postalCode' | 'streetAddress' | 'latitude'
  | 'longitude' | 'businessEmail' | 'businessPhone' | 'services' | 'faqs' | 'robotsDirective';
type FlagKey = 'enableStructuredData' | 'enableOpenGraph' | 'enableTwitterCards';
type Values = Record<TextKey, string> & Record<FlagKey, boolean> & { openGraphImage: MediaRef | null; twitterImage: MediaRef | null };

/** Which sub-tab holds each field, so a failed check can show the first problem. */
const TAB_OF: Record<string, Sub> = {
  metaTitle: 'basic', metaDescription: 'basic', metaKeywords: 'basic', canonicalUrl: 'basic',
  enableOpenGraph: 'social', enableTwitterCards: 'social', openGraphImageId: 'social', twitterImageId: 'social',
  businessName: 'business', businessDescription: 'business', businessType: 'business', businessUrl: 'business', addressLocality: 'business',
  addressRegion: 'business', addressCountry: 'business', postalCode: 'business', streetAddress: 'business', latitude: 'business',
  longitude: 'business', businessEmail: 'business', businessPhone: 'business', services: 'business', faqs: 'business',
  enableStructuredData: 'advanced', robotsDirective: 'advanced',
};

export function valuesFrom(s: SeoSettings): Values {
  return {
    metaTitle: s.metaTitle, metaDescription: s.metaDescription, metaKeywords: s.metaKeywords, canonicalUrl: s.canonicalUrl,
    businessName: s.businessName, businessDescription: s.businessDescription, businessType: s.businessType, businessUrl: s.businessUrl,
    addressLocality: s.addressLocality, addressRegion: s.addressRegion, addressCountry: s.addressCountry, postalCode: s.postalCode,
    streetAddress: s.streetAddress, latitude: s.latitude, longitude: s.longitude, businessEmail: s.businessEmail,
    businessPhone: s.businessPhone, services: s.services, faqs: s.faqs, robotsDirective: s.robotsDirective,
    enableStructuredData: s.enableStructuredData, enableOpenGraph: s.enableOpenGraph, enableTwitterCards: s.enableTwitterCards,
    openGraphImage: s.openGraphImage, twitterImage: s.twitterImage,
  };
}

function payloadOf(v: Values): SeoPayload {
  const { openGraphImage, twitterImage, ...rest } = v;
  return { ...rest, openGraphImageId: openGraphImage?.id ?? null, twitterImageId: twitterImage?.id ?? null } as SeoPayload;
}

function Counter({ length, guide }: { length: number; guide: number }) {
  return (
    <span className={length > guide ? 'text-danger' : undefined} data-testid="char-counter">
      {length}/{guide} characters{length > guide ? ' (longer than recommended)' : ''}
    </span>
  );
}

/** Pretty-prints JSON text when it parses; leaves it alone otherwise. */
function formatJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

export function SeoForm({ initial, sitemap }: { initial: SeoSettings; sitemap: ReactNode }) {
  const [values, setValues] = useState<Values>(() => valuesFrom(initial));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [tab, setTab] = useState<Sub>('basic');
  const [saving, setSaving] = useState(false);
  useClearFixedErrors(values, (v) => fieldErrors(seoSchema, payloadOf(v)).errors, setErrors);
  const set = <K extends keyof Values>(key: K, value: Values[K]) => setValues((v) => ({ ...v, [key]: value }));
  const text = (key: TextKey) => ({
    value: values[key],
    error: errors[key],
    onChange: (e: { target: { value: string } }) => set(key, e.target.value),
  });

  async function submit(e: FormEvent) {
    e.preventDefault();
    const { data, errors } = fieldErrors(seoSchema, payloadOf(values));
    setErrors(errors);
    if (!data) {
      const first = Object.keys(errors)[0];
      if (first && TAB_OF[first]) setTab(TAB_OF[first]);
      return;
    }
    setSaving(true);
    const saved = await saveSeo(data);
    setSaving(false);
    if (saved) setValues(valuesFrom(saved));
  }

  const jsonHelp = (key: 'services' | 'faqs') => (
    <button type="button" className="text-xs text-fg-muted underline hover:text-fg" onClick={() => set(key, formatJson(values[key]))}>
      Format JSON
    </button>
  );

  return (
    <div className="space-y-6">
      <Card>
        <CardHeader title="Search Engine Optimisation" description="How the site appears in search results and when shared." />
        <CardBody>
          <form onSubmit={submit} noValidate className="space-y-5">
            <Tabs tabs={SUBTABS} value={tab} onChange={setTab} label="SEO sections">
              {tab === 'basic' && (
                <div className="space-y-4">
                  <Field label="Meta Title" {...text('metaTitle')} hint={<Counter length={values.metaTitle.length} guide={TITLE_GUIDE} />} />
                  <div className="space-y-1">
                    <Textarea label="Meta Description" rows={3} {...text('metaDescription')} />
                    {!errors.metaDescription && (
                      <p className="text-xs text-fg-muted">
                        <Counter length={values.metaDescription.length} guide={DESCRIPTION_GUIDE} />
                      </p>
                    )}
                  </div>
                  <Field label="Meta Keywords" hint="Comma-separated" {...text('metaKeywords')} />
                  <Field label="Canonical URL" type="url" placeholder="https://www.example.com" {...text('canonicalUrl')} />
                </div>
              )}
              {tab === 'social' && (
                <div className="space-y-4">
                  <Switch label="Enable Open Graph" description="Title, description and image for Facebook, LinkedIn and others" checked={values.enableOpenGraph} onChange={(c) => set('enableOpenGraph', c)} />
                  <Switch label="Enable Twitter Cards" description="Large image card on X / Twitter" checked={values.enableTwitterCards} onChange={(c) => set('enableTwitterCards', c)} />
                  <div className="grid gap-4 md:grid-cols-2">
                    <ImagePickerField label="Open Graph Image" hint="Recommended 1200x630; when empty the Twitter image, then the branding image, is used" recommended={[1200, 630]} value={values.openGraphImage} onChange={(m) => set('openGraphImage', m)} error={errors.openGraphImageId} />
                    <ImagePickerField label="Twitter Image" hint="Recommended 1200x630; when empty the Open Graph image is used" recommended={[1200, 630]} value={values.twitterImage} onChange={(m) => set('twitterImage', m)} error={errors.twitterImageId} />
                  </div>
                </div>
              )}
              {tab === 'business' && (
                <div className="space-y-4">
                  <div className="grid gap-4 md:grid-cols-2">
                    <Field label="Business Name" {...text('businessName')} />
                    <Select
                      label="Business Type"
                      options={BUSINESS_TYPES.map((t) => ({ value: t, label: t === 'ProfessionalService' ? 'Professional Service (video production)' : 'Local Business' }))}
                      {...text('businessType')}
                    />
                  </div>
                  <Textarea label="Business Description" rows={3} {...text('businessDescription')} />
                  <div className="grid gap-4 md:grid-cols-3">
                    <Field label="Business URL" type="url" placeholder="https://www.example.com" {...text('businessUrl')} />
                    <Field label="Business Email" type="email" {...text('businessEmail')} />
                    <Field label="Business Phone" type="tel" {...text('businessPhone')} />
                  </div>
                  <div className="grid gap-4 md:grid-cols-2">
                    <Field label="Street Address" {...text('streetAddress')} />
                    <Field label="Locality" hint="Town or county" {...text('addressLocality')} />
                    <Field label="Region" {...text('addressRegion')} />
                    <Field label="Postal Code" {...text('postalCode')} />
                  </div>
                  <div className="grid gap-4 md:grid-cols-3">
                    <Field label="Country" hint="Two-letter ISO code, e.g. GB" maxLength={2} {...text('addressCountry')} />
                    <Field label="Latitude" inputMode="decimal" placeholder="52.6369" {...text('latitude')} />
                    <Field label="Longitude" inputMode="decimal" placeholder="-1.1398" {...text('longitude')} />
                  </div>
                  <div className="space-y-1">
                    <Textarea label="Services (JSON)" rows={5} className="font-mono text-xs" spellCheck={false} {...text('services')} />
                    <div className="flex justify-between gap-2 text-xs text-fg-muted">
                      <span>A JSON list of names, e.g. ["Corporate Video", "Music Videos"]</span>
                      {jsonHelp('services')}
                    </div>
                  </div>
                  <div className="space-y-1">
                    <Textarea label="FAQs (JSON)" rows={8} className="font-mono text-xs" spellCheck={false} {...text('faqs')} />
                    <div className="flex justify-between gap-2 text-xs text-fg-muted">
                      <span>{'A JSON list of {"question": "...", "answer": "..."} pairs'}</span>
                      {jsonHelp('faqs')}
                    </div>
                  </div>
                </div>
              )}
              {tab === 'advanced' && (
                <div className="space-y-4">
                  <Switch label="Enable Structured Data" description="Business, services and FAQ data for search engines (JSON-LD)" checked={values.enableStructuredData} onChange={(c) => set('enableStructuredData', c)} />
                  <Field label="Robots Directive" list="robots-directives" hint='For example "index, follow"' {...text('robotsDirective')} />
                  <datalist id="robots-directives">
                    {ROBOTS_DIRECTIVES.map((d) => (
                      <option key={d} value={d} />
                    ))}
                  </datalist>
                </div>
              )}
            </Tabs>
            {Object.keys(errors).length > 0 && (
              <p role="alert" className="text-sm text-danger">
                Please fix the highlighted fields{Object.keys(errors).some((k) => TAB_OF[k] && TAB_OF[k] !== tab) ? ' (some are on other sub-tabs)' : ''}.
              </p>
            )}
            <Button type="submit" disabled={saving}>
              {saving ? 'Saving...' : 'Update SEO Settings'}
            </Button>
          </form>
        </CardBody>
      </Card>
      {sitemap}
    </div>
  );
}
