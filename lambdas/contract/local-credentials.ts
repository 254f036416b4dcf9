// The credentials of the local stack's stand-ins (DynamoDB Local, s3rver, Scheduler): random for each data folder
// (local/credentials.ts), known to the stack's own processes only. They reach a process through its environment,
// never its command line: any user of the machine reads every process's command line (/proc/<pid>/cmdline), but only
// its owner reads its environment. Never used in AWS.

export interface LocalCredentials {
  accessKeyId: string;
  secretAccessKey: string;
}

export const LOCAL_ACCESS_KEY_ID_VARIABLE = 'LOOPCAST_LOCAL_ACCESS_KEY_ID';
export const LOCAL_SECRET_ACCESS_KEY_VARIABLE = 'LOOPCAST_LOCAL_SECRET_ACCESS_KEY';

/** What an access key id may be: letters and digits (no `/`, `,` or spaces, which end it in a SigV4 header). */
const ACCESS_KEY_ID = /^[A-Z0-9]{16,128}$/;
const SECRET_ACCESS_KEY = /^[A-Za-z0-9_-]{32,128}$/;

export const validLocalCredentials = (value: unknown): value is LocalCredentials => {
  const candidate = value as Partial<LocalCredentials> | null;
  return (
    typeof candidate?.accessKeyId === 'string' &&
    ACCESS_KEY_ID.test(candidate.accessKeyId) &&
    typeof candidate.secretAccessKey === 'string' &&
    SECRET_ACCESS_KEY.test(candidate.secretAccessKey)
  );
};

/** The local credentials an environment carries, if it carries valid ones. */
export function localCredentialsIn(env: Record<string, string | undefined>): LocalCredentials | undefined {
  const credentials = { accessKeyId: env[LOCAL_ACCESS_KEY_ID_VARIABLE], secretAccessKey: env[LOCAL_SECRET_ACCESS_KEY_VARIABLE] };
  return validLocalCredentials(credentials) ? credentials : undefined;
}

/** The local credentials of this process's environment; an error naming where they come from without them. */
export function requiredLocalCredentials(env: Record<string, string | undefined>): LocalCredentials {
  const credentials = localCredentialsIn(env);
  if (!credentials) {
    throw new Error(
      `the local stand-ins' credentials are not in the environment (${LOCAL_ACCESS_KEY_ID_VARIABLE}, ${LOCAL_SECRET_ACCESS_KEY_VARIABLE}): the local stack sets them for its own processes (local/credentials.ts)`,
    );
  }
  return credentials;
}

/** The environment variables that hand `credentials` to a child process. */
export const localCredentialsEnvironment = (credentials: LocalCredentials): Record<string, string> => ({
  [LOCAL_ACCESS_KEY_ID_VARIABLE]: credentials.accessKeyId,
  [LOCAL_SECRET_ACCESS_KEY_VARIABLE]: credentials.secretAccessKey,
});
