/**
 * The worker thread that owns one Oxigraph store. Oxigraph's query() is synchronous and has no
 * timeout, so it runs here, where the main thread can terminate it (see oxigraph.ts).
 * Protocol: workerData = StoreSource; posts {type:'ready', info} or {type:'fatal', error} once;
 * then answers each {id, query, form} with {id, ok, …}.
 */
import { parentPort, workerData } from 'node:worker_threads';
import * as oxigraph from 'oxigraph';
import { buildStore, StoreSource } from './loaders';
import { fromRdfJs, tripleFromRdfJs } from './terms';
import { LabelPicker } from './labels';
import type { WorkerReply, WorkerRequest } from './protocol';
import { isAskgraphError } from '../core';

const port = parentPort!;
let store: oxigraph.Store;

try {
  const built = buildStore(workerData as StoreSource);
  store = built.store;
  port.postMessage({ type: 'ready', info: built.info });
} catch (e) {
  const error = isAskgraphError(e) ? { code: e.code, message: e.message } : { code: 'STORE_UNAVAILABLE', message: (e as Error).message };
  port.postMessage({ type: 'fatal', error });
}

port.on('message', (req: WorkerRequest) => {
  port.postMessage(answer(req));
});

function answer(req: WorkerRequest): WorkerReply {
  if (req.op === 'labels') return labels(req.id, req.iris, req.predicates);
  try {
    // The default graph is the union of all graphs, as on Virtuoso's /sparql (N-Quads data in named graphs stays visible).
    if (req.form === 'CONSTRUCT' || req.form === 'DESCRIBE') {
      const quads = store.query(req.query, { use_default_graph_as_union: true }) as oxigraph.Quad[];
      return { id: req.id, ok: true, triples: quads.map(tripleFromRdfJs) };
    }
    const text = store.query(req.query, { use_default_graph_as_union: true, results_format: 'application/sparql-results+json' }) as string;
    return { id: req.id, ok: true, json: text };
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    // Oxigraph's parser accepts a little more or less than sparqljs; its parse errors are still the caller's.
    const code = /parse|syntax|unexpected|expected/i.test(message) ? 'SPARQL_SYNTAX' : 'ENDPOINT_ERROR';
    return { id: req.id, ok: false, error: { code, message } };
  }
}

/**
 * Labels by direct index lookups (subject + predicate bound): a SPARQL VALUES query is evaluated by
 * Oxigraph as a scan of all label triples joined with the VALUES table, ~50-200 ms on the movies graph.
 */
function labels(id: number, iris: string[], predicates: string[]): WorkerReply {
  try {
    const picker = new LabelPicker(predicates);
    const preds = predicates.map((p) => oxigraph.namedNode(p));
    for (const iri of iris) {
      const s = oxigraph.namedNode(iri);
      for (const p of preds) for (const q of store.match(s, p, null, null)) picker.offer(iri, p.value, fromRdfJs(q.object));
    }
    return { id, ok: true, labels: [...picker.result()] };
  } catch (e) {
    return { id, ok: false, error: { code: 'BAD_REQUEST', message: e instanceof Error ? e.message : String(e) } };
  }
}
