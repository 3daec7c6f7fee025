/**
 * The worker thread of QueryChecker (checker.ts): parses and checks user SPARQL off the main thread.
 * Protocol: {id, text, limits} → {id, ok: true, checked} | {id, ok: false, error: {code, message, details?}}.
 */
import { parentPort } from 'node:worker_threads';
import { AskgraphError, isAskgraphError } from '../core';
import { analyseQuery, type UserQueryLimits } from './user-query';

if (!parentPort) throw new AskgraphError('INTERNAL', 'check-worker runs only as a worker thread of QueryChecker');
const port = parentPort;
port.on('message', (req: { id: number; text: string; limits: UserQueryLimits }) => {
  try {
    port.postMessage({ id: req.id, ok: true, checked: analyseQuery(req.text, req.limits) });
  } catch (e) {
    // details cross the thread as plain JSON (a value that does not clone would fail postMessage)
    const details: unknown = e instanceof AskgraphError && e.details ? JSON.parse(JSON.stringify(e.details)) : undefined;
    const error = isAskgraphError(e)
      ? { code: e.code, message: e.message, ...(details ? { details } : {}) }
      : { code: 'SPARQL_SYNTAX', message: e instanceof Error ? e.message : String(e) };
    port.postMessage({ id: req.id, ok: false, error });
  }
});
