/** Helpers of the grounding tests: a beam of parsed forms, every attempt a grounding generator yields, a made-up graph. */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Candidate, Executor } from '../../src/core';
import { openExecutor } from '../../src/execute';
import { parseForm } from '../../src/form';
import { buildStoreIndex, groundCandidates, RelationRetriever, type EntityIndex, type GroundAttempt, type GroundOptions } from '../../src/ground';

const RDFS_LABEL = 'http://www.w3.org/2000/01/rdf-schema#label';

/** A beam from [form text, log-probability] pairs, ranked in order. */
export function beam(...forms: [string, number][]): Candidate[] {
  return forms.map(([text, logProb], rank) => ({ form: parseForm(text), text, logProb, rank }));
}

/** Every attempt of a grounding generator (groundCandidates …), in order. */
export async function collect(gen: AsyncGenerator<GroundAttempt>): Promise<GroundAttempt[]> {
  const out: GroundAttempt[] = [];
  for await (const a of gen) out.push(a);
  return out;
}

/** A made-up graph opened as the grounding tests read it: its store, entity index and relation retriever. */
export interface MadeUpGraph {
  executor: Executor;
  index: EntityIndex;
  relations: RelationRetriever;
  /** Closes the store and removes the temporary folder. */
  close(): Promise<void>;
}

/**
 * Writes the Turtle to a temporary folder and opens it: the entity index leaves out the relation namespace, the
 * relation retriever never offers rdfs:label.
 */
export async function openMadeUpGraph(ttl: string, relationNamespace: string): Promise<MadeUpGraph> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'askgraph-ground-'));
  fs.writeFileSync(path.join(dir, 'graph.ttl'), ttl);
  const executor = await openExecutor(path.join(dir, 'graph.ttl'));
  const index = await buildStoreIndex(executor, { excludeNamespaces: [relationNamespace] });
  return {
    executor,
    index,
    relations: new RelationRetriever(executor, { exclude: [RDFS_LABEL] }),
    close: async () => {
      await executor.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A made-up graph for one describe block: opened before its tests and closed after them (mocha hooks). `graph` is set
 * once the hooks ran; `attempts` grounds one beam form of a question on it (with these grounding options).
 */
export function madeUpGraphFor(ttl: string, relationNamespace: string, options: GroundOptions = {}): { graph: MadeUpGraph; attempts(form: string, question: string): Promise<GroundAttempt[]> } {
  let opened: MadeUpGraph | undefined;
  const graph = (): MadeUpGraph => {
    if (!opened) throw new Error('the made-up graph is opened by the describe block\'s before hook');
    return opened;
  };
  before(async () => {
    opened = await openMadeUpGraph(ttl, relationNamespace);
  });
  after(() => opened?.close());
  return {
    get graph() {
      return graph();
    },
    attempts: (form, question) => {
      const { index, relations } = graph();
      return collect(groundCandidates(beam([form, -0.1]), { index, relations, vocabularyNamespace: relationNamespace, question }, options));
    },
  };
}
