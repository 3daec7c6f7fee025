/**
 * ABSDIFF ([30] Arith) compiled and run on a tiny graph in the embedded store: numeric literals (ratings,
 * votes as xsd:integer / xsd:decimal, a date) and years that are entities labelled "1994" (MetaQA). A side
 * with no value or two different values gives no answer.
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { XSD } from '../../../src/core';
import { compileForm } from '../../../src/compile';
import { OxigraphExecutor, runCompiled } from '../../../src/execute';
import { parseForm } from '../../../src/form';

const BASE = 'http://askgraph.test/';
const OPTS = { entityNamespace: BASE + 'e/', vocabularyNamespace: BASE + 'r/' };

const TTL = `
@prefix e: <${BASE}e/> .
@prefix r: <${BASE}r/> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
e:Jaws rdfs:label "Jaws" ; r:release_year e:y1975 ; r:votes 120 ; r:rating 8.1 ; r:premiere "1975-06-20"^^xsd:date .
e:Heat rdfs:label "Heat" ; r:release_year e:y1995 ; r:votes 95 ; r:rating 8.3 ; r:premiere "1995-12-15"^^xsd:date .
e:Twins rdfs:label "Twins" ; r:release_year e:y1988, e:y1989 ; r:votes 10 .
e:Nothing rdfs:label "Nothing" .
e:y1975 rdfs:label "1975" .
e:y1995 rdfs:label "1995" .
e:y1988 rdfs:label "1988" .
e:y1989 rdfs:label "1989" .
e:Spielberg rdfs:label "Steven Spielberg" .
e:Jaws r:directed_by e:Spielberg .
`;

describe('compile: ABSDIFF on the embedded store', function () {
  this.timeout(60_000);
  let dir: string;
  let ex: OxigraphExecutor | undefined;
  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'askgraph-arith-'));
    fs.writeFileSync(path.join(dir, 'kb.ttl'), TTL);
    ex = await OxigraphExecutor.open({ files: [path.join(dir, 'kb.ttl')], baseIri: BASE }, { id: 'oxigraph:arith' });
  });
  after(async () => {
    await ex?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const run = async (text: string) => {
    const compiled = compileForm(parseForm(text), OPTS);
    assert.equal(compiled.kind, 'value');
    assert.equal(compiled.answerType, 'number');
    const out = await runCompiled(ex!, compiled, { timeoutMs: 30_000 });
    assert.ok(out.status === 'answers' || out.status === 'empty', `${text}: ${out.status} ${JSON.stringify(out.error)}`);
    return out.answers;
  };
  const number = async (text: string): Promise<number> => {
    const answers = await run(text);
    assert.equal(answers.length, 1, `${text}: ${JSON.stringify(answers)}`);
    const a = answers[0]!;
    assert.equal(a.type, 'literal');
    assert.ok([XSD + 'integer', XSD + 'decimal', XSD + 'double'].includes(a.datatype ?? ''), `numeric datatype: ${a.datatype}`);
    return Number(a.value);
  };

  it('years that are entities labelled with numbers: |1975 − 1995| = 20, either order', async () => {
    assert.equal(await number('(ABSDIFF (JOIN (R release_year) [ Jaws ]) (JOIN (R release_year) [ Heat ]))'), 20);
    assert.equal(await number('(ABSDIFF (JOIN (R release_year) [ Heat ]) (JOIN (R release_year) [ Jaws ]))'), 20);
    const integer = (await run('(ABSDIFF (JOIN (R release_year) [ Jaws ]) (JOIN (R release_year) [ Heat ]))'))[0]!;
    assert.equal(integer.datatype, XSD + 'integer');
  });

  it('numeric literals: integers and decimals (exact, no floating noise)', async () => {
    assert.equal(await number('(ABSDIFF (JOIN (R votes) [ Jaws ]) (JOIN (R votes) [ Heat ]))'), 25);
    const rating = (await run('(ABSDIFF (JOIN (R rating) [ Heat ]) (JOIN (R rating) [ Jaws ]))'))[0]!;
    assert.equal(rating.value, '0.2');
    assert.equal(await number('(ABSDIFF (JOIN (R votes) <http://askgraph.test/e/Jaws>) (JOIN (R votes) [ Twins ]))'), 110);
  });

  it('dates count by their year', async () => {
    assert.equal(await number('(ABSDIFF (JOIN (R premiere) [ Jaws ]) (JOIN (R premiere) [ Heat ]))'), 20);
  });

  it('operands reached over a longer path still give one value', async () => {
    assert.equal(await number('(ABSDIFF (JOIN (R release_year) (JOIN directed_by [ Steven Spielberg ])) (JOIN (R release_year) [ Heat ]))'), 20);
  });

  it('a side with no value, or with two different values, gives no answer', async () => {
    assert.deepEqual(await run('(ABSDIFF (JOIN (R release_year) [ Nothing ]) (JOIN (R release_year) [ Heat ]))'), []);
    assert.deepEqual(await run('(ABSDIFF (JOIN (R release_year) [ Twins ]) (JOIN (R release_year) [ Heat ]))'), []);
    assert.deepEqual(await run('(ABSDIFF (JOIN (R release_year) [ No Such Film ]) (JOIN (R release_year) [ Heat ]))'), []);
    // values that are not numbers (a director) are not values to subtract
    assert.deepEqual(await run('(ABSDIFF (JOIN (R directed_by) [ Jaws ]) (JOIN (R release_year) [ Heat ]))'), []);
  });

  it('the same value on both sides is 0, not no answer', async () => {
    assert.equal(await number('(ABSDIFF (JOIN (R release_year) [ Jaws ]) (JOIN (R release_year) [ Jaws ]))'), 0);
  });
});
