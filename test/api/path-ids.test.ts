// Security audit M3: an `{id}` of 1,018 characters pushed the DynamoDB key past its 1 KB limit and answered 500 on
// 14 routes (firing the 5xx alarm in AWS). Every route of the table with a path parameter, called by a signed-in
// user with long and odd ids, answers its catalogued 404 (or the billing group's 'wrong order id'), never a 5xx.
import { routes } from '../../lambdas/contract/routes';
import type { LocalStack } from '../../local/stack';
import { api, signedInUser } from '../helpers/accounts';
import { startTestStack } from '../helpers/stack';

let stack: LocalStack;
let token: string;
beforeAll(async () => {
  stack = await startTestStack();
  ({ token } = await signedInUser(stack, 'ids'));
});
afterAll(() => stack.stop());

const unknownIdAnswer = (path: string) => (path.startsWith('/streams/') ? 'stream not found' : path.startsWith('/billing/') ? 'wrong order id' : 'not found');
const withId = routes.filter((route) => route.path.includes('{id}'));
const oddIds = ['L'.repeat(1018), 'L'.repeat(5000), 'a.b', 'a..b', ' ', 'ü', 'a%2Fb', "'or'1'='1", '%00'];

test('the table has the routes the audit found (and more)', () => {
  expect(withId.length).toBeGreaterThanOrEqual(14);
});

test.each(withId.map((route) => [`${route.method} ${route.path}`, route] as const))('%s: long and odd ids are a catalogued 404', async (_, route) => {
  const answers = [];
  for (const id of oddIds) {
    const path = route.path.replace('{id}', encodeURIComponent(id).replace(/%25/g, '%'));
    const body = route.method === 'PUT' ? 'x' : route.method === 'GET' || route.method === 'DELETE' ? undefined : {};
    const answer = await api(stack, route.method, path, { token, ...(body !== undefined ? { body } : {}) });
    answers.push({ id: id.slice(0, 12), status: answer.status, error: answer.body?.error });
  }
  const expected = unknownIdAnswer(route.path);
  const status = expected === 'wrong order id' ? 403 : 404;
  expect(answers).toEqual(oddIds.map((id) => ({ id: id.slice(0, 12), status, error: expected })));
});
