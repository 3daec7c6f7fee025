"""The target symbols across a change of the form language: new operators go last, and a checkpoint trained
before them keeps every old symbol's embedding row (run: /usr/bin/python3 -m unittest discover -s train -p 'test_*.py')."""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from askgraph_data import OPERATORS, Vocab, form_tokens, names_of  # noqa: E402

# The operators as they were before ABSDIFF ([30] Arith): their positions must never move.
BEFORE_ABSDIFF = ["(", ")", "[", "]", "JOIN", "R", "AND", "COUNT", "ARGMAX", "ARGMIN", "GT", "GE", "LT", "LE", "TC",
                  "ASK", "DIFF", "OR", "AVG", "SUM", "MAX", "MIN", "RATIO", "PERCENT", "MOSTCOMMON", "LEASTCOMMON",
                  "ARGMAXCOUNT", "ARGMINCOUNT", "HAS"]
FORM = "(ABSDIFF (JOIN (R release_year) [ Jaws ]) (JOIN (R release_year) [ Heat ]))"
# form language v3 ([31]-[38]), appended after ABSDIFF in this order
V3 = ["TABLE", "MINUS", "GROUPCOUNT", "GROUPSUM", "GROUPAVG", "GROUPMAX", "GROUPMIN", "HAVING", "ASC", "DESC", "LIMIT",
      "OFFSET", "MORE", "LESS", "CONTAINS"]
V3_FORM = '(LIMIT 3 (DESC (AND (GROUPCOUNT (JOIN starred_actors [ Tom Hanks ]) starred_actors) (CONTAINS name "new york"))))'


class _Pieces:
    """The one thing Vocab asks of a sentencepiece model here."""

    def __init__(self, n):
        self.n = n

    def get_piece_size(self):
        return self.n


class Symbols(unittest.TestCase):
    def test_absdiff_is_an_operator_appended_last(self):
        self.assertEqual(OPERATORS[:len(BEFORE_ABSDIFF)], BEFORE_ABSDIFF)
        self.assertEqual(OPERATORS[len(BEFORE_ABSDIFF)], "ABSDIFF")
        self.assertEqual(form_tokens(FORM)[:2], ["(", "ABSDIFF"])
        self.assertEqual(names_of(FORM), ["release_year", "release_year"])
        v = Vocab(_Pieces(100), names_of(FORM))
        self.assertEqual(v.sym_id["ABSDIFF"], 100 + len(BEFORE_ABSDIFF))
        self.assertEqual(v.sym_id["JOIN"], 100 + BEFORE_ABSDIFF.index("JOIN"))

    def test_v3_operators_are_appended_after_absdiff_and_a_quoted_text_is_one_token(self):
        before = BEFORE_ABSDIFF + ["ABSDIFF"]
        self.assertEqual(OPERATORS[:len(before)], before)
        self.assertEqual(OPERATORS[len(before):], V3)
        toks = form_tokens(V3_FORM)
        self.assertEqual(toks[:5], ["(", "LIMIT", "3", "(", "DESC"])
        self.assertIn('"new york"', toks)
        self.assertEqual(names_of(V3_FORM), ["3", "starred_actors", "starred_actors", "name", '"new york"'])
        v = Vocab(_Pieces(100), names_of(V3_FORM))
        self.assertEqual(v.sym_id["TABLE"], 100 + len(before))
        self.assertEqual(v.sym_id["CONTAINS"], 100 + len(before) + len(V3) - 1)

    def test_init_from_an_older_checkpoint_keeps_each_symbol_row_and_gives_absdiff_a_fresh_one(self):
        try:
            import torch
        except ImportError:
            self.skipTest("torch is not installed")
        torch.set_num_threads(1)
        from askgraph_model import Seq2Seq
        from askgraph_train import load_init_weights
        names = ["directed_by", "release_year"]
        S = 50
        new_vocab = Vocab(_Pieces(S), names)
        old_symbols = BEFORE_ABSDIFF + sorted(names)
        torch.manual_seed(1)
        old = Seq2Seq(S + len(old_symbols), 16, 2, 1, 1, 32)
        torch.manual_seed(2)
        new = Seq2Seq(new_vocab.V, 16, 2, 1, 1, 32)
        fresh = new.emb.weight.detach().clone()
        load_init_weights(new, {"model": old.state_dict(), "symbols": old_symbols}, new_vocab)
        emb, was = new.emb.weight.detach(), old.emb.weight.detach()
        self.assertTrue(torch.equal(emb[:S], was[:S]))
        for i, s in enumerate(old_symbols):
            self.assertTrue(torch.equal(emb[new_vocab.sym_id[s]], was[S + i]), s)
        a = new_vocab.sym_id["ABSDIFF"]
        self.assertTrue(torch.equal(emb[a], fresh[a]))
        for op in V3:  # the v3 operators are new to that checkpoint too: fresh rows
            self.assertTrue(torch.equal(emb[new_vocab.sym_id[op]], fresh[new_vocab.sym_id[op]]), op)
        # the relation names moved one id up: the row followed the name, not the id
        # (its id moved up by the appended operators; the loop above found its old row there)
        self.assertNotEqual(new_vocab.sym_id["directed_by"], S + old_symbols.index("directed_by"))


if __name__ == "__main__":
    unittest.main()
