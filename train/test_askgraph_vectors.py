"""Word vectors in the encoder (issue 20, item 4): the frozen table of whole-word pieces, a model continued from one
without them starting as that model, and the table surviving export and recovery (run: /usr/bin/python3 -m unittest
discover -s train -p 'test_*.py')."""
import json
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import torch  # noqa: E402

from askgraph_model import Seq2Seq  # noqa: E402
from askgraph_train import load_init_weights, piece_vectors, read_word_vectors  # noqa: E402

LEXICAL = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "assets", "lexical")
SIZE = dict(d_model=32, heads=2, enc_layers=1, dec_layers=1, ffn=64, copy_features=True)


class _Pieces:
    """The two things piece_vectors asks of a sentencepiece model."""

    def __init__(self, pieces):
        self.pieces = pieces

    def get_piece_size(self):
        return len(self.pieces)

    def id_to_piece(self, i):
        return self.pieces[i]


class _Vocab:
    S = 5
    symbols = None


class WordVectors(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.words, cls.vecs = read_word_vectors(LEXICAL)

    def test_the_package_file_reads_whole(self):
        self.assertEqual(len(self.words), self.vecs.shape[0])
        self.assertEqual(self.vecs.shape[1], 100)
        self.assertIn("restaurant", self.words)
        self.assertGreater(float(self.vecs[self.words.index("restaurant")].norm()), 0)

    def test_only_whole_word_pieces_get_a_vector(self):
        pieces = ["<unk>", "\u2581Restaurant", "ing", "\u2581zzqxv", "\u2581eatery"]
        table = piece_vectors(_Pieces(pieces), LEXICAL, 7)
        self.assertEqual(tuple(table.shape), (7, 100))
        nonzero = [i for i in range(7) if float(table[i].abs().sum()) > 0]
        self.assertEqual(nonzero, [1, 4])  # "▁Restaurant" (lower-cased) and "▁eatery"; a word part, an unknown word, symbols: none
        self.assertAlmostEqual(float(table[1].norm()), 1.0, places=4)
        near = float(table[1] @ table[4])
        self.assertGreater(near, 0.3, "restaurant and eatery are neighbours in GloVe")

    def test_a_model_continued_with_vectors_starts_as_the_model_without(self):
        torch.manual_seed(1)
        plain = Seq2Seq(40, dropout=0.0, **SIZE).eval()
        withv = Seq2Seq(40, dropout=0.0, word_vectors=100, **SIZE).eval()
        load_init_weights(withv, {"model": plain.state_dict()}, _Vocab)
        with torch.no_grad():
            withv.wv_table.copy_(torch.randn(40, 100))
            src = torch.tensor([[5, 6, 7, 8]])
            self.assertTrue(torch.allclose(plain.encode(src), withv.encode(src), atol=1e-6))
            withv.wv.weight.normal_()  # once trained, the vectors change the encoding
            self.assertFalse(torch.allclose(plain.encode(src), withv.encode(src), atol=1e-3))

    def test_export_and_recovery_keep_the_table(self):
        from askgraph_recover import checkpoint_from_export
        from askgraph_train import export

        class Syms:
            sym_id = {"(": 30, "JOIN": 31}

        torch.manual_seed(2)
        m = Seq2Seq(40, dropout=0.0, word_vectors=100, **SIZE)
        with torch.no_grad():  # distinct values everywhere, as after training (equal initializers are merged by the export)
            for p in m.parameters():
                p.normal_()
            m.wv_table.copy_(torch.randn(40, 100))
        with tempfile.TemporaryDirectory() as d:
            export(m, Syms, d)
            symbols = ["(", "JOIN"] + ["s%d" % i for i in range(8)]
            config = {"dModel": 32, "heads": 2, "encoderLayers": 1, "decoderLayers": 1, "ffn": 64, "targetVocab": 40,
                      "pieces": 30, "symbols": symbols, "wordVectors": {"dims": 100}}
            with open(os.path.join(d, "config.json"), "w") as f:
                json.dump(config, f)
            with open(os.path.join(d, "tokenizer.model"), "wb") as f:
                f.write(b"not read here")
            ck = checkpoint_from_export(d)
        self.assertEqual(ck["size"]["word_vectors"], 100)
        self.assertTrue(torch.equal(ck["model"]["wv_table"], m.wv_table))
        self.assertTrue(torch.equal(ck["model"]["wv.weight"], m.wv.weight.detach()))


if __name__ == "__main__":
    unittest.main()
