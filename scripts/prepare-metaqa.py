#!/usr/bin/env python3
"""One-off bootstrap of the MetaQA split (the TypeScript importer in src/eval reproduces it exactly).
Split rule: an example goes to validation when its 0-based line number in its hop file % 20 == 7."""
import json, re, sys, os
src = sys.argv[1] if len(sys.argv) > 1 else '../shared/data/metaqa'
out = sys.argv[2] if len(sys.argv) > 2 else 'fixtures/metaqa'
REL = {('movie','director'):'(R directed_by)',('director','movie'):'directed_by',
       ('movie','writer'):'(R written_by)',('writer','movie'):'written_by',
       ('movie','actor'):'(R starred_actors)',('actor','movie'):'starred_actors',
       ('movie','year'):'(R release_year)',('movie','language'):'(R in_language)',
       ('movie','genre'):'(R has_genre)',('movie','tags'):'(R has_tags)',('tag','movie'):'has_tags',
       ('movie','imdbrating'):'(R has_imdb_rating)',('movie','imdbvotes'):'(R has_imdb_votes)'}
def form(qtype, ent):
    parts = qtype.split('_to_')
    f = '[ %s ]' % ent
    for a, b in zip(parts, parts[1:]):
        f = '(JOIN %s %s)' % (REL[(a, b)], f)
    return f
train, valid = [], []
for hop in (1, 2, 3):
    qs = open(f'{src}/{hop}-hop/qa_dev.txt', encoding='utf-8').read().splitlines()
    ts = open(f'{src}/{hop}-hop/qa_dev_qtype.txt', encoding='utf-8').read().splitlines()
    assert len(qs) == len(ts)
    for i, (line, qtype) in enumerate(zip(qs, ts)):
        q, ans = line.split('\t')
        m = re.search(r'\[([^\]]+)\]', q)
        ent = m.group(1)
        ex = {'id': f'metaqa-{hop}hop-{i}', 'question': q.replace('[', '').replace(']', ''),
              'form': form(qtype, ent), 'answers': ans.split('|'), 'topic': [ent],
              'meta': {'dataset': 'metaqa', 'hop': hop, 'qtype': qtype, 'bracketed': q}}
        (valid if i % 20 == 7 else train).append(ex)
os.makedirs(out, exist_ok=True)
for name, rows in (('train', train), ('valid', valid)):
    with open(f'{out}/{name}.jsonl', 'w', encoding='utf-8') as f:
        for r in rows: f.write(json.dumps(r, ensure_ascii=False) + '\n')
print(len(train), len(valid))
