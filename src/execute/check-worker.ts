/**
 * The worker thread of QueryChecker (checker.ts): parses and checks user SPARQL off the main thread.
 * Protocol: {id, text, limits} → {id, ok: true, checked} | {id, ok: false, error: {code, message, details?}}.
 */
import { parentPort } from 'node:worker_threads';
import { isAskgraphError } from '../core';
import { analyseQuery, type UserQueryLimits } from './user-query';

const port = parentPort!;
port.on('message', (req: { id: number; text: string; limits: UserQueryLimits }) => {
  try {
    port.postMessage({ id: req.id, ok: true, checked: analyseQuery(req.text, req.limits) });
  } catch (e) {
    const error = isAskgraphError(e)
      ? { code: e.code, message: e.message, ...(e.details ? { details: JSON.parse(JSON.stringify(e.details)) } : {}) }
      : { code: 'SPARQL_SYNTAX', message: e instanceof Error ? e.message : String(e) };
    port.postMessage({ id: req.id, ok: false, error });
  }
});
