// Fixed seed content: permissions, roles and the settings defaults from the documents.

export const PERMISSIONS: { name: string; description: string }[] = [
  { name: 'view:media', description: 'See the media library, feedback and timeline notes' },
  { name: 'upload:media', description: 'Upload new images and videos' },
  { name: 'edit:media', description: 'Edit, flag and delete media items' },
  { name: 'assign:client', description: 'Assign media to clients and remove assignments' },
  { name: 'view:clients', description: 'See client accounts' },
  { name: 'edit:clients', description: 'Create, edit and delete clients and reset their passwords' },
  { name: 'view:users', description: 'See staff user accounts' },
  { name: 'edit:users', description: 'Create, edit and delete staff users and their roles' },
  { name: 'edit:roles', description: 'Manage roles and permissions' },
  { name: 'edit:website', description: 'Change backgrounds, branding, SEO and contact details' },
  { name: 'view:enquiries', description: 'Read and archive enquiries from the contact form' },
  { name: 'share:media', description: 'Make and revoke share links for people without an account' },
  { name: 'view:audit', description: 'Read and export the audit log' },
];

export const ROLES: { name: string; description: string; isProtected: boolean; permissions: string[] | 'all' }[] = [
  { name: 'Admin', description: 'Full access to every part of the studio', isProtected: false, permissions: 'all' },
  {
    name: 'Staff',
    description: 'Day-to-day media and client work',
    isProtected: false,
    permissions: ['view:media', 'upload:media', 'edit:media', 'assign:client', 'view:clients', 'view:enquiries', 'share:media'],
  },
  { name: 'Client', description: 'Protected role for client accounts', isProtected: true, permissions: [] },
];

export const DEFAULT_COMPANY_NAME = 'Studio';

export const DEFAULT_SERVICES = [
  'Luxury Event Videography',
  'Corporate Video Production',
  'Music Video Production',
  'Creative Direction',
  'Post-Production',
];

export const DEFAULT_FAQS = [
  {
    question: 'What areas do you cover?',
    answer: 'We are based in Leicestershire and film across the East Midlands, the rest of the UK and abroad.',
  },
  {
    question: 'How far in advance should we book?',
    answer: 'For events we recommend booking three to six months ahead; corporate and commercial projects can often start within a few weeks.',
  },
  {
    question: 'How long does editing take?',
    answer: 'Most films are delivered within two to four weeks of filming, with a first cut for your review along the way.',
  },
  {
    question: 'Do you offer monthly retainers?',
    answer: 'Yes. Retainer partnerships give brands a steady flow of video content at a fixed monthly cost.',
  },
];

export const DEFAULT_SEO = {
  // Name-free defaults: the pages fall back to the branding company name (siteNameOf).
  metaTitle: '',
  metaDescription:
    'Luxury event films, corporate, commercial, documentary and music video production from a Leicestershire studio working across the UK.',
  metaKeywords: 'video production, Leicestershire, event videography, corporate video, commercial, documentary, music video',
  businessName: '',
  businessDescription:
    'A Leicestershire video production company crafting luxury event films, corporate and commercial video, documentaries and music videos.',
  businessType: 'ProfessionalService',
  addressLocality: 'Leicestershire',
  addressRegion: 'England',
  addressCountry: 'GB',
  latitude: '52.6369',
  longitude: '-1.1398',
  robotsDirective: 'index, follow',
  services: JSON.stringify(DEFAULT_SERVICES),
  faqs: JSON.stringify(DEFAULT_FAQS),
  enableStructuredData: true,
  enableOpenGraph: true,
  enableTwitterCards: true,
};

export const DEMO_CLIENT = {
  name: 'Aurora Events',
  email: 'hello@aurora-events.example',
  company: 'Aurora Events Ltd',
  phone: '01162 555 010',
  notes: 'Demo client created at first start.',
  username: 'demo.client',
  password: 'portal-demo-2026',
};
