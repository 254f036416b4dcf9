import { Tags, type App, type Environment } from 'aws-cdk-lib';
import { ApiStack } from './api-stack';
import { DataStack } from './data-stack';
import { EDGE_REGION, EdgeStack } from './edge-stack';
import { MediaStack } from './media-stack';
import { OpsStack } from './ops-stack';
import type { StageConfig } from './stage';
import { StreamingStack } from './streaming-stack';
import { WebStack } from './web-stack';

export interface LoopcastStacks {
  edge: EdgeStack;
  data: DataStack;
  media: MediaStack;
  api: ApiStack;
  web: WebStack;
  streaming: StreamingStack;
  ops: OpsStack;
}

/** All stacks of one stage, named `Loopcast-<stage>-<Part>` so several stages can share an account. */
export function createLoopcastStacks(app: App, config: StageConfig, env?: Environment): LoopcastStacks {
  const name = (part: string) => `Loopcast-${config.stage}-${part}`;
  const common = { env };
  // CloudFront's web ACL must be in us-east-1, whatever region the stage is in.
  const edge = new EdgeStack(app, name('Edge'), config, { env: { ...(env?.account ? { account: env.account } : {}), region: EDGE_REGION } });
  const data = new DataStack(app, name('Data'), config, common);
  const media = new MediaStack(app, name('Media'), config, { ...common, accessLogs: data.accessLogs });
  const api = new ApiStack(app, name('Api'), config, {
    ...common,
    table: data.table,
    mediaBucket: media.bucket,
    secretsKey: data.secretsKey,
    transcodeQueue: media.transcodeQueue,
    transcodeRole: media.transcodeRole,
  });
  const web = new WebStack(app, name('Web'), config, {
    ...common,
    httpApi: api.httpApi,
    uploadsUrl: api.uploadsUrl,
    originVerify: api.originVerify,
    accessLogs: data.accessLogs,
    realtimeOrigin: api.realtimeApi.apiEndpoint,
  });
  web.addStackDependency(edge, 'the distribution takes the web ACL the Edge stack makes');
  const streaming = new StreamingStack(app, name('Streaming'), config, { ...common, api });
  const ops = new OpsStack(app, name('Ops'), config, { ...common, api, streaming, table: data.table });
  Tags.of(app).add('project', 'loopcast');
  Tags.of(app).add('stage', config.stage);
  return { edge, data, media, api, web, streaming, ops };
}
