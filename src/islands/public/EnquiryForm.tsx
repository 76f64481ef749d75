import { useState, type FormEvent } from 'react';
import { Send } from 'lucide-react';
import { apiJson, errorMessage } from '../../shared/api.ts';
import { toast } from '../../shared/toast.ts';
import { PROJECT_TYPES } from '../../shared/project-types.ts';
import { ENQUIRY_LIMITS, type EnquiryInput } from '../../shared/schemas/enquiry.ts';
import { inputClass } from '../ui/Field.tsx';
import { useHydrated, useKeptInput } from '../ui/hydration.ts';

const EMPTY = { firstName: '', lastName: '', email: '', projectType: '', message: '', website: '' };

/**
 * The contact page's enquiry form (000 §2, §4, §5, §8): required fields are checked by the
 * browser; while sending the button reads 'Sending...'; success clears the form, failure keeps it.
 */
export default function EnquiryForm() {
  const [values, setValues] = useState(EMPTY);
  const [sending, setSending] = useState(false);
  const set = (k: keyof typeof EMPTY) => (e: { target: { value: string } }) => setValues((v) => ({ ...v, [k]: e.target.value }));
  // What a visitor typed before the script arrived stays; Send waits for the island.
  const hydrated = useHydrated();
  const firstName = useKeptInput<HTMLInputElement>(values.firstName, set('firstName'));
  const lastName = useKeptInput<HTMLInputElement>(values.lastName, set('lastName'));
  const email = useKeptInput<HTMLInputElement>(values.email, set('email'));
  const projectType = useKeptInput<HTMLSelectElement>(values.projectType, set('projectType'));
  const message = useKeptInput<HTMLTextAreaElement>(values.message, set('message'));
  const website = useKeptInput<HTMLInputElement>(values.website, set('website'));

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setSending(true);
    try {
      const body: EnquiryInput = { ...values, projectType: values.projectType as EnquiryInput['projectType'] };
      await apiJson('POST', '/api/contact', body);
      toast({ title: 'Message sent!', description: "Thank you for your inquiry. We'll get back to you soon." });
      setValues(EMPTY);
    } catch (err) {
      toast({ title: 'Failed to send message', description: errorMessage(err), variant: 'destructive' });
    } finally {
      setSending(false);
    }
  };

  const label = 'block text-sm font-medium';
  return (
    <form onSubmit={submit} className="space-y-5" aria-label="Enquiry form" data-testid="enquiry-form">
      <div className="grid gap-5 sm:grid-cols-2">
        <div className="space-y-1.5">
          <label htmlFor="enq-first" className={label}>First Name</label>
          <input ref={firstName} id="enq-first" name="firstName" required maxLength={ENQUIRY_LIMITS.name} autoComplete="given-name" value={values.firstName} onChange={set('firstName')} className={inputClass(false, 'h-11')} />
        </div>
        <div className="space-y-1.5">
          <label htmlFor="enq-last" className={label}>Last Name</label>
          <input ref={lastName} id="enq-last" name="lastName" required maxLength={ENQUIRY_LIMITS.name} autoComplete="family-name" value={values.lastName} onChange={set('lastName')} className={inputClass(false, 'h-11')} />
        </div>
      </div>
      <div className="space-y-1.5">
        <label htmlFor="enq-email" className={label}>Email</label>
        <input ref={email} id="enq-email" name="email" type="email" required maxLength={ENQUIRY_LIMITS.email} autoComplete="email" value={values.email} onChange={set('email')} className={inputClass(false, 'h-11')} />
      </div>
      <div className="space-y-1.5">
        <label htmlFor="enq-type" className={label}>Project Type</label>
        <select ref={projectType} id="enq-type" name="projectType" value={values.projectType} onChange={set('projectType')} className={inputClass(false, 'h-11')}>
          <option value="">Select a project type</option>
          {PROJECT_TYPES.map((p) => (
            <option key={p.value} value={p.value}>
              {p.label}
            </option>
          ))}
        </select>
      </div>
      <div className="space-y-1.5">
        <label htmlFor="enq-message" className={label}>Message</label>
        <textarea
          ref={message}
          id="enq-message"
          name="message"
          required
          rows={6}
          maxLength={ENQUIRY_LIMITS.message}
          aria-describedby="enq-message-count"
          value={values.message}
          onChange={set('message')}
          placeholder="Tell us about your project, dates and budget"
          className={inputClass(false)}
        />
        {/* The limit shows as you type and the field stops there, rather than the send failing (issue 19 #17). */}
        <p id="enq-message-count" data-testid="message-counter" className={`text-right text-xs tabular-nums ${values.message.length >= ENQUIRY_LIMITS.message ? 'text-danger' : 'text-fg-muted'}`}>
          {values.message.length.toLocaleString('en-GB')} / {ENQUIRY_LIMITS.message.toLocaleString('en-GB')} characters
        </p>
      </div>
      {/* Honeypot: invisible to people and skipped by keyboard; bots that fill it are dropped. */}
      <div aria-hidden="true" className="absolute -left-[9999px] h-px w-px overflow-hidden">
        <label htmlFor="enq-website">Website</label>
        <input ref={website} id="enq-website" name="website" tabIndex={-1} autoComplete="off" value={values.website} onChange={set('website')} />
      </div>
      <button
        type="submit"
        disabled={sending || !hydrated}
        className="inline-flex h-12 w-full items-center justify-center gap-2 rounded-md bg-accent px-6 text-base font-medium text-accent-fg transition-opacity hover:opacity-90 disabled:cursor-not-allowed disabled:opacity-60"
      >
        <Send size={18} aria-hidden="true" />
        {sending ? 'Sending...' : 'Send Message'}
      </button>
    </form>
  );
}
