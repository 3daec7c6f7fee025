/**
 * The child process that owns one Oxigraph store (started by StoreProcess in oxigraph.ts). Oxigraph's
 * query() is synchronous, has no timeout and runs WebAssembly that can trap (out-of-bounds, out of
 * memory, unreachable): in a separate process a runaway query is killed with SIGKILL and a trap or a
 * V8 fatal error ends only this process, never the gateway. After any failure that is not a plain
 * query error the process replies and exits, and the supervisor starts a fresh one.
 * Protocol (IPC, advanced serialisation): first {op:'init', source} → {type:'ready', info} or
 * {type:'fatal', error}; then each {id, op, …} is answered with {id, ok, …}.
 */
import * as oxigraph from 'oxigraph';
import { buildStore } from './loaders';
import { fromRdfJs, tripleFromRdfJs } from './terms';
import { LabelPicker } from './labels';
import type { WorkerReply, WorkerRequest } from './protocol';
import { isAskgraphError } from '../core';

let store: oxigraph.Store | undefined;

function send(msg: unknown, then?: () => void): void {
  if (!process.send || !process.connected) process.exit(0);
  process.send(msg, undefined, {}, () => then?.());
}

// the gateway went away: nothing to answer to
process.on('disconnect', () => process.exit(0));

process.on('message', (req: WorkerRequest) => {
  if (req.op === 'init') {
    try {
      const built = buildStore(req.source);
      store = built.store;
      const cpu = process.cpuUsage(); // this process's whole start: node, Oxigraph's wasm, the load
      send({ type: 'ready', info: { ...built.info, cpuMs: (cpu.user + cpu.system) / 1000 } });
    } catch (e) {
      const error = isAskgraphError(e) ? { code: e.code, message: e.message } : { code: 'STORE_UNAVAILABLE', message: (e as Error).message };
      send({ type: 'fatal', error });
    }
    return;
  }
  const reply = answer(req);
  if (!reply.ok && reply.fatal) send(reply, () => process.exit(70));
  else send(reply);
});

/** A failure of the store itself (not of the query): WebAssembly traps, JS engine limits, allocation failures. */
function isStoreFailure(e: unknown): boolean {
  if (e instanceof WebAssembly.RuntimeError || e instanceof RangeError) return true;
  const m = e instanceof Error ? e.message : String(e);
  return /out of bounds|unreachable|out of memory|memory allocation|allocation failed|call stack|RuntimeError|panicked/i.test(m);
}

function failure(id: number, e: unknown): WorkerReply {
  const message = e instanceof Error ? e.message : String(e);
  if (isAskgraphError(e)) return { id, ok: false, error: { code: e.code, message, ...(e.details ? { details: e.details } : {}) } };
  if (isStoreFailure(e)) {
    return { id, ok: false, fatal: true, error: { code: 'STORE_UNAVAILABLE', message: `the store failed on this query and is being restarted (${message.slice(0, 200)})` } };
  }
  // Oxigraph's parser accepts a little more or less than sparqljs; its parse errors are still the caller's.
  const code = /parse|syntax|unexpected|expected/i.test(message) ? 'SPARQL_SYNTAX' : 'ENDPOINT_ERROR';
  return { id, ok: false, error: { code, message } };
}

function answer(req: WorkerRequest & { op: 'query' | 'labels' }): WorkerReply {
  if (!store) return { id: req.id, ok: false, error: { code: 'STORE_UNAVAILABLE', message: 'the store is not loaded' } };
  if (req.op === 'labels') return labels(store, req.id, req.iris, req.predicates);
  try {
    // Without a dataset the default graph is the union of all graphs, as on Virtuoso's /sparql (N-Quads
    // data in named graphs stays visible); FROM / FROM NAMED (or the protocol's graph parameters) give
    // exactly those graphs.
    const options = req.dataset
      ? { default_graph: req.dataset.default.map((g) => oxigraph.namedNode(g)), named_graphs: req.dataset.named.map((g) => oxigraph.namedNode(g)) }
      : { use_default_graph_as_union: true };
    if (req.form === 'CONSTRUCT' || req.form === 'DESCRIBE') {
      const quads = store.query(req.query, options) as oxigraph.Quad[];
      // (the process runs with --no-turbo-inline-js-wasm-calls: see spawnStoreProcess in oxigraph.ts)
      const triples = quads.map((q) => tripleFromRdfJs(q));
      if (req.maxBytes !== undefined) {
        let bytes = 0;
        for (const t of triples) bytes += t.s.value.length + t.p.value.length + t.o.value.length + 12;
        if (bytes > req.maxBytes) return resultTooLarge(req.id, bytes, req.maxBytes);
      }
      return { id: req.id, ok: true, triples };
    }
    const text = store.query(req.query, { ...options, results_format: 'application/sparql-results+json' }) as string;
    if (req.maxBytes !== undefined && text.length > req.maxBytes) return resultTooLarge(req.id, text.length, req.maxBytes);
    return { id: req.id, ok: true, json: text };
  } catch (e) {
    return failure(req.id, e);
  }
}

function resultTooLarge(id: number, bytes: number, maxBytes: number): WorkerReply {
  return {
    id,
    ok: false,
    error: { code: 'RESULT_TOO_LARGE', message: `the result has more than ${maxBytes} bytes; page through it with LIMIT and OFFSET`, details: { maxBytes } },
  };
}

/**
 * Labels by direct index lookups (subject + predicate bound): a SPARQL VALUES query is evaluated by
 * Oxigraph as a scan of all label triples joined with the VALUES table, ~50-200 ms on the movies graph.
 */
function labels(st: oxigraph.Store, id: number, iris: string[], predicates: string[]): WorkerReply {
  try {
    const picker = new LabelPicker(predicates);
    const preds = predicates.map((p) => oxigraph.namedNode(p));
    for (const iri of iris) {
      const s = oxigraph.namedNode(iri);
      for (const p of preds) for (const q of st.match(s, p, null, null)) picker.offer(iri, p.value, fromRdfJs(q.object));
    }
    return { id, ok: true, labels: [...picker.result()] };
  } catch (e) {
    if (isStoreFailure(e)) return failure(id, e);
    return { id, ok: false, error: { code: 'BAD_REQUEST', message: e instanceof Error ? e.message : String(e) } };
  }
}
