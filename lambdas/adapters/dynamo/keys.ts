// Every key shape of the single table (lambdas/contract/tables.ts), in one place so entities never collide.
//   pk                     sk                  what
//   USER#<userId>          PROFILE             the account
//   EMAIL#<email>          EMAIL               claim on an address (uniqueness), points to the user
//   SESSION#<tokenHash>    SESSION             a signed-in browser; gsi1: SESSIONS#<userId> / createdAt
//   TOKEN#<tokenHash>      confirm | reset     a single-use e-mail link
//   RATE#<name>#<subject>  <window start>      attempts counted in one rate-limit window
//   CONN#<connectionId>    CONN                an open realtime WebSocket; gsi1: CONNS#<userId> / connectionId

export const userKey = (userId: string) => ({ pk: `USER#${userId}`, sk: 'PROFILE' });
export const emailKey = (email: string) => ({ pk: `EMAIL#${email}`, sk: 'EMAIL' });
export const sessionKey = (tokenHash: string) => ({ pk: `SESSION#${tokenHash}`, sk: 'SESSION' });
export const sessionsOfUser = (userId: string) => `SESSIONS#${userId}`;
export const emailTokenKey = (tokenHash: string, purpose: string) => ({ pk: `TOKEN#${tokenHash}`, sk: purpose });
export const rateKey = (key: string, windowStart: number) => ({ pk: `RATE#${key}`, sk: String(windowStart) });
export const connectionKey = (connectionId: string) => ({ pk: `CONN#${connectionId}`, sk: 'CONN' });
export const connectionsOfUser = (userId: string) => `CONNS#${userId}`;
