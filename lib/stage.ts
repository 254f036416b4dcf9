import { RemovalPolicy } from 'aws-cdk-lib';

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
}

export const isProduction = (config: StageConfig): boolean => config.stage === 'prod';

/** Data (tables, media) is kept when a production stack is deleted; other stages clean up after themselves. */
export const dataRemovalPolicy = (config: StageConfig): RemovalPolicy =>
  isProduction(config) ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY;

/** Name of the SSM parameter holding the public URL, written by the web stack and read by the handlers. */
export const publicUrlParameterName = (config: StageConfig): string => `/loopcast/${config.stage}/public-url`;
