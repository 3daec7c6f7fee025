#!/usr/bin/python3
"""askgraph trainer: JSON Lines {question, form} -> model folder (tokenizer, ONNX encoder + decoder step
with KV cache, config.json, golden.json, report.json, REPORT.md). See src/core/README.md
("Model folder contract") for the folder format.

Progress: one JSON object per line on stdout ({"event": ...}); human text on stderr.
Run: OMP_WAIT_POLICY=PASSIVE /usr/bin/python3 train/askgraph_train.py --data T --valid V --out DIR
"""
import argparse
import hashlib
import inspect
import json
import math
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time

os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402

from askgraph_data import (BOS, EOS, PAD, UNK, Augmenter, Vocab, canonical, entity_roles,  # noqa: E402
                           OPERATORS, form_tokens, question_words, is_literal_token, names_of, read_jsonl, read_kb, read_labels,
                           train_tokenizer, NAME_END, open_text)
from askgraph_model import SIZES, DecoderExport, EncoderExport, Seq2Seq  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Relations seen in fewer than this share of the training examples are oversampled (--rare-oversample).
RARE_SHARE = 0.005
T0 = time.time()


def process_start():
    """When this process started (before `import torch`, which takes seconds): from /proc on Linux, else T0."""
    try:
        with open("/proc/self/stat") as f:
            ticks = int(f.read().rsplit(")", 1)[1].split()[19])
        with open("/proc/uptime") as f:
            uptime = float(f.read().split()[0])
        return time.time() - (uptime - ticks / os.sysconf("SC_CLK_TCK"))
    except (OSError, ValueError, IndexError):
        return T0


def emit(event, **kw):
    kw = {"event": event, **kw}
    sys.stdout.write(json.dumps(kw) + "\n")
    sys.stdout.flush()


def log(msg):
    sys.stderr.write("[%6.1fs] %s\n" % (time.time() - T0, msg))
    sys.stderr.flush()


def parse_args(argv=None):
    p = argparse.ArgumentParser(description="askgraph seq2seq parser trainer")
    p.add_argument("--data", required=True, help="training JSON Lines {question, form}")
    p.add_argument("--valid", help="validation JSON Lines (never trained on; reporting only)")
    p.add_argument("--out", required=True, help="model folder to write")
    p.add_argument("--epochs", type=float, default=6)
    p.add_argument("--minutes", type=float, default=None,
                   help="wall-time budget of the whole run (reading the data, tokenizer, training, probes, final evaluation, "
                        "export, the Node validation): the training loop stops early enough for the rest to fit")
    p.add_argument("--seed", type=int, default=13)
    p.add_argument("--size", choices=sorted(SIZES), default="base")
    p.add_argument("--d-model", type=int)
    p.add_argument("--heads", type=int)
    p.add_argument("--enc-layers", type=int)
    p.add_argument("--dec-layers", type=int)
    p.add_argument("--ffn", type=int)
    p.add_argument("--labels", action="append", default=[], help="file of graph labels, one a line (tokenizer + substitution pool)")
    p.add_argument("--kb", action="append", default=[], help="head|relation|tail triples file (labels + role pools for substitution)")
    p.add_argument("--names", default=None,
                   help='JSON {"relations": [...], "classes": [...]} naming the bare tokens of the forms (written by '
                        'src/train from the parsed forms); without it every non-literal token is a relation')
    p.add_argument("--vocab-size", type=int, default=None, help="sentencepiece pieces (default by size)")
    p.add_argument("--max-train", type=int, default=None, help="use a seeded random sample of N training examples")
    p.add_argument("--cap", action="append", default=[], metavar="SOURCE=N",
                   help="keep a seeded sample of at most N training examples whose `source` is SOURCE (repeatable)")
    p.add_argument("--replay", default=None,
                   help="JSON Lines of other graphs' questions (an open-name base's replay.jsonl) mixed into each epoch, so "
                        "fine-tuning on one graph's synthetic questions keeps the base's reading of people's questions")
    p.add_argument("--replay-share", type=float, default=0.3,
                   help="replay examples per epoch, as a share of the training examples (a fresh seeded sample each epoch)")
    p.add_argument("--open-names", type=int, choices=[0, 1], default=0,
                   help="1: relations, classes and literals are written as pieces + %s (an open-name model, askgraph-base)" % NAME_END)
    p.add_argument("--batch", type=int, default=64)
    p.add_argument("--lr", type=float, default=None)
    p.add_argument("--warmup", type=int, default=300)
    p.add_argument("--dropout", type=float, default=0.1)
    p.add_argument("--copy-features", type=int, choices=[0, 1], default=1,
                   help="cross-attention keys see the previous source piece, values the piece embedding (default 1)")
    p.add_argument("--smoothing", type=float, default=0.1)
    p.add_argument("--loss", choices=["restricted", "full"], default="full",
                   help="softmax over the whole target vocabulary (default) or only the question's pieces + form symbols")
    p.add_argument("--p-sub", type=float, default=0.5, help="probability of entity substitution per example")
    p.add_argument("--p-drop", type=float, default=0.1, help="probability of dropping one non-entity word")
    p.add_argument("--rare-oversample", type=int, default=15)
    p.add_argument("--probe", type=int, default=300, help="validation questions evaluated after each epoch (reporting only)")
    p.add_argument("--final-eval", type=int, default=None, help="validation questions for the final evaluation (default all)")
    p.add_argument("--beam", type=int, default=8, help="beam for the final evaluation (0 = greedy only)")
    p.add_argument("--node-eval", choices=("auto", "off"), default="auto",
                   help="the reported validation numbers come from the Node decoder (src/generate) on the exported model "
                        "when node is available (auto); 'off' reports only the PyTorch probe")
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--device", default="cpu",
                   help="where the training loop runs: cpu (default), cuda, or auto (cuda when torch sees one); the "
                        "probes, the evaluations and the export always run on the CPU, as the product does")
    p.add_argument("--checkpoint", default=None, help="checkpoint path (default OUT/../<out>.ckpt.pt)")
    p.add_argument("--export-only", default=None, help="skip training; export the given checkpoint")
    p.add_argument("--init-from", default=None,
                   help="start from a checkpoint's weights, tokenizer and symbols, or from an exported model folder (its weights are "
                        "recovered from the ONNX files); continued training on new data. Examples whose forms need a "
                        "relation or class the checkpoint lacks are skipped; operators added since get new embedding rows")
    p.add_argument("--interpolate", type=float, default=1.0, metavar="SHARE",
                   help="with --init-from: the exported weights lie SHARE of the way from the initial weights to the trained "
                        "ones (weight-space ensembling, WiSE-FT; 1 = the trained weights). Below 1 the model keeps more of "
                        "how the base read other graphs' questions and learns less of this graph's synthetic ones")
    p.add_argument("--word-vectors", default=None, metavar="DIR",
                   help="frozen pre-trained word vectors (DIR/glove-100d-int8.bin + glove-100d-vocab.txt, the package's "
                        "assets/lexical) for the source pieces that are whole words, projected into the encoder input "
                        "(issue 20, item 4). A model continued from one that has them keeps them")
    p.add_argument("--golden", type=int, default=20)
    p.add_argument("--version", default=None)
    return p.parse_args(argv)


# ---------------------------------------------------------------- batching

WARM_SHARE = 0.1


def lr_factor(step, progress, warmup, warm_share=WARM_SHARE):
    """The learning rate's share at this step: a linear warm-up that ends after `warmup` steps or `warm_share` of the
    run (progress 0..1, by steps or by the --minutes budget), whichever comes first, then a cosine to 2%. A short
    fine-tuning run (init's --minutes on a base model: a few hundred steps) would otherwise spend most of its budget
    warming up and end at its peak rate."""
    if step < warmup and progress < warm_share:
        return max((step + 1) / warmup, progress / warm_share)
    return 0.02 + 0.98 * 0.5 * (1 + math.cos(math.pi * min(1.0, progress)))


def make_batches(encoded, batch, rng):
    idx = list(range(len(encoded)))
    rng.shuffle(idx)
    chunk = batch * 50
    batches = []
    for c in range(0, len(idx), chunk):
        part = sorted(idx[c:c + chunk], key=lambda i: (len(encoded[i][0]), len(encoded[i][1])))
        for b in range(0, len(part), batch):
            batches.append(part[b:b + batch])
    rng.shuffle(batches)
    return batches


def collate(encoded, ids):
    S = max(len(encoded[i][0]) for i in ids)
    T = max(len(encoded[i][1]) for i in ids)
    src = torch.full((len(ids), S), PAD, dtype=torch.long)
    tgt = torch.full((len(ids), T), PAD, dtype=torch.long)
    for r, i in enumerate(ids):
        s, t = encoded[i][0], encoded[i][1]
        src[r, :len(s)] = torch.tensor(s)
        tgt[r, :len(t)] = torch.tensor(t)
    return src, src == PAD, tgt


def restricted_loss(logits, gold, src, pad, vocab, smoothing):
    """Cross-entropy with the softmax restricted to what constrained decoding can ever emit for this question:
    the form symbols, EOS and the question's own pieces. Node renormalises over the grammar-allowed tokens (a
    subset of these), so training discriminates exactly among the candidates inference chooses from (e.g.
    "copy the next piece" vs "]") instead of spending capacity on 4,000 pieces that cannot occur."""
    B, T, V = logits.shape
    allowed = torch.zeros(B, V, dtype=torch.bool)
    allowed[:, vocab.S:] = True
    allowed[:, EOS] = True
    allowed.scatter_(1, src.masked_fill(pad, EOS), True)
    allowed = allowed.unsqueeze(1)  # [B,1,V]
    logp = torch.log_softmax(logits.masked_fill(~allowed, -1e9), dim=-1)
    nll = -logp.gather(-1, gold.unsqueeze(-1)).squeeze(-1)
    smooth = -(logp * allowed).sum(-1) / allowed.sum(-1)
    tok = gold != PAD
    per = (1 - smoothing) * nll + smoothing * smooth
    return (per * tok).sum() / tok.sum()


# ---------------------------------------------------------------- constrained decoding (PyTorch side)

class Constraint:
    """Light grammar + copy constraint: a form starts with `(`; after `(` only an operator; elsewhere `(`, `[`,
    a relation, or `)` when open; EOS only when balanced; inside `[ … ]` a contiguous run of the question's
    own pieces, then `]`. (The Node decoder enforces the full grammar.)"""

    OPS = tuple(o for o in OPERATORS if o not in ("(", ")", "[", "]"))
    # open-name models: a name is one or more pieces, then NAME_END (the Node decoder also checks which slot takes one)

    def __init__(self, vocab, src):
        self.v = vocab
        self.src = src
        self.depth = 0
        self.in_ent = False
        self.last = None  # positions of the last copied piece
        self.started = False
        self.prev = None
        self.in_name = False
        sym = vocab.sym_id
        self.open_id, self.close_id, self.lb, self.rb = sym["("], sym[")"], sym["["], sym["]"]
        self.ops = [sym[o] for o in self.OPS]
        self.name_end = sym.get(NAME_END)
        if vocab.open_names:
            self.args = [self.open_id, self.lb] + vocab.name_ids
            self.in_name_ids = vocab.name_ids + [self.name_end]
        else:
            self.args = [i for s, i in sym.items() if s not in self.OPS and s not in ("]", ")")]

    def copy(self):
        c = Constraint.__new__(Constraint)
        c.__dict__.update(self.__dict__)
        return c

    def allowed(self):
        if self.in_ent:
            if self.last is None:
                return sorted(set(self.src))
            nxt = {self.src[p + 1] for p in self.last if p + 1 < len(self.src)}
            return sorted(nxt) + [self.rb]
        if self.in_name:
            return self.in_name_ids
        if not self.started:
            return [self.open_id]
        if self.depth == 0:
            return [EOS]
        if self.prev == self.open_id:
            return list(self.ops)
        return self.args + [self.close_id]

    def push(self, t):
        self.started = True
        self.prev = t
        if self.in_ent:
            if t == self.rb:
                self.in_ent = False
                self.last = None
            elif self.last is None:
                self.last = [p for p, s in enumerate(self.src) if s == t]
            else:
                self.last = [p + 1 for p in self.last if p + 1 < len(self.src) and self.src[p + 1] == t]
            return
        if self.v.open_names and t < self.v.S:
            self.in_name = True
            return
        if t == self.name_end:
            self.in_name = False
            return
        if t == self.lb:
            self.in_ent = True
            self.last = None
        elif t == self.open_id:
            self.depth += 1
        elif t == self.close_id:
            self.depth -= 1


@torch.no_grad()
def greedy_batch(model, vocab, srcs, max_len, constrained):
    B = len(srcs)
    S = max(len(s) for s in srcs)
    src = torch.full((B, S), PAD, dtype=torch.long)
    for r, s in enumerate(srcs):
        src[r, :len(s)] = torch.tensor(s)
    pad = src == PAD
    mem = model.encode(src, pad)
    ck, cv = model.cross_kv(mem, src)
    xmask = (pad.float() * -1e9).unsqueeze(1).unsqueeze(1)
    pk, pv = model.empty_cache(B)
    tok = torch.full((B, 1), BOS, dtype=torch.long)
    cons = [Constraint(vocab, s) for s in srcs]
    out = [[] for _ in range(B)]
    done = [False] * B
    for t in range(max_len):
        logp, pk, pv = model.step(tok, torch.tensor([t]), ck, cv, pk, pv, xmask)
        if constrained:
            mask = torch.full_like(logp, float("-inf"))
            for r in range(B):
                if not done[r]:
                    mask[r, cons[r].allowed()] = 0.0
                else:
                    mask[r, EOS] = 0.0
            logp = logp + mask
        nxt = logp.argmax(-1)
        for r in range(B):
            if done[r]:
                continue
            i = int(nxt[r])
            out[r].append(i)
            cons[r].push(i)
            if i == EOS:
                done[r] = True
        tok = nxt.unsqueeze(1)
        if all(done):
            break
    return out


@torch.no_grad()
def beam_one(model, vocab, src_ids, k, max_len):
    src = torch.tensor([src_ids])
    mem = model.encode(src)
    ck, cv = model.cross_kv(mem, src)
    beams = [([], 0.0, Constraint(vocab, src_ids))]
    pk, pv = model.empty_cache(1)
    finished = []
    for t in range(max_len):
        B = len(beams)
        tok = torch.tensor([[b[0][-1] if b[0] else BOS] for b in beams])
        logp, pk2, pv2 = model.step(tok, torch.tensor([t]), ck.expand(-1, B, -1, -1, -1), cv.expand(-1, B, -1, -1, -1), pk, pv)
        cands = []
        for r, (seq, score, con) in enumerate(beams):
            allowed = con.allowed()
            lp = logp[r, allowed]
            lp = lp - torch.logsumexp(lp, 0)  # renormalised over the allowed tokens, as the Node beam does
            top = torch.topk(lp, min(k, len(allowed)))
            for val, j in zip(top.values.tolist(), top.indices.tolist()):
                cands.append((score + val, r, allowed[j]))
        cands.sort(key=lambda c: -c[0])
        new = []
        for score, r, tid in cands:
            seq, _, con = beams[r]
            if tid == EOS:
                finished.append((seq + [tid], score))
                continue
            c2 = con.copy()
            c2.push(tid)
            new.append((seq + [tid], score, c2, r))
            if len(new) == k:
                break
        if len(finished) >= k or not new:
            break
        # stop when no live beam can beat the k-th finished one
        finished.sort(key=lambda f: -f[1])
        if len(finished) >= k and new[0][1] < finished[k - 1][1]:
            break
        rows = torch.tensor([n[3] for n in new])
        pk, pv = pk2[:, rows], pv2[:, rows]
        beams = [(n[0], n[1], n[2]) for n in new]
    finished.sort(key=lambda f: -f[1])
    return finished[:k]


def evaluate(model, vocab, examples, train_entities, constrained=True, beam=0, max_len=96, batch=128):
    model.eval()
    rows = []
    for b in range(0, len(examples), batch):
        part = examples[b:b + batch]
        srcs = [vocab.encode_source(e["question"]) for e in part]
        outs = greedy_batch(model, vocab, srcs, max_len, constrained)
        for e, s, o in zip(part, srcs, outs):
            pred = vocab.decode_target(o)
            gold = canonical(e["form"], vocab.open_names)
            ents = [t[1] for t in form_tokens(e["form"]) if isinstance(t, tuple)]
            row = {"id": e.get("id"), "question": e["question"], "gold": gold, "pred": pred, "em": pred == gold,
                   "hop": (e.get("meta") or {}).get("hop"), "unseen": not any(x in train_entities for x in ents)}
            if beam:
                hyps = beam_one(model, vocab, s, beam, max_len)
                forms = [vocab.decode_target(h[0]) for h in hyps]
                row["inBeam"] = gold in forms
                row["beamTop1"] = forms[0] == gold if forms else False
            rows.append(row)
    model.train()
    return rows


def summarize(rows):
    def em(rs, key="em"):
        return round(sum(1 for r in rs if r.get(key)) / len(rs), 5) if rs else None

    out = {"n": len(rows), "em": em(rows)}
    hops = sorted({r["hop"] for r in rows if r["hop"] is not None})
    out["perHop"] = {str(h): {"n": sum(1 for r in rows if r["hop"] == h), "em": em([r for r in rows if r["hop"] == h])} for h in hops}
    uns = [r for r in rows if r["unseen"]]
    out["unseen"] = {"n": len(uns), "em": em(uns)}
    seen = [r for r in rows if not r["unseen"]]
    out["seen"] = {"n": len(seen), "em": em(seen)}
    if rows and "inBeam" in rows[0]:
        out["beamTop1"] = em(rows, "beamTop1")
        out["inBeam"] = em(rows, "inBeam")
        out["unseenInBeam"] = em(uns, "inBeam")
    return out


# ---------------------------------------------------------------- export

LEGACY_EXPORT = {"dynamo": False} if "dynamo" in inspect.signature(torch.onnx.export).parameters else {}

def export(model, vocab, out_dir, opset=14):
    """The TorchScript exporter on every torch version (newer ones default to torch.export, whose graph and
    initializer names differ: askgraph_recover and src/generate read this one's)."""
    model.eval()
    L, H, Dh = len(model.dec), model.h, model.dh
    enc = EncoderExport(model)
    dec = DecoderExport(model)
    src = torch.tensor([[5, 6, 7, 8, 9]])
    torch.onnx.export(enc, (src,), os.path.join(out_dir, "encoder.onnx"), opset_version=opset,
                      input_names=["src"], output_names=["cross_k", "cross_v"],
                      dynamic_axes={"src": {0: "B", 1: "S_len"}, "cross_k": {1: "B", 3: "S_len"}, "cross_v": {1: "B", 3: "S_len"}},
                      do_constant_folding=True, **LEGACY_EXPORT)
    B, S, T = 2, 5, 3
    args = (torch.tensor([[vocab.sym_id["("]], [vocab.sym_id["JOIN"]]]), torch.tensor([T]),
            torch.randn(L, B, H, S, Dh), torch.randn(L, B, H, S, Dh), torch.randn(L, B, H, T, Dh), torch.randn(L, B, H, T, Dh))
    torch.onnx.export(dec, args, os.path.join(out_dir, "decoder.onnx"), opset_version=opset,
                      input_names=["tokens", "position", "cross_k", "cross_v", "past_k", "past_v"],
                      output_names=["logprobs", "present_k", "present_v"],
                      dynamic_axes={"tokens": {0: "B"}, "cross_k": {1: "B", 3: "S_len"}, "cross_v": {1: "B", 3: "S_len"},
                                    "past_k": {1: "B", 3: "T"}, "past_v": {1: "B", 3: "T"},
                                    "logprobs": {0: "B"}, "present_k": {1: "B", 3: "T1"}, "present_v": {1: "B", 3: "T1"}},
                      do_constant_folding=True, **LEGACY_EXPORT)
    import onnx
    for f in ("encoder.onnx", "decoder.onnx"):
        onnx.checker.check_model(onnx.load(os.path.join(out_dir, f)))


@torch.no_grad()
def cache_parity(model, vocab, examples, max_len=96):
    """Cached step-by-step greedy decoding vs. full teacher-forced recomputation on the same prefix."""
    model.eval()
    worst = 0.0
    same = 0
    for e in examples:
        s = vocab.encode_source(e["question"])
        out = greedy_batch(model, vocab, [s], max_len, constrained=False)[0]
        src = torch.tensor([s])
        mem = model.encode(src)
        ck, cv = model.cross_kv(mem, src)
        pk, pv = model.empty_cache(1)
        seq = [BOS] + out
        steps = []
        for t in range(len(out)):
            lp, pk, pv = model.step(torch.tensor([[seq[t]]]), torch.tensor([t]), ck, cv, pk, pv)
            steps.append(lp[0])
        full = torch.log_softmax(model(src, src == PAD, torch.tensor([seq[:-1]])), dim=-1)[0]
        d = (torch.stack(steps) - full).abs().max().item()
        worst = max(worst, d)
        same += int(torch.equal(torch.stack(steps).argmax(-1), full.argmax(-1)))
    return {"n": len(examples), "argmaxEqual": same, "maxAbsDiff": worst}


@torch.no_grad()
def golden(model, vocab, examples, max_len=96):
    model.eval()
    items = []
    for e in examples:
        s = vocab.encode_source(e["question"])
        out = greedy_batch(model, vocab, [s], max_len, constrained=False)[0]
        src = torch.tensor([s])
        ck, cv = model.cross_kv(model.encode(src), src)
        pk, pv = model.empty_cache(1)
        seq = [BOS] + out
        top = []
        for t in range(min(3, len(out))):
            lp, pk, pv = model.step(torch.tensor([[seq[t]]]), torch.tensor([t]), ck, cv, pk, pv)
            v, i = torch.topk(lp[0], 5)
            top.append([[int(a), round(float(b), 6)] for a, b in zip(i, v)])
        items.append({"question": e["question"], "src": s, "greedy": out, "form": vocab.decode_target(out),
                      "gold": canonical(e["form"]), "top5": top})
    return {"note": "src = sentencepiece ids of the question (no BOS/EOS); greedy = UNCONSTRAINED greedy target ids "
                    "after BOS (ends with EOS); top5 = [id, logprob] of steps 0..2 along that path (PyTorch fp32)",
            "items": items}


# ---------------------------------------------------------------- main

# The work after the training loop under --minutes: the export (its cost grows with the parameters), the
# golden file and the cache-parity check (one greedy decode per question each), then the Node validation
# and the PyTorch probe — these two take what is left, down to none.
NODE_EVAL_START_SEC = 6.0  # a node process loading the exported model
NODE_EVAL_SEC_PER_Q = 0.05


def export_seconds(nparams, sec_per_decode, golden_n):
    return 5.0 + 3e-6 * nparams + sec_per_decode * (20 + golden_n)


def after_training_seconds(nparams, sec_per_decode, golden_n, n_final):
    """The loop's reserve: the export with its checks, and the smallest useful Node validation (20 questions)."""
    node = NODE_EVAL_START_SEC + NODE_EVAL_SEC_PER_Q * min(20, n_final) if n_final else 0.0
    return export_seconds(nparams, sec_per_decode, golden_n) + node


def main(argv=None):
    args = parse_args(argv)
    # (before the data and the tokenizer: a wrong share is known from the arguments alone)
    if not 0 < args.interpolate <= 1:
        raise SystemExit("--interpolate must be in (0, 1], got %s" % args.interpolate)
    if args.interpolate < 1 and not args.init_from:
        raise SystemExit("--interpolate below 1 needs --init-from (the weights to interpolate from)")
    # --minutes: the end of the whole run, counted from the process start (importing torch included)
    deadline = process_start() + args.minutes * 60 if args.minutes else None
    torch.set_num_threads(args.threads)
    random.seed(args.seed)
    torch.manual_seed(args.seed)
    rng = random.Random(args.seed)
    os.makedirs(args.out, exist_ok=True)
    ckpt_path = args.checkpoint or (os.path.abspath(args.out).rstrip("/") + ".ckpt.pt")
    size = dict(SIZES[args.size])
    for k, a in (("d_model", args.d_model), ("heads", args.heads), ("enc_layers", args.enc_layers),
                 ("dec_layers", args.dec_layers), ("ffn", args.ffn)):
        if a:
            size[k] = a
    size["copy_features"] = bool(args.copy_features)
    vocab_size = args.vocab_size or {"tiny": 1000, "small": 4000, "base": 4000}[args.size]
    lr = args.lr or {"tiny": 2e-3, "small": 1e-3, "base": 5e-4}[args.size]

    train = read_jsonl(args.data)
    train = [e for e in train if e.get("question") and e.get("form")]
    for cap in args.cap:  # a seeded sample of one source, kept in file order
        src_name, _, n = cap.partition("=")
        idx = [i for i, e in enumerate(train) if e.get("source") == src_name]
        if n.isdigit() and int(n) < len(idx):
            drop = set(idx) - set(random.Random(args.seed).sample(idx, int(n)))
            train = [e for i, e in enumerate(train) if i not in drop]
            log("cap %s: %d of %d" % (src_name, int(n), len(idx)))
    if args.max_train and args.max_train < len(train):  # a seeded sample, kept in file order
        keep = sorted(random.Random(args.seed).sample(range(len(train)), args.max_train))
        train = [train[i] for i in keep]
    valid = read_jsonl(args.valid) if args.valid else []
    replay = [e for e in read_jsonl(args.replay) if e.get("question") and e.get("form")] if args.replay else []
    log("train %d, valid %d%s" % (len(train), len(valid), ", replay %d" % len(replay) if replay else ""))

    # graph labels: --kb triples and --labels files; role pools for substitution
    labels, pools = set(), {}
    for kb in args.kb:
        l, p = read_kb(kb)
        labels |= l
        for k, v in p.items():
            pools[k] = sorted(set(pools.get(k, [])) | set(v))
    for lf in args.labels:
        labels |= set(read_labels(lf))
    # pools also from the training forms themselves (works without a graph)
    train_entities = set()
    for e in train:
        for lab, role in zip([t[1] for t in form_tokens(e["form"]) if isinstance(t, tuple)], entity_roles(e["form"])):
            train_entities.add(lab)
            if role and role not in pools:
                pools.setdefault(("data",) + role, set()).add(lab)
    for k in [k for k in pools if k[0] == "data"]:
        pools[k[1:]] = sorted(pools.pop(k))
    tokens = {t for e in train for t in names_of(e["form"])}
    literals = sorted(t for t in tokens if is_literal_token(t))
    open_names = bool(args.open_names)
    if open_names:  # names are pieces: no name symbols; their words are tokenizer sentences
        name_texts = sorted({x for x in (open_text(t) for t in tokens) if x})
        classes, relations, literals = [], [], []
    elif args.names:
        with open(args.names, encoding="utf-8") as f:
            given = json.load(f)
        classes = sorted(set(given.get("classes", [])))
        relations = sorted(set(given.get("relations", [])) | {k[1] for k in pools})
    else:
        classes = []
        relations = sorted((tokens - set(literals)) | {k[1] for k in pools})

    sp_prefix = os.path.join(args.out, "tokenizer")
    init_ck = load_init(args.init_from) if args.init_from else None
    if args.export_only or init_ck is not None:
        ck = init_ck if init_ck is not None else load_checkpoint(args.export_only)
        with open(sp_prefix + ".model", "wb") as f:
            f.write(ck["tokenizer"])
        import sentencepiece as spm
        sp = spm.SentencePieceProcessor(model_file=sp_prefix + ".model")
        relations = ck["relations"]
        classes = ck.get("classes", [])
        literals = ck.get("literals", [])
        size = ck["size"]
        open_names = bool(ck.get("openNames"))
    else:
        t = time.time()
        sp = train_tokenizer(sp_prefix, [e["question"] for e in train], sorted(labels) + (name_texts if open_names else []),
                             vocab_size, args.seed)
        log("tokenizer: %d pieces in %.1fs" % (sp.get_piece_size(), time.time() - t))
    vocab = Vocab(sp, relations + classes + literals, open_names=open_names)
    if os.path.exists(sp_prefix + ".vocab"):
        os.unlink(sp_prefix + ".vocab")

    wv = None
    if args.word_vectors and not size.get("word_vectors"):
        wv = piece_vectors(sp, args.word_vectors, vocab.V)
        size = dict(size, word_vectors=wv.shape[1])
    model = Seq2Seq(vocab.V, dropout=args.dropout, **size)
    device = train_device(args.device)
    if init_ck is not None:
        load_init_weights(model, init_ck, vocab)
        log("weights from %s (step %s, %.2f epochs)" % (args.init_from, init_ck.get("step"), init_ck.get("epochs") or 0))
    if wv is not None:  # after the weights: a checkpoint without word vectors leaves the table and its projection as built
        with torch.no_grad():
            model.wv_table.copy_(wv)
        log("word vectors: %d of %d pieces are whole words with a vector (%s)" % (
            int((wv.abs().sum(1) > 0).sum()), vocab.S, args.word_vectors))
    start = {k: v.detach().clone() for k, v in model.state_dict().items()} if args.interpolate < 1 else None
    nparams = sum(p.numel() for p in model.parameters())
    log("model %s: V=%d params=%.2fM" % (size, vocab.V, nparams / 1e6))

    # data statistics
    enc0 = [vocab.encode_example(e["question"], e["form"]) for e in train]
    skipped = sum(1 for x in enc0 if x is None)
    inexact = sum(1 for x in enc0 if x is not None and not x[2])
    ok = [x for x in enc0 if x is not None]
    stats = {"train": len(train), "trainUsable": len(ok), "trainSkipped": skipped, "trainInexactCopy": inexact,
             "valid": len(valid), "labels": len(labels), "pieces": vocab.S, "targetVocab": vocab.V,
             "meanSourcePieces": round(sum(len(x[0]) for x in ok) / max(1, len(ok)), 2),
             "meanTargetTokens": round(sum(len(x[1]) for x in ok) / max(1, len(ok)), 2)}
    if replay:
        stats["replay"] = len(replay)
        stats["replayPerEpoch"] = min(len(replay), int(round(args.replay_share * len(train))))
    venc = [vocab.encode_example(e["question"], e["form"]) for e in valid]
    stats["validInexactCopy"] = sum(1 for x in venc if x is None or not x[2])
    log("data: %s" % json.dumps(stats))
    max_src = max([len(x[0]) for x in ok] + [1])
    max_tgt = max([len(x[1]) for x in ok] + [1])

    aug = Augmenter(pools, args.p_sub, args.p_drop, rng)
    rel_freq = {}
    for e in train:
        for r in set(names_of(e["form"])):
            rel_freq[r] = rel_freq.get(r, 0) + 1
    rare_rel = {r for r in relations if 0 < rel_freq.get(r, 0) < RARE_SHARE * len(train)}  # none with open names
    rare = [e for e in train if rare_rel & set(names_of(e["form"]))]
    # probe: an evenly spread slice of the validation file (reporting only; the last epoch is exported)
    probe = valid[:: max(1, len(valid) // args.probe)][: args.probe] if args.probe and valid else []

    history = []
    plan = None  # with --minutes: how the run's budget was shared out when the training loop started
    sec_per_decode = 0.0  # seconds of one greedy decode (measured before the loop under --minutes)
    train_sec = 0.0
    seen_examples = 0
    epochs_done = 0.0
    if not args.export_only:
        opt = torch.optim.AdamW(model.parameters(), lr=lr, betas=(0.9, 0.98), weight_decay=0.01)
        n_per_epoch = len(ok) + len(rare) * args.rare_oversample + (min(len(replay), int(round(args.replay_share * len(train)))) if replay else 0)
        steps_per_epoch = math.ceil(n_per_epoch / args.batch)
        total_steps = max(1, int(math.ceil(args.epochs * steps_per_epoch)))
        # With --minutes the loop's budget is what is left of the run's deadline after the work that follows it
        # (re-estimated after each probe, which measures the evaluation speed); probes count against it.
        n_final = len(valid[: args.final_eval] if args.final_eval else valid)
        budget = None
        if deadline:
            # one greedy decode, timed on the untrained model (which runs to the length limit: an upper bound)
            t = time.time()
            greedy_batch(model, vocab, [vocab.encode_source((valid or train)[0]["question"])], 96, constrained=False)
            sec_per_decode = (time.time() - t) * 0.5
            model.train()
            reserve = after_training_seconds(nparams, sec_per_decode, args.golden, n_final)
            budget = max(1.0, deadline - time.time() - reserve)
            plan = {"minutes": args.minutes, "beforeLoopSeconds": round(time.time() - deadline + args.minutes * 60, 2),
                    "loopSeconds": round(budget, 2), "afterLoopEstimateSeconds": round(reserve, 2)}
        model.to(device)  # (the timed decode above ran on the CPU, as the probes do; the optimiser's state follows)
        emit("start", examples=n_per_epoch, stepsPerEpoch=steps_per_epoch, totalSteps=total_steps, epochs=args.epochs,
             params=nparams, size=size, minutes=args.minutes, stats=stats)
        step = 0
        t_start = time.time()
        stop = False
        epoch = 0
        model.train()
        while not stop and step < total_steps:
            epoch += 1
            # a fresh augmented epoch
            ex = []
            for e in train:
                q, f = aug(e) if args.p_sub or args.p_drop else (e["question"], e["form"])
                x = vocab.encode_example(q, f)
                if x is None:
                    x = vocab.encode_example(e["question"], e["form"])
                if x is not None:
                    ex.append(x)
            if replay:  # other graphs' questions, untouched (their entities are not this graph's)
                for e in rng.sample(replay, min(len(replay), int(round(args.replay_share * len(train))))):
                    x = vocab.encode_example(e["question"], e["form"])
                    if x is not None:
                        ex.append(x)
            for _ in range(args.rare_oversample):
                for e in rare:
                    q, f = aug(e, force_sub=True)
                    x = vocab.encode_example(q, f)
                    if x is not None:
                        ex.append(x)
            batches = make_batches(ex, args.batch, rng)
            tot_loss, tot_tok = 0.0, 0
            for bi, ids in enumerate(batches):
                src, pad, tgt = (t.to(device) for t in collate(ex, ids))
                progress = step / total_steps
                if budget is not None:
                    progress = max(progress, (time.time() - t_start) / max(budget, 1e-9))
                cur = lr * lr_factor(step, progress, args.warmup)
                for g in opt.param_groups:
                    g["lr"] = cur
                logits = model(src, pad, tgt[:, :-1])
                gold = tgt[:, 1:]
                if args.loss == "restricted":
                    loss = restricted_loss(logits, gold, src, pad, vocab, args.smoothing)
                else:
                    loss = F.cross_entropy(logits.reshape(-1, vocab.V), gold.reshape(-1), ignore_index=PAD,
                                           label_smoothing=args.smoothing)
                opt.zero_grad()
                loss.backward()
                torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
                opt.step()
                ntok = int((gold != PAD).sum())
                tot_loss += float(loss) * ntok
                tot_tok += ntok
                step += 1
                seen_examples += len(ids)
                if step % 25 == 0:
                    el = time.time() - t_start
                    eta = el / step * (total_steps - step)
                    if budget is not None:
                        eta = min(eta, max(0.0, budget - el))
                    emit("step", epoch=epoch, step=step, totalSteps=total_steps, loss=round(tot_loss / max(1, tot_tok), 4),
                         lr=cur, examplesPerSec=round(seen_examples / el, 1), elapsedSec=round(el, 1), etaSec=round(eta, 1))
                if step >= total_steps or (budget is not None and time.time() - t_start > budget):
                    stop = True
                    break
            train_sec = time.time() - t_start
            epochs_done += (bi + 1) / len(batches)
            save_checkpoint(ckpt_path, model, sp_prefix, relations, size, args, step, epochs_done, classes, literals, vocab.symbols,
                            open_names)
            t_eval = time.time()
            # the last epoch under a deadline: the final evaluation measures the exported model; no probe
            rows = []
            if probe and not (stop and deadline):
                model.to("cpu")  # the probe decodes on the CPU, as the product does (evaluate leaves it training)
                rows = evaluate(model, vocab, probe, train_entities)
                model.to(device)
            s = summarize(rows) if rows else {}
            el = time.time() - t_start
            rem_steps = total_steps - step
            eta = 0.0 if stop else el / step * rem_steps
            if budget is not None:
                eta = min(eta, max(0.0, budget - el))
            rec = {"epoch": epoch, "epochs": round(epochs_done, 3), "step": step, "loss": round(tot_loss / max(1, tot_tok), 4),
                   "validEm": s.get("em"), "probeN": s.get("n"), "evalSec": round(time.time() - t_eval, 1),
                   "elapsedSec": round(el, 1), "etaSec": round(eta, 1), "examplesPerSec": round(seen_examples / max(1e-9, train_sec), 1)}
            history.append(rec)
            emit("epoch", **rec)
            log("epoch %d loss %.4f probe EM %s (%.0fs)" % (epoch, rec["loss"], s.get("em"), el))
            if deadline:  # the probes count against the loop: its end stays where the deadline puts it
                budget = max(0.0, deadline - t_start - after_training_seconds(nparams, sec_per_decode, args.golden, n_final))
            else:
                t_start += time.time() - t_eval  # without a deadline the probes do not count against the loop
    else:
        ck = load_checkpoint(args.export_only)
        model.load_state_dict(ck["model"])
        history = ck.get("history", [])
        epochs_done = ck.get("epochs", 0)

    model.to("cpu")
    if start is not None and not args.export_only:
        interpolate_(model, start, args.interpolate)
        log("weights: %.2f of the way from %s to the trained ones (--interpolate)" % (args.interpolate, args.init_from))

    # ---- final evaluation, export, golden, reports
    model.eval()
    result = {}
    fv = (valid[: args.final_eval] if args.final_eval else valid) if valid else []

    def pytorch_probe(questions):
        t = time.time()
        emit("phase", name="final-eval", n=len(questions))
        rows = evaluate(model, vocab, questions, train_entities, constrained=True, beam=args.beam)
        probe = {"decoder": "pytorch constrained greedy (training-time probe; its rules differ from src/generate)",
                 "constrained": summarize(rows), "constrainedSec": round(time.time() - t, 1)}
        rows_u = evaluate(model, vocab, questions, train_entities, constrained=False)
        probe["unconstrained"] = summarize(rows_u)
        log("final (PyTorch probe): %s" % json.dumps(probe))
        return {"probe": probe,
                "errors": [{k: r[k] for k in ("question", "gold", "pred", "unseen")} for r in rows if not r["em"]][:60]}

    # Under --minutes the model folder is completed first; the evaluations then take what is left of the budget.
    if fv and not deadline:
        result = pytorch_probe(fv)
    emit("phase", name="export")
    export(model, vocab, args.out)
    parity = cache_parity(model, vocab, (valid or train)[:20])
    log("cache parity: %s" % parity)
    gold = golden(model, vocab, (valid or train)[: args.golden])
    with open(os.path.join(args.out, "golden.json"), "w") as f:
        json.dump(gold, f, ensure_ascii=False, indent=1)
    h = hashlib.sha256()
    for fn in ("encoder.onnx", "decoder.onnx", "tokenizer.model"):
        with open(os.path.join(args.out, fn), "rb") as f:
            h.update(f.read())
    version = args.version or ("askgraph-%s-%s" % (args.size, h.hexdigest()[:12]))
    config = {"format": "askgraph-seq2seq/1", "tokenizer": "tokenizer.model", "pieces": vocab.S,
              "pad": PAD, "bos": BOS, "eos": EOS, "unk": UNK, "symbols": vocab.symbols, "relations": relations,
              "classes": classes,
              **({"names": "open", "nameEnd": NAME_END} if open_names else {}),
              **({"wordVectors": {"dims": size["word_vectors"], "of": "whole-word source pieces (GloVe 100d, frozen, in the encoder)"}}
                 if size.get("word_vectors") else {}),
              "dModel": size["d_model"], "heads": size["heads"], "encoderLayers": size["enc_layers"],
              "decoderLayers": size["dec_layers"], "headDim": size["d_model"] // size["heads"], "ffn": size["ffn"],
              "targetVocab": vocab.V, "maxSourceLength": 512, "maxTargetLength": max(64, 2 * max_tgt),
              "version": version, "encoder": "encoder.onnx", "decoder": "decoder.onnx",
              "source": "sentencepiece ids of the question, no BOS/EOS",
              "target": "decoder starts with bos at position 0; ends with eos; ids < pieces are copied source pieces "
                        "(inside [ ]), detokenised with sentencepiece decode"}
    with open(os.path.join(args.out, "config.json"), "w") as f:
        json.dump(config, f, ensure_ascii=False, indent=1)
    words = question_words(train)
    with open(os.path.join(args.out, "words.json"), "w") as f:
        json.dump({"about": "lower-cased words of the training questions outside entity mentions, with counts",
                   "words": dict(sorted(words.items()))}, f, ensure_ascii=False, indent=0)
    fv_node = fv
    if fv and deadline:  # as many questions as fit (at least 20), or none when the budget is spent
        left = deadline - time.time()
        fit = int((left - NODE_EVAL_START_SEC) / (NODE_EVAL_SEC_PER_Q * max(1, args.beam)))
        fv_node = fv[: max(20, min(len(fv), fit))] if fit >= 10 else []
    if fv_node:
        emit("phase", name="node-eval", n=len(fv_node))
        nv, why = node_validation(args.out, fv_node, max(1, args.beam), args.node_eval)
        result = {"decoder": "node" if nv else None, "n": len(fv_node), "beam": max(1, args.beam),
                  "em": nv["em"] if nv else None, "inBeam": nv["inBeam"] if nv else None,
                  "node": nv, **({"nodeUnavailable": why} if why else {}), **result}
        log("validation (Node decoder): %s" % (json.dumps(nv) if nv else "unavailable: " + why))
    elif fv:
        result = {"decoder": None, "n": 0, "nodeUnavailable": "not run: the --minutes budget was spent"}
        log("validation (Node decoder): not run, the --minutes budget was spent")
    if fv_node and deadline:  # the PyTorch probe (reporting only), if what is left allows it (batched: ~4 decodes per second of one)
        left = deadline - time.time()
        fit = int(left / max(1e-3, 2 * sec_per_decode / 4))
        if fit >= 20:
            result.update(pytorch_probe(fv[: min(len(fv), fit)]))
    files = {fn: os.path.getsize(os.path.join(args.out, fn)) for fn in sorted(os.listdir(args.out))}
    # the size's name: with --init-from the base's dimensions win over --size
    size_name = next((k for k, v in SIZES.items() if all(size.get(kk) == vv for kk, vv in v.items())), "custom")
    report = {"version": version, "command": " ".join(sys.argv), "seed": args.seed, "size": size_name, "model": size,
              "params": nparams, "data": stats, "epochs": round(epochs_done, 3), "trainSeconds": round(train_sec, 1),
              "examplesPerSec": round(seen_examples / train_sec, 1) if train_sec else None,
              "loss": args.loss, "lr": lr, "warmup": args.warmup, "batch": args.batch, "dropout": args.dropout,
              "smoothing": args.smoothing,
              "augmentation": {"pSub": args.p_sub, "pDrop": args.p_drop, "rareOversample": args.rare_oversample,
                               "rareExamples": len(rare), "rareRelations": sorted(rare_rel)},
              "probe": "%d validation questions (every k-th), evaluated after each epoch for reporting only (no model selection: "
                       "the last epoch is exported)" % len(probe),
              "history": history, "validation": result, "cacheParity": parity, "files": files,
              **({"interpolate": {"share": args.interpolate, "from": args.init_from}} if start is not None else {}),
              "threads": args.threads, "torch": torch.__version__, "wallSeconds": round(time.time() - T0, 1),
              **({"budget": plan} if plan else {})}
    with open(os.path.join(args.out, "report.json"), "w") as f:
        json.dump(report, f, ensure_ascii=False, indent=1)
    with open(os.path.join(args.out, "REPORT.md"), "w") as f:
        f.write(report_md(report))
    if args.export_only is None and args.checkpoint is None and os.path.exists(ckpt_path):
        os.unlink(ckpt_path)
    emit("done", out=args.out, version=version, validation={k: v for k, v in result.items() if k != "errors"},
         wallSec=round(time.time() - T0, 1), trainSec=round(train_sec, 1))
    return 0


def load_init(path):
    """A checkpoint file, or an exported model folder whose weights are recovered (train/askgraph_recover.py)."""
    if os.path.isdir(path):
        from askgraph_recover import checkpoint_from_export
        return checkpoint_from_export(path)
    return load_checkpoint(path)


def read_word_vectors(directory):
    """-> (words, float32 tensor [count, dims]) from the package's int8 vector file (scripts/build-lexical-vectors.ts:
    "AGV1", count, dims, then per word a float32 scale and dims int8 values; the vocabulary one word a line)."""
    import numpy as np
    for name in ("glove-100d-int8.bin", "glove-100d-vocab.txt"):
        if not os.path.isfile(os.path.join(directory, name)):
            raise SystemExit("--word-vectors: %s not found (the package's assets/lexical has it)" % os.path.join(directory, name))
    with open(os.path.join(directory, "glove-100d-vocab.txt"), encoding="utf-8") as f:
        words = [w for w in f.read().split("\n") if w]
    with open(os.path.join(directory, "glove-100d-int8.bin"), "rb") as f:
        buf = f.read()
    count, dims = int.from_bytes(buf[4:8], "little"), int.from_bytes(buf[8:12], "little")
    if count != len(words) or len(buf) != 12 + count * (4 + dims):
        raise ValueError("%s: %d words x %d dims does not match the vocabulary's %d words" % (directory, count, dims, len(words)))
    rows = np.frombuffer(buf, dtype=np.uint8, offset=12).reshape(count, 4 + dims)
    scales = rows[:, :4].copy().view("<f4").reshape(count, 1)
    values = rows[:, 4:].copy().view(np.int8).astype(np.float32)
    return words, torch.from_numpy(values * scales)


def piece_vectors(sp, directory, rows):
    """The frozen table: row i is the unit-length vector of piece i when the piece is a whole word ("▁word", lower-cased,
    in the vectors' vocabulary), else zeros; rows past the pieces (form symbols) are zeros."""
    words, vecs = read_word_vectors(directory)
    index = {w: i for i, w in enumerate(words)}
    table = torch.zeros(rows, vecs.shape[1])
    for i in range(sp.get_piece_size()):
        p = sp.id_to_piece(i)
        if p.startswith("\u2581") and p[1:].lower() in index:
            v = vecs[index[p[1:].lower()]]
            table[i] = v / max(float(v.norm()), 1e-6)
    return table


def interpolate_(model, start, share):
    """Weight-space ensembling (Wortsman et al. 2022, WiSE-FT): each floating-point weight becomes
    start + share * (trained - start), in place; integer buffers are left as they are."""
    state = model.state_dict()
    with torch.no_grad():
        for k, v in state.items():
            if v.is_floating_point():
                v.copy_(start[k] + share * (v - start[k]))


def load_init_weights(model, ck, vocab):
    """Load a checkpoint's weights. When the target symbols changed (an operator added since), each symbol keeps its
    own embedding row and new symbols keep their fresh initialisation. A model with word vectors continued from one
    without them keeps its table and zero projection."""
    state = dict(ck["model"])
    if getattr(model, "word_vectors", 0) and "wv_table" not in state:
        own = model.state_dict()
        for k in ("wv_table", "wv.weight", "wv.bias"):
            state[k] = own[k]
    elif "wv_table" in state and state["wv_table"].shape[0] != model.wv_table.shape[0]:  # symbols added: their rows are zeros
        table = torch.zeros_like(model.wv_table)
        table[:vocab.S] = state["wv_table"][:vocab.S]
        state["wv_table"] = table
    old = ck.get("symbols")
    if old is not None and list(old) != vocab.symbols:
        emb = state["emb.weight"]
        new = model.emb.weight.detach().clone()
        new[:vocab.S] = emb[:vocab.S]
        old_id = {s: vocab.S + i for i, s in enumerate(old)}
        for s, i in vocab.sym_id.items():
            if s in old_id:
                new[i] = emb[old_id[s]]
        state["emb.weight"] = new
        log("target symbols: %d kept, %d new (%s)" % (len(set(old) & set(vocab.symbols)), len(set(vocab.symbols) - set(old)),
                                                     " ".join(sorted(set(vocab.symbols) - set(old)))))
    model.load_state_dict(state)


def node_validation(out_dir, examples, beam, mode="auto"):
    """The validation numbers of the exported model from the Node decoder (src/train/validate.ts: the product's
    constrained beam search, the pack's labels) — the one authority on decoding. Returns (result, None), or
    (None, why) when node is unavailable or the run failed; the PyTorch numbers then stay a labelled probe."""
    if mode == "off":
        return None, "turned off (--node-eval off)"
    script = os.path.join(ROOT, "dist", "src", "train", "validate.js")
    source = os.path.join(ROOT, "src", "train", "validate.ts")
    if shutil.which("node") and os.path.exists(script):
        cmd = [shutil.which("node"), script]
    elif shutil.which("npx") and os.path.exists(source):
        cmd = [shutil.which("npx"), "--no-install", "tsx", source]
    else:
        return None, "node (with %s or npx tsx) not found" % os.path.relpath(script, ROOT)
    fd, tmp = tempfile.mkstemp(suffix=".jsonl")
    try:
        with os.fdopen(fd, "w") as f:
            for e in examples:
                f.write(json.dumps({"question": e["question"], "form": e["form"]}, ensure_ascii=False) + "\n")
        p = subprocess.run(cmd + [os.path.abspath(out_dir), tmp, "--beam", str(beam)], capture_output=True, text=True, cwd=ROOT)
    finally:
        os.unlink(tmp)
    if p.returncode != 0:
        return None, "the Node validation failed (exit %s): %s" % (p.returncode, p.stderr.strip()[-500:])
    try:
        return json.loads(p.stdout.strip().splitlines()[-1]), None
    except (ValueError, IndexError):
        return None, "the Node validation printed no result: %r" % p.stdout[-200:]


def load_checkpoint(path):
    """A checkpoint this trainer wrote (tokenizer bytes and settings beside the tensors: not weights only), onto the CPU."""
    return torch.load(path, map_location="cpu", weights_only=False)


def train_device(name):
    """The training loop's device: --device cpu|cuda|auto."""
    if name == "auto":
        name = "cuda" if torch.cuda.is_available() else "cpu"
    if name.startswith("cuda") and not torch.cuda.is_available():
        raise SystemExit("--device %s: torch sees no CUDA device" % name)
    return torch.device(name)


def save_checkpoint(path, model, sp_prefix, relations, size, args, step, epochs, classes=(), literals=(), symbols=None,
                    open_names=False):
    with open(sp_prefix + ".model", "rb") as f:
        tok = f.read()
    tmp = path + ".tmp"
    torch.save({"model": {k: v.detach().cpu() for k, v in model.state_dict().items()}, "tokenizer": tok, "relations": relations, "size": size,
                "classes": list(classes), "literals": list(literals), "symbols": symbols, "openNames": bool(open_names),
                "args": vars(args), "step": step,
                "epochs": epochs}, tmp)
    os.replace(tmp, path)


def pct(x):
    return "–" if x is None else "%.2f%%" % (100 * x)


def report_md(r):
    v = r["validation"]
    lines = ["# askgraph parser model `%s`" % r["version"], "",
             "Trained by `train/askgraph_train.py` (command: `%s`)." % r["command"], "",
             "- Model: %s, %.2fM parameters, shared embedding, pre-LN, KV-cache decoder export" % (json.dumps(r["model"]), r["params"] / 1e6),
             "- Data: %s" % json.dumps(r["data"]),
             "- Augmentation: %s" % json.dumps(r["augmentation"]),
             "- Loss: %s softmax (restricted = over the form symbols, EOS and the question's own pieces), label smoothing %s, "
             "AdamW lr %s, %d warm-up steps, cosine, batch %d, dropout %s" % (
                 r["loss"], r["smoothing"], r["lr"], r["warmup"], r["batch"], r["dropout"]),
             "- Epochs: %s, training time %.1f s, %s examples/s (%d threads, torch %s), whole run %.1f s" % (
                 r["epochs"], r["trainSeconds"], r["examplesPerSec"], r["threads"], r["torch"], r["wallSeconds"]),
             "- Probe: %s" % r["probe"],
             *(["- Weights: %s of the way from `%s` to the trained ones (--interpolate, WiSE-FT)" % (r["interpolate"]["share"], r["interpolate"]["from"])]
               if r.get("interpolate") else []),
             "- Cached step decoding vs full recomputation: %s" % json.dumps(r["cacheParity"]), ""]
    if v:
        if v.get("decoder") == "node":
            lines += ["## Validation (Node decoder: src/generate, the product's constrained beam search)", "",
                      "| n | beam | top-1 EM | gold in beam |", "|---|---|---|---|",
                      "| %d | %d | %s | %s |" % (v["n"], v["beam"], pct(v["em"]), pct(v["inBeam"])), ""]
        else:
            lines += ["## Validation", "", "Not measured with the Node decoder: %s. Only the PyTorch probe below." % v.get("nodeUnavailable"), ""]
    if v and "probe" not in v:
        lines += ["PyTorch probe: not run (the --minutes budget was spent).", ""]
    if v and "probe" in v:
        c, u = v["probe"]["constrained"], v["probe"]["unconstrained"]
        lines += ["## Training-time probe (PyTorch greedy; brackets removed — not the reported validation number)", "",
                  "| | n | constrained greedy | unconstrained greedy |", "|---|---|---|---|",
                  "| all | %d | %s | %s |" % (c["n"], pct(c["em"]), pct(u["em"]))]
        for h in c["perHop"]:
            lines.append("| %s-hop | %d | %s | %s |" % (h, c["perHop"][h]["n"], pct(c["perHop"][h]["em"]), pct(u["perHop"][h]["em"])))
        lines.append("| entity unseen in training | %d | %s | %s |" % (c["unseen"]["n"], pct(c["unseen"]["em"]), pct(u["unseen"]["em"])))
        lines.append("| entity seen in training | %d | %s | %s |" % (c["seen"]["n"], pct(c["seen"]["em"]), pct(u["seen"]["em"])))
        if "inBeam" in c:
            lines += ["", "Constrained beam (%s): top-1 %s, gold in beam %s, unseen-entity gold in beam %s." % (
                r["command"].split("--beam")[-1].split()[0] if "--beam" in r["command"] else "8",
                pct(c["beamTop1"]), pct(c["inBeam"]), pct(c["unseenInBeam"]))]
        lines += ["", "Constrained = inside `[ … ]` only a contiguous run of the question's pieces, then `]`; outside only form symbols.",
                  "Entity unseen = the entity is not the topic entity of any training question (substitution may still draw its label "
                  "from the --kb/--labels pools).",
                  "", "## Epochs", "", "| epoch | loss | probe EM | elapsed s |", "|---|---|---|---|"]
    for h in r["history"]:
        lines.append("| %s | %s | %s | %s |" % (h["epoch"], h["loss"], pct(h["validEm"]), h["elapsedSec"]))
    if v and v.get("errors"):
        lines += ["", "## PyTorch probe: constrained-greedy errors (first %d)" % len(v["errors"]), ""]
        for e in v["errors"]:
            lines.append("- %s%s  \n  gold `%s`  \n  pred `%s`" % (e["question"], " (unseen)" if e["unseen"] else "", e["gold"], e["pred"]))
    lines.append("")
    lines.append("Files: " + ", ".join("%s %d B" % (k, s) for k, s in r["files"].items()))
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.exit(main())
