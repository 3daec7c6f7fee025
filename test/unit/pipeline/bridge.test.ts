import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createGateway, type Gateway } from '../../../src/pipeline';
import { FixedBeam } from './fixed-beam';

// A made-up graph with places inside places: shops are in towns, towns in provinces.
const B = 'http://example.org/geo/';
const REL = `${B}rel/`;
const LABEL = 'http://www.w3.org/2000/01/rdf-schema#label';
const NT = [
  [`${B}p1`, LABEL, '"Norvale"'],
  [`${B}p2`, LABEL, '"Estmark"'],
  [`${B}t1`, LABEL, '"Harlow Bend"'],
  [`${B}t1`, `${REL}in_province`, `<${B}p1>`],
  [`${B}t2`, LABEL, '"Quillby"'],
  [`${B}t2`, `${REL}in_province`, `<${B}p1>`],
  [`${B}t3`, LABEL, '"Sarn"'],
  [`${B}t3`, `${REL}in_province`, `<${B}p2>`],
  [`${B}s1`, LABEL, '"The Copper Kettle"'],
  [`${B}s1`, `${REL}in_town`, `<${B}t1>`],
  [`${B}s2`, LABEL, '"Brindle and Co"'],
  [`${B}s2`, `${REL}in_town`, `<${B}t2>`],
  [`${B}s3`, LABEL, '"Maple Yard"'],
  [`${B}s3`, `${REL}in_town`, `<${B}t3>`],
].map(([s, p, o]) => `<${s}> <${p}> ${o} .`).join('\n');

describe('gateway: a reading bridged by grounding (src/ground bridge, with phase 3)', function () {
  this.timeout(60000);
  let dir: string;
  let gateway: Gateway;
  const SHOPS = 'which shops are in norvale';
  const DATED = 'which shops opened in norvale in 2001';

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'askgraph-bridge-gw-'));
    fs.writeFileSync(path.join(dir, 'geo.nt'), NT + '\n');
    const parser = new FixedBeam({ [SHOPS]: [['(JOIN in_town [ Norvale ])', -0.1]], [DATED]: [['(JOIN in_town [ Norvale ])', -0.1]] }, {}, -50);
    gateway = await createGateway({ store: path.join(dir, 'geo.nt'), generator: parser, cacheDir: dir });
  });
  after(async () => {
    await gateway.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('the parser names the relation and the province; the shops of the towns in it answer, and the trace says which hop', async () => {
    const a = await gateway.ask(SHOPS, { fallback: 'off' });
    assert.equal(a.source, 'parser');
    assert.deepEqual(a.answers.map((x) => x.value).sort(), [`${B}s1`, `${B}s2`]);
    const row = a.trace.find((t) => t.stage === 'execute' && t.outcome === 'answers' && (t.note ?? '').includes('bridged in_town ← in_province → p1'));
    assert.ok(row, 'a trace row names the bridge');
  });

  it('bridges: false reads the question as the parser wrote it: the shops are not found', async () => {
    const a = await gateway.ask(SHOPS, { fallback: 'off', bridges: false });
    assert.ok(!a.answers.some((x) => x.value === `${B}s1` || x.value === `${B}s2`));
    assert.ok(!a.trace.some((t) => (t.note ?? '').includes('bridged')));
  });

  it('a bridged reading that leaves out a part of the question never answers with a caveat', async () => {
    const a = await gateway.ask(DATED, { fallback: 'off' });
    const bridged = `(JOIN <${REL}in_town> (JOIN <${REL}in_province> <${B}p1>))`;
    assert.ok(a.trace.some((t) => t.outcome === 'skipped' && t.groundedForm === bridged && t.check?.code === 'UNUSED_WORDS'), 'set aside for "2001"');
    assert.ok(!a.answers.some((x) => x.value === `${B}s1` || x.value === `${B}s2`));
    assert.ok(!a.trace.some((t) => t.groundedForm === bridged && (t.note ?? '').includes('answered with a caveat')));
  });
});
