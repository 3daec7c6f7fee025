#!/usr/bin/env python3
"""Held-out realistic movie questions for the movies pack, from WebQSP's test split (people's own questions, never
in askgraph-base's corpus nor the movies parser's data; the dev sets are not read).

A WebQSP test question counts when its one topic entity is a person of the movies graph (someone who directed, wrote
or starred in a film of metaqa/kb.txt). It is
- answerable when its Freebase relations are only those of a person's films as actor, director or writer
  (film.actor.film + film.performance.film, film.director.film, film.writer.film): the gold answers are that
  person's films by the movies graph's starred_actors / directed_by / written_by;
- out of scope when none of its relations is one of those and none is another film relation the graph has
  (genre, release date, language): a person's birthplace, spouse, parents, schools, roles played, and so on; no gold.

    /usr/bin/python3 scripts/webqsp-movies.py --data ../shared/data --out DIR

Writes DIR/answerable.jsonl and DIR/out-of-scope.jsonl ({id, question, answers, topic, meta}).
"""
import argparse
import json
import os
import re

ANSWERABLE = {
    frozenset({"film.actor.film", "film.performance.film"}): "starred_actors",
    frozenset({"film.director.film"}): "directed_by",
    frozenset({"film.writer.film"}): "written_by",
}
GRAPH_FILM = {"film.film.genre", "film.film.initial_release_date", "film.film.language", "film.film.directed_by",
              "film.film.written_by", "film.film.starring", "film.actor.film", "film.director.film", "film.writer.film",
              "film.performance.film", "film.performance.actor"}

p = argparse.ArgumentParser()
p.add_argument("--data", default=os.path.join(os.path.dirname(__file__), "..", "..", "shared", "data"))
p.add_argument("--out", required=True)
a = p.parse_args()

films_of = {}  # (relation, person lower) -> films
names = {}
for line in open(os.path.join(a.data, "metaqa", "kb.txt"), encoding="utf8"):
    parts = line.rstrip("\n").split("|")
    if len(parts) != 3 or parts[1] not in ("starred_actors", "directed_by", "written_by"):
        continue
    film, rel, person = parts
    films_of.setdefault((rel, person.lower()), set()).add(film)
    names[person.lower()] = person

answerable, oos = [], []
for x in json.load(open(os.path.join(a.data, "webqsp", "webqsp_test.json"), encoding="utf8")):
    sexpr = x.get("sexpr") or ""
    mids = set(re.findall(r"\bm\.[0-9a-z_]+", sexpr))
    en = x.get("entity_names") or {}
    if len(mids) != 1 or len(en) != 1:
        continue
    label = next(iter(en.values())).lower()
    if label not in names:
        continue
    rels = frozenset(r for r in re.findall(r"[a-z_]+\.[a-z_]+\.[a-z_]+", sexpr))
    row = {"id": x["id"], "question": x["question"], "topic": [names[label]],
           "meta": {"dataset": "webqsp-movies", "relations": sorted(rels)}}
    if rels in ANSWERABLE:
        gold = sorted(films_of.get((ANSWERABLE[rels], label), set()))
        if gold:
            answerable.append({**row, "answers": gold})
    elif not rels & GRAPH_FILM:
        oos.append({**row, "answers": []})

os.makedirs(a.out, exist_ok=True)
for name, rows in (("answerable.jsonl", answerable), ("out-of-scope.jsonl", oos)):
    with open(os.path.join(a.out, name), "w", encoding="utf8") as f:
        f.writelines(json.dumps(r) + "\n" for r in rows)
print(f"answerable {len(answerable)}, out of scope {len(oos)}")
