// Every HTTP handler group with its factory, for the local stack (CDK bundles lambdas/http/<group>.ts itself).
import type { Deps } from '../wiring/deps';
import type { HandlerGroup } from '../contract/routes';
import type { HttpHandler } from './handler';
import { createAccountHandler } from './account';
import { createAuthHandler } from './auth';
import { createBillingHandler } from './billing';
import { createBillingWebhookHandler } from './billing-webhook';
import { createChannelsHandler } from './channels';
import { createMediaHandler } from './media';
import { createStreamsHandler } from './streams';
import { createStreamTasksHandler } from './stream-tasks';
import { createNotificationsHandler } from './notifications';
import { createTelegramWebhookHandler } from './telegram-webhook';
import { createSystemHandler } from './system';

export const httpGroups: Record<HandlerGroup, (deps: () => Deps | Promise<Deps>) => HttpHandler> = {
  system: createSystemHandler,
  auth: createAuthHandler,
  account: createAccountHandler,
  billing: createBillingHandler,
  'billing-webhook': createBillingWebhookHandler,
  media: createMediaHandler,
  channels: createChannelsHandler,
  streams: createStreamsHandler,
  'stream-tasks': createStreamTasksHandler,
  notifications: createNotificationsHandler,
  'telegram-webhook': createTelegramWebhookHandler,
};
