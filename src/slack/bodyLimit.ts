// The size limit of HTTP-mode requests: Slack's payloads are a few kilobytes, so a body over the limit
// (1 MiB) is refused with 413 before it is buffered, let alone HMAC'd. A declared Content-Length over the
// limit is refused before a byte is read; a streamed (chunked) body is counted as it arrives and reading
// stops once it passes the limit. The body read here is handed to Bolt as `rawBody`, which its HTTP
// receiver takes instead of reading the request itself (HTTPModuleFunctions.bufferIncomingMessage).
// Like requestWindow.ts, this wraps the receiver's request listener, in front of Bolt's verification.
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { Logger } from 'pino';

export const DEFAULT_BODY_LIMIT_BYTES = 1024 * 1024;

/** What Bolt's HTTP receiver looks for to skip reading the body again. */
type BufferedRequest = IncomingMessage & { rawBody?: Buffer };

function refuse(response: ServerResponse): void {
  // The rest of the body is not read: the connection closes after the answer.
  response.writeHead(413, { connection: 'close' });
  response.end();
}

export function withinBodyLimit(
  listener: RequestListener,
  log: Logger,
  limitBytes: number = DEFAULT_BODY_LIMIT_BYTES,
): RequestListener {
  return (request: IncomingMessage, response: ServerResponse) => {
    // Health, readiness and metrics probes carry no body; Slack only POSTs.
    if (request.method === 'GET' || request.method === 'HEAD') {
      listener(request, response);
      return;
    }
    const declared = Number(request.headers['content-length']);
    if (declared > limitBytes) {
      log.warn(
        { declaredBytes: declared, limitBytes },
        'refused a Slack request whose body is over the limit',
      );
      refuse(response);
      return;
    }
    const chunks: Buffer[] = [];
    let received = 0;
    const stopReading = () => {
      request.off('data', onData);
      request.off('end', onEnd);
      request.off('error', onError);
    };
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received <= limitBytes) {
        chunks.push(chunk);
        return;
      }
      stopReading();
      request.pause();
      chunks.length = 0;
      log.warn(
        { receivedBytes: received, limitBytes },
        'refused a Slack request whose body is over the limit (stopped reading it)',
      );
      refuse(response);
    };
    const onEnd = () => {
      stopReading();
      (request as BufferedRequest).rawBody = Buffer.concat(chunks, received);
      listener(request, response);
    };
    const onError = (error: Error) => {
      stopReading();
      log.warn({ err: error }, 'could not read a Slack request body');
      if (!response.headersSent) {
        response.writeHead(400, { connection: 'close' });
        response.end();
      }
    };
    request.on('data', onData);
    request.on('end', onEnd);
    request.on('error', onError);
  };
}
