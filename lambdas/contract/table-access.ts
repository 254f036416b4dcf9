// Which items of the single table (tables.ts) each function may touch, by the family of their partition key: the
// one list that CDK turns into IAM conditions on `dynamodb:LeadingKeys` (lib/api-stack.ts, grantTableData) and the
// local stack enforces on every request its functions make (local/table-access.ts), so a code path that reaches a
// key its function was not given fails in the tests as it would in AWS (security audit L12). Key shapes:
// lambdas/adapters/dynamo/keys.ts, built from these prefixes.
import type { HandlerGroup } from './routes';

/** Partition-key prefixes of the table's items. */
export const itemFamilies = {
  user: 'USER#',
  email: 'EMAIL#',
  session: 'SESSION#',
  emailToken: 'TOKEN#',
  rate: 'RATE#',
  connection: 'CONN#',
  billingEvent: 'BILLING_EVENT#',
  telegramLink: 'TELEGRAM_LINK#',
  oauthState: 'OAUTH_STATE#',
  tus: 'TUS#',
  youtubeQuota: 'YOUTUBE_QUOTA#',
  audit: 'AUDIT#',
} as const;

/** Partition-key prefixes of the index gsi1 (look-ups by another value). */
export const indexFamilies = {
  sessionsOfUser: 'SESSIONS#',
  emailTokensOfUser: 'TOKENS#',
  connectionsOfUser: 'CONNS#',
  customer: 'CUSTOMER#',
  telegramLinksOfUser: 'TELEGRAM_LINKS#',
  oauthStatesOfUser: 'OAUTH_STATES#',
  uploadsOfUser: 'UPLOADS#',
  auditByEmail: 'AUDIT_EMAIL#',
  runningStreams: 'RUNNING_STREAMS',
} as const;

export type ItemFamily = keyof typeof itemFamilies;
export type IndexFamily = keyof typeof indexFamilies;

export interface TableAccess {
  items: readonly ItemFamily[];
  index: readonly IndexFamily[];
}

/** Every function that reads or writes the table: the API's handler groups and the others. */
export type TableUser =
  | HandlerGroup
  | 'realtime-authorizer'
  | 'realtime-connections'
  | 'uploads'
  | 'transcode-events'
  | 'lifecycle'
  | 'lifecycle-failed'
  | 'stream-upkeep'
  | 'stream-reconciler';

/** What pushing realtime events takes: the user's connections (index), and removing those that are gone. */
const realtime: TableAccess = { items: ['connection'], index: ['connectionsOfUser'] };
/** What every route behind a session takes: the session (by the hash of the caller's token; its last use noted). */
const session: TableAccess = { items: ['session'], index: [] };
/** What YouTube broadcasts take: the day's API quota (the broadcasts and channels are the user's items). */
const youtube: TableAccess = { items: ['youtubeQuota'], index: [] };

const access = (...parts: TableAccess[]): TableAccess => ({
  items: [...new Set(parts.flatMap((part) => part.items))],
  index: [...new Set(parts.flatMap((part) => part.index))],
});
const items = (...families: ItemFamily[]): TableAccess => ({ items: families, index: [] });
const index = (...families: IndexFamily[]): TableAccess => ({ items: [], index: families });

/** 'whole table': the account's own closing and the support tool's erasure remove every item of a user, whatever
 * its family, so the function that does it is given all of them. */
export const tableAccess: Record<TableUser, TableAccess | 'whole table'> = {
  system: items(),
  auth: access(items('user', 'email', 'session', 'emailToken', 'rate'), index('sessionsOfUser', 'emailTokensOfUser'), realtime),
  account: 'whole table',
  billing: access(items('user', 'rate'), index('customer'), session),
  'billing-webhook': access(items('user', 'billingEvent'), index('customer'), realtime),
  media: access(items('user'), session, realtime, youtube),
  channels: access(items('user', 'oauthState', 'rate'), index('oauthStatesOfUser'), session, youtube),
  streams: access(items('user', 'rate'), session, realtime, youtube),
  notifications: access(items('user', 'telegramLink'), index('telegramLinksOfUser'), session),
  'telegram-webhook': items('user', 'telegramLink'),
  'stream-tasks': access(items('user'), realtime, youtube),
  'realtime-authorizer': items('user', 'session'),
  'realtime-connections': items('connection'),
  uploads: access(items('user', 'tus', 'rate'), index('uploadsOfUser'), session, realtime),
  'transcode-events': access(items('user'), realtime, youtube),
  lifecycle: access(items('user'), realtime, youtube),
  'lifecycle-failed': access(items('user'), realtime, youtube),
  'stream-upkeep': access(items('user'), index('runningStreams'), realtime, youtube),
  'stream-reconciler': access(items('user'), index('runningStreams'), realtime, youtube),
};
