// Composition: the realtime API's store of open connections from Deps.
import { ConnectionsStore } from '../adapters/dynamo/connections-store';
import { perDeps } from './per-deps';

export const connectionsStore = perDeps((deps) => new ConnectionsStore(deps.db, deps.config.tables.app));
