// Contact Info tab (001 §2): email, phone, address and the three social links.
import { useState, type FormEvent } from 'react';
import { fieldErrors } from '../../../shared/forms.ts';
import { PLACEHOLDER_LABELS, liveContact, type PlaceholderField } from '../../../components/content.ts';
import { useClearFixedErrors } from '../../ui/useLiveErrors.ts';
import { contactInfoSchema, type ContactInfoInput } from '../../../shared/schemas/settings.ts';
import { Button } from '../../ui/Button.tsx';
import { Card, CardBody, CardHeader } from '../../ui/Card.tsx';
import { Field } from '../../ui/Field.tsx';
import { Textarea } from '../../ui/Textarea.tsx';
import { saveContactInfo, type ContactInfo } from './settings-api.ts';

export function ContactForm({ initial, placeholders: initialPlaceholders = [] }: { initial: ContactInfo; placeholders?: PlaceholderField[] }) {
  const [placeholders, setPlaceholders] = useState(initialPlaceholders);
  const [values, setValues] = useState<ContactInfoInput>(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);
  useClearFixedErrors(values, (v) => fieldErrors(contactInfoSchema, v).errors, setErrors);
  const bind = (key: keyof ContactInfoInput) => ({
    value: values[key],
    error: errors[key],
    onChange: (e: { target: { value: string } }) => setValues((v) => ({ ...v, [key]: e.target.value })),
  });

  async function submit(e: FormEvent) {
    e.preventDefault();
    const { data, errors } = fieldErrors(contactInfoSchema, values);
    setErrors(errors);
    if (!data) return;
    setSaving(true);
    const saved = await saveContactInfo(data);
    setSaving(false);
    if (saved) {
      const live = liveContact(saved);
      setValues(live.values);
      setPlaceholders(live.placeholders);
    }
  }

  return (
    <Card>
      <CardHeader title="Contact Information" description="Shown in the footer and on the contact page. Social links appear only when set." />
      <CardBody>
        <form onSubmit={submit} noValidate className="space-y-4">
          {placeholders.length > 0 && (
            <p role="note" data-testid="contact-placeholder-note" className="rounded-md border border-amber-500/60 bg-amber-500/10 px-3 py-2 text-sm">
              The site is showing placeholder details for {placeholders.map((k) => PLACEHOLDER_LABELS[k]).join(', ')}. Replace them with your own and save.
            </p>
          )}
          <div className="grid gap-4 md:grid-cols-2">
            <Field label="Email" type="email" autoComplete="off" placeholder="hello@example.com" {...bind('contactEmail')} />
            <Field label="Phone" type="tel" placeholder="+44 116 000 0000" {...bind('contactPhone')} />
          </div>
          <Textarea label="Address" rows={3} {...bind('contactAddress')} />
          <div className="grid gap-4 md:grid-cols-3">
            <Field label="Instagram URL" type="url" placeholder="https://instagram.com/..." {...bind('instagramUrl')} />
            <Field label="Facebook URL" type="url" placeholder="https://facebook.com/..." {...bind('facebookUrl')} />
            <Field label="LinkedIn URL" type="url" placeholder="https://linkedin.com/company/..." {...bind('linkedinUrl')} />
          </div>
          <Button type="submit" disabled={saving}>
            {saving ? 'Saving...' : 'Save Contact Information'}
          </Button>
        </form>
      </CardBody>
    </Card>
  );
}
