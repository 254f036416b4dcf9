import { RemovalPolicy } from 'aws-cdk-lib';
import {
  DEFAULT_DATA_PLANE,
  DEFAULT_HOST_ARCHITECTURE,
  DEFAULT_TASK_NETWORK,
  dataPlanes,
  hostArchitectures,
  isDataPlane,
  isHostArchitecture,
  isTaskNetwork,
  taskNetworks,
  type DataPlane,
  type HostArchitecture,
  type TaskNetwork,
} from '../lambdas/contract/data-planes';

/** What differs between deployments of Loopcast (cdk context: -c stage=prod -c domain=... -c alarmEmail=...). */
export interface StageConfig {
  stage: string;
  /** Custom domain served by CloudFront (its ACM certificate must be in us-east-1). */
  domain?: string;
  certificateArn?: string;
  /** Where alarms are e-mailed. */
  alarmEmail?: string;
  /** Address e-mails are sent from; it (or its domain) must be a verified SES identity. */
  mailFrom: string;
  /** Where stream tasks run (-c dataPlane=fargate|external; lambdas/contract/data-planes.ts): the streaming stack,
   * the ops dashboard's cost estimate and the Stripe prices tool's cost check read it. */
  dataPlane?: DataPlane;
  /** Fargate: run stream tasks on Fargate Spot (-c spot=true). */
  spot?: boolean;
  /** Fargate: how tasks reach the internet (-c taskNetwork=public-ipv4|ipv6-only). */
  taskNetwork?: TaskNetwork;
  /** External: the hosts' CPU architecture, which the stream task image is built for (-c hostArch=amd64|arm64). */
  hostArchitecture?: HostArchitecture;
}

export const dataPlaneOf = (config: StageConfig): DataPlane => config.dataPlane ?? DEFAULT_DATA_PLANE;
export const taskNetworkOf = (config: StageConfig): TaskNetwork => config.taskNetwork ?? DEFAULT_TASK_NETWORK;
export const hostArchitectureOf = (config: StageConfig): HostArchitecture => config.hostArchitecture ?? DEFAULT_HOST_ARCHITECTURE;

/** The stage from the CDK context (`-c key=value`, or cdk.json), every value checked: a typo fails the synth instead
 * of deploying something else (docs/deploy.md, "Context keys"). */
export function stageConfigFromContext(context: (key: string) => unknown): StageConfig {
  const text = (key: string): string | undefined => {
    const value = context(key);
    return value === undefined || value === null ? undefined : String(value);
  };
  const oneOf = <T extends string>(key: string, allowed: readonly T[], is: (value: unknown) => value is T): T | undefined => {
    const value = text(key);
    if (value !== undefined && !is(value)) throw new Error(`${key} "${value}" must be one of ${allowed.join(', ')}`);
    return value as T | undefined;
  };
  const domain = text('domain');
  const config: StageConfig = {
    stage: text('stage') ?? 'dev',
    domain,
    certificateArn: text('certificateArn'),
    alarmEmail: text('alarmEmail'),
    mailFrom: text('mailFrom') ?? `no-reply@${domain ?? 'loopcast.example.com'}`,
  };
  if (!/^[a-z][a-z0-9-]{0,15}$/.test(config.stage)) throw new Error(`stage "${config.stage}" must be lower-case letters, digits and dashes`);
  const dataPlane = oneOf('dataPlane', dataPlanes, isDataPlane);
  const spot = oneOf('spot', ['true', 'false'] as const, (value): value is 'true' | 'false' => value === 'true' || value === 'false');
  const taskNetwork = oneOf('taskNetwork', taskNetworks, isTaskNetwork);
  const hostArchitecture = oneOf('hostArch', hostArchitectures, isHostArchitecture);
  if (dataPlane) config.dataPlane = dataPlane;
  if (spot) config.spot = spot === 'true';
  if (taskNetwork) config.taskNetwork = taskNetwork;
  if (hostArchitecture) config.hostArchitecture = hostArchitecture;
  const external = dataPlaneOf(config) === 'external';
  if (external && (spot || taskNetwork))
    throw new Error('spot and taskNetwork are settings of the fargate data plane: the external one runs on your own hosts');
  if (!external && hostArchitecture) throw new Error('hostArch is a setting of the external data plane (-c dataPlane=external)');
  return config;
}

export const isProduction = (config: StageConfig): boolean => config.stage === 'prod';

/** Data (tables, media) is kept when a production stack is deleted; other stages clean up after themselves. */
export const dataRemovalPolicy = (config: StageConfig): RemovalPolicy => (isProduction(config) ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY);

/** Name of the SSM parameter holding the public URL, written by the web stack and read by the handlers. */
export const publicUrlParameterName = (config: StageConfig): string => `/loopcast/${config.stage}/public-url`;
