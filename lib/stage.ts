import { RemovalPolicy } from 'aws-cdk-lib';
import { DEFAULT_DATA_PLANE, type DataPlane } from '../lambdas/contract/data-planes';

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
  /** Where stream tasks run (-c dataPlane=fargate|external; lambdas/contract/data-planes.ts). The ops dashboard's
   * cost estimate and the Stripe prices tool's cost check read it; the streaming stack builds Fargate either way
   * until the external data plane exists. */
  dataPlane?: DataPlane;
}

export const dataPlaneOf = (config: StageConfig): DataPlane => config.dataPlane ?? DEFAULT_DATA_PLANE;

export const isProduction = (config: StageConfig): boolean => config.stage === 'prod';

/** Data (tables, media) is kept when a production stack is deleted; other stages clean up after themselves. */
export const dataRemovalPolicy = (config: StageConfig): RemovalPolicy =>
  isProduction(config) ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY;

/** Name of the SSM parameter holding the public URL, written by the web stack and read by the handlers. */
export const publicUrlParameterName = (config: StageConfig): string => `/loopcast/${config.stage}/public-url`;
