"""Recover a training checkpoint from an exported askgraph model folder (encoder.onnx, decoder.onnx,
config.json, tokenizer.model), so that a shipped model can be trained further (`--init-from DIR`).

The export folds weights: linear weights become transposed MatMul initializers with generated names, and the
cross-attention key/value projection is split into its key and value halves. Rather than guess those names,
the mapping is learned: a model of the same shape whose every parameter holds distinct random values is exported
with the same code, and each parameter is found among the exported initializers by value (as it is, transposed,
or as the halves of a fused projection). The mapping is then applied to the real export, and the recovered
weights are exported once more and compared with the original initializers, value for value.
"""
import json
import os
import tempfile

import numpy as np
import torch


def _initializers(path):
    import onnx
    from onnx import numpy_helper
    return {i.name: numpy_helper.to_array(i) for i in onnx.load(path).graph.initializer}


def _size_of(config, enc_inits):
    return {"d_model": config["dModel"], "heads": config["heads"], "enc_layers": config["encoderLayers"],
            "dec_layers": config["decoderLayers"], "ffn": config["ffn"],
            "copy_features": any(k.startswith("m.copy_prev.") for k in enc_inits),
            **({"word_vectors": config["wordVectors"]["dims"]} if config.get("wordVectors") else {})}


class _SymbolIds:
    """The few symbol ids the export needs for its example inputs."""

    def __init__(self, config):
        self.sym_id = {s: config["pieces"] + i for i, s in enumerate(config["symbols"])}


def _export_all(model, config, out_dir):
    from askgraph_train import export
    export(model, _SymbolIds(config), out_dir)
    return {"encoder": _initializers(os.path.join(out_dir, "encoder.onnx")),
            "decoder": _initializers(os.path.join(out_dir, "decoder.onnx"))}


def _find(value, inits):
    """-> list of (file, name, how) places where this parameter's values appear in the export."""
    a = value.numpy()
    hits = []
    for f, table in inits.items():
        for name, arr in table.items():
            if arr.shape == a.shape and np.array_equal(arr, a):
                hits.append((f, name, "same"))
            elif a.ndim == 2 and arr.shape == a.T.shape and np.array_equal(arr, a.T):
                hits.append((f, name, "transposed"))
    return hits


def _weights(model):
    """The parameters and the frozen word-vector table (a buffer that is part of the export)."""
    return list(model.named_parameters()) + [(n, b) for n, b in model.named_buffers() if n == "wv_table"]


def learn_mapping(model, config):
    """parameter name -> list of (part, file, initializer name, how); part is None or (start, end) rows."""
    torch.manual_seed(12345)
    with torch.no_grad():
        for _, p in _weights(model):
            p.copy_(torch.randn_like(p))
    with tempfile.TemporaryDirectory() as d:
        inits = _export_all(model, config, d)
    mapping = {}
    for name, p in _weights(model):
        hits = _find(p.detach(), inits)
        if hits:
            mapping[name] = [(None,) + hits[0]]
            continue
        n = p.shape[0]
        parts = []
        for k in (2, 3):
            if n % k:
                continue
            step = n // k
            found = [_find(p.detach()[i * step:(i + 1) * step], inits) for i in range(k)]
            if all(found):
                parts = [((i * step, (i + 1) * step),) + found[i][0] for i in range(k)]
                break
        if not parts:
            raise RuntimeError("parameter %s is not in the export" % name)
        mapping[name] = parts
    return mapping


def checkpoint_from_export(model_dir):
    """-> a checkpoint dict as the trainer saves it (model, tokenizer, relations, classes, literals, size, symbols)."""
    from askgraph_model import Seq2Seq
    with open(os.path.join(model_dir, "config.json")) as f:
        config = json.load(f)
    real = {"encoder": _initializers(os.path.join(model_dir, "encoder.onnx")),
            "decoder": _initializers(os.path.join(model_dir, "decoder.onnx"))}
    size = _size_of(config, real["encoder"])
    model = Seq2Seq(config["targetVocab"], dropout=0.0, **size)
    mapping = learn_mapping(model, config)
    state = model.state_dict()
    for name, parts in mapping.items():
        t = state[name]
        for part, f, init, how in parts:
            arr = real[f][init]
            v = torch.from_numpy(np.array(arr.T if how == "transposed" else arr))
            if part is None:
                t.copy_(v)
            else:
                t[part[0]:part[1]].copy_(v)
    model.load_state_dict(state)
    with tempfile.TemporaryDirectory() as d:
        again = _export_all(model, config, d)
    for f in real:
        for name, arr in real[f].items():
            if name not in again[f] or not np.array_equal(again[f][name], arr):
                raise RuntimeError("recovered weights do not reproduce %s/%s" % (f, name))
    with open(os.path.join(model_dir, config.get("tokenizer", "tokenizer.model")), "rb") as f:
        tok = f.read()
    relations = list(config.get("relations", []))
    classes = list(config.get("classes", []))
    from askgraph_data import OPERATORS
    open_names = config.get("names") == "open"
    literals = [] if open_names else [s for s in config["symbols"] if s not in OPERATORS and s not in relations and s not in classes]
    return {"model": model.state_dict(), "tokenizer": tok, "relations": relations, "classes": classes, "openNames": open_names,
            "literals": literals, "size": size, "symbols": list(config["symbols"]), "pieces": config["pieces"],
            "step": None, "epochs": None, "recoveredFrom": os.path.abspath(model_dir)}


if __name__ == "__main__":
    import argparse
    import sys
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("model_dir")
    ap.add_argument("--out", required=True, help="checkpoint file to write")
    a = ap.parse_args()
    ck = checkpoint_from_export(a.model_dir)
    torch.save(ck, a.out)
    print(json.dumps({"checkpoint": a.out, "parameters": sum(v.numel() for v in ck["model"].values()),
                      "symbols": len(ck["symbols"]), "verified": True}))
