"""One analyst's script: SPARQLWrapper with its defaults in 4 threads, 8 queries at once against
askgraph's /sparql. Usage: python3 sparqlwrapper_threads.py <endpoint-url> <query>; prints a JSON
list with, per query, the row count or the HTTP status and Retry-After it got."""
import json
import sys
import urllib.error
import warnings
from concurrent.futures import ThreadPoolExecutor

from SPARQLWrapper import JSON, SPARQLWrapper

warnings.simplefilter("error", UserWarning)

url, query = sys.argv[1], sys.argv[2]


def one(i):
    s = SPARQLWrapper(url)
    s.setQuery(query.replace("#I", str(i)))  # a different text per query (no cache anywhere)
    s.setReturnFormat(JSON)
    try:
        return {"rows": len(s.query().convert()["results"]["bindings"])}
    except urllib.error.HTTPError as e:
        return {"status": e.code, "retryAfter": e.headers.get("Retry-After")}


with ThreadPoolExecutor(max_workers=4) as pool:
    print(json.dumps(list(pool.map(one, range(8)))))
