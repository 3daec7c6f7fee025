import { STATUS_CODES, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { ERROR_STATUS, type ErrorCode } from '../core';

/**
 * Requests that never reach express (the HTTP parser refused them): a header block over Node's limit
 * (16 KB) gets 431 HEADERS_TOO_LARGE, a request not sent in time 408 REQUEST_NOT_RECEIVED, a malformed request
 * 400 BAD_REQUEST, as our JSON error with the status of core/errors.ts.
 * Node's own handler answers and destroys the socket at once, so a client still sending a large
 * header sees a connection reset instead of the status: here the rest of the request is read and
 * dropped for a moment before the socket closes.
 */
export function answerClientErrors(server: Server): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => {
    if (!socket.writable || socket.destroyed) {
      socket.destroy();
      return;
    }
    const overflow = err.code === 'HPE_HEADER_OVERFLOW';
    const timeout = err.code === 'ERR_HTTP_REQUEST_TIMEOUT';
    const code: ErrorCode = overflow ? 'HEADERS_TOO_LARGE' : timeout ? 'REQUEST_NOT_RECEIVED' : 'BAD_REQUEST';
    const status = ERROR_STATUS[code];
    const message = overflow ? 'request headers too large' : timeout ? 'request not received in time' : 'malformed HTTP request';
    const body = JSON.stringify({ error: { code, message } });
    socket.on('error', () => undefined);
    socket.on('data', () => undefined); // drain: closing with unread data would reset the connection
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
    setTimeout(() => socket.destroy(), 1000).unref();
  });
}
