// Google accounts that can sign in on the fake consent screen, each with at most one YouTube channel.
import { BASE64URL, randomString } from '../shared/random';

export interface Channel {
  id: string;
  title: string;
  description: string;
  customUrl: string;
  publishedAt: string;
  /** Live streaming is switched on at https://www.youtube.com/features (can take 24 h for a real channel). */
  liveStreamingEnabled: boolean;
}

export interface Account {
  /** Google's stable user id (the `sub` of an id_token). */
  sub: string;
  email: string;
  name: string;
  channel: Channel | null;
}

export interface NewAccount {
  email?: string;
  name?: string;
  channelTitle?: string;
  liveStreamingEnabled?: boolean;
  /** false: a Google account that never created a YouTube channel. */
  channel?: boolean;
}

export class Accounts {
  private readonly all: Account[] = [];

  constructor(private readonly now: () => number) {}

  add(fields: NewAccount = {}): Account {
    const sub = randomString(21, '0123456789');
    const name = fields.name ?? `Creator ${this.all.length + 1}`;
    const title = fields.channelTitle ?? `${name}'s loops`;
    const account: Account = {
      sub,
      email: fields.email ?? `creator${this.all.length + 1}@example.com`,
      name,
      channel:
        fields.channel === false
          ? null
          : {
              id: `UC${randomString(22, BASE64URL)}`,
              title,
              description: `Loops by ${name}`,
              customUrl: `@${title.toLowerCase().replace(/[^a-z0-9]+/g, '')}`,
              publishedAt: new Date(this.now() - 400 * 86_400_000).toISOString(),
              liveStreamingEnabled: fields.liveStreamingEnabled ?? true,
            },
    };
    this.all.push(account);
    return account;
  }

  /** By `sub`, e-mail or channel id. */
  find(key: string): Account | undefined {
    return this.all.find((account) => account.sub === key || account.email === key || account.channel?.id === key);
  }

  get(key: string): Account {
    const account = this.find(key);
    if (!account) throw new Error(`no fake Google account ${key}`);
    return account;
  }

  get first(): Account {
    const [first] = this.all;
    if (!first) throw new Error('no fake Google account');
    return first;
  }
}
