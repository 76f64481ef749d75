// Branding tab (001 §2): company name, show-in-navigation switch, logos, favicon and the
// Open Graph image; 'Save Branding Settings'.
import { useState, type FormEvent } from 'react';
import { fieldErrors } from '../../../shared/forms.ts';
import { useClearFixedErrors } from '../../ui/useLiveErrors.ts';
import { brandingSchema, FEATURED_LIMIT_MAX, FEATURED_LIMIT_MIN } from '../../../shared/schemas/settings.ts';
import { Button } from '../../ui/Button.tsx';
import { Card, CardBody, CardHeader } from '../../ui/Card.tsx';
import { Field } from '../../ui/Field.tsx';
import { Switch } from '../../ui/Switch.tsx';
import { ImagePickerField } from './ImagePickerField.tsx';
import { saveBranding, type BrandingSettings, type MediaRef } from './settings-api.ts';

type Images = Record<'logoLightImage' | 'logoDarkImage' | 'faviconImage' | 'openGraphImage', MediaRef | null>;

export function BrandingForm({ initial }: { initial: BrandingSettings }) {
  const [companyName, setCompanyName] = useState(initial.companyName);
  const [showCompanyText, setShowCompanyText] = useState(initial.showCompanyText);
  const [featuredLimit, setFeaturedLimit] = useState(String(initial.featuredLimit));
  const [images, setImages] = useState<Images>({
    logoLightImage: initial.logoLightImage,
    logoDarkImage: initial.logoDarkImage,
    faviconImage: initial.faviconImage,
    openGraphImage: initial.openGraphImage,
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);
  useClearFixedErrors({ companyName }, (v) => fieldErrors(brandingSchema.pick({ companyName: true }), v).errors, setErrors);
  const setImage = (key: keyof Images) => (value: MediaRef | null) => setImages((s) => ({ ...s, [key]: value }));

  async function submit(e: FormEvent) {
    e.preventDefault();
    const { data, errors } = fieldErrors(brandingSchema, {
      companyName,
      showCompanyText,
      featuredLimit: featuredLimit.trim() === '' ? NaN : Number(featuredLimit),
      logoLightImageId: images.logoLightImage?.id ?? null,
      logoDarkImageId: images.logoDarkImage?.id ?? null,
      faviconImageId: images.faviconImage?.id ?? null,
      openGraphImageId: images.openGraphImage?.id ?? null,
    });
    setErrors(errors);
    if (!data) return;
    setSaving(true);
    const saved = await saveBranding(data);
    setSaving(false);
    if (saved) {
      setCompanyName(saved.companyName);
      setShowCompanyText(saved.showCompanyText);
      setFeaturedLimit(String(saved.featuredLimit));
      setImages({ logoLightImage: saved.logoLightImage, logoDarkImage: saved.logoDarkImage, faviconImage: saved.faviconImage, openGraphImage: saved.openGraphImage });
    }
  }

  return (
    <Card>
      <CardHeader title="Branding" description="Company name, logos, favicon and the image shown when the site is shared." />
      <CardBody>
        <form onSubmit={submit} noValidate className="space-y-5">
          <div className="grid gap-4 md:grid-cols-2">
            <Field label="Company Name" value={companyName} maxLength={100} onChange={(e) => setCompanyName(e.target.value)} error={errors.companyName} required />
            <div className="self-end pb-2">
              <Switch label="Show company name in navigation" description="Shown next to the logo" checked={showCompanyText} onChange={setShowCompanyText} />
            </div>
          </div>
          <div className="grid gap-4 md:grid-cols-2">
            <Field
              label="Featured items on the home page"
              type="number"
              inputMode="numeric"
              min={FEATURED_LIMIT_MIN}
              max={FEATURED_LIMIT_MAX}
              value={featuredLimit}
              onChange={(e) => setFeaturedLimit(e.target.value)}
              error={errors.featuredLimit}
              hint={`What We Do shows the newest ${FEATURED_LIMIT_MIN} to ${FEATURED_LIMIT_MAX} featured items, then "See all work"`}
            />
          </div>
          <div className="grid gap-4 md:grid-cols-2">
            <ImagePickerField label="Light Mode Logo" hint="Shown on light backgrounds" value={images.logoLightImage} onChange={setImage('logoLightImage')} error={errors.logoLightImageId} />
            <ImagePickerField label="Dark Mode Logo" hint="Shown on dark backgrounds" value={images.logoDarkImage} onChange={setImage('logoDarkImage')} error={errors.logoDarkImageId} />
            <ImagePickerField label="Favicon" hint="Square image, shown in browser tabs" value={images.faviconImage} onChange={setImage('faviconImage')} error={errors.faviconImageId} />
            <ImagePickerField label="Open Graph Image" hint="Recommended 1200x630" recommended={[1200, 630]} value={images.openGraphImage} onChange={setImage('openGraphImage')} error={errors.openGraphImageId} />
          </div>
          <Button type="submit" disabled={saving}>
            {saving ? 'Saving...' : 'Save Branding Settings'}
          </Button>
        </form>
      </CardBody>
    </Card>
  );
}
