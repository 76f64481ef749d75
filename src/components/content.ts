// Fixed copy of the public pages (000 §2). Kept apart from the markup so the pages read as layout.

export const NAV_LINKS = [
  { href: '/', label: 'Home' },
  { href: '/portfolio', label: 'Portfolio' },
  { href: '/about', label: 'About' },
  { href: '/services', label: 'Services' },
  { href: '/contact', label: 'Contact' },
] as const;

export const TAGLINE = 'Cinematic films for brands, events and artists, crafted in Leicestershire.';

/** Shown in the footer and on the contact page until the studio fills in its details (000 §9). */
export const CONTACT_PLACEHOLDERS = {
  email: 'hello@studio.example',
  phone: '+44 (0)116 000 0000',
  address: 'Leicestershire, United Kingdom',
};

export type PlaceholderField = 'contactEmail' | 'contactPhone' | 'contactAddress';

/**
 * The contact details the public pages actually show (stored value or placeholder) and which
 * of them are still placeholders (issue 19 #18: the admin sees what visitors see).
 */
export function liveContact<T extends Record<PlaceholderField, string>>(contact: T): { values: T; placeholders: PlaceholderField[] } {
  const fallback: Record<PlaceholderField, string> = {
    contactEmail: CONTACT_PLACEHOLDERS.email,
    contactPhone: CONTACT_PLACEHOLDERS.phone,
    contactAddress: CONTACT_PLACEHOLDERS.address,
  };
  const values = { ...contact };
  const placeholders: PlaceholderField[] = [];
  for (const key of Object.keys(fallback) as PlaceholderField[]) {
    if (!contact[key].trim()) values[key] = fallback[key] as T[PlaceholderField];
    if (values[key].trim() === fallback[key]) placeholders.push(key);
  }
  return { values, placeholders };
}

export const PLACEHOLDER_LABELS: Record<PlaceholderField, string> = { contactEmail: 'email', contactPhone: 'phone', contactAddress: 'address' };

export const RESPONSE_HOURS = 24;

export interface Service {
  title: string;
  description: string;
  features: [string, string, string, string, string];
}

export const SERVICES: Service[] = [
  {
    title: 'Corporate Video Production',
    description: 'Films that explain what you do and why it matters, for teams, investors and customers.',
    features: ['Brand and company films', 'Internal communications', 'Training and onboarding videos', 'Conference and event coverage', 'Executive interviews'],
  },
  {
    title: 'Commercial Video Production',
    description: 'Advertising with a cinematic finish, made to sell and sized for every screen.',
    features: ['TV and online commercials', 'Product launches', 'Brand campaigns', 'Cut-downs for every platform', 'Creative concept and scripting'],
  },
  {
    title: 'Documentary Filmmaking',
    description: 'Real people and real stories, told with patience, craft and care.',
    features: ['Short and long-form documentaries', 'Research and story development', 'Interview-led storytelling', 'Archive and location filming', 'Festival-ready grading and sound'],
  },
  {
    title: 'Luxury Event Videography',
    description: 'Weddings, galas and private celebrations captured discreetly and beautifully.',
    features: ['Full-day multi-camera coverage', 'Cinematic highlight films', 'Drone aerials where permitted', 'Same-day edits', 'Heirloom-quality delivery'],
  },
  {
    title: 'Music Video Production',
    description: 'Bold visuals that match the sound, from performance pieces to narrative films.',
    features: ['Concept and treatment', 'Performance and narrative shoots', 'Lighting and art direction', 'Colour grading', 'Release-ready formats'],
  },
  {
    title: 'Social Media Content Creation',
    description: 'A steady stream of scroll-stopping content built for each platform.',
    features: ['Vertical and square edits', 'Reels, Shorts and TikToks', 'Content calendars', 'Behind-the-scenes capture', 'Captioned, sound-off versions'],
  },
];

export const PROCESS_STEPS = [
  { title: 'Discovery & Concept', text: 'We learn your goals, audience and story, then shape a creative concept around them.' },
  { title: 'Planning & Preparation', text: 'Scripts, storyboards, locations, crew and schedules, all agreed before a camera rolls.' },
  { title: 'Production & Filming', text: 'A calm, professional shoot with cinema cameras, lighting and sound.' },
  { title: 'Post-Production & Delivery', text: 'Editing, colour, sound design and music, delivered in every format you need.' },
];

export const AUDIENCES = [
  { title: 'Brands & Businesses', text: 'From start-ups to established names who want video that looks as good as their product.' },
  { title: 'Agencies', text: 'A dependable production partner for creative and marketing agencies.' },
  { title: 'Couples & Private Clients', text: 'Weddings and celebrations filmed with a light touch and a cinematic eye.' },
  { title: 'Artists & Labels', text: 'Music videos and visual content that carry a release.' },
];

export const HOW_WE_WORK = [
  { title: 'Listen first', text: 'Every project starts with a conversation about what success looks like for you.' },
  { title: 'Plan carefully', text: 'Clear timelines, budgets and creative direction, agreed up front.' },
  { title: 'Film beautifully', text: 'A small, experienced crew who respect your people and your space.' },
  { title: 'Deliver on time', text: 'Review rounds in our client portal and final files when we promised them.' },
];

export const RETAINER_POINTS = [
  'A fixed monthly plan with priority booking',
  'A steady flow of content for every channel',
  'One team who already know your brand',
  'Better value than one-off commissions',
];

export const WORKED_WITH = [
  'Luxury hotels & venues',
  'Wedding planners',
  'Manufacturers',
  'Charities',
  'Universities',
  'Independent artists',
];

export const VALUES = [
  { title: 'Creativity and Excellence', text: 'We bring fresh ideas to every brief and hold every frame to a cinematic standard.' },
  { title: 'Client Collaboration', text: 'You are part of the process, with clear communication and reviews at every stage.' },
  { title: 'Professionalism and Reliability', text: 'Insured, punctual and prepared: we turn up ready and deliver what we promise.' },
];

export const MISSION_TEXT = [
  'We are a Leicestershire video production company telling stories with a cinematic eye. Our mission is to make films that move people: to celebrate the moments that matter, to help businesses explain what makes them different, and to give artists visuals worthy of their work.',
  'We keep our team small and our standards high, so every client works directly with the people who plan, film and edit their project.',
];
