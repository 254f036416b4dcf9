import { Logger } from '@aws-lambda-powertools/logger';

/** The one structured (JSON) logger of every handler; request keys are added per invocation and reset after.
 * Level from POWERTOOLS_LOG_LEVEL (CDK sets it; the local stack lowers the noise with setLogLevel). */
export const logger = new Logger({ serviceName: 'loopcast' });
