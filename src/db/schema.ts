// Database schema (001 §3 plus sessions, enquiries and bookkeeping tables).
// Times are stored as integer milliseconds since the epoch (drizzle `timestamp_ms`).
import { sql } from 'drizzle-orm';
import {
  blob,
  check,
  type AnySQLiteColumn,
  index,
  integer,
  primaryKey,
  sqliteTable,
  text,
  uniqueIndex,
} from 'drizzle-orm/sqlite-core';

const createdAt = () =>
  integer('created_at', { mode: 'timestamp_ms' })
    .notNull()
    .default(sql`(unixepoch('subsec') * 1000)`);
const bool = (name: string) => integer(name, { mode: 'boolean' });

export const NOTIFY_MODES = ['immediately', 'digest', 'off'] as const;

export const users = sqliteTable('users', {
  id: text('id').primaryKey().$defaultFn(() => crypto.randomUUID()),
  username: text('username').notNull().unique(),
  email: text('email').notNull().unique(),
  passwordHash: text('password_hash').notNull(),
  forename: text('forename').notNull().default(''),
  surname: text('surname').notNull().default(''),
  displayName: text('display_name').notNull().default(''),
  isActive: bool('is_active').notNull().default(true),
  createdAt: createdAt(),
  // Email notifications (issue 17): staff opt in ('immediately' | 'digest' | 'off').
  notifyMode: text('notify_mode', { enum: NOTIFY_MODES }).notNull().default('off'),
  // The newest staff event this user has seen in the bell (unread = newer ids).
  bellSeenId: integer('bell_seen_id').notNull().default(0),
  // Issue 32: set when this user first uploads or assigns an item, so the bell asks once
  // whether they want emails; notify_prompted_at records that they answered (or chose a mode).
  notifyAskSince: integer('notify_ask_since', { mode: 'timestamp_ms' }),
  notifyPromptedAt: integer('notify_prompted_at', { mode: 'timestamp_ms' }),
});

export const roles = sqliteTable('roles', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  name: text('name').notNull().unique(),
  description: text('description'),
  // The Client role is protected: no edit, delete or permission change.
  isProtected: bool('is_protected').notNull().default(false),
  // Issue 56: users holding this role must sign in with a second factor (and enrol one first).
  requiresSecondFactor: bool('requires_second_factor').notNull().default(false),
  createdAt: createdAt(),
});

export const permissions = sqliteTable('permissions', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  name: text('name').notNull().unique(),
  description: text('description'),
  createdAt: createdAt(),
});

export const userRoles = sqliteTable(
  'user_roles',
  {
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    roleId: integer('role_id')
      .notNull()
      .references(() => roles.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.userId, t.roleId] }), index('user_roles_role_idx').on(t.roleId)],
);

export const rolePermissions = sqliteTable(
  'role_permissions',
  {
    roleId: integer('role_id')
      .notNull()
      .references(() => roles.id, { onDelete: 'cascade' }),
    permissionId: integer('permission_id')
      .notNull()
      .references(() => permissions.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.roleId, t.permissionId] }),
    index('role_permissions_permission_idx').on(t.permissionId),
  ],
);

export const clients = sqliteTable('clients', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  name: text('name').notNull(),
  email: text('email').notNull().unique(),
  company: text('company').notNull().default(''),
  phone: text('phone').notNull().default(''),
  notes: text('notes').notNull().default(''),
  isActive: bool('is_active').notNull().default(true),
  // Issue 30: the client's downloads open only once the item's current version is approved.
  downloadsAfterApproval: bool('downloads_after_approval').notNull().default(false),
  createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
  createdAt: createdAt(),
  updatedAt: integer('updated_at', { mode: 'timestamp_ms' })
    .notNull()
    .default(sql`(unixepoch('subsec') * 1000)`),
  // Erased (issue 56, src/server/privacy/erase.ts): the row stays, named "Former client" with
  // nothing personal left, only so the review threads the studio keeps still have an author.
  erasedAt: integer('erased_at', { mode: 'timestamp_ms' }),
});

export const clientUsers = sqliteTable(
  'client_users',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id, { onDelete: 'cascade' }),
    username: text('username').notNull().unique(),
    email: text('email').notNull().unique(),
    passwordHash: text('password_hash').notNull(),
    isActive: bool('is_active').notNull().default(true),
    createdAt: createdAt(),
    lastLoginAt: integer('last_login_at', { mode: 'timestamp_ms' }),
    // Clients hear about new media and versions unless they turn it off (issue 17).
    notifyMode: text('notify_mode', { enum: NOTIFY_MODES }).notNull().default('immediately'),
  },
  (t) => [index('client_users_client_idx').on(t.clientId)],
);

export const MEDIA_TYPES = ['image', 'video'] as const;
export const PROCESSING_STATUSES = ['queued', 'processing', 'ready', 'failed'] as const;
export interface StoredRendition {
  label: string;
  variant: string;
  width: number;
  height: number;
  /** The job that made it: a ?v= on its URL, so a reprocessed file is never served from an old cache. */
  version?: number;
  /** The ladder it was made by (LADDER in jobs/transcode.ts); older ones are upgraded by the backfill. */
  ladder?: number;
  /** Written as fragmented MP4 with an HLS media playlist beside it (`720p.m3u8`); the version has `master.m3u8`. */
  hls?: boolean;
}

export const media = sqliteTable(
  'media',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    title: text('title').notNull(),
    // The watch page's address (/portfolio/{slug}), made from the title (src/server/media/slugs.ts).
    // Null until first needed: rows written outside the app get theirs on the next public read.
    slug: text('slug').unique(),
    type: text('type', { enum: MEDIA_TYPES }).notNull(),
    // Server-generated folder name under MEDIA_DIR holding every file of this item.
    storageKey: text('storage_key').notNull().unique(),
    url: text('url').notNull(),
    posterUrl: text('poster_url'),
    thumbnailUrl: text('thumbnail_url'),
    thumbnailWebpUrl: text('thumbnail_webp_url'),
    webpUrl: text('webp_url'),
    filename: text('filename').notNull(),
    fileSize: integer('file_size').notNull(),
    mimeType: text('mime_type').notNull(),
    width: integer('width'),
    height: integer('height'),
    durationSeconds: integer('duration_seconds'),
    isFeatured: bool('is_featured').notNull().default(false),
    showInPortfolio: bool('show_in_portfolio').notNull().default(false),
    // JSON array of strings.
    tags: text('tags', { mode: 'json' }).$type<string[]>().notNull().default(sql`'[]'`),
    projectStage: text('project_stage'),
    notes: text('notes'),
    clientId: integer('client_id').references(() => clients.id, { onDelete: 'set null' }),
    uploadedBy: text('uploaded_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    uploadedAt: integer('uploaded_at', { mode: 'timestamp_ms' })
      .notNull()
      .default(sql`(unixepoch('subsec') * 1000)`),
    // Videos only (null for images; null on a video = not yet queued, so backfill takes it).
    // Progress ticks do not bump library_state (see migration 0004), status changes do.
    processingStatus: text('processing_status', { enum: PROCESSING_STATUSES }),
    processingProgress: integer('processing_progress').notNull().default(0),
    processingError: text('processing_error'),
    // JSON [{ label, variant, width, height }] of the review proxies, best first.
    renditions: text('renditions', { mode: 'json' }).$type<StoredRendition[]>(),
    spriteUrl: text('sprite_url'),
    // A browser can play the original as it is (H.264/VP8/VP9/AV1 8-bit in MP4/WebM).
    originalPlayable: bool('original_playable').notNull().default(false),
    // ffprobe facts of the original (see src/server/media/probe.ts), JSON.
    probe: text('probe', { mode: 'json' }).$type<Record<string, unknown>>(),
    // The gallery a still was uploaded into (issue 53): it lives there, not in the library's
    // lists and pickers. Cleared when it leaves that gallery (removed, or the gallery deleted),
    // so it comes back to the library. No foreign key: SQLite's ADD COLUMN would keep no ON
    // DELETE action, and deleteGallery clears it in the same transaction.
    galleryId: integer('gallery_id'),
  },
  (t) => [
    index('media_created_idx').on(t.createdAt),
    index('media_featured_idx').on(t.isFeatured),
    index('media_portfolio_idx').on(t.showInPortfolio),
    index('media_client_idx').on(t.clientId),
    // Finds rows still without a slug in microseconds (ensureSlugs runs before public reads).
    index('media_slug_missing_idx').on(t.id).where(sql`${t.slug} is null`),
    check('media_type_check', sql`${t.type} in ('image', 'video')`),
  ],
);

// Slugs an item had before its title changed: /portfolio/{old} answers 301 to the current one.
// A slug is never handed to another item while it is listed here.
export const mediaSlugHistory = sqliteTable('media_slug_history', {
  slug: text('slug').primaryKey(),
  mediaId: integer('media_id')
    .notNull()
    .references(() => media.id, { onDelete: 'cascade' }),
  createdAt: createdAt(),
});

export const APPROVAL_STATUSES = ['in_review', 'approved', 'changes_requested'] as const;

// Every version (v1, v2, ...) of a media item with its own files (a folder per version under
// MEDIA_DIR, named by its storage key). The media row keeps a copy of the current version's
// file columns so every list, the public site and playback read one row; the current version
// is the one whose storage_key equals media.storage_key. Triggers (migration 0011) create v1
// for every inserted media row and copy file-column changes of the media row into it.
export const mediaVersions = sqliteTable(
  'media_versions',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    mediaId: integer('media_id')
      .notNull()
      .references(() => media.id, { onDelete: 'cascade' }),
    number: integer('number').notNull(),
    storageKey: text('storage_key').notNull().unique(),
    url: text('url').notNull(),
    posterUrl: text('poster_url'),
    thumbnailUrl: text('thumbnail_url'),
    thumbnailWebpUrl: text('thumbnail_webp_url'),
    webpUrl: text('webp_url'),
    filename: text('filename').notNull(),
    fileSize: integer('file_size').notNull(),
    mimeType: text('mime_type').notNull(),
    width: integer('width'),
    height: integer('height'),
    durationSeconds: integer('duration_seconds'),
    processingStatus: text('processing_status', { enum: PROCESSING_STATUSES }),
    processingProgress: integer('processing_progress').notNull().default(0),
    processingError: text('processing_error'),
    renditions: text('renditions', { mode: 'json' }).$type<StoredRendition[]>(),
    spriteUrl: text('sprite_url'),
    originalPlayable: bool('original_playable').notNull().default(false),
    probe: text('probe', { mode: 'json' }).$type<Record<string, unknown>>(),
    uploadedBy: text('uploaded_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    // The client's decision on this version; a new version starts 'in_review'.
    approvalStatus: text('approval_status', { enum: APPROVAL_STATUSES }).notNull().default('in_review'),
    approvalNote: text('approval_note'),
    approvalBy: integer('approval_by').references(() => clientUsers.id, { onDelete: 'set null' }),
    approvalAt: integer('approval_at', { mode: 'timestamp_ms' }),
    // Staff (edit:media) lock the decision so the client can no longer change it.
    approvalLocked: bool('approval_locked').notNull().default(false),
    lockedBy: text('locked_by').references(() => users.id, { onDelete: 'set null' }),
    lockedAt: integer('locked_at', { mode: 'timestamp_ms' }),
    // A decision made through a share link (issue 17): the guest's name and the link.
    approvalGuest: text('approval_guest'),
    approvalLinkId: integer('approval_link_id'),
    // Issue 32: a video version added to an item waits for its conversion before its clients
    // hear of it; `complete` clears this flag and records the 'new_version' event exactly once.
    announceWhenReady: bool('announce_when_ready').notNull().default(false),
  },
  (t) => [
    uniqueIndex('media_versions_number_unique').on(t.mediaId, t.number),
    check('media_versions_approval_check', sql`${t.approvalStatus} in ('in_review', 'approved', 'changes_requested')`),
  ],
);

export const mediaClients = sqliteTable(
  'media_clients',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    mediaId: integer('media_id')
      .notNull()
      .references(() => media.id, { onDelete: 'cascade' }),
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('media_clients_unique').on(t.mediaId, t.clientId),
    index('media_clients_client_idx').on(t.clientId),
  ],
);

export const clientFeedback = sqliteTable(
  'client_feedback',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    mediaId: integer('media_id')
      .notNull()
      .references(() => media.id, { onDelete: 'cascade' }),
    clientUserId: integer('client_user_id')
      .notNull()
      .references(() => clientUsers.id, { onDelete: 'cascade' }),
    feedbackText: text('feedback_text').notNull(),
    rating: integer('rating').notNull(),
    createdAt: createdAt(),
    // The version it was given on (set to the current one by a trigger when an insert omits it).
    versionId: integer('version_id').references(() => mediaVersions.id, { onDelete: 'cascade' }),
  },
  (t) => [
    index('client_feedback_media_idx').on(t.mediaId),
    index('client_feedback_version_idx').on(t.versionId),
    index('client_feedback_user_idx').on(t.clientUserId),
    check('client_feedback_rating_check', sql`${t.rating} between 1 and 5`),
  ],
);

export const timelineNotes = sqliteTable(
  'timeline_notes',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    mediaId: integer('media_id')
      .notNull()
      .references(() => media.id, { onDelete: 'cascade' }),
    // The client who wrote it; null for a staff note (issue 29).
    clientUserId: integer('client_user_id').references(() => clientUsers.id, { onDelete: 'cascade' }),
    timestampSeconds: integer('timestamp_seconds').notNull(),
    noteText: text('note_text').notNull(),
    createdAt: createdAt(),
    versionId: integer('version_id').references(() => mediaVersions.id, { onDelete: 'cascade' }),
    resolvedAt: integer('resolved_at', { mode: 'timestamp_ms' }),
    resolvedBy: text('resolved_by').references(() => users.id, { onDelete: 'set null' }),
    // Issue 29: the exact time (null only for rows written without it: read as seconds × 1000),
    // an optional range end, and drawings (JSON, noteShapesSchema).
    timestampMs: integer('timestamp_ms'),
    endMs: integer('end_ms'),
    shapes: text('shapes'),
    // Staff notes (issue 29): author kept as written; internal ones are never shown to clients
    // or link visitors.
    staffUserId: text('staff_user_id').references(() => users.id, { onDelete: 'set null' }),
    byStaff: bool('by_staff').notNull().default(false),
    authorName: text('author_name').notNull().default(''),
    internal: bool('internal').notNull().default(false),
  },
  (t) => [
    index('timeline_notes_version_idx').on(t.versionId),
    index('timeline_notes_media_idx').on(t.mediaId),
    index('timeline_notes_user_idx').on(t.clientUserId),
    check('timeline_notes_timestamp_check', sql`${t.timestampSeconds} >= 0`),
    check('timeline_notes_author_check', sql`${t.byStaff} = 1 OR ${t.clientUserId} IS NOT NULL`),
  ],
);

// One level of replies under a client's feedback or timeline note, by staff or by the client.
// The author's name is kept as written, so a reply still reads right after an account goes.
export const mediaReplies = sqliteTable(
  'media_replies',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    feedbackId: integer('feedback_id').references(() => clientFeedback.id, { onDelete: 'cascade' }),
    timelineNoteId: integer('timeline_note_id').references(() => timelineNotes.id, { onDelete: 'cascade' }),
    // Issue 29: staff answer share-link comments in the same thread.
    shareCommentId: integer('share_comment_id').references((): AnySQLiteColumn => shareComments.id, { onDelete: 'cascade' }),
    staffUserId: text('staff_user_id').references(() => users.id, { onDelete: 'set null' }),
    clientUserId: integer('client_user_id').references(() => clientUsers.id, { onDelete: 'set null' }),
    authorName: text('author_name').notNull(),
    // Kept apart from the ids, which are cleared when an account is deleted.
    byStaff: bool('by_staff').notNull().default(false),
    replyText: text('reply_text').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('media_replies_feedback_idx').on(t.feedbackId),
    index('media_replies_note_idx').on(t.timelineNoteId),
    index('media_replies_share_comment_idx').on(t.shareCommentId),
    check(
      'media_replies_parent_check',
      sql`(${t.feedbackId} IS NOT NULL) + (${t.timelineNoteId} IS NOT NULL) + (${t.shareCommentId} IS NOT NULL) = 1`,
    ),
  ],
);

export const WEBSITE_SECTIONS = [
  'hero',
  'what_we_do',
  'who_we_work_with',
  'how_we_work',
  'retainer_partnerships',
  'who_weve_worked_with',
  'lets_connect',
  'portfolio_header',
  'portfolio_gallery',
  'about_header',
  'about_mission_image',
  'about_values',
  'services_header',
  'services_section',
  'services_cta',
  'contact_header',
  'contact_info',
] as const;
export type WebsiteSection = (typeof WEBSITE_SECTIONS)[number];

export const websiteSettings = sqliteTable('website_settings', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  section: text('section').notNull().unique(),
  backgroundImageId: integer('background_image_id').references(() => media.id, { onDelete: 'set null' }),
  backgroundVideoId: integer('background_video_id').references(() => media.id, { onDelete: 'set null' }),
  contactEmail: text('contact_email'),
  contactPhone: text('contact_phone'),
  contactAddress: text('contact_address'),
  instagramUrl: text('instagram_url'),
  facebookUrl: text('facebook_url'),
  linkedinUrl: text('linkedin_url'),
  updatedBy: text('updated_by').references(() => users.id, { onDelete: 'set null' }),
  updatedAt: integer('updated_at', { mode: 'timestamp_ms' })
    .notNull()
    .default(sql`(unixepoch('subsec') * 1000)`),
});

// Single-row tables (id = 1).
export const brandingSettings = sqliteTable('branding_settings', {
  id: integer('id').primaryKey(),
  companyName: text('company_name').notNull(),
  showCompanyText: bool('show_company_text').notNull().default(true),
  logoLightImageId: integer('logo_light_image_id').references(() => media.id, { onDelete: 'set null' }),
  logoDarkImageId: integer('logo_dark_image_id').references(() => media.id, { onDelete: 'set null' }),
  faviconImageId: integer('favicon_image_id').references(() => media.id, { onDelete: 'set null' }),
  openGraphImageId: integer('open_graph_image_id').references(() => media.id, { onDelete: 'set null' }),
  // How many featured items the home page's What We Do grid shows, newest first (issue 23).
  featuredLimit: integer('featured_limit').notNull().default(9),
  // The portfolio filter's categories, in order (JSON list of names; issue 32). The documents'
  // four until staff change them.
  portfolioCategories: text('portfolio_categories', { mode: 'json' })
    .$type<string[]>()
    .notNull()
    .default(sql`'["Commercial","Documentary","Corporate","Music Video"]'`),
  updatedBy: text('updated_by').references(() => users.id, { onDelete: 'set null' }),
  updatedAt: integer('updated_at', { mode: 'timestamp_ms' })
    .notNull()
    .default(sql`(unixepoch('subsec') * 1000)`),
});

export const seoSettings = sqliteTable('seo_settings', {
  id: integer('id').primaryKey(),
  metaTitle: text('meta_title').notNull().default(''),
  metaDescription: text('meta_description').notNull().default(''),
  metaKeywords: text('meta_keywords').notNull().default(''),
  canonicalUrl: text('canonical_url').notNull().default(''),
  openGraphImageId: integer('open_graph_image_id').references(() => media.id, { onDelete: 'set null' }),
  twitterImageId: integer('twitter_image_id').references(() => media.id, { onDelete: 'set null' }),
  businessName: text('business_name').notNull().default(''),
  businessDescription: text('business_description').notNull().default(''),
  businessType: text('business_type').notNull().default('ProfessionalService'),
  businessUrl: text('business_url').notNull().default(''),
  addressLocality: text('address_locality').notNull().default('Leicestershire'),
  addressRegion: text('address_region').notNull().default('England'),
  addressCountry: text('address_country').notNull().default('GB'),
  postalCode: text('postal_code').notNull().default(''),
  streetAddress: text('street_address').notNull().default(''),
  latitude: text('latitude').notNull().default(''),
  longitude: text('longitude').notNull().default(''),
  businessEmail: text('business_email').notNull().default(''),
  businessPhone: text('business_phone').notNull().default(''),
  services: text('services').notNull().default('[]'),
  faqs: text('faqs').notNull().default('[]'),
  enableStructuredData: bool('enable_structured_data').notNull().default(true),
  enableOpenGraph: bool('enable_open_graph').notNull().default(true),
  enableTwitterCards: bool('enable_twitter_cards').notNull().default(true),
  robotsDirective: text('robots_directive').notNull().default('index, follow'),
  updatedBy: text('updated_by').references(() => users.id, { onDelete: 'set null' }),
  updatedAt: integer('updated_at', { mode: 'timestamp_ms' })
    .notNull()
    .default(sql`(unixepoch('subsec') * 1000)`),
});

export const contactInfo = sqliteTable('contact_info', {
  id: integer('id').primaryKey(),
  contactEmail: text('contact_email').notNull().default(''),
  contactPhone: text('contact_phone').notNull().default(''),
  contactAddress: text('contact_address').notNull().default(''),
  instagramUrl: text('instagram_url').notNull().default(''),
  facebookUrl: text('facebook_url').notNull().default(''),
  linkedinUrl: text('linkedin_url').notNull().default(''),
  updatedBy: text('updated_by').references(() => users.id, { onDelete: 'set null' }),
  updatedAt: integer('updated_at', { mode: 'timestamp_ms' })
    .notNull()
    .default(sql`(unixepoch('subsec') * 1000)`),
});

// Sessions: the id is the SHA-256 (hex) of the token; the token itself is never stored.
export const staffSessions = sqliteTable(
  'staff_sessions',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: integer('expires_at', { mode: 'timestamp_ms' }).notNull(),
    createdAt: createdAt(),
    // Issue 56: the second factor this session was made with ('totp', 'recovery',
    // 'trusted-browser'), null for a password alone. A session without one does not count for
    // an account that holds a factor (src/server/auth/factors/state.ts).
    secondFactor: text('second_factor'),
  },
  (t) => [index('staff_sessions_user_idx').on(t.userId)],
);

export const clientSessions = sqliteTable(
  'client_sessions',
  {
    id: text('id').primaryKey(),
    clientUserId: integer('client_user_id')
      .notNull()
      .references(() => clientUsers.id, { onDelete: 'cascade' }),
    expiresAt: integer('expires_at', { mode: 'timestamp_ms' }).notNull(),
    createdAt: createdAt(),
    secondFactor: text('second_factor'),
  },
  (t) => [index('client_sessions_user_idx').on(t.clientUserId)],
);

export const ENQUIRY_STATUSES = ['new', 'read', 'archived'] as const;

export const enquiries = sqliteTable(
  'enquiries',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    email: text('email').notNull(),
    projectType: text('project_type').notNull().default(''),
    message: text('message').notNull(),
    status: text('status', { enum: ENQUIRY_STATUSES }).notNull().default('new'),
    createdAt: createdAt(),
  },
  (t) => [
    index('enquiries_created_idx').on(t.createdAt),
    check('enquiries_status_check', sql`${t.status} in ('new', 'read', 'archived')`),
  ],
);

// Failed sign-in attempts, for throttling across processes (key is 'user:<name>' or 'ip:<addr>').
// Devices that signed in successfully before (issue 31): the OWASP "device cookie". The id is
// the SHA-256 of the cookie's random token (as for sessions); `account` is 'staff:<user id>' or
// 'client:<client user id>'. A sign-in from such a device is not held up by the account-wide
// bar that failures from other addresses fill; it has a counter of its own instead.
export const trustedDevices = sqliteTable(
  'trusted_devices',
  {
    id: text('id').primaryKey(),
    account: text('account').notNull(),
    createdAt: createdAt(),
    expiresAt: integer('expires_at', { mode: 'timestamp_ms' }).notNull(),
    // Issue 56: "trust this browser for 30 days": until then a sign-in from this device asks
    // for no second factor. Null: the device only counts for the throttle.
    secondFactorUntil: integer('second_factor_until', { mode: 'timestamp_ms' }),
  },
  (t) => [index('trusted_devices_account_idx').on(t.account)],
);

// Second factors (issue 56). Each row belongs to a staff user or a client login (exactly one
// of the two columns), so deleting the account deletes them.

/** An authenticator app (RFC 6238). One per account; `confirmed_at` null while enrolment is under way (it counts for nothing). */
export const totpFactors = sqliteTable(
  'totp_factors',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    userId: text('user_id').references(() => users.id, { onDelete: 'cascade' }),
    clientUserId: integer('client_user_id').references(() => clientUsers.id, { onDelete: 'cascade' }),
    // The secret, AES-256-GCM with a key derived from the server key (src/server/auth/factors/secret-box.ts).
    secretEnc: text('secret_enc').notNull(),
    confirmedAt: integer('confirmed_at', { mode: 'timestamp_ms' }),
    // The newest 30-second step a code was accepted for: that step and older ones are refused (no replay).
    lastUsedStep: integer('last_used_step'),
    lastUsedAt: integer('last_used_at', { mode: 'timestamp_ms' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('totp_factors_user_idx').on(t.userId),
    uniqueIndex('totp_factors_client_user_idx').on(t.clientUserId),
    check('totp_factors_one_owner', sql`(${t.userId} IS NULL) <> (${t.clientUserId} IS NULL)`),
  ],
);

/** Single-use recovery codes: only their SHA-256 (80 random bits each: no salt or slow hash needed). */
export const recoveryCodes = sqliteTable(
  'recovery_codes',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    userId: text('user_id').references(() => users.id, { onDelete: 'cascade' }),
    clientUserId: integer('client_user_id').references(() => clientUsers.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: integer('used_at', { mode: 'timestamp_ms' }),
    createdAt: createdAt(),
  },
  (t) => [
    index('recovery_codes_user_idx').on(t.userId),
    index('recovery_codes_client_user_idx').on(t.clientUserId),
    check('recovery_codes_one_owner', sql`(${t.userId} IS NULL) <> (${t.clientUserId} IS NULL)`),
  ],
);

/**
 * A sign-in whose password was right and whose second factor is awaited: the browser holds the
 * token (HttpOnly cookie), only its SHA-256 is here. Ten minutes, then the password again.
 */
export const pendingSignIns = sqliteTable(
  'pending_sign_ins',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').references(() => users.id, { onDelete: 'cascade' }),
    clientUserId: integer('client_user_id').references(() => clientUsers.id, { onDelete: 'cascade' }),
    expiresAt: integer('expires_at', { mode: 'timestamp_ms' }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('pending_sign_ins_user_idx').on(t.userId),
    index('pending_sign_ins_client_user_idx').on(t.clientUserId),
    check('pending_sign_ins_one_owner', sql`(${t.userId} IS NULL) <> (${t.clientUserId} IS NULL)`),
  ],
);

/**
 * Passkeys (WebAuthn, issue 56) of staff users: a second factor, or a sign-in alone (a passkey
 * asks for the device's PIN or biometrics, so it is two factors in one). The public key and the
 * credential id are base64url; `counter` is the authenticator's signature counter (one going
 * backwards is a cloned key, refused).
 */
export const passkeys = sqliteTable(
  'passkeys',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    credentialId: text('credential_id').notNull().unique(),
    publicKey: text('public_key').notNull(),
    counter: integer('counter').notNull().default(0),
    transports: text('transports', { mode: 'json' }).$type<string[]>(),
    name: text('name').notNull(),
    backedUp: bool('backed_up').notNull().default(false),
    lastUsedAt: integer('last_used_at', { mode: 'timestamp_ms' }),
    createdAt: createdAt(),
  },
  (t) => [index('passkeys_user_idx').on(t.userId)],
);

/**
 * A WebAuthn challenge this server issued, good for five minutes and one use: the browser holds
 * a random token (HttpOnly cookie), only its SHA-256 is here. `purpose` says which ceremony may
 * use it ('factor': a known account's passkey, for its second step or to confirm a change); `userId` is
 * the account it was issued for (null for a username-less sign-in).
 */
export const passkeyChallenges = sqliteTable(
  'passkey_challenges',
  {
    id: text('id').primaryKey(),
    purpose: text('purpose', { enum: ['register', 'sign-in', 'factor'] }).notNull(),
    userId: text('user_id').references(() => users.id, { onDelete: 'cascade' }),
    challenge: text('challenge').notNull(),
    expiresAt: integer('expires_at', { mode: 'timestamp_ms' }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('passkey_challenges_expires_idx').on(t.expiresAt)],
);

export const loginAttempts = sqliteTable(
  'login_attempts',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    key: text('key').notNull(),
    attemptedAt: integer('attempted_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [index('login_attempts_key_idx').on(t.key, t.attemptedAt)],
);

// One row; `version` is bumped on every change a public page shows, so page caches in
// every process can tell cheaply that they are stale.
export const siteState = sqliteTable('site_state', {
  id: integer('id').primaryKey(),
  version: integer('version').notNull().default(1),
});

// One row; `version` is bumped by SQLite triggers (migration 0001) on every write to media,
// media-client links, feedback, timeline notes and clients, so the serialised admin media list
// can be cached and still be exact in every process.
export const libraryState = sqliteTable('library_state', {
  id: integer('id').primaryKey(),
  version: integer('version').notNull().default(1),
});

// One row per backup attempt (scheduled or `npm run backup`), so the admin dashboard can show
// the time and result of the last one and a failure is not only in a log nobody reads.
export const backupRuns = sqliteTable(
  'backup_runs',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    startedAt: integer('started_at', { mode: 'timestamp_ms' }).notNull(),
    finishedAt: integer('finished_at', { mode: 'timestamp_ms' }).notNull(),
    ok: bool('ok').notNull(),
    trigger: text('trigger', { enum: ['schedule', 'command'] }).notNull(),
    /** The snapshot folder's name inside the backup folder (null when it failed). */
    snapshot: text('snapshot'),
    files: integer('files').notNull().default(0),
    bytes: integer('bytes').notNull().default(0),
    /** Media files stored this time (the rest were already in an earlier snapshot). */
    newFiles: integer('new_files').notNull().default(0),
    message: text('message'),
  },
  (t) => [index('backup_runs_started_idx').on(t.startedAt)],
);

// Resumable (tus) uploads in progress: who may continue one and when it expires. The bytes
// and tus's own offset live in MEDIA_DIR/.uploads (src/server/uploads). `finishedAt` is set
// when the upload became a media item, so a second finishing call answers 409, not 404.
export const uploads = sqliteTable(
  'uploads',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    size: integer('size').notNull(),
    filename: text('filename').notNull().default(''),
    createdAt: createdAt(),
    expiresAt: integer('expires_at', { mode: 'timestamp_ms' }).notNull(),
    finishedAt: integer('finished_at', { mode: 'timestamp_ms' }),
    mediaId: integer('media_id').references(() => media.id, { onDelete: 'set null' }),
  },
  (t) => [index('uploads_user_idx').on(t.userId, t.finishedAt), index('uploads_expires_idx').on(t.expiresAt)],
);

export const JOB_STATUSES = ['queued', 'running', 'done', 'failed'] as const;

// The durable job queue (src/server/jobs). A job is claimed by one UPDATE ... RETURNING and
// held by a lease the worker renews; a lease that runs out means the worker died and the
// job is taken again. Deleting the media item deletes its jobs (the worker then stops ffmpeg).
export const jobs = sqliteTable(
  'jobs',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    kind: text('kind').notNull(),
    mediaId: integer('media_id')
      .notNull()
      .references(() => media.id, { onDelete: 'cascade' }),
    // The version whose files are converted (each version has its own renditions and sprite).
    versionId: integer('version_id').references(() => mediaVersions.id, { onDelete: 'cascade' }),
    // 'watermark' jobs make one share link's preview of the version (issue 17).
    linkId: integer('link_id'),
    // 'burn' jobs make one open-captions rendition (issue 54): the caption_burns row.
    captionBurnId: integer('caption_burn_id'),
    status: text('status', { enum: JOB_STATUSES }).notNull().default('queued'),
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull().default(3),
    runAfter: integer('run_after').notNull().default(0),
    leaseOwner: text('lease_owner'),
    leaseExpiresAt: integer('lease_expires_at'),
    progress: integer('progress').notNull().default(0),
    // 'remux' or 'transcode': which path the last run took.
    path: text('path'),
    lastError: text('last_error'),
    // Threads the next attempt's ffmpeg may use; null: FFMPEG_THREADS. Set lower when an attempt's
    // ffmpeg was killed by the system (out of memory), so the retry needs less (issue 43).
    ffmpegThreads: integer('ffmpeg_threads'),
    createdAt: createdAt(),
    finishedAt: integer('finished_at', { mode: 'timestamp_ms' }),
  },
  (t) => [index('jobs_claim_idx').on(t.status, t.runAfter), index('jobs_media_idx').on(t.mediaId)],
);

// One row per running video worker, written every few seconds (src/server/jobs/heartbeat.ts):
// GET /api/health reports the newest one's age and whether that worker found ffmpeg (issue 43).
export const workerHeartbeats = sqliteTable('worker_heartbeats', {
  owner: text('owner').primaryKey(),
  seenAt: integer('seen_at').notNull(),
  ffmpeg: bool('ffmpeg').notNull(),
});

// Share links (issue 17): a link to one or more items for people without an account, at
// /s/{token}. Only the SHA-256 of the token is kept (like sessions), so the address is shown
// once, when the link is made. Links are revoked, never deleted, so their log stays.
export const SHARE_DOWNLOADS = ['none', 'preview', 'original'] as const;
export const WATERMARK_POSITIONS = ['top-left', 'top-right', 'bottom-left', 'bottom-right', 'center'] as const;

export const shareLinks = sqliteTable(
  'share_links',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    tokenHash: text('token_hash').notNull().unique(),
    // The token itself, encrypted with the server's share-link key (issue 32,
    // sharing/link-key.ts), so staff can copy the address again. NULL for links made before.
    tokenEnc: text('token_enc'),
    name: text('name').notNull(),
    passwordHash: text('password_hash'),
    expiresAt: integer('expires_at', { mode: 'timestamp_ms' }),
    revokedAt: integer('revoked_at', { mode: 'timestamp_ms' }),
    allowComment: bool('allow_comment').notNull().default(false),
    allowApprove: bool('allow_approve').notNull().default(false),
    download: text('download', { enum: SHARE_DOWNLOADS }).notNull().default('none'),
    // A watermarked preview is all such a link can play or download.
    watermark: bool('watermark').notNull().default(false),
    watermarkText: text('watermark_text').notNull().default(''),
    watermarkPosition: text('watermark_position', { enum: WATERMARK_POSITIONS }).notNull().default('bottom-right'),
    watermarkOpacity: integer('watermark_opacity').notNull().default(60),
    createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    // Set on a client's own watermark (a client set to see only watermarked previews): the row
    // names the preview files and never opens by token (none is ever given out).
    clientId: integer('client_id').references(() => clients.id, { onDelete: 'cascade' }),
    // Names this link's preview files (`lp-{fileKey}.mp4|jpg`, issue 31): random (newFileKey in
    // storage paths), so nobody can guess another link's file from its sequential id.
    fileKey: text('file_key').notNull().default(''),
    // Issue 30: downloads (original and preview) open only once the item's current version is approved.
    downloadsAfterApproval: bool('downloads_after_approval').notNull().default(false),
    // Issue 42: a link to a proofing gallery instead of chosen items (share_link_items stays
    // empty); downloads then follow the gallery's package, not `download`. SQLite's ADD COLUMN
    // keeps no ON DELETE action: deleting a gallery revokes its links and clears this first.
    galleryId: integer('gallery_id').references((): AnySQLiteColumn => galleries.id),
  },
  (t) => [
    index('share_links_client_idx').on(t.clientId),
    index('share_links_gallery_idx').on(t.galleryId),
    check('share_links_download_check', sql`${t.download} in ('none', 'preview', 'original')`),
    check('share_links_opacity_check', sql`${t.watermarkOpacity} between 10 and 100`),
  ],
);

export const shareLinkItems = sqliteTable(
  'share_link_items',
  {
    linkId: integer('link_id')
      .notNull()
      .references(() => shareLinks.id, { onDelete: 'cascade' }),
    mediaId: integer('media_id')
      .notNull()
      .references(() => media.id, { onDelete: 'cascade' }),
    position: integer('position').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.linkId, t.mediaId] }), index('share_link_items_media_idx').on(t.mediaId)],
);

// A visitor's pass for one link (cookie token, SHA-256 kept): made when the page is opened,
// after the password when there is one. The guest name is typed once and kept here.
export const shareVisits = sqliteTable(
  'share_visits',
  {
    id: text('id').primaryKey(),
    linkId: integer('link_id')
      .notNull()
      .references(() => shareLinks.id, { onDelete: 'cascade' }),
    guestName: text('guest_name').notNull().default(''),
    createdAt: createdAt(),
    expiresAt: integer('expires_at', { mode: 'timestamp_ms' }).notNull(),
    // The last "open" written to the access log for this visit: one an hour, not one a reload.
    lastOpenAt: integer('last_open_at', { mode: 'timestamp_ms' }),
  },
  (t) => [index('share_visits_link_idx').on(t.linkId)],
);

export const shareAccessLog = sqliteTable(
  'share_access_log',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    linkId: integer('link_id')
      .notNull()
      .references(() => shareLinks.id, { onDelete: 'cascade' }),
    mediaId: integer('media_id').references(() => media.id, { onDelete: 'set null' }),
    action: text('action').notNull(),
    ip: text('ip'),
    guestName: text('guest_name').notNull().default(''),
    detail: text('detail').notNull().default(''),
    createdAt: createdAt(),
  },
  (t) => [index('share_access_log_link_idx').on(t.linkId, t.createdAt)],
);

// Feedback and timeline notes left through a link, under the guest name (clients' own go to
// client_feedback / timeline_notes, which need a client account).
export const shareComments = sqliteTable(
  'share_comments',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    linkId: integer('link_id')
      .notNull()
      .references(() => shareLinks.id, { onDelete: 'cascade' }),
    mediaId: integer('media_id')
      .notNull()
      .references(() => media.id, { onDelete: 'cascade' }),
    versionId: integer('version_id').references(() => mediaVersions.id, { onDelete: 'cascade' }),
    guestName: text('guest_name').notNull(),
    kind: text('kind', { enum: ['feedback', 'note'] }).notNull(),
    rating: integer('rating'),
    timestampSeconds: integer('timestamp_seconds'),
    text: text('text').notNull(),
    createdAt: createdAt(),
    // Issue 29: exact time, range end, drawings (as on timeline_notes), and resolution by staff.
    timestampMs: integer('timestamp_ms'),
    endMs: integer('end_ms'),
    shapes: text('shapes'),
    resolvedAt: integer('resolved_at', { mode: 'timestamp_ms' }),
    resolvedBy: text('resolved_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    index('share_comments_media_idx').on(t.mediaId),
    index('share_comments_link_idx').on(t.linkId),
    check('share_comments_kind_check', sql`${t.kind} in ('feedback', 'note')`),
  ],
);

// Notifications (issue 17). An event is what happened (the bell lists the staff ones); the
// outbox holds one email per recipient, written in the same transaction as its event, so a
// message exists as soon as the event does and survives SMTP being down or absent.
export const NOTIFICATION_AUDIENCES = ['staff', 'client'] as const;

export const notificationEvents = sqliteTable(
  'notification_events',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    kind: text('kind').notNull(),
    mediaId: integer('media_id').references(() => media.id, { onDelete: 'set null' }),
    versionNumber: integer('version_number'),
    // The client an 'assigned' event is for (null when it concerns every assigned client).
    clientId: integer('client_id').references(() => clients.id, { onDelete: 'set null' }),
    actor: text('actor').notNull().default(''),
    // One line for the bell, written when the event happens (the item may be renamed later).
    summary: text('summary').notNull(),
    // In-app link to the item (admin or portal).
    path: text('path').notNull(),
    audience: text('audience', { enum: NOTIFICATION_AUDIENCES }).notNull(),
    // A timeline note's time (ms) and first line, for the bell (issue 32); null for other kinds.
    noteMs: integer('note_ms'),
    noteLine: text('note_line'),
    createdAt: createdAt(),
    // Issue 57: a staff event for one person (a review stage waiting on them, a reminder, a
    // mention): only their bell shows it. Null: every staff bell, as before.
    recipientUserId: text('recipient_user_id').references(() => users.id, { onDelete: 'cascade' }),
  },
  (t) => [
    index('notification_events_audience_idx').on(t.audience, t.id),
    index('notification_events_recipient_idx').on(t.recipientUserId),
    check('notification_events_audience_check', sql`${t.audience} in ('staff', 'client')`),
  ],
);

// pending: due at next_attempt_at; sending: leased by a sender; sent; failed: gave up after
// the last attempt (kept); held: waits for its recipient's daily digest; digested: went out
// inside the digest message named by digest_id; written: no SMTP_URL, saved as a file
// (`npm run notify:resend` makes written and failed rows pending again).
export const OUTBOX_STATUSES = ['pending', 'sending', 'sent', 'failed', 'held', 'digested', 'written'] as const;

export const notificationOutbox = sqliteTable(
  'notification_outbox',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    eventId: integer('event_id').references(() => notificationEvents.id, { onDelete: 'set null' }),
    // A digest message's own row names no event; the held rows it carried point at it.
    digestId: integer('digest_id'),
    // 'guest': a gallery link's visitor who left an address for the expiry reminder (issue 42).
    recipientKind: text('recipient_kind', { enum: [...NOTIFICATION_AUDIENCES, 'guest'] }).notNull(),
    // users.id (text) or client_users.id (as text); no foreign key, so a message outlives its account.
    recipientId: text('recipient_id').notNull(),
    recipientAddress: text('recipient_address').notNull(),
    subject: text('subject').notNull(),
    body: text('body').notNull(),
    status: text('status', { enum: OUTBOX_STATUSES }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: integer('next_attempt_at').notNull().default(0),
    leaseOwner: text('lease_owner'),
    leaseExpiresAt: integer('lease_expires_at'),
    lastError: text('last_error'),
    filePath: text('file_path'),
    createdAt: createdAt(),
    sentAt: integer('sent_at', { mode: 'timestamp_ms' }),
  },
  (t) => [
    index('notification_outbox_due_idx').on(t.status, t.nextAttemptAt),
    index('notification_outbox_recipient_idx').on(t.recipientKind, t.recipientId, t.status),
    check(
      'notification_outbox_status_check',
      sql`${t.status} in ('pending', 'sending', 'sent', 'failed', 'held', 'digested', 'written')`,
    ),
  ],
);

// One row: the digest slot (a day, or an interval in tests) last claimed, so several
// processes send one digest per slot between them.
export const notificationState = sqliteTable('notification_state', {
  id: integer('id').primaryKey(),
  digestSlot: text('digest_slot').notNull().default(''),
  // Issue 57: the review due digest's slot, claimed as the digest's is.
  reviewDigestSlot: text('review_digest_slot').notNull().default(''),
});

// ---- Stills proofing (issue 42, src/server/proofing) -------------------------------------------
// A gallery is a set of images clients pick from: in sets, in an order, shared to clients in the
// portal and/or through share links (share_links.gallery_id), with selection lists, hearts and
// stars per viewer, a download package, an optional PIN and an expiry.
export const DOWNLOAD_TIERS = ['off', 'web1024', 'web2048', 'highres', 'original'] as const;
export const GALLERY_SORTS = ['capture', 'filename', 'manual'] as const;

export const galleries = sqliteTable(
  'galleries',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    title: text('title').notNull(),
    coverMediaId: integer('cover_media_id').references(() => media.id, { onDelete: 'set null' }),
    sortOrder: text('sort_order', { enum: GALLERY_SORTS }).notNull().default('capture'),
    // What viewers may download (a set may say otherwise, gallery_sets.download_tier).
    downloadTier: text('download_tier', { enum: DOWNLOAD_TIERS }).notNull().default('web2048'),
    // The long edge of "high-res" downloads, in pixels.
    highResEdge: integer('high_res_edge').notNull().default(3600),
    // How many different images one viewer (a client's logins together, a link's visitors
    // together) may download at high-res or original size; null = no cap.
    highResCap: integer('high_res_cap'),
    // Four digits asked before any download (viewing stays free); null = none.
    downloadPin: text('download_pin'),
    // The last day viewers may open it (studio's time zone) and the instant that day ends.
    expiresOn: text('expires_on'),
    expiresAt: integer('expires_at', { mode: 'timestamp_ms' }),
    // Viewers are reminded this many days before it expires; null = no reminder.
    reminderDays: integer('reminder_days'),
    // The expiry date whose reminder went out: a new date (staff extend) gets its own.
    remindedFor: text('reminded_for'),
    createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: integer('updated_at', { mode: 'timestamp_ms' })
      .notNull()
      .default(sql`(unixepoch('subsec') * 1000)`),
  },
  (t) => [
    index('galleries_expires_idx').on(t.expiresAt),
    check('galleries_sort_check', sql`${t.sortOrder} in ('capture', 'filename', 'manual')`),
    check('galleries_tier_check', sql`${t.downloadTier} in ('off', 'web1024', 'web2048', 'highres', 'original')`),
  ],
);

export const gallerySets = sqliteTable(
  'gallery_sets',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    galleryId: integer('gallery_id')
      .notNull()
      .references(() => galleries.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    position: integer('position').notNull().default(0),
    // null: as the gallery.
    downloadTier: text('download_tier', { enum: DOWNLOAD_TIERS }),
  },
  (t) => [index('gallery_sets_gallery_idx').on(t.galleryId, t.position)],
);

export const galleryImages = sqliteTable(
  'gallery_images',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    galleryId: integer('gallery_id')
      .notNull()
      .references(() => galleries.id, { onDelete: 'cascade' }),
    mediaId: integer('media_id')
      .notNull()
      .references(() => media.id, { onDelete: 'cascade' }),
    setId: integer('set_id').references(() => gallerySets.id, { onDelete: 'set null' }),
    // The manual order (sort_order 'manual'); new images go last.
    position: integer('position').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('gallery_images_unique').on(t.galleryId, t.mediaId), index('gallery_images_media_idx').on(t.mediaId)],
);

export const galleryClients = sqliteTable(
  'gallery_clients',
  {
    galleryId: integer('gallery_id')
      .notNull()
      .references(() => galleries.id, { onDelete: 'cascade' }),
    clientId: integer('client_id')
      .notNull()
      .references(() => clients.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.galleryId, t.clientId] }), index('gallery_clients_client_idx').on(t.clientId)],
);

// "Pick 30 for retouching": staff set the bounds; each viewer has their own selection of it.
export const selectionLists = sqliteTable(
  'selection_lists',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    galleryId: integer('gallery_id')
      .notNull()
      .references(() => galleries.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    minCount: integer('min_count').notNull().default(0),
    // null = no upper bound.
    maxCount: integer('max_count'),
    position: integer('position').notNull().default(0),
  },
  (t) => [index('selection_lists_gallery_idx').on(t.galleryId)],
);

// Who picks: a client login, or a link's guest (a cookie of its own, only its SHA-256 kept, so
// their picks outlive a 7-day pass).
export const proofViewers = sqliteTable(
  'proof_viewers',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    galleryId: integer('gallery_id')
      .notNull()
      .references(() => galleries.id, { onDelete: 'cascade' }),
    clientUserId: integer('client_user_id').references(() => clientUsers.id, { onDelete: 'cascade' }),
    linkId: integer('link_id').references(() => shareLinks.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').unique(),
    name: text('name').notNull().default(''),
    // A guest's address for the expiry reminder (optional).
    email: text('email').notNull().default(''),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('proof_viewers_client_unique').on(t.galleryId, t.clientUserId), index('proof_viewers_link_idx').on(t.linkId)],
);

export const proofMarks = sqliteTable(
  'proof_marks',
  {
    viewerId: integer('viewer_id')
      .notNull()
      .references(() => proofViewers.id, { onDelete: 'cascade' }),
    imageId: integer('image_id')
      .notNull()
      .references(() => galleryImages.id, { onDelete: 'cascade' }),
    heart: bool('heart').notNull().default(false),
    stars: integer('stars').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.viewerId, t.imageId] }), index('proof_marks_image_idx').on(t.imageId), check('proof_marks_stars_check', sql`${t.stars} between 0 and 5`)],
);

// One viewer's picks for one list; submitted_at set = locked until staff reopen it.
export const selections = sqliteTable(
  'selections',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    listId: integer('list_id')
      .notNull()
      .references(() => selectionLists.id, { onDelete: 'cascade' }),
    viewerId: integer('viewer_id')
      .notNull()
      .references(() => proofViewers.id, { onDelete: 'cascade' }),
    submittedAt: integer('submitted_at', { mode: 'timestamp_ms' }),
    reopenedAt: integer('reopened_at', { mode: 'timestamp_ms' }),
    reopenNote: text('reopen_note'),
    reopenedBy: text('reopened_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('selections_unique').on(t.listId, t.viewerId), index('selections_viewer_idx').on(t.viewerId)],
);

export const selectionItems = sqliteTable(
  'selection_items',
  {
    selectionId: integer('selection_id')
      .notNull()
      .references(() => selections.id, { onDelete: 'cascade' }),
    imageId: integer('image_id')
      .notNull()
      .references(() => galleryImages.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.selectionId, t.imageId] }), index('selection_items_image_idx').on(t.imageId)],
);

// What the job queue made of one version of an image for galleries: the AVIF/WebP display sizes
// and the EXIF facts (capture time, camera, lens). No row yet: the job has not run.
export const stills = sqliteTable('stills', {
  versionId: integer('version_id')
    .primaryKey()
    .references(() => mediaVersions.id, { onDelete: 'cascade' }),
  status: text('status', { enum: ['ready', 'failed'] }).notNull(),
  capturedAt: integer('captured_at', { mode: 'timestamp_ms' }),
  camera: text('camera'),
  lens: text('lens'),
  madeAt: createdAt(),
});

// Every download by a gallery's viewers (the client's log; a link's go to its access log too),
// one row per image, also inside a ZIP (zip_id groups them). High-res caps count these.
export const galleryDownloads = sqliteTable(
  'gallery_downloads',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    galleryId: integer('gallery_id')
      .notNull()
      .references(() => galleries.id, { onDelete: 'cascade' }),
    imageId: integer('image_id').references(() => galleryImages.id, { onDelete: 'set null' }),
    mediaId: integer('media_id').references(() => media.id, { onDelete: 'set null' }),
    clientId: integer('client_id').references(() => clients.id, { onDelete: 'cascade' }),
    clientUserId: integer('client_user_id').references(() => clientUsers.id, { onDelete: 'set null' }),
    linkId: integer('link_id').references(() => shareLinks.id, { onDelete: 'cascade' }),
    who: text('who').notNull().default(''),
    tier: text('tier', { enum: DOWNLOAD_TIERS }).notNull(),
    zipId: text('zip_id'),
    fileName: text('file_name').notNull().default(''),
    ip: text('ip'),
    createdAt: createdAt(),
  },
  (t) => [
    index('gallery_downloads_gallery_idx').on(t.galleryId, t.createdAt),
    index('gallery_downloads_client_idx').on(t.galleryId, t.clientId, t.tier),
    index('gallery_downloads_link_idx').on(t.galleryId, t.linkId, t.tier),
  ],
);

// A browser that entered a gallery's download PIN (cookie token, SHA-256 kept), for a day.
export const galleryPinPasses = sqliteTable(
  'gallery_pin_passes',
  {
    id: text('id').primaryKey(),
    galleryId: integer('gallery_id')
      .notNull()
      .references(() => galleries.id, { onDelete: 'cascade' }),
    expiresAt: integer('expires_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [index('gallery_pin_passes_gallery_idx').on(t.galleryId)],
);

// Live updates (issue 41, src/server/live): an append-only log every web process tails. Rows
// are written by triggers on the tables whose changes screens show (notes, replies, versions,
// approvals, processing, links, sessions...), so every writer (web processes, workers, scripts)
// publishes without knowing it, and by the live review sessions. No foreign keys: an event
// outlives what it names. `audience` says who may receive it, decided again when it is sent
// (src/server/live/audience.ts); topics starting `sys-` are never sent, they close or refresh
// channels. Rows are pruned after LIVE_RETENTION_MS; the id is the stream's event id.
export const liveEvents = sqliteTable(
  'live_events',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    topic: text('topic').notNull(),
    audience: text('audience').notNull(),
    // For audience 'staff': the permission a staff member needs (view:media when null).
    permission: text('permission'),
    mediaId: integer('media_id'),
    versionId: integer('version_id'),
    clientId: integer('client_id'),
    clientUserId: integer('client_user_id'),
    linkId: integer('link_id'),
    sessionId: integer('session_id'),
    // JSON: ids and states only, never a file name or a note's text.
    data: text('data').notNull().default('{}'),
    createdAt: createdAt(),
  },
  (t) => [index('live_events_created_idx').on(t.createdAt)],
);

// Live review sessions (issue 41): a presenter drives everyone's player on one item. `state`
// is the presenter's player (JSON, LiveState in src/shared/schemas/live.ts) so a late joiner
// starts where everyone is; `summary` (who joined, notes made) is written when it ends and kept.
export const liveSessions = sqliteTable(
  'live_sessions',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    mediaId: integer('media_id')
      .notNull()
      .references(() => media.id, { onDelete: 'cascade' }),
    startedBy: text('started_by').references(() => users.id, { onDelete: 'set null' }),
    startedByName: text('started_by_name').notNull(),
    // The participant key (src/server/live/participants.ts) holding control.
    presenter: text('presenter').notNull(),
    state: text('state').notNull(),
    createdAt: createdAt(),
    endedAt: integer('ended_at', { mode: 'timestamp_ms' }),
    endReason: text('end_reason'),
    summary: text('summary'),
  },
  (t) => [
    index('live_sessions_media_idx').on(t.mediaId, t.endedAt),
    // One session at a time per item.
    uniqueIndex('live_sessions_open_unique').on(t.mediaId).where(sql`${t.endedAt} is null`),
  ],
);

export const liveParticipants = sqliteTable(
  'live_participants',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    sessionId: integer('session_id')
      .notNull()
      .references(() => liveSessions.id, { onDelete: 'cascade' }),
    // 'staff:<user id>', 'client:<client user id>' or 'link:<visit id hash prefix>'.
    key: text('key').notNull(),
    kind: text('kind', { enum: ['staff', 'client', 'guest'] }).notNull(),
    name: text('name').notNull(),
    joinedAt: createdAt(),
    // Renewed while one of its streams is open; null left_at = there now.
    lastSeenAt: integer('last_seen_at', { mode: 'timestamp_ms' }).notNull(),
    leftAt: integer('left_at', { mode: 'timestamp_ms' }),
    frame: integer('frame'),
    following: bool('following').notNull().default(true),
  },
  (t) => [uniqueIndex('live_participants_unique').on(t.sessionId, t.key)],
);

// Captions and subtitles (issue 54, src/server/captions). A track is one language and kind of
// one version; what it says is its current revision, a snapshot of cues. A revision is never
// changed once written (an upload, an edit or an extraction from the file writes a new one), so
// a player's address naming a revision is cacheable for good and notes can pin a revision's cue.
export const CAPTION_KINDS = ['subtitles', 'captions', 'forced'] as const;
export const CAPTION_SOURCES = ['uploaded', 'edited', 'embedded'] as const;

export const captionTracks = sqliteTable(
  'caption_tracks',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    mediaId: integer('media_id')
      .notNull()
      .references(() => media.id, { onDelete: 'cascade' }),
    versionId: integer('version_id')
      .notNull()
      .references(() => mediaVersions.id, { onDelete: 'cascade' }),
    // BCP 47, canonical form (src/server/captions/language.ts).
    language: text('language').notNull(),
    label: text('label').notNull(),
    kind: text('kind', { enum: CAPTION_KINDS }).notNull(),
    // Shown on the public site (watch pages, transcript, structured data) while the item is.
    published: bool('published').notNull().default(false),
    // The revision players show; null only while the first one is being written.
    currentRevisionId: integer('current_revision_id'),
    // Carried over from the previous version's track (one click, issue 54).
    carriedFrom: integer('carried_from'),
    createdAt: createdAt(),
    updatedAt: integer('updated_at', { mode: 'timestamp_ms' })
      .notNull()
      .default(sql`(unixepoch('subsec') * 1000)`),
  },
  (t) => [
    uniqueIndex('caption_tracks_unique').on(t.versionId, t.language, t.kind),
    index('caption_tracks_media_idx').on(t.mediaId),
    check('caption_tracks_kind_check', sql`${t.kind} in ('subtitles', 'captions', 'forced')`),
  ],
);

export const captionRevisions = sqliteTable(
  'caption_revisions',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    trackId: integer('track_id')
      .notNull()
      .references(() => captionTracks.id, { onDelete: 'cascade' }),
    number: integer('number').notNull(),
    source: text('source', { enum: CAPTION_SOURCES }).notNull(),
    // The file as it came (srt, vtt, sbv, ass), its encoding as decided from its bytes, its name.
    format: text('format').notNull(),
    encoding: text('encoding').notNull(),
    fileName: text('file_name').notNull().default(''),
    original: blob('original', { mode: 'buffer' }),
    cueCount: integer('cue_count').notNull(),
    // JSON string[]: what was repaired on the way in (renumbered cues, overlaps, styling dropped).
    notes: text('notes', { mode: 'json' }).$type<string[]>().notNull().default(sql`'[]'`),
    createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('caption_revisions_number_unique').on(t.trackId, t.number), check('caption_revisions_source_check', sql`${t.source} in ('uploaded', 'edited', 'embedded')`)],
);

// One row per cue of a revision, in order. Times in milliseconds as the file gave them; players
// get them on the version's frames (src/server/captions/format.ts). `text` is the cue as
// WebVTT can show it: plain text with only <i>, <b> and <u>, lines split by LF.
export const captionCues = sqliteTable(
  'caption_cues',
  {
    revisionId: integer('revision_id')
      .notNull()
      .references(() => captionRevisions.id, { onDelete: 'cascade' }),
    seq: integer('seq').notNull(),
    startMs: integer('start_ms').notNull(),
    endMs: integer('end_ms').notNull(),
    text: text('text').notNull(),
    // WebVTT cue settings kept from the file (line, position, align), e.g. "line:0" for {\an8}.
    settings: text('settings').notNull().default(''),
  },
  (t) => [primaryKey({ columns: [t.revisionId, t.seq] })],
);

// An open-captions rendition (captions burnt into the picture) of a track's revision, made by
// the job queue (kind 'burn'); its file is `oc-{id}.mp4` in the version's folder.
export const CAPTION_BURN_STATUSES = ['queued', 'ready', 'failed'] as const;
export const captionBurns = sqliteTable(
  'caption_burns',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    trackId: integer('track_id')
      .notNull()
      .references(() => captionTracks.id, { onDelete: 'cascade' }),
    revisionId: integer('revision_id').notNull(),
    status: text('status', { enum: CAPTION_BURN_STATUSES }).notNull().default('queued'),
    error: text('error'),
    createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [index('caption_burns_track_idx').on(t.trackId)],
);

// The audit log (issue 56): an append-only record of who did what, from where, on which object.
// Rows are chained by hash (src/server/audit/chain.ts): each row's `hash` covers its fields and
// the row before's hash, and `id` is always the row before's id + 1, so an edited, inserted or
// deleted row breaks the chain at that point (npm run audit:verify). Written only through
// src/server/audit/record.ts, with the change it records; a trigger (migration 0033) moves the
// head in audit_state with each row.
export const AUDIT_ACTOR_TYPES = ['staff', 'client', 'guest', 'system', 'anonymous'] as const;

export const auditLog = sqliteTable(
  'audit_log',
  {
    // Given by the writer (the head's id + 1), never AUTOINCREMENT: the primary key then refuses a
    // second row after the same head, so two writers can never fork the chain.
    id: integer('id').primaryKey(),
    // Never earlier than the row before (the writer takes the later of the clock and the head's),
    // so a date range is an id range.
    at: integer('at', { mode: 'timestamp_ms' }).notNull(),
    actorType: text('actor_type', { enum: AUDIT_ACTOR_TYPES }).notNull(),
    // 'staff:<user id>', 'client:<client id>', 'link:<link id>', 'system' or 'anonymous'.
    actorKey: text('actor_key').notNull(),
    // The name as it was then (a deleted user or an erased client keeps their rows readable).
    actorName: text('actor_name').notNull().default(''),
    ip: text('ip'),
    // A summary of the user agent ("Firefox 141 on Linux"), not the whole header.
    agent: text('agent').notNull().default(''),
    kind: text('kind').notNull(),
    objectType: text('object_type'),
    objectId: text('object_id'),
    objectName: text('object_name').notNull().default(''),
    // The sign-in factor a sign-in row is about ('password'; the second factors add theirs).
    factor: text('factor'),
    // JSON, or '' when there is nothing more to say.
    detail: text('detail').notNull().default(''),
    prevHash: text('prev_hash').notNull(),
    hash: text('hash').notNull(),
  },
  (t) => [
    index('audit_log_kind_idx').on(t.kind, t.id),
    index('audit_log_actor_idx').on(t.actorKey, t.id),
    index('audit_log_object_idx').on(t.objectType, t.objectId, t.id),
    index('audit_log_at_idx').on(t.at),
  ],
);

// One row (id 1): the chain's head (the last row written) and its anchor (the last row pruned
// by retention, or the genesis hash), so verifying starts from the anchor and ends at the head.
export const auditState = sqliteTable('audit_state', {
  id: integer('id').primaryKey(),
  headId: integer('head_id').notNull().default(0),
  headHash: text('head_hash').notNull(),
  headAt: integer('head_at').notNull().default(0),
  anchorId: integer('anchor_id').notNull().default(0),
  anchorHash: text('anchor_hash').notNull(),
  prunedAt: integer('pruned_at', { mode: 'timestamp_ms' }),
});

// Search (issue 54, src/server/search): one row per thing a search can find, the current
// revision's caption cues and the timeline notes, kept by triggers (migration 0029) so every
// writer, old or new, keeps it whole. The words are indexed by the FTS5 table `search_fts`
// (unicode61, accents folded; external content: this table's `text`), which drizzle does not
// model; queries go through src/server/search/query.ts. `text` is what is shown: a cue without
// its <i>, <b> and <u> tags, a note as written.
export const SEARCH_DOC_KINDS = ['cue', 'note'] as const;

export const searchDocs = sqliteTable(
  'search_docs',
  {
    id: integer('id').primaryKey(),
    kind: text('kind', { enum: SEARCH_DOC_KINDS }).notNull(),
    mediaId: integer('media_id').notNull(),
    versionId: integer('version_id'),
    trackId: integer('track_id'),
    noteId: integer('note_id'),
    atMs: integer('at_ms').notNull(),
    text: text('text').notNull(),
  },
  (t) => [index('search_docs_track_idx').on(t.trackId), index('search_docs_note_idx').on(t.noteId), index('search_docs_media_idx').on(t.mediaId)],
);

// A note pinned to a caption cue (issue 54 item 3): the cue as it read when the note was written
// (its track, revision, times and text, kept even if the track changes or goes), and optionally
// a wording the note proposes, which staff accept into the track as its next revision in one
// click (src/server/captions/cue-notes.ts). One row per note: a client's or staff note
// (timeline_notes) or a link guest's (share_comments), exactly one of the two.
export const noteCues = sqliteTable(
  'note_cues',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    timelineNoteId: integer('timeline_note_id').references(() => timelineNotes.id, { onDelete: 'cascade' }),
    shareCommentId: integer('share_comment_id').references(() => shareComments.id, { onDelete: 'cascade' }),
    trackId: integer('track_id').references(() => captionTracks.id, { onDelete: 'set null' }),
    revisionId: integer('revision_id').references(() => captionRevisions.id, { onDelete: 'set null' }),
    startMs: integer('start_ms').notNull(),
    endMs: integer('end_ms').notNull(),
    // The cue as stored (escaped, with its <i>, <b> and <u>).
    cueText: text('cue_text').notNull(),
    // The wording proposed, as typed (the editor's form: tags as typed, nothing escaped).
    proposal: text('proposal'),
    acceptedRevisionId: integer('accepted_revision_id').references(() => captionRevisions.id, { onDelete: 'set null' }),
    acceptedAt: integer('accepted_at', { mode: 'timestamp_ms' }),
    acceptedBy: text('accepted_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    uniqueIndex('note_cues_timeline_note_unique').on(t.timelineNoteId),
    uniqueIndex('note_cues_share_comment_unique').on(t.shareCommentId),
    index('note_cues_track_idx').on(t.trackId),
    check('note_cues_one_note_check', sql`(${t.timelineNoteId} is null) <> (${t.shareCommentId} is null)`),
  ],
);

export const TASK_STATES = ['todo', 'done', 'wont_do'] as const;

// A note made a task (issue 57 item 4): the studio's to-do list per version, for the editor. One
// row per note, a client's or staff note (timeline_notes) or a link guest's (share_comments),
// exactly one of the two; deleted with it. An assignee among staff (null: nobody yet) and a
// state; `closedAt` is when it became done or won't do. Staff only: clients and link guests
// never see tasks.
export const noteTasks = sqliteTable(
  'note_tasks',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    timelineNoteId: integer('timeline_note_id').references(() => timelineNotes.id, { onDelete: 'cascade' }),
    shareCommentId: integer('share_comment_id').references(() => shareComments.id, { onDelete: 'cascade' }),
    assigneeId: text('assignee_id').references(() => users.id, { onDelete: 'set null' }),
    state: text('state', { enum: TASK_STATES }).notNull().default('todo'),
    createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: integer('updated_at', { mode: 'timestamp_ms' })
      .notNull()
      .default(sql`(unixepoch('subsec') * 1000)`),
    closedAt: integer('closed_at', { mode: 'timestamp_ms' }),
    closedBy: text('closed_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    uniqueIndex('note_tasks_timeline_note_unique').on(t.timelineNoteId),
    uniqueIndex('note_tasks_share_comment_unique').on(t.shareCommentId),
    index('note_tasks_assignee_idx').on(t.assigneeId, t.state),
    check('note_tasks_one_note_check', sql`(${t.timelineNoteId} is null) <> (${t.shareCommentId} is null)`),
    check('note_tasks_state_check', sql`${t.state} in ('todo', 'done', 'wont_do')`),
  ],
);

// Review rounds (issue 57 items 1–2): an item's review as 1–5 ordered stages ("Internal" →
// "Client" → "Legal"), each with reviewers, a due date and a decision rule. Decisions are kept
// per version: a new version makes the open stage's earlier decisions history (they no longer
// count) and reopens a finished round's last stage. `origin` 'approval' is the one-stage round
// the per-version client approval (issue 16) is kept as: made by migration 0035 from every
// decided version, and by the approval endpoints when a client or link guest decides on an item
// with no round of the studio's. At most one round per item is active (in review or changes
// requested); cancelled and older rounds stay as history.
export const ROUND_STATUSES = ['in_review', 'changes_requested', 'approved', 'cancelled'] as const;
export const STAGE_RULES = ['all', 'any', 'approver'] as const;
export const STAGE_STATUSES = ['waiting', 'open', 'closed'] as const;
export const DECISIONS = ['approve', 'approve_with_changes', 'request_changes'] as const;
export const REVIEWER_KINDS = ['staff', 'client', 'guest'] as const;

export const reviewRounds = sqliteTable(
  'review_rounds',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    mediaId: integer('media_id')
      .notNull()
      .references(() => media.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    origin: text('origin', { enum: ['staff', 'approval'] }).notNull().default('staff'),
    status: text('status', { enum: ROUND_STATUSES }).notNull().default('in_review'),
    createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: integer('updated_at', { mode: 'timestamp_ms' })
      .notNull()
      .default(sql`(unixepoch('subsec') * 1000)`),
    closedAt: integer('closed_at', { mode: 'timestamp_ms' }),
  },
  (t) => [
    index('review_rounds_media_idx').on(t.mediaId),
    uniqueIndex('review_rounds_one_active').on(t.mediaId).where(sql`status in ('in_review', 'changes_requested')`),
    check('review_rounds_status_check', sql`${t.status} in ('in_review', 'changes_requested', 'approved', 'cancelled')`),
    check('review_rounds_origin_check', sql`${t.origin} in ('staff', 'approval')`),
  ],
);

export const reviewStages = sqliteTable(
  'review_stages',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    roundId: integer('round_id')
      .notNull()
      .references(() => reviewRounds.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    name: text('name').notNull(),
    rule: text('rule', { enum: STAGE_RULES }).notNull().default('all'),
    // The reviewer whose approval closes an 'approver' stage (a review_stage_reviewers id).
    approverId: integer('approver_id'),
    dueAt: integer('due_at', { mode: 'timestamp_ms' }),
    status: text('status', { enum: STAGE_STATUSES }).notNull().default('waiting'),
    openedAt: integer('opened_at', { mode: 'timestamp_ms' }),
    closedAt: integer('closed_at', { mode: 'timestamp_ms' }),
    // The version the stage's rule was met on.
    closedVersionId: integer('closed_version_id').references(() => mediaVersions.id, { onDelete: 'set null' }),
  },
  (t) => [
    uniqueIndex('review_stages_position_unique').on(t.roundId, t.position),
    check('review_stages_rule_check', sql`${t.rule} in ('all', 'any', 'approver')`),
    check('review_stages_status_check', sql`${t.status} in ('waiting', 'open', 'closed')`),
    check('review_stages_position_check', sql`${t.position} between 1 and 5`),
  ],
);

export const reviewStageReviewers = sqliteTable(
  'review_stage_reviewers',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    stageId: integer('stage_id')
      .notNull()
      .references(() => reviewStages.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: REVIEWER_KINDS }).notNull(),
    userId: text('user_id').references(() => users.id, { onDelete: 'cascade' }),
    clientUserId: integer('client_user_id').references(() => clientUsers.id, { onDelete: 'cascade' }),
    // A link guest (kind 'guest'): the name they gave and the link they came through.
    guestName: text('guest_name'),
    linkId: integer('link_id'),
    // First time the reviewer opened the item while their stage was open ("not opened yet").
    openedAt: integer('opened_at', { mode: 'timestamp_ms' }),
    remindedAt: integer('reminded_at', { mode: 'timestamp_ms' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('review_stage_reviewers_staff_unique').on(t.stageId, t.userId),
    uniqueIndex('review_stage_reviewers_client_unique').on(t.stageId, t.clientUserId),
    uniqueIndex('review_stage_reviewers_guest_unique').on(t.stageId, t.linkId, t.guestName),
    index('review_stage_reviewers_user_idx').on(t.userId),
    index('review_stage_reviewers_client_user_idx').on(t.clientUserId),
    check(
      'review_stage_reviewers_kind_check',
      sql`(${t.kind} = 'staff' and ${t.userId} is not null and ${t.clientUserId} is null)
        or (${t.kind} = 'client' and ${t.userId} is null)
        or (${t.kind} = 'guest' and ${t.userId} is null and ${t.clientUserId} is null and ${t.guestName} is not null)`,
    ),
  ],
);

export const reviewDecisions = sqliteTable(
  'review_decisions',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    stageId: integer('stage_id')
      .notNull()
      .references(() => reviewStages.id, { onDelete: 'cascade' }),
    reviewerId: integer('reviewer_id')
      .notNull()
      .references(() => reviewStageReviewers.id, { onDelete: 'cascade' }),
    versionId: integer('version_id')
      .notNull()
      .references(() => mediaVersions.id, { onDelete: 'cascade' }),
    decision: text('decision', { enum: DECISIONS }).notNull(),
    note: text('note').notNull().default(''),
    createdAt: createdAt(),
    // Set when the same reviewer decided again on the same version: only the newest counts.
    replacedAt: integer('replaced_at', { mode: 'timestamp_ms' }),
  },
  (t) => [
    index('review_decisions_stage_idx').on(t.stageId, t.versionId),
    uniqueIndex('review_decisions_one_standing').on(t.reviewerId, t.versionId).where(sql`replaced_at is null`),
    check('review_decisions_decision_check', sql`${t.decision} in ('approve', 'approve_with_changes', 'request_changes')`),
  ],
);

// Stages the studio reuses (issue 57): names, rules and due dates as days after the round starts.
export const reviewTemplates = sqliteTable('review_templates', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  name: text('name').notNull().unique(),
  stages: text('stages', { mode: 'json' }).notNull().$type<{ name: string; rule: 'all' | 'any' | 'approver'; dueInDays: number | null }[]>(),
  createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
  createdAt: createdAt(),
});

// @mentions (issue 57 item 3): who a timeline note names, a staff user or a client login (exactly
// one), for telling them; deleted with the note.
export const noteMentions = sqliteTable(
  'note_mentions',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    timelineNoteId: integer('timeline_note_id')
      .notNull()
      .references(() => timelineNotes.id, { onDelete: 'cascade' }),
    userId: text('user_id').references(() => users.id, { onDelete: 'cascade' }),
    clientUserId: integer('client_user_id').references(() => clientUsers.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [
    index('note_mentions_note_idx').on(t.timelineNoteId),
    index('note_mentions_user_idx').on(t.userId),
    index('note_mentions_client_user_idx').on(t.clientUserId),
    check('note_mentions_one_person_check', sql`(${t.userId} is null) <> (${t.clientUserId} is null)`),
  ],
);
