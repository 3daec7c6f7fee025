/**
 * What the load and soak scripts share: they only ever target this machine (the workplace's rule for load
 * tests), so a --url must be a loopback http URL, and a server they start gets a free loopback port.
 */
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import type { AddressInfo } from 'node:net';
import { packageRoot } from '../src/core';

/** Throws unless the URL is http on 127.0.0.1, localhost or [::1]. */
export function checkLoopbackUrl(url: string | undefined): void {
  if (url && !/^http:\/\/(127\.0\.0\.1|localhost|\[::1\])(:\d+)?\/?$/.test(url)) throw new Error('--url must be a loopback http URL');
}

/** A port the OS says is free on 127.0.0.1 now. */
export async function freePort(): Promise<number> {
  const s = http.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

/** The MetaQA validation questions with their answers: the questions the load and soak scripts send. */
export function validationQuestions(): { question: string; answers: string[] }[] {
  const file = path.join(packageRoot(), 'fixtures', 'metaqa', 'valid.jsonl');
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { question: string; answers: string[] });
}

/** What the scripts read of autocannon's result (the package has no typings). */
export interface AutocannonResult {
  duration: number;
  requests: { total: number; average: number };
  errors: number;
  timeouts: number;
  non2xx: number;
}

export type Autocannon = (opts: Record<string, unknown>, cb: (err: Error | null, result: AutocannonResult) => void) => NodeJS.EventEmitter;

/** autocannon, loaded when a script runs a load (a dev dependency, untyped). */
export function loadAutocannon(): Autocannon {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- an untyped CommonJS dev dependency, loaded only by the load scripts
  return require('autocannon') as Autocannon;
}
