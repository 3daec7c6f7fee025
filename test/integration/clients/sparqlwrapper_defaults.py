"""SPARQLWrapper (Debian python3-sparqlwrapper) with its default settings against askgraph's /sparql.
Usage: python3 sparqlwrapper_defaults.py <endpoint-url>; prints one JSON object of what it got."""
import json
import sys
import warnings

from SPARQLWrapper import SPARQLWrapper

# a warning from the client (e.g. an unexpected content type or format) is a failure; the
# libraries' own deprecation warnings are not
warnings.simplefilter("error", UserWarning)
warnings.simplefilter("error", RuntimeWarning)

url = sys.argv[1]
E = "http://askgraph.dev/movies/entity/"
R = "http://askgraph.dev/movies/relation/"
SELECT = f"SELECT ?d WHERE {{ <{E}Forrest%20Gump> <{R}directed_by> ?d }}"
ASK = f"ASK {{ <{E}Forrest%20Gump> <{R}directed_by> <{E}Robert%20Zemeckis> }}"
CONSTRUCT = f"CONSTRUCT {{ <{E}Forrest%20Gump> ?p ?o }} WHERE {{ <{E}Forrest%20Gump> ?p ?o }}"
out = {}

s = SPARQLWrapper(url)  # defaults: GET, XML results, RDF/XML graphs
s.setQuery(SELECT)
doc = s.query().convert()  # xml.dom.minidom Document
out["select_xml"] = [n.firstChild.data for n in doc.getElementsByTagName("uri")]

s.setReturnFormat("json")
out["select_json"] = [b["d"]["value"] for b in s.query().convert()["results"]["bindings"]]

s.setMethod("POST")
out["select_json_post"] = [b["d"]["value"] for b in s.query().convert()["results"]["bindings"]]

a = SPARQLWrapper(url)
a.setQuery(ASK)
doc = a.query().convert()
out["ask_xml"] = doc.getElementsByTagName("boolean")[0].firstChild.data
a.setReturnFormat("json")
out["ask_json"] = a.query().convert()["boolean"]

c = SPARQLWrapper(url)
c.setQuery(CONSTRUCT)
g = c.query().convert()  # rdflib Graph parsed from RDF/XML
out["construct_rdfxml"] = sorted(f"{p} {o}" for _, p, o in g)

c.setReturnFormat("turtle")
out["construct_turtle_bytes"] = len(c.query().convert())

print(json.dumps(out))
