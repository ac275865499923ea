import type { Generated } from 'kysely';

/**
 * Table types for Kysely. Times are milliseconds since the epoch (bigint in PostgreSQL, read back
 * as numbers); flags are 0/1 integers so that SQLite and PostgreSQL read the same.
 */
export interface Database {
  users: UsersTable;
  user_emails: UserEmailsTable;
  sessions: SessionsTable;
  login_attempts: LoginAttemptsTable;
  password_resets: PasswordResetsTable;
  email_confirmations: EmailConfirmationsTable;
  social_accounts: SocialAccountsTable;
  social_states: SocialStatesTable;
  flatpages: FlatpagesTable;
  feedback: FeedbackTable;
  contacts: ContactsTable;
  user_invites: UserInvitesTable;
  usermedia_images: UsermediaImagesTable;
  usermedia_categories: UsermediaCategoriesTable;
  usermedia_image_categories: UsermediaImageCategoriesTable;
  bib_entries: BibEntriesTable;
  bib_categories: BibCategoriesTable;
  bib_owner_state: BibOwnerStateTable;
  usermedia_owner_state: UsermediaOwnerStateTable;
  documents: DocumentsTable;
  document_access: DocumentAccessTable;
  document_images: DocumentImagesTable;
  document_steps: DocumentStepsTable;
  document_creation_keys: DocumentCreationKeysTable;
  audit_log: AuditLogTable;
  site_settings: SiteSettingsTable;
  document_threads: DocumentThreadsTable;
  document_comments: DocumentCommentsTable;
  document_revisions: DocumentRevisionsTable;
  api_tokens: ApiTokensTable;
  bib_sources: BibSourcesTable;
  bib_source_entries: BibSourceEntriesTable;
}

export interface UsersTable {
  id: Generated<number>;
  username: string;
  /** Lower-cased username, unique: logins are case-insensitive. */
  username_lower: string;
  first_name: string;
  last_name: string;
  /** Lower-cased "first last" and last name for the staff search (migration 019, searchNames). */
  full_name_lower: Generated<string>;
  last_name_lower: Generated<string>;
  password_hash: string | null;
  is_staff: number;
  is_active: number;
  language: string | null;
  avatar: string | null;
  created_at: number;
  /** Set by every login (migration 011); null for accounts that never logged in. */
  last_login_at: number | null;
}

export interface UserEmailsTable {
  id: Generated<number>;
  user_id: number;
  address: string;
  /** Lower-cased address, unique across users. */
  address_lower: string;
  is_primary: number;
  verified: number;
}

export interface SessionsTable {
  /** SHA-256 of the cookie value: a leaked database does not leak live sessions. */
  id_hash: string;
  user_id: number;
  expires_at: number;
  created_at: number;
}

export interface LoginAttemptsTable {
  /** "account:<user id>" or "address:<ip>". */
  scope: string;
  failures: number;
  last_failure_at: number;
  locked_until: number;
}

export interface PasswordResetsTable {
  id: Generated<number>;
  key_hash: string;
  user_id: number;
  created_at: number;
}

export interface EmailConfirmationsTable {
  id: Generated<number>;
  key_hash: string;
  email_id: number;
  created_at: number;
}

export interface SocialAccountsTable {
  id: Generated<number>;
  user_id: number;
  provider: string;
  uid: string;
  name: string;
  created_at: number;
}

export interface SocialStatesTable {
  state_hash: string;
  provider: string;
  nonce: string;
  code_verifier: string;
  connect_user_id: number | null;
  created_at: number;
}

export interface FlatpagesTable {
  id: Generated<number>;
  url: string;
  title: string;
  content: string;
}

export interface FeedbackTable {
  id: Generated<number>;
  user_id: number | null;
  message: string;
  created_at: number;
  /** When staff marked it done (migration 011). */
  done_at: number | null;
  done_by: number | null;
}

/** One row per direction of a connection: (a, b) and (b, a). */
export interface ContactsTable {
  user_id: number;
  contact_id: number;
  created_at: number;
}

export interface UserInvitesTable {
  id: Generated<number>;
  /** SHA-256 (hex) of the invite link key; null once the link has been claimed. */
  key_hash: string | null;
  by_user_id: number;
  /** The invited user; null while an invite to an e-mail address waits to be claimed. */
  to_user_id: number | null;
  /** The address the inviter typed; null for invites by username. */
  email: string | null;
  email_lower: string | null;
  created_at: number;
}

/** An image of a user's library; the file itself is DATA_DIR/media/ named by sha256. */
export interface UsermediaImagesTable {
  id: Generated<number>;
  owner_id: number;
  title: string;
  sha256: string;
  /** The sniffed content type, one of ACCEPTED_IMAGE_TYPES. */
  file_type: string;
  width: number;
  height: number;
  size: number;
  copyright_holder: string;
  licence: string;
  added: number;
}

export interface UsermediaCategoriesTable {
  id: Generated<number>;
  owner_id: number;
  category_title: string;
}

export interface UsermediaImageCategoriesTable {
  image_id: number;
  category_id: number;
}

/** A document; `path` is the owner's (collaborators keep theirs in document_access). */
export interface DocumentsTable {
  id: Generated<number>;
  owner_id: number;
  title: string;
  path: string;
  /** ProseMirror document as JSON text. */
  content: string;
  version: number;
  /** The version `content` is a snapshot of; the steps after it are in document_steps. */
  content_version: Generated<number>;
  created_at: number;
  updated_at: number;
}

/** The browser's key of a document created offline, so that a retried creation makes no second one (migration 018). */
export interface DocumentCreationKeysTable {
  owner_id: number;
  client_key: string;
  document_id: number;
}

/** One confirmed ProseMirror step: the step log of a document (migration 008). */
export interface DocumentStepsTable {
  document_id: number;
  /** The version this step produced (the first step of a document makes version 1). */
  version: number;
  /** Step.toJSON() as JSON text. */
  step: string;
  client_id: string;
  user_id: number | null;
  created_at: number;
}

/** An image file a figure of the document uses (migration 009): its authors may fetch it. */
export interface DocumentImagesTable {
  document_id: number;
  sha256: string;
}

/** A right to a document, held by a user or by a pending contact invite (exactly one is set). */
export interface DocumentAccessTable {
  id: Generated<number>;
  document_id: number;
  user_id: number | null;
  invite_id: number | null;
  /** One of ACCESS_RIGHTS (common/src/api/documents). */
  rights: string;
  /** The holder's own path for the document. */
  path: string;
  created_at: number;
}

/** A bibliography entry; `fields` and `cats` are JSON text (converter data, category ids). */
export interface BibEntriesTable {
  id: Generated<number>;
  owner_id: number;
  entry_key: string;
  entry_key_lower: string;
  bib_type: string;
  fields: string;
  cats: string;
  created_at: number;
  updated_at: number;
}

export interface BibCategoriesTable {
  id: Generated<number>;
  owner_id: number;
  category_title: string;
}

/** What the cheap biblist check compares: changed on every write to the owner's entries. */
/** Per owner: the last change to the image library and its number of images (migration 012). */
export interface UsermediaOwnerStateTable {
  owner_id: number;
  last_modified: number;
  number_of_images: number;
}

export interface BibOwnerStateTable {
  owner_id: number;
  last_modified: number;
  number_of_entries: number;
}

/** One staff action (migration 011): who, what, on what, when. */
export interface AuditLogTable {
  id: Generated<number>;
  actor_id: number | null;
  actor_name: string;
  action: string;
  target: string;
  /** JSON text. */
  details: string;
  created_at: number;
}

/** Site settings staff change in /admin/settings/ (migration 011); values are JSON text. */
export interface SiteSettingsTable {
  key: string;
  value: string;
}

/** A comment thread (migration 010); thread_id is the `comment` mark's id in the document. */
export interface DocumentThreadsTable {
  document_id: number;
  thread_id: number;
  user_id: number | null;
  resolved: number;
  assigned_to: number | null;
  created_at: number;
}

/** A comment of a thread: the thread's first comment, then the answers. */
export interface DocumentCommentsTable {
  id: Generated<number>;
  document_id: number;
  thread_id: number;
  user_id: number | null;
  user_name: string;
  text: string;
  created_at: number;
  updated_at: number;
}

/** A saved version of a document: named by a user, or automatic (auto = 1). */
export interface DocumentRevisionsTable {
  id: Generated<number>;
  document_id: number;
  version: number;
  name: string;
  auto: number;
  user_id: number | null;
  user_name: string;
  content: string;
  created_at: number;
}

/** Personal access tokens (migration 057): only the token's SHA-256 is kept. */
export interface ApiTokensTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  /** SHA-256 (hex) of the token. */
  token_hash: string;
  /** Space-separated `<area>:<read|write>` scopes. */
  scopes: string;
  created_at: number;
  expires_at: number;
  /** Updated at most once a minute per token (TOKEN_LAST_USED_STEP_MS). */
  last_used_at: number | null;
}

/** A bibliography source (migration 058, issue 57): a file at a URL or a Zotero library. */
export interface BibSourcesTable {
  id: Generated<number>;
  owner_id: number;
  /** 'url' or 'zotero'. */
  kind: string;
  title: string;
  url: string | null;
  /** 'user' or 'group'. */
  zotero_library: string | null;
  zotero_id: string | null;
  zotero_key: string | null;
  zotero_collection: string | null;
  /** The category its entries are synced into; null when the user deleted it (made again on sync). */
  category_id: number | null;
  etag: string | null;
  last_modified_header: string | null;
  library_version: number | null;
  synced_at: number | null;
  /** When the schedule syncs it next; claimed by moving it on (one process syncs it). */
  next_sync_at: Generated<number>;
  /** JSON of the last sync's report (SourceReport). */
  report: string | null;
  created_at: number;
}

/** An entry a source brought, under the source's own id of it. */
export interface BibSourceEntriesTable {
  id: Generated<number>;
  source_id: number;
  entry_id: number;
  remote_id: string;
  /** SHA-256 of the entry as the source last gave it: a change is an update. */
  digest: string;
  /** 1 when the source no longer has it (the entry is kept: it may be cited). */
  gone: Generated<number>;
}
