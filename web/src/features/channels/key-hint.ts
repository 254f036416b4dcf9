// What the API shows of a saved stream key (`keyHint`): "••••" and its last four characters, only for keys at least
// this long; a shorter key shows only the dots, since its last four characters would give most of it away
// (lambdas/core/channels/channel.ts, keyHintOf). The web app cannot import that module (it needs node:net), so the
// number is kept here and checked against the API's in key-hint.test.ts.
export const KEY_HINT_MIN_LENGTH = 12;
