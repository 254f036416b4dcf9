// An AWS SDK client whose requests name another Host, as a DNS-rebinding web page's would.
interface WithMiddleware {
  middlewareStack: { add(middleware: (next: (args: never) => Promise<unknown>) => (args: never) => Promise<unknown>, options: object): void };
}

export function sendingHost<Client extends WithMiddleware>(client: Client, host: string | undefined): Client {
  if (!host) return client;
  client.middlewareStack.add(
    (next) => async (args) => {
      (args as { request: { headers: Record<string, string> } }).request.headers.host = host;
      return next(args);
    },
    { step: 'build', name: 'foreignHost' },
  );
  return client;
}
