// The local stand-in of the IAM conditions lib/api-stack.ts puts on each function's table access
// (lambdas/contract/table-access.ts): every request a function's DynamoDB client sends is checked against the
// partition-key families it was given, as `dynamodb:LeadingKeys` is in AWS, and refused with AWS's
// AccessDeniedException otherwise. So the API tests, which run every handler of the local stack, fail when a code
// path reaches a key its function was not given.
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Deps } from '../lambdas/wiring/deps';
import { appTable } from '../lambdas/contract/tables';
import { indexFamilies, itemFamilies, tableAccess, type TableAccess, type TableUser } from '../lambdas/contract/table-access';

type Input = Record<string, any>;

/** The item partition keys a data request names, or the index's for a Query on gsi1; undefined for a request that
 * is not item access (DescribeTable). A Scan names none: in AWS no LeadingKeys condition can allow it. */
export function leadingKeysOf(action: string, input: Input): { index: boolean; keys: string[] } | undefined {
  const pk = appTable.partitionKey;
  switch (action) {
    case 'GetCommand':
    case 'DeleteCommand':
    case 'UpdateCommand':
      return { index: false, keys: [input.Key[pk]] };
    case 'PutCommand':
      return { index: false, keys: [input.Item[pk]] };
    case 'BatchWriteCommand':
      return {
        index: false,
        keys: Object.values(input.RequestItems as Record<string, Input[]>)
          .flat()
          .map((request) => (request.PutRequest?.Item ?? request.DeleteRequest?.Key)[pk]),
      };
    case 'TransactWriteCommand':
      return {
        index: false,
        keys: (input.TransactItems as Input[]).map((entry) => {
          const operation = entry.Put ?? entry.Update ?? entry.Delete ?? entry.ConditionCheck;
          return (operation.Item ?? operation.Key)[pk];
        }),
      };
    case 'QueryCommand': {
      const onIndex = input.IndexName !== undefined;
      const keyAttribute = onIndex ? appTable.indexes.find((index) => index.name === input.IndexName)!.partitionKey : pk;
      return { index: onIndex, keys: [partitionValue(input, keyAttribute)] };
    }
    case 'ScanCommand':
      return { index: false, keys: [] };
    default:
      return undefined;
  }
}

/** The value a Query's key condition gives the partition key (`pk = :v`, or `#n = :v` with #n naming it). */
function partitionValue(input: Input, attribute: string): string {
  for (const [, name, placeholder] of (input.KeyConditionExpression as string).matchAll(/(#?\w+)\s*=\s*(:\w+)/g)) {
    const resolved = name!.startsWith('#') ? input.ExpressionAttributeNames?.[name!] : name;
    if (resolved === attribute) return input.ExpressionAttributeValues[placeholder!];
  }
  throw new Error(`no condition on ${attribute} in ${input.KeyConditionExpression}`);
}

/** Whether `access` allows a request naming these keys (every key in a family, and at least one key). */
export function allowed(access: TableAccess | 'whole table', request: { index: boolean; keys: string[] }): boolean {
  if (access === 'whole table') return true;
  const prefixes = request.index ? access.index.map((family) => indexFamilies[family]) : access.items.map((family) => itemFamilies[family]);
  return request.keys.length > 0 && request.keys.every((key) => typeof key === 'string' && prefixes.some((prefix) => key.startsWith(prefix)));
}

/** The IAM action of each document-client command. */
const iamActions: Record<string, string> = {
  GetCommand: 'GetItem',
  PutCommand: 'PutItem',
  UpdateCommand: 'UpdateItem',
  DeleteCommand: 'DeleteItem',
  QueryCommand: 'Query',
  BatchWriteCommand: 'BatchWriteItem',
  TransactWriteCommand: 'TransactWriteItems',
  ScanCommand: 'Scan',
};

function accessDenied(user: TableUser, command: string, keys: string[]): Error {
  const error = new Error(
    `User: arn:aws:sts::000000000000:assumed-role/loopcast-local-${user} is not authorized to perform: dynamodb:${iamActions[command] ?? command} on keys ${JSON.stringify(keys)} (lambdas/contract/table-access.ts)`,
  );
  return Object.assign(error, { name: 'AccessDeniedException', $fault: 'client', $metadata: { httpStatusCode: 400 } });
}

/** The client with every request checked against the function's table access. */
export function guardedTableClient(db: DynamoDBDocumentClient, user: TableUser): DynamoDBDocumentClient {
  const access = tableAccess[user];
  return new Proxy(db, {
    get(target, property, receiver) {
      if (property !== 'send') return Reflect.get(target, property, receiver);
      return (command: { constructor: { name: string }; input: Input }, ...rest: unknown[]) => {
        const request = leadingKeysOf(command.constructor.name, command.input);
        if (request && !allowed(access, request)) return Promise.reject(accessDenied(user, command.constructor.name, request.keys));
        return (target.send as (...args: unknown[]) => Promise<unknown>).call(target, command, ...rest);
      };
    },
  });
}

/** The deps a function of the local stack runs with: the stack's, but its table client limited to its access.
 * Everything else is read through to the stack's deps as it is now (tests change `now` there). */
export function functionDeps(deps: Deps, user: TableUser): Deps {
  const db = guardedTableClient(deps.db, user);
  return new Proxy(deps, { get: (target, property, receiver) => (property === 'db' ? db : Reflect.get(target, property, receiver)) });
}

/** The same, for handlers made before the stack's deps exist: made once, on the first call. */
export function functionDepsLater(deps: () => Deps, user: TableUser): () => Deps {
  let made: Deps | undefined;
  return () => (made ??= functionDeps(deps(), user));
}
