"""Questions about the made-up company graph (fixtures/graphs/company.ttl), written by hand on 2026-11-29 before the typed
readings were built (and superlatives, written after the superlative readings were built), with answers from SPARQL over
the graph (rdflib). A typed graph no data set has: a measure of
class-aware question answering, not training data. Run from the repository root: /usr/bin/python3 scripts/make-company-questions.py"""
import json, rdflib, sys
g = rdflib.Graph(); g.parse('fixtures/graphs/company.ttl', format='turtle')
P = 'PREFIX : <http://askgraph.dev/company/> PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#> '
Q = [
 ("which employees work in the Sales department?", "SELECT ?x WHERE { ?x :worksIn :department_Sales }"),
 ("who works in Research?", "SELECT ?x WHERE { ?x :worksIn :department_Research }"),
 ("how many employees are based in the Lisbon office?", "SELECT (COUNT(?x) AS ?c) WHERE { ?x :basedIn :office_Lisbon_office }"),
 ("which employees are based in Japan?", "SELECT ?x WHERE { ?x :basedIn ?o . ?o :inCountry :country_Japan }"),
 ("how many people work at offices in Canada?", "SELECT (COUNT(?x) AS ?c) WHERE { ?x :basedIn ?o . ?o :inCountry :country_Canada }"),
 ("which products are supplied by Baltic Metals?", "SELECT ?x WHERE { ?x :suppliedBy :supplier_Baltic_Metals }"),
 ("which products come from suppliers in Chile?", "SELECT ?x WHERE { ?x :suppliedBy ?s . ?s :inCountry :country_Chile }"),
 ("what category is the Pulse Router in?", "SELECT ?x WHERE { :product_Pulse_Router :inCategory ?x }"),
 ("which country is Andes Textiles in?", "SELECT ?x WHERE { :supplier_Andes_Textiles :inCountry ?x }"),
 ("who heads the Finance department?", "SELECT ?x WHERE { :department_Finance :headedBy ?x }"),
 ("who leads the Open Harbor project?", "SELECT ?x WHERE { :project_Open_Harbor :ledBy ?x }"),
 ("which projects is Rui Silva a member of?", "SELECT ?x WHERE { :employee_Rui_Silva :memberOf ?x }"),
 ("what does Rui Silva earn?", "SELECT ?x WHERE { :employee_Rui_Silva :salary ?x }"),
 ("where is Karl Laine based?", "SELECT ?x WHERE { :employee_Karl_Laine :basedIn ?x }"),
 ("which offices are in Estonia?", "SELECT ?x WHERE { ?x :inCountry :country_Estonia . ?x a :Office }"),
 ("how many products are in the Lighting category?", "SELECT (COUNT(?x) AS ?c) WHERE { ?x :inCategory :category_Lighting }"),
 ("which suppliers are located in Portugal?", "SELECT ?x WHERE { ?x :inCountry :country_Portugal . ?x a :Supplier }"),
 ("which department owns the Pulse Router?", "SELECT ?x WHERE { :product_Pulse_Router :ownedBy ?x }"),
 ("what is Karl Laine's job?", "SELECT ?x WHERE { :employee_Karl_Laine :hasRole ?x }"),
 ("who is Karl Laine's boss?", "SELECT ?x WHERE { :employee_Karl_Laine :reportsTo ?x }"),
 ("which designers work in Engineering?", "SELECT ?x WHERE { ?x :hasRole :role_Designer ; :worksIn :department_Engineering }"),
 ("how many analysts work in Finance?", "SELECT (COUNT(?x) AS ?c) WHERE { ?x :hasRole :role_Analyst ; :worksIn :department_Finance }"),
 ("which networking products does Pacific Plastics supply?", "SELECT ?x WHERE { ?x :inCategory :category_Networking ; :suppliedBy :supplier_Pacific_Plastics }"),
 ("which furniture products belong to the Marketing department?", "SELECT ?x WHERE { ?x :inCategory :category_Furniture ; :ownedBy :department_Marketing }"),
 ("in which country is Rui Silva's office?", "SELECT ?x WHERE { :employee_Rui_Silva :basedIn ?o . ?o :inCountry ?x }"),
 ("who is on the Open Harbor project?", "SELECT ?x WHERE { ?x :memberOf :project_Open_Harbor }"),
 ("how many suppliers are there in Japan?", "SELECT (COUNT(?x) AS ?c) WHERE { ?x :inCountry :country_Japan . ?x a :Supplier }"),
 ("what products does the Sales department own?", "SELECT ?x WHERE { ?x :ownedBy :department_Sales }"),
 ("list the kitchen products", "SELECT ?x WHERE { ?x :inCategory :category_Kitchen }"),
 ("which employees are based in offices in Portugal?", "SELECT ?x WHERE { ?x :basedIn ?o . ?o :inCountry :country_Portugal }"),
 ("how many products do suppliers from Estonia supply?", "SELECT (COUNT(DISTINCT ?x) AS ?c) WHERE { ?x :suppliedBy ?s . ?s :inCountry :country_Estonia }"),
 ("which managers are based in the Toronto office?", "SELECT ?x WHERE { ?x :hasRole :role_Manager ; :basedIn :office_Toronto_office }"),
 ("who manages the department Rui Silva works in?", "SELECT ?x WHERE { :employee_Rui_Silva :worksIn ?d . ?d :headedBy ?x }"),
 ("what is the budget of the Legal department?", "SELECT ?x WHERE { :department_Legal :budget ?x }"),
 ("which audio products are there?", "SELECT ?x WHERE { ?x :inCategory :category_Audio }"),
 ("how many engineers work in the Osaka office?", "SELECT (COUNT(?x) AS ?c) WHERE { ?x :hasRole :role_Engineer ; :basedIn :office_Osaka_office }"),
]
# superlatives: written by hand on 2026-11-29 after the superlative readings were built (src/pipeline typed.ts
# rankingsOf) and before they were run on this graph; ties keep every member with the extreme value
def top(cls, rel, best, cond=''):
    agg = 'MAX' if best else 'MIN'
    return (f"SELECT ?x WHERE {{ ?x a :{cls} ; :{rel} ?v . {cond} "
            f"{{ SELECT ({agg}(?w) AS ?m) WHERE {{ ?y a :{cls} ; :{rel} ?w . {cond.replace('?x', '?y')} }} }} FILTER(?v = ?m) }}")
Q2 = [
 ("which employee has the highest salary?", top('Employee', 'salary', True)),
 ("who is the youngest employee?", top('Employee', 'birthYear', True)),
 ("what is the most expensive product?", top('Product', 'price', True)),
 ("which is the cheapest product in the Kitchen category?", top('Product', 'price', False, '?x :inCategory :category_Kitchen .')),
 ("which supplier has the best rating?", top('Supplier', 'rating', True)),
 ("what is the oldest supplier?", top('Supplier', 'foundingYear', False)),
 ("which office has the largest capacity?", top('Office', 'capacity', True)),
 ("which project has the biggest budget?", top('Project', 'budget', True)),
 ("who was hired earliest in the Sales department?", top('Employee', 'hireDate', False, '?x :worksIn :department_Sales .')),
 ("which is the heaviest networking product?", top('Product', 'weight', True, '?x :inCategory :category_Networking .')),
 ("what is the newest office?", top('Office', 'openingYear', True)),
 ("which supplier in Chile has the lowest rating?", top('Supplier', 'rating', False, '?x :inCountry :country_Chile .')),
 ("which department has the smallest budget?", top('Department', 'budget', False)),
 ("which analyst earns the most?", top('Employee', 'salary', True, '?x :hasRole :role_Analyst .')),
]

def write(questions, file, dataset):
    out = []
    for i, (q, s) in enumerate(questions):
        rows = list(g.query(P + s))
        vals = [r[0] for r in rows]
        if not vals or (len(vals) == 1 and vals[0] is None): print('EMPTY', q, file=sys.stderr); continue
        b = []
        for v in vals:
            if isinstance(v, rdflib.URIRef): b.append({'x': {'type': 'uri', 'value': str(v)}})
            else: b.append({'x': {'type': 'literal', 'value': str(v), **({'datatype': str(v.datatype)} if v.datatype else {})}})
        print(len(vals), q, file=sys.stderr)
        out.append({'id': str(i + 1), 'question': [{'language': 'en', 'string': q}], 'query': {'sparql': P + s}, 'answers': [{'head': {'vars': ['x']}, 'results': {'bindings': b}}]})
    json.dump({'dataset': {'id': dataset}, 'questions': out}, open(file, 'w'), indent=0)

write(Q, 'fixtures/eval/company-questions.qald.json', 'company-heldout')
write(Q2, 'fixtures/eval/company-superlatives.qald.json', 'company-superlatives')
