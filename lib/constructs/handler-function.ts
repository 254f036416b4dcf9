import { Duration, Validations } from 'aws-cdk-lib';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Architecture, LoggingFormat, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { join } from 'node:path';

export const repoRoot = join(import.meta.dirname, '..', '..');

/** Packages kept out of the bundles and shipped beside them as they are: lists that a few routes read on first use,
 * the common-password list (sign-up, password changes) and mailchecker's throwaway domains (e-mail addresses).
 * Bundled, their 1.4 MB of JavaScript was parsed at every cold start of the functions that import them, 11 MiB of
 * memory before the first event (docs/decisions.md, "Cold starts"). A function's asset gets those its bundle imports
 * (`ship-packages.mjs`). */
export const SHIPPED_PACKAGES = ['@zxcvbn-ts/language-common', 'mailchecker'];

export interface HandlerFunctionProps {
  /** Entry file below lambdas/, e.g. `http/system.ts`; it exports `handler`. */
  entry: string;
  environment: Record<string, string>;
  memorySize?: number;
  timeout?: Duration;
  description: string;
  /** A fixed name, for a function other stacks name before it exists (a schedule's target). */
  functionName?: string;
}

/**
 * Every Loopcast Lambda: Node 24 on ARM64, bundled by the local esbuild as ESM (no Docker), JSON logs with
 * Powertools, X-Ray tracing, and a log group with a retention so logs do not grow for ever.
 */
export class HandlerFunction extends NodejsFunction {
  constructor(scope: Construct, id: string, props: HandlerFunctionProps) {
    const logGroup = new LogGroup(scope, `${id}Logs`, { retention: RetentionDays.ONE_MONTH });
    // Our own role instead of AWSLambdaBasicExecutionRole: it may write to its own log group and nothing else.
    const role = new Role(scope, `${id}Role`, { assumedBy: new ServicePrincipal('lambda.amazonaws.com') });
    logGroup.grantWrite(role);
    super(scope, id, {
      role,
      entry: join(repoRoot, 'lambdas', props.entry),
      handler: 'handler',
      description: props.description,
      ...(props.functionName ? { functionName: props.functionName } : {}),
      runtime: Runtime.NODEJS_24_X,
      architecture: Architecture.ARM_64,
      memorySize: props.memorySize ?? 512,
      timeout: props.timeout ?? Duration.seconds(15),
      tracing: Tracing.ACTIVE,
      loggingFormat: LoggingFormat.JSON,
      logGroup,
      environment: {
        POWERTOOLS_SERVICE_NAME: 'loopcast',
        POWERTOOLS_LOG_LEVEL: 'INFO',
        ...props.environment,
      },
      bundling: {
        format: OutputFormat.ESM,
        target: 'node24',
        mainFields: ['module', 'main'],
        minify: true,
        // Names survive minification, so a stack trace in the logs reads `at checkPasswordPolicy (index.mjs:2:436747)`.
        // The source map ships beside the code, but Node does not load it (`--enable-source-maps`): that cost every
        // cold start 80-100 ms and 40 MiB (docs/decisions.md); docs/operations.md maps a position back to its source.
        keepNames: true,
        // Everything is bundled but the shipped lists; the AWS SDK too, not taken from the runtime: the same SDK version
        // as the tests ran. The metafile tells ship-packages.mjs which lists the bundle imports; it removes it after.
        externalModules: SHIPPED_PACKAGES,
        metafile: true,
        commandHooks: {
          beforeBundling: () => [],
          beforeInstall: () => [],
          afterBundling: (_projectRoot, assetDir) => [
            [process.execPath, join(import.meta.dirname, 'ship-packages.mjs'), repoRoot, assetDir, ...SHIPPED_PACKAGES].map((arg) => `"${arg}"`).join(' '),
          ],
        },
        sourceMap: true,
        // ESM bundles of CommonJS dependencies still call require() for Node built-ins.
        banner: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);",
        forceDockerBundling: false,
      },
    });
    Validations.of(role).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason: 'X-Ray tracing: xray:PutTraceSegments and xray:PutTelemetryRecords support no resource-level permissions.',
    });
  }
}
