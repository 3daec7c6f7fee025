"""SPARQLWrapper (Debian python3-sparqlwrapper) with its default settings, for the return formats it
asks for with repeated parameters (TSV and RDF/XML: format=tsv&format=text/tab-separated-values,
and the same for output= and results=) and for literals XML 1.0 cannot carry.
Usage: python3 sparqlwrapper_formats.py <endpoint-url>; prints one JSON object of what it got."""
import json
import sys
import urllib.error
import urllib.parse
import urllib.request
import warnings
import xml.etree.ElementTree as ET

from SPARQLWrapper import RDFXML, TSV, SPARQLWrapper

warnings.simplefilter("error", UserWarning)
warnings.simplefilter("error", RuntimeWarning)

url = sys.argv[1]
E = "http://askgraph.dev/movies/entity/"
R = "http://askgraph.dev/movies/relation/"
SELECT = f"SELECT ?d WHERE {{ <{E}Forrest%20Gump> <{R}directed_by> ?d }}"
CONSTRUCT = f"CONSTRUCT {{ <{E}Forrest%20Gump> ?p ?o }} WHERE {{ <{E}Forrest%20Gump> ?p ?o }}"
out = {}


def attempt(key, fn):
    try:
        out[key] = fn()
    except urllib.error.HTTPError as e:
        out[key] = {"status": e.code, "body": e.read().decode("utf-8", "replace")}
    except Exception as e:  # noqa: BLE001 - what the client raised is the result
        out[key] = {"exception": type(e).__name__, "message": str(e)[:300]}


def tsv():
    s = SPARQLWrapper(url)
    s.setQuery(SELECT)
    s.setReturnFormat(TSV)
    r = s.query().convert()
    return r.decode("utf-8") if isinstance(r, bytes) else r


def graph(fmt):
    def run():
        s = SPARQLWrapper(url)
        s.setQuery(CONSTRUCT)
        s.setReturnFormat(fmt)
        g = s.query().convert()  # rdflib Graph parsed from RDF/XML
        return sorted(f"{p} {o}" for _, p, o in g)

    return run


attempt("tsv", tsv)
attempt("rdfxml", graph(RDFXML))


def xml_literal(text):
    """SPARQLWrapper's default (SPARQL XML, parsed by xml.dom.minidom): the literal's value, or the failure."""

    def run():
        s = SPARQLWrapper(url)
        s.setQuery('SELECT ?x WHERE { BIND("%s" AS ?x) }' % text)
        doc = s.query().convert()
        return "".join(n.data for n in doc.getElementsByTagName("literal")[0].childNodes)

    return run


attempt("control_char", xml_literal("a\\u0001b"))
attempt("carriage_return", xml_literal("a\\rb"))


def etree_cr():
    """The raw SPARQL XML read by xml.etree: a carriage return must come back as one."""
    q = urllib.parse.urlencode({"query": 'SELECT ?x WHERE { BIND("a\\r\\nb" AS ?x) }'})
    req = urllib.request.Request(url + "?" + q, headers={"Accept": "application/sparql-results+xml"})
    with urllib.request.urlopen(req) as r:
        root = ET.fromstring(r.read())
    return root.find(".//{http://www.w3.org/2005/sparql-results#}literal").text


attempt("etree_crlf", etree_cr)

print(json.dumps(out))
