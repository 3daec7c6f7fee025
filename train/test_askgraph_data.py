"""Unit tests of the trainer's data side (run: /usr/bin/python3 -m unittest discover -s train -p 'test_*.py')."""
import json
import os
import random
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from askgraph_data import (EOS, BOS, NAME_END, Augmenter, Vocab, canonical, entity_roles, find_mention, form_tokens,  # noqa: E402
                           identifier_words, names_of, question_words, read_kb, read_triples, train_tokenizer)

# The rules shared with the TypeScript side (test/unit/core/text.test.ts reads the same file).
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures", "text", "cases.json"), encoding="utf-8") as _f:
    SHARED_CASES = json.load(_f)

QUESTIONS = [
    "who directed Forrest Gump",
    "what movies did Tom Hanks act in",
    "which films are about s",
    "who wrote the screenplay for De l'autre côté du lit",
    "when was 8½ released",
    "the films directed by the director of Virtuosity starred who",
]
LABELS = ["Forrest Gump", "Tom Hanks", "De l'autre côté du lit", "8½", "Virtuosity", "s", "Robert Zemeckis", "1994"]


class FormTokens(unittest.TestCase):
    def test_tokens_and_roles(self):
        f = "(JOIN (R starred_actors) (JOIN directed_by (JOIN (R directed_by) [ Virtuosity ])))"
        toks = form_tokens(f)
        self.assertEqual(toks[:6], ["(", "JOIN", "(", "R", "starred_actors", ")"])
        self.assertIn(("ENT", "Virtuosity"), toks)
        self.assertEqual(names_of(f), ["starred_actors", "directed_by", "directed_by"])
        self.assertEqual(entity_roles(f), [("head", "directed_by")])
        self.assertEqual(entity_roles("(JOIN starred_actors [ Tom Hanks ])"), [("tail", "starred_actors")])
        self.assertEqual(canonical(f), f)

    def test_find_mention_prefers_word_boundaries(self):
        q = "which films are about s"
        self.assertEqual(find_mention(q, "s"), len(q) - 1)
        self.assertEqual(find_mention("who directed Up", "Up"), 13)
        # a quoted CONTAINS text: the quotes bound it, a longer word earlier does not hold it
        q = "aerox products with 'aero' in their name"
        self.assertEqual(find_mention(q, "aero"), q.index("'aero'") + 1)
        q = 'aerox products with "aero" in the name'
        self.assertEqual(find_mention(q, "aero"), q.index('"aero"') + 1)

    def test_contains_text_is_a_copied_span_without_a_role(self):
        f = "(AND (JOIN directed_by [ Robert Zemeckis ]) (CONTAINS [ gump ]))"
        self.assertEqual(form_tokens(f)[-4:], ["CONTAINS", ("ENT", "gump"), ")", ")"])
        self.assertEqual(names_of(f), ["directed_by"])  # the text is no target symbol
        self.assertEqual(entity_roles(f), [("tail", "directed_by"), None])  # never substituted from a role pool
        self.assertEqual(entity_roles("(AND x (CONTAINS written_by [ gump ]))"), [None])


class Encoding(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.mkdtemp()
        sp = train_tokenizer(os.path.join(cls.dir, "tok"), QUESTIONS * 3, LABELS, 120, 1)
        cls.vocab = Vocab(sp, ["directed_by", "starred_actors", "written_by", "release_year", "has_tags"])

    def test_piece_offsets_count_characters_whichever_way_sentencepiece_gives_them(self):
        import askgraph_data
        for q in ["who directed Forrest Gump", "  Amélie  (2001) –  ﬁlm ，who", "Björk's films"]:
            ways = []
            for way in askgraph_data._SPAN_WAYS:
                try:
                    ways.append(way(self.vocab.sp, q))
                except Exception:  # noqa: BLE001 — a way this version of sentencepiece lacks
                    continue
            self.assertTrue(ways)
            self.assertTrue(all(w == ways[0] for w in ways), q)
            spans = self.vocab.source_pieces(q)
            self.assertEqual(spans, ways[0])
            self.assertTrue(all(0 <= b <= e <= len(q) for _, b, e in spans))

    def test_copy_is_exact_and_round_trips(self):
        cases = [
            ("who directed Forrest Gump", "(JOIN (R directed_by) [ Forrest Gump ])"),
            ("what movies did Tom Hanks act in", "(JOIN starred_actors [ Tom Hanks ])"),
            ("which films are about s", "(JOIN has_tags [ s ])"),
            ("who wrote the screenplay for De l'autre côté du lit", "(JOIN (R written_by) [ De l'autre côté du lit ])"),
            ("when was 8½ released", "(JOIN (R release_year) [ 8½ ])"),
        ]
        v = self.vocab
        for q, f in cases:
            src, tgt, exact = v.encode_example(q, f)
            self.assertTrue(exact, q)
            self.assertEqual(tgt[0], BOS)
            self.assertEqual(tgt[-1], EOS)
            ents = [t for t in tgt if t < v.S and t not in (BOS, EOS)]
            # every copied piece is a source piece, in source order and contiguous
            joined = ",".join(map(str, src))
            self.assertIn(",".join(map(str, ents)), joined)
            self.assertEqual(v.decode_target(tgt[1:]), f)

    def test_contains_text_copies_source_pieces(self):
        # the text of CONTAINS is copied like a label, also a word the tokenizer never saw as a whole
        v = self.vocab
        for q, f in [("films by Robert Zemeckis with 'bertha' in the name", "(AND (JOIN directed_by [ Robert Zemeckis ]) (CONTAINS [ bertha ]))"),
                     ("films whose title contains rambet", "(CONTAINS [ rambet ])")]:
            src, tgt, exact = v.encode_example(q, f)
            self.assertTrue(exact, q)
            self.assertEqual(v.decode_target(tgt[1:]), f)
            i = tgt.index(v.sym_id["CONTAINS"])
            self.assertEqual(tgt[i + 1], v.sym_id["["])
            j = tgt.index(v.sym_id["]"], i)
            self.assertIn(",".join(map(str, tgt[i + 2:j])), ",".join(map(str, src)))

    def test_missing_entity_is_skipped(self):
        self.assertIsNone(self.vocab.encode_example("who directed it", "(JOIN (R directed_by) [ Forrest Gump ])"))

    def test_decode_survives_symbols_inside_entities(self):
        v = self.vocab
        src = v.encode_source("who directed Forrest Gump")
        ids = [v.sym_id["("], v.sym_id["JOIN"], v.sym_id["["], src[-1], v.sym_id["JOIN"], EOS]
        self.assertIsInstance(v.decode_target(ids), str)


class OpenNames(unittest.TestCase):
    """askgraph-base (issue 20): names and literals are pieces + NAME_END, not one graph's symbols."""

    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.mkdtemp()
        sp = train_tokenizer(os.path.join(cls.dir, "tok"), QUESTIONS * 3, LABELS + ["place of birth", "release year", "runtime minutes 120.0"], 120, 1)
        cls.vocab = Vocab(sp, ["ignored_in_open_mode"], open_names=True)

    def test_names_are_pieces_and_round_trip(self):
        v = self.vocab
        self.assertNotIn("ignored_in_open_mode", v.symbols)
        self.assertEqual(v.symbols[-1], NAME_END)
        for q, f, names in [("who directed Forrest Gump", "(JOIN (R directed_by) [ Forrest Gump ])", 1),
                            ("films of 1994 by Tom Hanks", "(AND (JOIN release_year 1994) (JOIN starred_actors [ Tom Hanks ]))", 3),
                            ("where was Tom Hanks born", "(JOIN (R place_of_birth) [ Tom Hanks ])", 1)]:
            src, tgt, exact = v.encode_example(q, f)
            self.assertTrue(exact, q)
            self.assertEqual(v.decode_target(tgt[1:]), f)
            self.assertEqual(tgt.count(v.sym_id[NAME_END]), names)

    def test_camel_names_and_typed_literals_are_written_as_words(self):
        v = self.vocab
        f = '(AND Film (GT runtimeMinutes "120.0"^^<http://www.w3.org/2001/XMLSchema#float>))'
        # the typed literal is one token and keeps its closing brackets out (they once ran into the datatype)
        self.assertEqual(form_tokens(f)[-3:], ['"120.0"^^<http://www.w3.org/2001/XMLSchema#float>', ")", ")"])
        src, tgt, _ = v.encode_example("films longer than 120 minutes", f)
        self.assertEqual(v.decode_target(tgt[1:]), "(AND film (GT runtime_minutes 120.0))")
        self.assertEqual(canonical(f, open_names=True), "(AND film (GT runtime_minutes 120.0))")
        # a string literal cannot be written by an open-name model, nor a name with a character the tokenizer
        # lacks: the example is skipped, not mangled
        self.assertIsNone(v.encode_example("films called x", '(JOIN title "x")'))
        self.assertIsNone(v.encode_example("films of Tom Hanks", "(JOIN 主演 [ Tom Hanks ])"))
        # nor a name that is no form name (digit-first: a dateTime value; non-ASCII)
        self.assertIsNone(v.encode_example("films of 1986", "(JOIN release 1986-01-01T00:00:00Z)"))
        self.assertIsNone(v.encode_example("films of Tom Hanks", "(JOIN acteur_principal_é [ Tom Hanks ])"))


class Augmentation(unittest.TestCase):
    def test_substitution_keeps_question_and_form_consistent(self):
        pools = {("head", "directed_by"): ["Jaws", "Up", "8½"], ("tail", "starred_actors"): ["Meryl Streep"]}
        aug = Augmenter(pools, 1.0, 0.0, random.Random(3))
        for _ in range(20):
            q, f = aug({"question": "who directed Forrest Gump", "form": "(JOIN (R directed_by) [ Forrest Gump ])"})
            ent = [t[1] for t in form_tokens(f) if isinstance(t, tuple)][0]
            self.assertIn(ent, pools[("head", "directed_by")])
            self.assertEqual(q, "who directed " + ent)

    def test_word_dropout_keeps_entities(self):
        aug = Augmenter({}, 0.0, 1.0, random.Random(5))
        for _ in range(20):
            q, f = aug({"question": "what movies did Tom Hanks act in", "form": "(JOIN starred_actors [ Tom Hanks ])"})
            self.assertIn("Tom Hanks", q)
            self.assertEqual(len(q.split()), 6)
            self.assertEqual(f, "(JOIN starred_actors [ Tom Hanks ])")

    def test_deterministic_given_seed(self):
        pools = {("head", "directed_by"): ["Jaws", "Up", "Heat", "Big"]}
        ex = {"question": "who directed Forrest Gump", "form": "(JOIN (R directed_by) [ Forrest Gump ])"}
        a = [Augmenter(pools, 0.5, 0.5, random.Random(9))(ex) for _ in range(1)]
        r1, r2 = Augmenter(pools, 0.5, 0.5, random.Random(9)), Augmenter(pools, 0.5, 0.5, random.Random(9))
        self.assertEqual([r1(ex) for _ in range(30)], [r2(ex) for _ in range(30)])
        self.assertTrue(a)


class SharedRules(unittest.TestCase):
    """fixtures/text/cases.json: the triple-file reader and the words of words.json agree with src/core."""

    def test_triple_files(self):
        for case in SHARED_CASES["triples"]:
            with self.subTest(case["name"]):
                if "errorLine" in case:
                    with self.assertRaisesRegex(ValueError, r"^kb\.txt:%d: " % case["errorLine"]):
                        read_triples(case["text"], "kb.txt")
                else:
                    self.assertEqual([list(t) for t in read_triples(case["text"], "kb.txt")], case["triples"])

    def test_read_kb_reads_tab_files_with_crlf(self):
        # the bug of issue 13: a tab-separated --kb file gave no labels and no substitution pools
        d = tempfile.mkdtemp()
        f = os.path.join(d, "graph.tsv")
        with open(f, "w", encoding="utf-8", newline="") as out:
            out.write("Jaws\tdirected_by\tSteven Spielberg\r\nJaws\trelease_year\t1975\r\n")
        labels, pools = read_kb(f)
        self.assertEqual(labels, {"Jaws", "Steven Spielberg", "1975"})
        self.assertEqual(pools[("tail", "directed_by")], ["Steven Spielberg"])
        with open(f, "w", encoding="utf-8") as out:
            out.write("Jaws|directed_by|Steven Spielberg\nJaws|directed_by\n")
        with self.assertRaisesRegex(ValueError, r"graph\.tsv:2:"):
            read_kb(f)

    def test_question_words(self):
        for case in SHARED_CASES["letterWords"]:
            with self.subTest(case["text"]):
                self.assertEqual(sorted(question_words([{"question": case["text"], "form": "(COUNT x)"}])), sorted(set(case["words"])))

    def test_question_words_letters_only(self):
        # "½" is numeric, not a letter: neither side counts it as a word.
        for case in SHARED_CASES["letterWordsKnownPythonDivergence"]:
            self.assertEqual(sorted(question_words([{"question": case["text"], "form": "(COUNT x)"}])), sorted(set(case["words"])))

    def test_identifier_words(self):
        for case in SHARED_CASES["identifierWords"]:
            with self.subTest(case["name"]):
                self.assertEqual(identifier_words(case["name"]), case["words"])


if __name__ == "__main__":
    unittest.main()
