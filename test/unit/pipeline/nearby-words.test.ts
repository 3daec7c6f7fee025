import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createGateway, type Gateway } from '../../../src/pipeline';
import { nearbyRelationWords, nearGraph, type GatewayContext } from '../../../src/pipeline/context';
import { FixedBeam } from './fixed-beam';

/**
 * A made-up graph with two "teams" relations — a country's home teams and a club's youth teams — so that "teams" reads
 * clearly as no one relation of the whole graph, but as one around a person (her nationality's home teams).
 */
describe('pipeline: words that read clearly as one relation around the topics rank the fallback\'s chains (real Oxigraph store)', function () {
  this.timeout(60000);
  const E = 'http://example.org/sport/';
  const LABEL = 'http://www.w3.org/2000/01/rdf-schema#label';
  const nt = [
    ['ada', 'Ada Brook'], ['norway', 'Norway'], ['fjord', 'Fjord Rovers'], ['vik', 'Vik Athletic'], ['club', 'Harbour Club'], ['colts', 'Harbour Colts'],
  ]
    .map(([id, label]) => `<${E}${id}> <${LABEL}> "${label}" .`)
    .concat([
      `<${E}ada> <${E}nationality> <${E}norway> .`,
      `<${E}norway> <${E}home_teams> <${E}fjord> .`,
      `<${E}norway> <${E}home_teams> <${E}vik> .`,
      `<${E}club> <${E}youth_teams> <${E}colts> .`,
    ])
    .join('\n');
  const ONE_HOP = '(JOIN (R nationality) [ Ada Brook ])';
  const TWO_HOPS = '(JOIN (R home_teams) (JOIN (R nationality) [ Ada Brook ]))';
  let dir: string;
  let gateway: Gateway;

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'askgraph-nearby-'));
    fs.writeFileSync(path.join(dir, 'sport.nt'), nt + '\n');
    // no reading of the question (the fallback answers); the parser, scoring the chains, likes the short one best
    gateway = await createGateway({ store: path.join(dir, 'sport.nt'), generator: new FixedBeam({}, { [ONE_HOP]: -1, [TWO_HOPS]: -9 }, -50), cacheDir: dir });
  });
  after(async () => {
    await gateway.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('"teams" reads clearly as no relation of the graph, but as the home teams around Ada Brook; "nationality" is read already', async () => {
    const gw = (gateway as unknown as { gw: GatewayContext }).gw;
    assert.equal(nearGraph(gw).clearRelation('teams'), undefined, 'two relations of the graph are teams');
    const words = await nearbyRelationWords(gw, "what are the teams of Ada Brook's nationality", [{ text: 'Ada Brook', label: 'Ada Brook' }], [`${E}ada`]);
    assert.deepEqual(words.map((w) => [w.word, w.iri]), [['teams', `${E}home_teams`]]);
    assert.deepEqual(await nearbyRelationWords(gw, "what are the teams of Harbour Club", [{ text: 'Harbour Club', label: 'Harbour Club' }], [`${E}club`]).then((ws) => ws.map((w) => w.iri)), [`${E}youth_teams`]);
  });

  it('the chain through the home teams answers, though the parser scores the one-hop chain higher', async () => {
    const a = await gateway.ask("what are the teams of Ada Brook's nationality");
    assert.equal(a.source, 'fallback:paths', JSON.stringify(a.trace.map((t) => t.note)));
    assert.deepEqual(a.answers.map((x) => x.label).sort(), ['Fjord Rovers', 'Vik Athletic']);
  });
});
