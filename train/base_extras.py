"""The two files askgraph-base's training uses besides the corpus (train/data/base, scripts/build-base-corpus.ts):

- valid-mixed.jsonl: the validation pairs of every source but MetaQA, plus a seeded 200 of MetaQA's (its 1,958
  would be two thirds of the probe); reporting only, never trained on.
- replay.jsonl: a seeded 3,600 training pairs of the other sources plus 400 of MetaQA, {id, source, question, form}:
  shipped beside the base model; `askgraph init` mixes them into each fine-tuning epoch (trainer --replay).

Run: /usr/bin/python3 train/base_extras.py train/data/base [REPLAY_OUT]
"""
import json
import os
import random
import sys


def read(path):
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def write(path, rows):
    with open(path, "w", encoding="utf-8") as f:
        for r in rows:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")


def main(argv):
    base = argv[1]
    replay_out = argv[2] if len(argv) > 2 else os.path.join(base, "replay.jsonl")
    valid = read(os.path.join(base, "valid.jsonl"))
    meta = [r for r in valid if r["source"] == "metaqa-dev"]
    random.Random(13).shuffle(meta)
    mixed = sorted([r for r in valid if r["source"] != "metaqa-dev"] + meta[:200], key=lambda r: r["id"])
    write(os.path.join(base, "valid-mixed.jsonl"), mixed)
    train = read(os.path.join(base, "train.jsonl"))
    rng = random.Random(7)
    other = [r for r in train if r["source"] != "metaqa-dev"]
    metaqa = [r for r in train if r["source"] == "metaqa-dev"]
    pick = sorted(rng.sample(other, 3600) + rng.sample(metaqa, 400), key=lambda r: r["id"])
    write(replay_out, [{"id": r["id"], "source": r["source"], "question": r["question"], "form": r["form"]} for r in pick])
    print("valid-mixed %d, replay %d -> %s" % (len(mixed), len(pick), replay_out))


if __name__ == "__main__":
    main(sys.argv)
