"""rdflib's SPARQLStore (Debian python3-rdflib) with its default settings against askgraph's /sparql.
Usage: python3 rdflib_sparqlstore.py <endpoint-url>; prints one JSON object of what it got."""
import json
import sys
import urllib.parse
import urllib.request
import warnings

from rdflib import Dataset, Graph, URIRef
from rdflib.plugins.stores.sparqlstore import SPARQLStore

warnings.simplefilter("error", UserWarning)
warnings.simplefilter("error", RuntimeWarning)

url = sys.argv[1]
E = "http://askgraph.dev/movies/entity/"
R = "http://askgraph.dev/movies/relation/"
gump = URIRef(E + "Forrest%20Gump")
directed_by = URIRef(R + "directed_by")
out = {}

g = Graph(store=SPARQLStore(url))
out["select"] = [str(row.d) for row in g.query(f"SELECT ?d WHERE {{ <{gump}> <{directed_by}> ?d }}")]
out["ask"] = g.query(f"ASK {{ <{gump}> <{directed_by}> <{E}Robert%20Zemeckis> }}").askAnswer
res = g.query(f"CONSTRUCT {{ <{gump}> ?p ?o }} WHERE {{ <{gump}> ?p ?o }}")
out["construct"] = sorted(f"{p} {o}" for _, p, o in res.graph)
out["triples"] = sorted(str(o) for o in g.objects(gump, directed_by))

# the other graph formats, fetched by media type and read by rdflib's parsers
query = urllib.parse.urlencode({"query": f"CONSTRUCT {{ <{gump}> ?p ?o }} WHERE {{ <{gump}> ?p ?o }}"})
for media, fmt in [("application/ld+json", "json-ld"), ("application/n-quads", "nquads"), ("application/trig", "trig"), ("text/turtle", "turtle")]:
    req = urllib.request.Request(url + "?" + query, headers={"Accept": media})
    with urllib.request.urlopen(req) as r:
        assert r.headers.get_content_type() == media, r.headers.get_content_type()
        text = r.read().decode("utf-8")
    if fmt in ("nquads", "trig"):
        ds = Dataset()
        ds.parse(data=text, format=fmt)
        triples = [(s, p, o) for s, p, o, _ in ds.quads((None, None, None, None))]
    else:
        triples = list(Graph().parse(data=text, format=fmt))
    out["construct_" + fmt] = sorted(f"{p} {o}" for _, p, o in triples)
print(json.dumps(out))
