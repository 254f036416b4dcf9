// The tus upload endpoint on the local HTTP origin: node:http in and out of the same web-standard handler the
// Lambda uses. srvx's NodeRequest (what @tus/server itself uses for node:http) streams the request body with
// backpressure, and lets tus see a client that disconnects, so it keeps the bytes received until then.
import { NodeRequest, sendNodeResponse } from 'srvx/node';
import { UPLOADS_PATH, type UploadServer } from '../lambdas/uploads/tus-server';
import type { Mount } from './http-server';

export function uploadsMount(server: UploadServer): Mount {
  return {
    prefix: UPLOADS_PATH,
    async handle(request, response) {
      const webRequest = new NodeRequest({ req: request, res: response });
      await sendNodeResponse(response, await server.handleWeb(webRequest));
    },
  };
}
