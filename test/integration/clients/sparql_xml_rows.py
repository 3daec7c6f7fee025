"""A query sent as roqet (Debian rasqal-utils) sends it — GET, Accept: application/sparql-results+xml
only — and the answer read by python's XML parser (xml.etree). Usage: python3 sparql_xml_rows.py
<endpoint-url> <query>; prints {contentType, vars, rows} as JSON."""
import json
import sys
import urllib.parse
import urllib.request
import xml.etree.ElementTree as ET

url, query = sys.argv[1], sys.argv[2]
NS = "{http://www.w3.org/2005/sparql-results#}"
req = urllib.request.Request(url + "?" + urllib.parse.urlencode({"query": query}), headers={"Accept": "application/sparql-results+xml"})
with urllib.request.urlopen(req) as r:
    content_type = r.headers.get_content_type()
    root = ET.fromstring(r.read())
names = [v.get("name") for v in root.iter(NS + "variable")]
rows = []
for result in root.iter(NS + "result"):
    b = {x.get("name"): x[0].text for x in result.iter(NS + "binding")}
    rows.append([b.get(n) for n in names])
print(json.dumps({"contentType": content_type, "vars": names, "rows": rows}))
