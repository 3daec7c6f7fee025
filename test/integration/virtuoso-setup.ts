/**
 * A real Virtuoso for the integration tests: started by scripts/virtuoso.sh when it is not running
 * (failing loudly, never skipping, when it cannot start), graphs loaded once into named graphs and
 * reused while their triple count matches. Endpoint per graph: /sparql?default-graph-uri=<graph>.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { packageRoot } from '../../src/core';
import { EndpointExecutor, tripleFileToNTriples } from '../../src/execute';

export const HTTP_PORT = Number(process.env.VIRTUOSO_HTTP_PORT ?? 8890);
export const ENDPOINT = `http://127.0.0.1:${HTTP_PORT}/sparql`;

export function virtuosoScript(...args: string[]): string {
  const script = path.join(packageRoot(), 'scripts', 'virtuoso.sh');
  try {
    return execFileSync('bash', [script, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 180_000 });
  } catch (e) {
    const err = e as { stderr?: string; stdout?: string; message: string };
    throw new Error(`scripts/virtuoso.sh ${args.join(' ')} failed: ${[err.stderr, err.stdout].find((s) => s !== undefined && s !== '') ?? err.message}`);
  }
}

let checked = false;
/** True when this test run started the server (then the root hook test/hooks.ts stops it at the end). */
let startedHere = false;

/** Starts Virtuoso if needed; throws (the test fails) when it cannot. */
export function ensureVirtuoso(): void {
  if (checked) return;
  try {
    virtuosoScript('status');
  } catch {
    virtuosoScript('start');
    startedHere = true;
  }
  checked = true;
}

/** Stops Virtuoso if this run started it (a server that was already running is left alone). */
export function stopVirtuosoIfStartedHere(): boolean {
  if (!startedHere) return false;
  virtuosoScript('stop');
  startedHere = false;
  checked = false;
  return true;
}

export function graphEndpoint(graph: string): string {
  return `${ENDPOINT}?default-graph-uri=${encodeURIComponent(graph)}`;
}

async function graphSize(graph: string): Promise<number> {
  const ex = new EndpointExecutor(ENDPOINT);
  return ex.count(`SELECT (COUNT(*) AS ?n) WHERE { GRAPH <${graph}> { ?s ?p ?o } }`, { timeoutMs: 60_000 });
}

/** Loads an N-Triples/Turtle file into a named graph unless the graph already holds `expected` triples. */
export async function ensureGraph(file: string, graph: string, expected: number): Promise<void> {
  ensureVirtuoso();
  if ((await graphSize(graph)) === expected) return;
  virtuosoScript('load', file, graph);
  const n = await graphSize(graph);
  if (n !== expected) throw new Error(`Virtuoso graph <${graph}> holds ${n} triples after loading ${file}, Oxigraph ${expected}`);
}

/** The movies kb.txt as N-Triples by the minting rule (Virtuoso does not read our triple files). */
export function moviesNTriples(): string {
  const kb = path.join(packageRoot(), 'store', 'movies', 'kb.txt');
  const out = path.join(os.tmpdir(), `askgraph-movies-${fs.statSync(kb).size}.nt`);
  if (!fs.existsSync(out)) {
    const { chunks } = tripleFileToNTriples(fs.readFileSync(kb, 'utf8'), 'http://askgraph.dev/movies/', 'kb.txt');
    fs.writeFileSync(out + '.tmp', chunks.join(''));
    fs.renameSync(out + '.tmp', out);
  }
  return out;
}
