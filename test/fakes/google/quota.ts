// YouTube Data API quota: units per method as published (https://developers.google.com/youtube/v3/determine_quota_cost),
// a daily budget per Google Cloud project (10,000 by default) that resets at midnight Pacific Time.
export const QUOTA_COSTS = {
  'channels.list': 1,
  'liveStreams.list': 1,
  'liveStreams.insert': 50,
  'liveStreams.delete': 50,
  'liveBroadcasts.list': 1,
  'liveBroadcasts.insert': 50,
  'liveBroadcasts.update': 50,
  'liveBroadcasts.delete': 50,
  'liveBroadcasts.bind': 50,
  'liveBroadcasts.transition': 50,
  'thumbnails.set': 50,
} as const;

export type YouTubeMethod = keyof typeof QUOTA_COSTS;

const pacificDay = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Los_Angeles', year: 'numeric', month: '2-digit', day: '2-digit' });

export class Quota {
  private readonly usedByDay = new Map<string, number>();

  constructor(
    readonly dailyLimit: number,
    private readonly now: () => number,
  ) {}

  /** The Pacific-time date (YYYY-MM-DD) a moment belongs to for quota purposes. */
  static day(at: number): string {
    return pacificDay.format(at);
  }

  used(day = Quota.day(this.now())): number {
    return this.usedByDay.get(day) ?? 0;
  }

  /** Whether a call of this cost still fits in today's budget. */
  allows(cost: number): boolean {
    return this.used() + cost <= this.dailyLimit;
  }

  spend(units: number): void {
    const day = Quota.day(this.now());
    this.usedByDay.set(day, this.used(day) + units);
  }

  /** Every day with spending, for a dashboard. */
  byDay(): Record<string, number> {
    return Object.fromEntries(this.usedByDay);
  }
}
