import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { packageRoot } from '../../../src/core';
import { importGrailqa, importQald, loadDataset } from '../../../src/eval';
import { cli } from '../../helpers/cli';

const PQ = 'http://askgraph.dev/pq-2h/';
const qald = {
  questions: [
    {
      id: '1',
      question: [{ language: 'de', string: 'Welche Nationalität …' }, { language: 'en', string: "which nationality is frederica 's couple ?" }],
      query: {
        sparql: `SELECT ?x WHERE { ?y <${PQ}relation/nationality> ?x . <${PQ}entity/frederica_of_mecklenburg-strelitz> <${PQ}relation/spouse> ?y . }`,
      },
      answers: [{ head: { vars: ['x'] }, results: { bindings: [{ x: { type: 'uri', value: `${PQ}entity/united_kingdom` } }] } }],
    },
    {
      id: '2',
      question: [{ language: 'en', string: 'a union nobody converts' }],
      query: { sparql: `SELECT ?x WHERE { { ?x <${PQ}relation/spouse> ?y } UNION { ?z <${PQ}relation/parents> ?y } }` },
      answers: [{ head: { vars: ['x'] }, results: { bindings: [] } }],
    },
  ],
};


describe('eval data formats', () => {
  it('QALD JSON: English question, SPARQL, IRI answers; converts where sparqlToForm can and counts the rest', () => {
    const { examples, stats } = importQald(qald);
    assert.equal(examples.length, 2);
    assert.equal(examples[0]!.question, "which nationality is frederica 's couple ?");
    assert.deepEqual(examples[0]!.answers, [`${PQ}entity/united_kingdom`]);
    assert.ok(examples[0]!.form?.includes(`<${PQ}relation/nationality>`), examples[0]!.form);
    assert.equal(examples[1]!.form, undefined);
    assert.ok(examples[1]!.sparql);
    assert.equal(stats.total, 2);
    assert.equal(stats.converted, 1);
    assert.equal(stats.failed, 1);
    assert.equal(Object.values(stats.reasons).reduce((a, b) => a + b, 0), 1);
  });

  it('CWQ-style flat list: Freebase names become bare relation names and ids', () => {
    const { examples, stats } = importQald([
      {
        ID: 'q1',
        question: 'what is the capital of X',
        sparql: 'PREFIX ns: <http://rdf.freebase.com/ns/>\nSELECT DISTINCT ?x WHERE { ns:m.0abc ns:location.country.capital ?x . }',
        answer: 'Y',
        topic_entity: { 'm.0abc': 'X' },
        compositionality_type: 'composition',
      },
    ]);
    assert.equal(stats.converted, 1);
    assert.equal(examples[0]!.form, '(JOIN (R location.country.capital) m.0abc)');
    assert.deepEqual(examples[0]!.answers, ['Y']);
    assert.deepEqual(examples[0]!.topic, ['X']);
    assert.equal(examples[0]!.meta.qtype, 'composition');
  });

  it('GrailQA: s_expression → canonical form, answers by name, hop = edges', () => {
    const { examples, stats } = importGrailqa([
      {
        qid: 7, question: 'which play is produced by the illusion?', function: 'none', num_edge: 1, level: 'i.i.d.', domains: ['theater'],
        s_expression: '(AND theater.play (JOIN theater.play.productions m.0yrlqjm))', sparql_query: 'SELECT …',
        answer: [{ answer_type: 'Entity', answer_argument: 'm.0yrltsn', entity_name: 'The Illusion' }], topic_entity: { 'm.0yrlqjm': 'The Illusion' },
      },
      { qid: 8, question: 'broken', s_expression: '(AND theater.play', answer: [] },
    ]);
    assert.equal(examples[0]!.form, '(AND theater.play (JOIN theater.play.productions m.0yrlqjm))');
    assert.deepEqual(examples[0]!.answers, ['The Illusion']);
    assert.equal(examples[0]!.meta.hop, 1);
    assert.deepEqual(stats, { total: 2, converted: 1, failed: 1, reasons: { FORM_SYNTAX: 1 } });
  });

  it('--format metaqa reads native lines and the parallel _qtype file', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'askgraph-mq-'));
    fs.mkdirSync(path.join(dir, '2-hop'));
    fs.writeFileSync(path.join(dir, '2-hop', 'qa_test.txt'), 'who co-starred with [Tom Hanks]\tMeg Ryan|Sally Field\n');
    fs.writeFileSync(path.join(dir, '2-hop', 'qa_test_qtype.txt'), 'actor_to_movie_to_actor\n');
    const ex = loadDataset(path.join(dir, '2-hop', 'qa_test.txt'), 'metaqa');
    assert.equal(ex[0]!.question, 'who co-starred with Tom Hanks');
    assert.equal(ex[0]!.form, '(JOIN (R starred_actors) (JOIN starred_actors [ Tom Hanks ]))');
    assert.equal(ex[0]!.meta.hop, 2);
  });

  it('askgraph eval --format qald --oracle on the PathQuestion pack scores IRI answers', async function () {
    this.timeout(60000);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'askgraph-qald-'));
    const file = path.join(dir, 'q.json');
    fs.writeFileSync(file, JSON.stringify(qald));
    const r = await cli(['eval', '--dataset', file, '--format', 'qald', '--store', path.join(packageRoot(), 'fixtures', 'pathquestion', 'pq-2h'), '--oracle', '--json']);
    assert.equal(r.code, 0, r.err);
    const s = JSON.parse(r.out);
    assert.equal(s.count, 2);
    // example 1 converts and is answered exactly; example 2 has no form → no answer, and its gold set is empty → counts 1
    assert.equal(s.acc, 1);
    assert.equal(s.executable, 1, 'only examples with a gold form count for the oracle');
    assert.equal(s.noAnswer, 0.5);
  });

  it('askgraph import writes JSON Lines and a pack', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'askgraph-imp-'));
    fs.writeFileSync(path.join(dir, 'wc.txt'), 'name a club ?\tB\tMX#plays_for_country_inverse#A#plays_in_club#B\tB/\tsub\n');
    fs.writeFileSync(path.join(dir, 'kb.txt'), 'A\tplays_for_country\tMX\nMX\tplays_for_country_inverse\tA\nA\tplays_in_club\tB\n');
    const r = await cli(['import', 'wc2014', path.join(dir, 'wc.txt'), '--out', path.join(dir, 'wc.jsonl'), '--kb', path.join(dir, 'kb.txt'), '--pack', path.join(dir, 'pack'), '--json']);
    assert.equal(r.code, 0, r.err);
    assert.deepEqual(JSON.parse(r.out).pack, { dir: path.join(dir, 'pack'), triples: 2 });
    assert.equal(fs.readFileSync(path.join(dir, 'pack', 'kb.txt'), 'utf8'), 'A|plays_for_country|MX\nA|plays_in_club|B\n');
    const ex = JSON.parse(fs.readFileSync(path.join(dir, 'wc.jsonl'), 'utf8'));
    assert.equal(ex.form, '(JOIN (R plays_in_club) (JOIN plays_for_country [ MX ]))');
    const e = await cli(['eval', '--dataset', path.join(dir, 'wc.jsonl'), '--store', path.join(dir, 'pack'), '--oracle', '--json']);
    assert.equal(e.code, 0, e.err);
    assert.equal(JSON.parse(e.out).acc, 1);
  });
});
