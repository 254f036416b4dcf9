import { Logger } from '@aws-lambda-powertools/logger';

/** The one structured (JSON) logger of every handler; request keys are added per invocation and reset after.
 * Level from POWERTOOLS_LOG_LEVEL (CDK sets INFO; scripts/run.mjs sets WARN locally, the tests SILENT). */
export const logger = new Logger({ serviceName: 'loopcast' });
