"""Data side of the askgraph trainer: tokenizer, target vocabulary, form <-> target ids, augmentation.

Target sequence = BOS, form tokens, EOS. Form symbols (operators, brackets, relation names) are single
target ids S+i; an entity label inside `[ … ]` is the run of SOURCE sentencepiece pieces that covers the
label's character span in the question, so the decoder only ever copies pieces it can see.
"""
import io
import json
import os
import random
import re
import unicodedata

import sentencepiece as spm

# Structural symbols and the operators of grammar/logical-form.ebnf (single target tokens).
OPERATORS = ["(", ")", "[", "]", "JOIN", "R", "AND", "COUNT", "ARGMAX", "ARGMIN", "GT", "GE", "LT", "LE", "TC",
             "ASK", "DIFF", "OR", "AVG", "SUM", "MAX", "MIN", "RATIO", "PERCENT", "MOSTCOMMON", "LEASTCOMMON",
             "ARGMAXCOUNT", "ARGMINCOUNT", "HAS", "ABSDIFF",
             # form language v3 ([31]-[38]): tables, groups, order, windows, MORE / LESS, CONTAINS
             "TABLE", "MINUS", "GROUPCOUNT", "GROUPSUM", "GROUPAVG", "GROUPMAX", "GROUPMIN", "HAVING",
             "ASC", "DESC", "LIMIT", "OFFSET", "MORE", "LESS", "CONTAINS"]  # append only: new operators go last
UNK, BOS, EOS, PAD = 0, 1, 2, 3

# a quoted string ([16]) is one token, spaces and escapes included; `[ … ]` is a span copied from the question:
# an entity label, or the text of CONTAINS ([38]), which the targets copy the same way
_FORM_TOKEN = re.compile(r'\[ (.*?) \]|\(|\)|"(?:[^"\\]|\\.)*"(?:@[A-Za-z]+(?:-[A-Za-z0-9]+)*|\^\^(?:<[^>\s]*>|[^\s()\[\]]+))?|[^\s()\[\]]+')

# Open-name models (askgraph-base, issue 20): a relation, class or literal is written as the sentencepiece pieces of
# its words followed by this symbol, so the model is not tied to one graph's names (config.json "names": "open").
NAME_END = "</n>"
_TYPED = re.compile(r'^"((?:[^"\\]|\\.)*)"(?:@[A-Za-z]+(?:-[A-Za-z0-9]+)*|\^\^(?:<[^>\s]*>|[^\s()\[\]]+))?$')


def read_jsonl(path, limit=None):
    out = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if not line:
                continue
            out.append(json.loads(line))
            if limit is not None and len(out) >= limit:
                break
    return out


def form_tokens(form):
    """`(JOIN (R r) [ A B ])` -> ['(', 'JOIN', '(', 'R', 'r', ')', ('ENT', 'A B'), ')']"""
    toks = []
    for m in _FORM_TOKEN.finditer(form):
        if m.group(1) is not None:
            toks.append(("ENT", m.group(1)))
        else:
            toks.append(m.group(0))
    return toks


def names_of(form):
    """Every bare token of the form that is not an operator: relation and class names, literal tokens."""
    return [t for t in form_tokens(form) if isinstance(t, str) and t not in OPERATORS]


_LITERAL = re.compile(r"^-?\d+(\.\d+)?([eE][+-]?\d+)?$|^\d{4}-\d{2}(-\d{2})?$")


def is_literal_token(t):
    """Numbers and dates (grammar productions 14, 15) — the decoder's literal symbols."""
    return bool(_LITERAL.match(t))


def entity_roles(form):
    """For each entity in the form: its role = ('head', r) if it is the subject of r (inside (JOIN (R r) e)),
    ('tail', r) if it is the object of r (inside (JOIN r e)); None when it cannot be told."""
    toks = form_tokens(form)
    roles = []
    for i, t in enumerate(toks):
        if not isinstance(t, tuple):
            continue
        # look back: ... JOIN ( R r ) [e]  or  ... JOIN r [e]
        if i >= 5 and toks[i - 1] == ")" and toks[i - 4] == "(" and toks[i - 3] == "R" and toks[i - 5] == "JOIN":
            roles.append(("head", toks[i - 2]))
        elif i >= 2 and toks[i - 2] == "JOIN" and isinstance(toks[i - 1], str) and toks[i - 1] not in OPERATORS:
            roles.append(("tail", toks[i - 1]))
        else:
            roles.append(None)
    return roles


def read_triples(text, name="triples"):
    """The rules of src/core/triples.ts (pinned by fixtures/text/cases.json): one line = one triple, blank lines
    skipped, CRLF accepted; the separator is the tab when the first non-blank line holds one, else `|`, for the
    whole file; fields trimmed; a line without exactly three non-empty fields raises ValueError (name:line)."""
    lines = text.split("\n")
    first = next((l for l in lines if l.strip()), None)
    sep = "\t" if first is not None and "\t" in first else "|"
    out = []
    for i, raw in enumerate(lines):
        line = raw[:-1] if raw.endswith("\r") else raw
        if not line.strip():
            continue
        fields = [f.strip() for f in line.split(sep)]
        if len(fields) != 3 or any(f == "" for f in fields):
            raise ValueError("%s:%d: expected 3 non-empty fields separated by %s" % (name, i + 1, "tabs" if sep == "\t" else "|"))
        out.append(tuple(fields))
    return out


def read_kb(path):
    """A triple file (read_triples) -> (labels set, role pools {('head'|'tail', r): [labels]})."""
    with open(path, encoding="utf-8", newline="") as f:
        triples = read_triples(f.read(), os.path.basename(path))
    labels = set()
    pools = {}
    for h, r, t in triples:
        labels.add(h)
        labels.add(t)
        pools.setdefault(("head", r), set()).add(h)
        pools.setdefault(("tail", r), set()).add(t)
    return labels, {k: sorted(v) for k, v in pools.items()}


def read_labels(path):
    with open(path, encoding="utf-8") as f:
        return [l.rstrip("\n") for l in f if l.strip()]


def train_tokenizer(out_prefix, questions, labels, vocab_size, seed):
    """sentencepiece unigram, identity normalisation, trained on questions + graph labels. Sentences come from
    an iterator and the model is written through model_writer, so no file paths end up in the model (same
    inputs -> same bytes). The Debian 0.1.97 trainer has no seed flag; one thread, no shuffling is deterministic."""
    buf = io.BytesIO()
    sentences = [q.replace("\n", " ") for q in questions] + [l.replace("\n", " ") for l in labels]
    spm.SentencePieceTrainer.train(
        sentence_iterator=iter(sentences),
        model_writer=buf,
        vocab_size=vocab_size,
        model_type="unigram",
        normalization_rule_name="identity",
        character_coverage=1.0,
        hard_vocab_limit=False,
        unk_id=UNK, bos_id=BOS, eos_id=EOS, pad_id=PAD,
        num_threads=1,
        input_sentence_size=0,
        shuffle_input_sentence=False,
        minloglevel=2,
    )
    with open(out_prefix + ".model", "wb") as f:
        f.write(buf.getvalue())
    return spm.SentencePieceProcessor(model_file=out_prefix + ".model")


def find_mention(question, label):
    """Start of the label in the question, preferring an occurrence bounded by spaces / quotes / the ends
    (the text of CONTAINS is often quoted: "with 'aero' in the name")."""
    first = question.find(label)
    a = first
    while a >= 0:
        b = a + len(label)
        if (a == 0 or question[a - 1] in " \"'") and (b == len(question) or question[b] in " ?.,!'\""):
            return a
        a = question.find(label, a + 1)
    return first


def _letter_words(text):
    """Runs of letters (str.isalpha), as src/core/text.ts letterWords: digits, "½" and punctuation split words."""
    return "".join(ch if ch.isalpha() else " " for ch in text).split()


_APOSTROPHES = "'\u2018\u2019\u02bc`\u00b4"


def identifier_boundaries(name, digits):
    """Spaces at the word boundaries inside an identifier (src/core/text.ts identifierBoundaries): lower ->
    upper, an acronym's end before a capitalised word of 2+ lower-case letters, and with `digits` letter <-> digit."""
    out = []
    for i, c in enumerate(name):
        if i > 0:
            prev = name[i - 1]
            camel = prev.islower() and c.isupper()
            acronym_end = (prev.isupper() and c.isupper() and i + 2 < len(name)
                           and name[i + 1].islower() and name[i + 2].islower())
            digit = digits and ((prev.isalpha() and c.isnumeric()) or (prev.isnumeric() and c.isalpha()))
            if camel or acronym_end or digit:
                out.append(" ")
        out.append(c)
    return "".join(out)


def identifier_words(name):
    """Words of a relation/class name or IRI local name, as src/core/text.ts identifierWords ("hasIMDbRating",
    "has_imdb_rating" -> [has, imdb, rating]; "ISBN13" -> [isbn, 13]). fixtures/text/cases.json pins both.
    The trainer's targets keep relation names whole (one symbol each): this is for text made from names."""
    s = "".join(ch for ch in name if ch not in _APOSTROPHES)
    s = unicodedata.normalize("NFKC", identifier_boundaries(s, True).lower())
    return "".join(ch if ch.isalpha() or ch.isnumeric() else " " for ch in s).split()


def question_words(examples):
    """Lower-cased words of the training questions outside their entity mentions: what the parser has been
    shown. The pipeline treats a question word outside this set (and outside the mentions) as unexplained."""
    counts = {}
    for e in examples:
        q = e["question"]
        keep = list(q)
        for t in form_tokens(e["form"]):
            if isinstance(t, tuple):
                a = find_mention(q, t[1])
                if a >= 0:
                    keep[a:a + len(t[1])] = " " * len(t[1])
        for w in _letter_words("".join(keep).lower()):
            counts[w] = counts.get(w, 0) + 1
    return counts


def _spans_immutable(sp, text):
    return [(p.id, p.begin, p.end) for p in sp.EncodeAsImmutableProto(text).pieces]


def _parsed(proto):
    if isinstance(proto, (bytes, bytearray)):  # serialized: parsed with the message class the package ships
        from sentencepiece import sentencepiece_pb2
        m = sentencepiece_pb2.SentencePieceText()
        m.ParseFromString(bytes(proto))
        return m
    return proto


def _char_spans(text, proto):
    """The proto's offsets count UTF-8 bytes; the immutable proto's, and ours, count characters."""
    at = [i for i, ch in enumerate(text) for _ in ch.encode("utf-8")] + [len(text)]  # each byte's character
    return [(p.id, at[p.begin], at[p.end]) for p in _parsed(proto).pieces]


def _spans_proto(sp, text):
    return _char_spans(text, sp.encode(text, out_type="proto"))


def _spans_serialized(sp, text):
    return _char_spans(text, sp.EncodeAsSerializedProto(text))


_SPAN_WAYS = [_spans_immutable, _spans_proto, _spans_serialized]
_span_way = []


def piece_spans(sp, text):
    """sentencepiece's pieces with their offsets. Its versions differ in how they give them (0.1.9x and 0.2.0 the
    immutable proto, which later versions refuse): the first way that works on this version is kept."""
    if not _span_way:
        for way in _SPAN_WAYS:
            try:
                if way(sp, "the cat"):
                    _span_way.append(way)
                    break
            except Exception:  # noqa: BLE001 — this version lacks that way
                continue
        else:
            raise RuntimeError("sentencepiece %s gives no piece offsets" % getattr(spm, "__version__", "?"))
    return _span_way[0](sp, text)


def open_text(token):
    """The words an open-name model writes for a form token (NAME_END follows them): a relation or class name's
    identifier words ("place_of_birth" -> "place of birth"), a number or date as written, a typed literal's value
    when it is a number or date ("1.0"^^xsd:float -> 1.0). None for what an open-name model cannot write (a string
    literal): such an example is skipped."""
    if is_literal_token(token):
        return token
    m = _TYPED.match(token)
    if m:
        return m.group(1) if is_literal_token(m.group(1)) else None
    words = identifier_words(token)
    # a form name ([21]) is ASCII with a letter first: the Node decoder writes no other (a dateTime
    # "1986-01-01T00:00:00Z" would be digit-first words), so the model is never taught one
    if not words or not words[0][0].isalpha() or not all(w.isascii() for w in words):
        return None
    return " ".join(words)


def open_token(text):
    """Inverse of open_text on decoded words: a number or date stays, words are joined by `_`."""
    text = " ".join(text.split())
    return text if is_literal_token(text) else "_".join(identifier_words(text))


class Vocab:
    def __init__(self, sp, names, open_names=False):
        """names: relation and class names and literal tokens (single target symbols after the operators).
        open_names: names and literals are written as pieces + NAME_END (names is then ignored)."""
        self.sp = sp
        self.S = sp.get_piece_size()
        self.open_names = open_names
        self.symbols = OPERATORS + ([NAME_END] if open_names else sorted(set(names) - set(OPERATORS)))
        self.sym_id = {s: self.S + i for i, s in enumerate(self.symbols)}
        self.V = self.S + len(self.symbols)
        # pieces a name may be made of (not unk / bos / eos / pad)
        self.name_ids = [i for i in range(self.S) if i not in (UNK, BOS, EOS, PAD)] if open_names else []
        self._name_cache = {}

    def name_pieces(self, token):
        """Target ids of a name or literal in an open-name model (pieces + NAME_END), or None."""
        if token not in self._name_cache:
            text = open_text(token)
            ids = self.sp.encode(text) if text else []
            # a character the tokenizer lacks (unk) would change the name: such an example is skipped
            ok = ids and not any(i in (UNK, BOS, EOS, PAD) for i in ids)
            self._name_cache[token] = ids + [self.sym_id[NAME_END]] if ok else None
        return self._name_cache[token]

    def encode_source(self, question):
        return [p[0] for p in self.source_pieces(question)]

    def source_pieces(self, question):
        """(id, begin, end) of each piece, the offsets in the question as given."""
        return piece_spans(self.sp, question)

    def encode_example(self, question, form):
        """-> (src ids, tgt ids incl. BOS/EOS, exact) or None when an entity is not in the question.
        exact = every entity's copied pieces decode back to the label."""
        pieces = self.source_pieces(question)
        src = [p[0] for p in pieces]
        tgt = [BOS]
        exact = True
        for t in form_tokens(form):
            if isinstance(t, tuple):
                label = t[1]
                a = find_mention(question, label)
                if a < 0:
                    return None
                b = a + len(label)
                ids = [pid for pid, pb, pe in pieces if pb < b and pe > a]
                if not ids:
                    return None
                if self.sp.decode(ids) != label:
                    exact = False
                tgt.append(self.sym_id["["])
                tgt.extend(ids)
                tgt.append(self.sym_id["]"])
            elif self.open_names and t not in self.sym_id:
                ids = self.name_pieces(t)
                if ids is None:
                    return None
                tgt.extend(ids)
            else:
                if t not in self.sym_id:
                    return None
                tgt.append(self.sym_id[t])
        tgt.append(EOS)
        return src, tgt, exact

    def decode_target(self, ids):
        """target ids (without BOS; stops at EOS) -> form text; robust to symbols inside entities."""
        out = []
        ent = None
        name = None  # open names: pieces of the name being written
        for i in ids:
            if i == EOS:
                break
            if i == BOS or i == PAD:
                continue
            if i >= self.S:
                s = self.symbols[i - self.S]
                if name is not None and ent is None:
                    out.append(open_token(self.sp.decode(name)))
                    name = None
                    if s == NAME_END:
                        continue
                if ent is not None:
                    if s == "]":
                        out.append("[ " + self.sp.decode(ent) + " ]")
                        ent = None
                        continue
                    out.append("[ " + self.sp.decode(ent) + " ]")
                    ent = None
                if s == "[":
                    ent = []
                elif s == "]":
                    out.append("]")
                elif s != NAME_END:
                    out.append(s)
            else:
                if ent is not None:
                    ent.append(i)
                elif self.open_names:
                    name = (name or []) + [i]
                else:
                    out.append(self.sp.id_to_piece(i))
        if ent is not None:
            out.append("[ " + self.sp.decode(ent) + " ]")
        if name is not None:
            out.append(open_token(self.sp.decode(name)))
        text = " ".join(out)
        return text.replace("( ", "(").replace(" )", ")")


def canonical(form, open_names=False):
    """The form as the decoder writes it back (open names: each name or literal as open_token(open_text(t)))."""
    toks = []
    for t in form_tokens(form):
        if isinstance(t, tuple):
            toks.append("[ " + t[1] + " ]")
        elif open_names and t not in OPERATORS:
            text = open_text(t)
            toks.append(open_token(text) if text else t)
        else:
            toks.append(t)
    return " ".join(toks).replace("( ", "(").replace(" )", ")")


class Augmenter:
    """Entity substitution (same role, from the graph's labels) + light word dropout."""

    def __init__(self, pools, p_sub, p_drop, rng):
        self.pools = pools
        self.p_sub = p_sub
        self.p_drop = p_drop
        self.rng = rng

    def __call__(self, ex, force_sub=False):
        q, form = ex["question"], ex["form"]
        ents = [t[1] for t in form_tokens(form) if isinstance(t, tuple)]
        roles = entity_roles(form)
        if ents and (force_sub or self.rng.random() < self.p_sub):
            for label, role in zip(ents, roles):
                pool = self.pools.get(role) if role else None
                if not pool or label not in q:
                    continue
                new = pool[self.rng.randrange(len(pool))]
                if "[" in new or "]" in new or "\n" in new:
                    continue
                a = find_mention(q, label)
                q = q[:a] + new + q[a + len(label):]
                form = form.replace("[ " + label + " ]", "[ " + new + " ]", 1)
        if self.rng.random() < self.p_drop:
            # drop one word that is not part of an entity
            ent_now = [t[1] for t in form_tokens(form) if isinstance(t, tuple)]
            spans = []
            for e in ent_now:
                a = find_mention(q, e)
                if a >= 0:
                    spans.append((a, a + len(e)))
            words = []
            pos = 0
            for w in q.split(" "):
                a, b = pos, pos + len(w)
                pos = b + 1
                if not any(a < eb and b > ea for ea, eb in spans):
                    words.append((a, b))
            if len(words) >= 3:
                a, b = words[self.rng.randrange(len(words))]
                cand = (q[:a] + q[b + 1:]) if b < len(q) else q[:max(0, a - 1)]
                cand = " ".join(cand.split())
                if all(e in cand for e in ent_now):
                    q = cand
        return q, form
