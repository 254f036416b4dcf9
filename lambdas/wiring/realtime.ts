// Composition: the realtime API's store of open connections from Deps.
import type { Deps } from '../adapters/deps';
import { ConnectionsStore } from '../adapters/dynamo/connections-store';

export const connectionsStore = (deps: Deps) => new ConnectionsStore(deps.db, deps.config.tables.app);
