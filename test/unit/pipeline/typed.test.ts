import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { openExecutor } from '../../../src/execute';
import { createGateway, type Gateway } from '../../../src/pipeline';
import { discoverSchema, namesOf } from '../../../src/synth';
import { askedClass, graphTypes, kindAsked, wrongClass } from '../../../src/pipeline/typed';
import { parseForm } from '../../../src/form';
import { type GatewayContext } from '../../../src/pipeline/context';
import { FixedBeam } from './fixed-beam';
import { LEXICON_FILE } from '../../../src/core';

/**
 * A made-up typed graph (nothing from a data set): shops in towns, towns in provinces, each shop with a craft. Its
 * schema is discovered from the store as `askgraph init` discovers it, and written into a pack.
 */
const E = 'http://example.org/shops/id/';
const V = 'http://example.org/shops/vocab/';
const RDFS = 'http://www.w3.org/2000/01/rdf-schema#';
const LABEL = `${RDFS}label`;
const TYPE = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type';
const things: [string, string, string][] = [
  ['clay', 'Shop', 'Clay Corner'], ['loom', 'Shop', 'Loom House'], ['kiln', 'Shop', 'Kiln Works'], ['brillpots', 'Shop', 'Brill Pots'],
  ['norvale', 'Town', 'Norvale'], ['ashby', 'Town', 'Ashby'], ['brill', 'Town', 'Brill'],
  ['westmark', 'Province', 'Westmark'], ['eastfold', 'Province', 'Eastfold'],
  ['pottery', 'Craft', 'pottery'], ['weaving', 'Craft', 'weaving'],
];
const facts: [string, string, string][] = [
  ['clay', 'inTown', 'norvale'], ['loom', 'inTown', 'norvale'], ['kiln', 'inTown', 'ashby'], ['brillpots', 'inTown', 'brill'],
  ['norvale', 'inProvince', 'westmark'], ['ashby', 'inProvince', 'westmark'], ['brill', 'inProvince', 'eastfold'],
  ['clay', 'craft', 'pottery'], ['loom', 'craft', 'weaving'], ['kiln', 'craft', 'pottery'], ['brillpots', 'craft', 'pottery'],
];
// each shop's year of opening and floor area: numbers a superlative ranks the shops by
const INT = 'http://www.w3.org/2001/XMLSchema#integer';
const values: [string, string, number][] = [
  ['clay', 'opened', 1990], ['loom', 'opened', 2005], ['kiln', 'opened', 1975], ['brillpots', 'opened', 1960],
  ['clay', 'floorArea', 120], ['loom', 'floorArea', 80], ['kiln', 'floorArea', 200], ['brillpots', 'floorArea', 300],
];
const nt = [
  ...['Shop', 'Town', 'Province', 'Craft'].map((c) => `<${V}${c}> <${LABEL}> "${c.toLowerCase()}" .`),
  ...things.flatMap(([id, cls, label]) => [`<${E}${id}> <${TYPE}> <${V}${cls}> .`, `<${E}${id}> <${LABEL}> "${label}" .`]),
  ...facts.map(([s, p, o]) => `<${E}${s}> <${V}${p}> <${E}${o}> .`),
  ...values.map(([s, p, v]) => `<${E}${s}> <${V}${p}> "${v}"^^<${INT}> .`),
  // the schema declared in the graph: triples about properties, never about the things
  `<${V}inProvince> <${RDFS}domain> <${V}Town> .`,
  `<${V}inProvince> <${RDFS}range> <${V}Province> .`,
].join('\n');

const SHOPS_IN_WESTMARK = '(AND Shop (JOIN inTown (JOIN inProvince [ Westmark ])))';
const OLDEST_POTTERY_SHOP = '(ARGMIN (AND Shop (AND (JOIN inTown (JOIN inProvince [ Westmark ])) (JOIN craft [ pottery ]))) opened)';

describe('typed.ts: the class a question asks for, and readings built from the schema (real Oxigraph store)', function () {
  this.timeout(60000);
  let dir: string;
  let gateway: Gateway;
  let parser: FixedBeam;
  let types: NonNullable<ReturnType<typeof graphTypes>>;

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'askgraph-typed-'));
    fs.writeFileSync(path.join(dir, 'shops.nt'), nt + '\n');
    const ex = await openExecutor(path.join(dir, 'shops.nt'));
    const schema = await discoverSchema(ex);
    await ex.close();
    fs.writeFileSync(path.join(dir, 'schema.json'), JSON.stringify(schema));
    // the pack's lexicon as a user edited it: the superlatives said of the floor area, either way
    fs.writeFileSync(path.join(dir, LEXICON_FILE), JSON.stringify({ properties: { floorArea: { most: ['roomiest'], least: ['pokiest'] } } }));
    fs.writeFileSync(path.join(dir, 'pack.json'), JSON.stringify({ name: 'shops', data: ['shops.nt'], baseIri: E, vocabularyNamespace: V, labelPredicates: [LABEL], names: namesOf(schema) }));
    parser = new FixedBeam({
      // read as the towns of the province: the question asks for shops
      'which shops are in Westmark?': [['(JOIN inProvince [ Westmark ])', -0.2]],
      'how many pottery shops are there in Westmark?': [['(COUNT (JOIN inProvince [ Westmark ]))', -0.2]],
      // a conjunction of a shop and a town: nothing is both
      'how many shops does Westmark have?': [['(COUNT (AND Shop (JOIN inProvince [ Westmark ])))', -0.2]],
      // a reading of the right class that drops the craft the question names
      'how many pottery shops does Westmark have?': [[`(COUNT ${SHOPS_IN_WESTMARK})`, -0.2]],
      // asks for no class: no typed readings
      'what is in Westmark?': [['(JOIN inProvince [ Westmark ])', -0.2]],
      // read as the province's towns; the question names a relation ("craft") that no reading of shops in Westmark needs
      'which shops in Westmark practise a craft?': [['(JOIN inProvince [ Westmark ])', -0.2]],
      // a reading of the right class that drops the craft and the superlative
      'what is the oldest pottery shop in Westmark?': [[SHOPS_IN_WESTMARK, -0.2]],
      'which is the roomiest pottery shop in Westmark?': [[SHOPS_IN_WESTMARK, -0.2]],
      // the class word copied into the name of the condition
      'how many pottery shops are there?': [['(COUNT (JOIN (R craft) [ pottery shops ]))', -0.2]],
      // the class word copied as a name, which names nothing of the graph
      'which shop is the roomiest?': [['(JOIN (R inTown) [ shop ])', -0.2]],
      // names a kind of shop by its craft, and no class: read as the province's towns
      'how many potteries are there in Westmark?': [['(COUNT (JOIN inProvince [ Westmark ]))', -0.2]],
      // names no class, and ranks the towns by a floor area only shops have
      'which is the roomiest in Westmark?': [['(ARGMAX (JOIN inProvince [ Westmark ]) floorArea)', -0.2]],
    }, { [SHOPS_IN_WESTMARK]: -1, [OLDEST_POTTERY_SHOP]: -2 }, -50);
    gateway = await createGateway({ pack: dir, generator: parser, cacheDir: dir });
    types = graphTypes({ pack: { dir, config: { names: namesOf(schema) } } } as unknown as GatewayContext)!;
  });
  after(async () => {
    await gateway.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('askedClass: the class word of the phrase after "which", "how many", "list"; none after "what is", none in a mention', () => {
    assert.ok(types, 'the pack has classes');
    assert.equal(askedClass(types, 'which shops are in Westmark?', ['Westmark']), `${V}Shop`);
    assert.equal(askedClass(types, 'how many pottery shops are there?', []), `${V}Shop`, 'past a word that is no class');
    assert.equal(askedClass(types, 'list all the towns of Westmark', ['Westmark']), `${V}Town`);
    assert.equal(askedClass(types, 'what province is Norvale in?', ['Norvale']), `${V}Province`);
    assert.equal(askedClass(types, 'which stores are in Westmark?', ['Westmark']), `${V}Shop`, 'a WordNet synonym of the class name');
    assert.equal(askedClass(types, 'which places are in Westmark?', ['Westmark']), undefined, 'a word the class is a kind of is no name of it');
    assert.equal(askedClass(types, 'what is in Norvale?', ['Norvale']), undefined, 'the phrase ends at "in"');
    assert.equal(askedClass(types, 'what is the oldest pottery shop in Westmark?', ['Westmark']), `${V}Shop`, 'after a copula: the last word of the phrase');
    assert.equal(askedClass(types, 'what is the province of Norvale?', ['Norvale']), `${V}Province`);
    assert.equal(askedClass(types, "what is the shop's floor area?", []), undefined, 'a class word before the last is no class asked for');
    assert.equal(askedClass(types, 'which is the best old traditional pottery shop', []), undefined, 'a phrase that runs past the reach names no class');
    assert.equal(askedClass(types, 'who runs Clay Corner?', ['Clay Corner']), undefined);
    assert.equal(askedClass(types, 'which Clay Corner shop is it', ['Clay Corner shop']), undefined, 'a class word inside a mention is a name');
    assert.equal(askedClass(types, 'which Westmark shops sell pottery?', ['Westmark']), `${V}Shop`, 'past a mention');
  });

  it('WRONG_CLASS: a reading whose answers are of another class is set aside; the schema\'s path from the class to the entity answers', async () => {
    parser.scored = [];
    // (grounding's bridge reads the towns' relation through the province too: off, so the typed readings are seen)
    const a = await gateway.ask('which shops are in Westmark?', { fallback: 'off', bridges: false });
    assert.ok(a.trace.some((t) => t.check?.code === 'WRONG_CLASS' && (t.note ?? '').includes('asks for a shop; the reading\'s answers are a town')), 'the towns are set aside, and the trace says why');
    assert.ok(a.trace.some((t) => /typed readings: \d+ forms: a shop linked by the schema's paths to \[ westmark \]/.test(t.note ?? '')), JSON.stringify(a.trace.map((t) => t.note)));
    assert.ok(parser.scored.some((forms) => forms.includes(SHOPS_IN_WESTMARK)), 'the parser scored the typed reading');
    assert.equal(a.form, SHOPS_IN_WESTMARK);
    assert.deepEqual(a.answers.map((x) => x.label).sort(), ['Clay Corner', 'Kiln Works', 'Loom House']);
  });

  it('a second entity the question names outside the mentions joins the typed reading; a count stays a count', async () => {
    const a = await gateway.ask('how many pottery shops are there in Westmark?', { fallback: 'off', bridges: false });
    assert.ok(a.form?.startsWith('(COUNT (AND Shop (AND '), JSON.stringify(a.trace.map((t) => t.note)));
    assert.ok(a.form?.includes('(JOIN craft [ pottery ])') && a.form.includes('(JOIN inTown (JOIN inProvince [ Westmark ]))'), a.form ?? 'no form');
    assert.deepEqual(a.answers.map((x) => x.value), ['2'], 'Clay Corner and Kiln Works');
  });

  it('a count of a conjunction of two sets that share no member is set aside, not answered "0"', async () => {
    const a = await gateway.ask('how many shops does Westmark have?', { fallback: 'off', bridges: false });
    const notes = JSON.stringify(a.trace.map((t) => t.note));
    assert.ok(a.trace.some((t) => t.check?.code === 'WRONG_CLASS' && (t.note ?? '').includes('nothing is both a shop and a town')), notes);
    assert.equal(a.form, `(COUNT ${SHOPS_IN_WESTMARK})`, notes);
    assert.deepEqual(a.answers.map((x) => x.value), ['3']);
  });

  it('a name of a condition on the class asked for, in lower case, is a word the reading must use (UNUSED_WORDS), and the typed reading uses it', async () => {
    const a = await gateway.ask('how many pottery shops does Westmark have?', { fallback: 'off', bridges: false });
    const notes = JSON.stringify(a.trace.map((t) => t.note));
    assert.ok(a.trace.some((t) => t.check?.code === 'UNUSED_WORDS' && (t.note ?? '').includes('leaves out "pottery"')), notes);
    assert.ok(a.form?.includes('(JOIN craft [ pottery ])'), notes);
    assert.deepEqual(a.answers.map((x) => x.value), ['2']);
    assert.equal(a.reason, undefined, 'no caveat: the answer uses the craft');
  });

  it('a typed reading set aside only for a relation word it leaves out answers with a caveat, as the parser\'s readings do', async () => {
    const a = await gateway.ask('which shops in Westmark practise a craft?', { fallback: 'off', bridges: false });
    const notes = JSON.stringify(a.trace.map((t) => [t.outcome, t.note]));
    assert.ok(a.trace.some((t) => t.check?.code === 'RELATION_UNUSED' && (t.note ?? '').includes('leaves out "craft"')), notes);
    assert.equal(a.form, SHOPS_IN_WESTMARK, notes);
    assert.deepEqual(a.answers.map((x) => x.label).sort(), ['Clay Corner', 'Kiln Works', 'Loom House']);
    assert.match(a.reason ?? '', /leaves out "craft".*no reading that uses it found an answer/);
    assert.ok(a.confidence <= 0.6, 'a caveat caps the confidence');
  });

  it('a question that names no class gets no typed readings: the parser\'s reading answers', async () => {
    const a = await gateway.ask('what is in Westmark?', { fallback: 'off' });
    assert.ok(!a.trace.some((t) => (t.note ?? '').includes('typed readings')));
    assert.equal(a.form, '(JOIN inProvince [ Westmark ])');
    assert.deepEqual(a.answers.map((x) => x.label).sort(), ['Ashby', 'Norvale']);
  });

  it('the fallback\'s chains that end on the class asked for come first (answerFits); with no class named, the shortest', async () => {
    const shops = await gateway.ask('which shops are there in Westmark?', { noParser: true });
    assert.equal(shops.source, 'fallback:paths');
    assert.deepEqual(shops.answers.map((x) => x.label).sort(), ['Clay Corner', 'Kiln Works', 'Loom House']);
    const any = await gateway.ask('what is there in Westmark?', { noParser: true });
    assert.equal(any.source, 'fallback:paths');
    const labels = any.answers.map((x) => x.label);
    assert.ok(labels.includes('Ashby') && labels.includes('Norvale') && !labels.includes('Clay Corner'), `the towns, the one-hop chain: nothing asks for shops (${labels.join(', ')})`);
  });

  it('a superlative no reading ranks by: readings of the class ranked by its numbers, either way, scored by the parser', async () => {
    parser.scored = [];
    const a = await gateway.ask('what is the oldest pottery shop in Westmark?', { fallback: 'off', bridges: false });
    const notes = JSON.stringify(a.trace.map((t) => t.note));
    assert.ok(a.trace.some((t) => t.check?.code === 'UNUSED_WORDS' && (t.note ?? '').includes('"oldest"')), notes);
    const scored = parser.scored.flat();
    for (const op of ['ARGMAX', 'ARGMIN']) for (const r of ['opened', 'floorArea']) assert.ok(scored.some((f) => f.startsWith(`(${op} `) && f.endsWith(` ${r})`)), `${op} by ${r}: ${JSON.stringify(scored)}`);
    assert.equal(a.form, OLDEST_POTTERY_SHOP, notes);
    assert.deepEqual(a.answers.map((x) => x.label), ['Kiln Works'], 'Brill Pots is older, in Eastfold');
    assert.equal(a.reason, undefined);
  });

  it('a superlative the pack\'s lexicon says of a relation ranks by that relation only, the way the lexicon says', async () => {
    parser.scored = [];
    const a = await gateway.ask('which is the roomiest pottery shop in Westmark?', { fallback: 'off', bridges: false });
    const ranked = parser.scored.flat().filter((f) => /^\(ARG(MAX|MIN) /.test(f));
    assert.ok(ranked.length > 0 && ranked.every((f) => f.startsWith('(ARGMAX ') && f.endsWith(' floorArea)')), JSON.stringify(ranked));
    assert.deepEqual(a.answers.map((x) => x.label), ['Kiln Works'], 'the larger of the two pottery shops in Westmark');
  });

  it('a ranking by what is no number or date is set aside (WRONG_CLASS); the class the parser\'s relation ranks is then the one read', async () => {
    parser.scored = [];
    const a = await gateway.ask('which is the roomiest in Westmark?', { fallback: 'off', bridges: false });
    const notes = JSON.stringify(a.trace.map((t) => [t.outcome, t.groundedForm, t.note]));
    // (grounding reads the floor area as another relation: the towns by their province, no number to rank by)
    assert.ok(a.trace.some((t) => t.check?.code === 'WRONG_CLASS' && (t.note ?? '').includes('is no number or date to rank by')), notes);
    assert.ok(a.trace.some((t) => /typed readings: \d+ forms: a shop linked by the schema's paths to \[ westmark \]/.test(t.note ?? '')), notes);
    assert.equal(a.form, '(ARGMAX (AND Shop (JOIN inTown (JOIN inProvince [ Westmark ]))) floorArea)', notes);
    assert.deepEqual(a.answers.map((x) => x.label), ['Kiln Works']);
    // the towns ranked by a floor area only shops have, as the schema says
    const gw = (gateway as unknown as { gw: GatewayContext }).gw;
    const towns = parseForm(`(ARGMAX (JOIN <${V}inProvince> <${E}westmark>) <${V}floorArea>)`);
    const v = await wrongClass(gw, 'which is the roomiest in Westmark?', { grounded: towns, mentions: ['Westmark'] }, 5000);
    assert.deepEqual([v.pass, v.code], [false, 'WRONG_CLASS']);
    assert.match(v.reason ?? '', /a town has no floor area to rank by/);
  });

  it('a class word the parser copied as a name that names nothing is the class asked for: the class ranked alone', async () => {
    const a = await gateway.ask('which shop is the roomiest?', { fallback: 'off', bridges: false });
    const notes = JSON.stringify(a.trace.map((t) => t.note));
    assert.equal(a.form, '(ARGMAX Shop floorArea)', notes);
    assert.deepEqual(a.answers.map((x) => x.label), ['Brill Pots']);
    // WRONG_CLASS reads the mentions as names too: the copied class word is the class asked for, and towns are no shops
    const gw = (gateway as unknown as { gw: GatewayContext }).gw;
    const v = await wrongClass(gw, 'which shop is in Westmark?', { grounded: parseForm(`(JOIN <${V}inProvince> <${E}westmark>)`), mentions: ['shop', 'Westmark'] }, 5000);
    assert.deepEqual([v.pass, v.code], [false, 'WRONG_CLASS'], v.reason);
    assert.match(v.reason ?? '', /asks for a shop; the reading's answers are a town/);
  });

  it('a class word that ends a mention whose other words spell a label is the class asked for, the label its condition', async () => {
    const a = await gateway.ask('how many pottery shops are there?', { fallback: 'off', bridges: false });
    const notes = JSON.stringify(a.trace.map((t) => t.note));
    assert.equal(a.form, '(COUNT (AND Shop (JOIN craft [ pottery ])))', notes);
    assert.deepEqual(a.answers.map((x) => x.value), ['3']);
  });

  it('relation retrieval never offers rdf:type (a class is a class name) or the predicates that describe properties (rdfs:domain, rdfs:range)', async () => {
    const gw = (gateway as unknown as { gw: GatewayContext }).gw;
    const near = (await gw.relations.neighbourhood([`${E}westmark`], 2)).map((r) => r.iri);
    assert.ok(near.includes(`${V}inProvince`), near.join(' '));
    assert.ok(!near.includes(TYPE), near.join(' '));
    assert.ok(!near.includes(`${RDFS}range`) && !near.includes(`${RDFS}domain`), near.join(' '));
  });

  it('kindAsked: a word of the asking phrase that names a value of one class\'s relation asks for members of that class', async () => {
    const gw = (gateway as unknown as { gw: GatewayContext }).gw;
    const t = graphTypes(gw)!;
    assert.deepEqual(await kindAsked(gw, t, 'how many potteries are there in Westmark?', ['Westmark'], 5000), { cls: `${V}Shop`, word: 'potteries' }, 'a craft is a value of the shops\' craft');
    assert.equal(await kindAsked(gw, t, 'which westmark is it?', [], 5000), undefined, 'a name (no word of the language) is no kind, though a province is a value of the towns\' province');
    assert.equal(await kindAsked(gw, t, 'how many Potteries are there?', [], 5000), undefined, 'nor a word written as a name');
    assert.equal(await kindAsked(gw, t, 'which shops are in Westmark?', ['Westmark'], 5000), undefined, 'a class word names the class: no kind is read');
    assert.equal(await kindAsked(gw, t, 'which clay corner is it?', [], 5000), undefined, 'a shop is the value of no relation');
    assert.equal(await kindAsked(gw, t, 'what is in Westmark?', ['Westmark'], 5000), undefined, 'the phrase names nothing');
    assert.equal(await kindAsked(gw, t, 'how many potteries are there in Westmark?', ['potteries', 'Westmark'], 5000), undefined, 'a word inside a mention is a name');
  });

  it('a kind asked for (kindAsked) holds the reading to its class, and the kind is a condition of the typed reading', async () => {
    const a = await gateway.ask('how many potteries are there in Westmark?', { fallback: 'off', bridges: false });
    const notes = JSON.stringify(a.trace.map((t) => t.note));
    assert.ok(a.trace.some((t) => t.check?.code === 'WRONG_CLASS' && (t.note ?? '').includes('asks for a shop')), notes);
    assert.ok(a.form?.startsWith('(COUNT (AND Shop (AND ') && a.form.includes('(JOIN craft [ potteries ])'), a.form ?? notes);
    assert.deepEqual(a.answers.map((x) => x.value), ['2'], 'Clay Corner and Kiln Works');
  });

  it('a pack without classes types nothing (graphTypes undefined)', () => {
    assert.equal(graphTypes({ pack: { dir: os.tmpdir(), config: {} } } as unknown as GatewayContext), undefined);
  });
});
