"""rdflib (Debian python3-rdflib) evaluating SERVICE itself: it sends the inner pattern to askgraph's
/sparql without the LIMIT of the outer query (SELECT REDUCED * WHERE { ?s ?p ?o }) and applies the
LIMIT to what comes back. Usage: python3 rdflib_service.py <endpoint-url>; prints a JSON object."""
import json
import sys

from rdflib import Graph

url = sys.argv[1]
out = {}
try:
    rows = list(Graph().query(f"SELECT ?s ?p ?o WHERE {{ SERVICE <{url}> {{ ?s ?p ?o }} }} LIMIT 3"))
    out["rows"] = [[str(x) for x in r] for r in rows]
except Exception as e:  # noqa: BLE001 - what the client raised is the result
    out["exception"] = type(e).__name__
    out["message"] = str(e)[:300]
print(json.dumps(out))
