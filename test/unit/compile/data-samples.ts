/** Real queries from ../shared/data (GrailQA dev, CWQ test), copied so the unit tests need no data folder. */
export const GRAILQA: { sExpression: string; sparql: string }[] = [
  { sExpression: "(AND theater.play (JOIN theater.play.productions m.0yrlqjm))", sparql: `PREFIX rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#> PREFIX : <http://rdf.freebase.com/ns/> 
SELECT (?x0 AS ?value) WHERE {
SELECT DISTINCT ?x0  WHERE { 
?x0 :type.object.type :theater.play . 
VALUES ?x1 { :m.0yrlqjm } 
?x0 :theater.play.productions ?x1 . 
FILTER ( ?x0 != ?x1  )
}
}` },
  { sExpression: "(ARGMIN (AND law.court (JOIN (R law.court.inferior_courts) m.05vm39)) law.court.founded)", sparql: `PREFIX rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#> PREFIX : <http://rdf.freebase.com/ns/> 
SELECT (?x0 AS ?value) WHERE {
SELECT DISTINCT ?x0  WHERE { 
?x0 :type.object.type :law.court . 
{
SELECT (MIN(?y1) AS ?x1)  WHERE { 
?y0 :type.object.type :law.court . 
VALUES ?y2 { :m.05vm39 } 
?y0 :law.court.founded ?y1 . 
?y2 :law.court.inferior_courts ?y0 . 
FILTER ( ?y0 != ?y1 && ?y0 != ?y2 && ?y1 != ?y2  )
}
}
VALUES ?x2 { :m.05vm39 } 
?x0 :law.court.founded ?x1 . 
?x2 :law.court.inferior_courts ?x0 . 
FILTER ( ?x0 != ?x1 && ?x0 != ?x2 && ?x1 != ?x2  )
}
}` },
  { sExpression: "(ARGMAX (AND medicine.medical_trial_design (JOIN medicine.medical_trial_design.trials m.03zbbx9)) (JOIN (R medicine.medical_trial.design) medicine.medical_trial.expected_total_enrollment))", sparql: `PREFIX rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#> PREFIX : <http://rdf.freebase.com/ns/> 
SELECT (?x0 AS ?value) WHERE {
SELECT DISTINCT ?x0  WHERE { 
?x0 :type.object.type :medicine.medical_trial_design . 
?x1 :type.object.type :medicine.medical_trial . 
VALUES ?x2 { :m.03zbbx9 } 
{
SELECT (MAX(?y3) AS ?x3)  WHERE { 
?y0 :type.object.type :medicine.medical_trial_design . 
?y1 :type.object.type :medicine.medical_trial . 
VALUES ?y2 { :m.03zbbx9 } 
?y1 :medicine.medical_trial.design ?y0 . 
?y0 :medicine.medical_trial_design.trials ?y2 . 
?y1 :medicine.medical_trial.expected_total_enrollment ?y3 . 
FILTER ( ?y0 != ?y1 && ?y0 != ?y2 && ?y0 != ?y3 && ?y1 != ?y2 && ?y1 != ?y3 && ?y2 != ?y3  )
}
}
?x1 :medicine.medical_trial.design ?x0 . 
?x0 :medicine.medical_trial_design.trials ?x2 . 
?x1 :medicine.medical_trial.expected_total_enrollment ?x3 . 
FILTER ( ?x0 != ?x1 && ?x0 != ?x2 && ?x0 != ?x3 && ?x1 != ?x2 && ?x1 != ?x3 && ?x2 != ?x3  )
}
}` },
  { sExpression: "(AND cvg.musical_game_song (JOIN cvg.musical_game_song.games (AND (JOIN cvg.musical_game_song_relationship.game m.0fq74z3) (le cvg.musical_game_song_relationship.release_date 2008-05-08^^http://www.w3.org/2001/XMLSchema#date))))", sparql: `PREFIX rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#> PREFIX : <http://rdf.freebase.com/ns/> 
SELECT (?x0 AS ?value) WHERE {
SELECT DISTINCT ?x0  WHERE { 
?x0 :type.object.type :cvg.musical_game_song . 
?x1 :type.object.type :cvg.musical_game_song_relationship . 
VALUES ?x2 { :m.0fq74z3 } 
FILTER (?x3 <= "2008-05-08-08:00"^^<http://www.w3.org/2001/XMLSchema#date>)
?x0 :cvg.musical_game_song.games ?x1 . 
?x1 :cvg.musical_game_song_relationship.game ?x2 . 
?x1 :cvg.musical_game_song_relationship.release_date ?x3 . 
FILTER ( ?x0 != ?x1 && ?x0 != ?x2 && ?x0 != ?x3 && ?x1 != ?x2 && ?x1 != ?x3 && ?x2 != ?x3  )
}
}` },
  { sExpression: "(COUNT (AND opera.librettist (JOIN (R opera.opera.librettist) m.05ssz1)))", sparql: `PREFIX rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#> PREFIX : <http://rdf.freebase.com/ns/> 
SELECT (COUNT(?x0) AS ?value) WHERE {
SELECT DISTINCT ?x0  WHERE { 
?x0 :type.object.type :opera.librettist . 
VALUES ?x1 { :m.05ssz1 } 
?x1 :opera.opera.librettist ?x0 . 
FILTER ( ?x0 != ?x1  )
}
}` },
  { sExpression: "(AND measurement_unit.unit_of_data_transmission_rate (AND (JOIN (R measurement_unit.measurement_system.data_rate_units) m.0c13h) (gt measurement_unit.unit_of_data_transmission_rate.rate_in_bits_per_second 1000.0^^http://www.w3.org/2001/XMLSchema#float)))", sparql: `PREFIX rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#> PREFIX : <http://rdf.freebase.com/ns/> 
SELECT (?x0 AS ?value) WHERE {
SELECT DISTINCT ?x0  WHERE { 
?x0 :type.object.type :measurement_unit.unit_of_data_transmission_rate . 
VALUES ?x1 { :m.0c13h } 
FILTER (?x2 > "1000.0"^^<http://www.w3.org/2001/XMLSchema#float>)
?x1 :measurement_unit.measurement_system.data_rate_units ?x0 . 
?x0 :measurement_unit.unit_of_data_transmission_rate.rate_in_bits_per_second ?x2 . 
FILTER ( ?x0 != ?x1 && ?x0 != ?x2 && ?x1 != ?x2  )
}
}` },
];

export const CWQ: Record<string, string> = {
  "superlative": `PREFIX ns: <http://rdf.freebase.com/ns/>
SELECT DISTINCT ?x
WHERE {
FILTER (?x != ?c)
FILTER (!isLiteral(?x) OR lang(?x) = '' OR langMatches(lang(?x), 'en'))
?c ns:sports.sports_team.team_mascot ns:m.03_dwn . 
?c ns:sports.sports_team.championships ?x .
?x ns:time.event.start_date ?sk0 .
}
ORDER BY DESC(xsd:datetime(?sk0))
LIMIT 1
`, // WebQTest-832_c334509bb5e02cacae1ba2e80c176499
  "tc": `PREFIX ns: <http://rdf.freebase.com/ns/>
SELECT DISTINCT ?x
WHERE {
FILTER (?x != ?c)
FILTER (!isLiteral(?x) OR lang(?x) = '' OR langMatches(lang(?x), 'en'))
?c ns:location.country.national_anthem ?k .
?k ns:government.national_anthem_of_a_country.anthem ns:m.0gg95zf . 
?c ns:government.governmental_jurisdiction.governing_officials ?y .
?y ns:government.government_position_held.office_holder ?x .
?y ns:government.government_position_held.office_position_or_title ns:m.0j5wjnc .
FILTER(NOT EXISTS {?y ns:government.government_position_held.from ?sk0} || 
EXISTS {?y ns:government.government_position_held.from ?sk1 . 
FILTER(xsd:datetime(?sk1) <= "2015-08-10"^^xsd:dateTime) })
FILTER(NOT EXISTS {?y ns:government.government_position_held.to ?sk2} || 
EXISTS {?y ns:government.government_position_held.to ?sk3 . 
FILTER(xsd:datetime(?sk3) >= "2015-08-10"^^xsd:dateTime) })
}
`, // WebQTest-590_6aad73acb74f304bc9acae44314164be
  "composition": `PREFIX ns: <http://rdf.freebase.com/ns/>
SELECT DISTINCT ?x
WHERE {
FILTER (?x != ?c)
FILTER (!isLiteral(?x) OR lang(?x) = '' OR langMatches(lang(?x), 'en'))
?c ns:location.country.administrative_divisions ns:m.01vz6b . 
?c ns:location.country.form_of_government ?x .
}
`, // WebQTrn-1938_7322a2a4d46bf36b95bfab4418c9a32b
  "str-equality": `PREFIX ns: <http://rdf.freebase.com/ns/>
SELECT DISTINCT ?x
WHERE {
FILTER (?x != ?c)
FILTER (!isLiteral(?x) OR lang(?x) = '' OR langMatches(lang(?x), 'en'))
?c ns:film.film.starring ?k .
?k ns:film.performance.character ns:m.0y54dn_ . 
?c ns:film.film.starring ?y .
?y ns:film.performance.actor ?x .
?y ns:film.performance.character ns:m.0264f7h .
?y ns:film.performance.character_note ?sk0 .
FILTER (str(?sk0) = "Young Forrest")
}
`, // WebQTrn-962_032f61bfcfed69da8b215bb8f058c24e
  "tc-and-compare": `PREFIX ns: <http://rdf.freebase.com/ns/>
SELECT DISTINCT ?x
WHERE {
FILTER (?x != ns:m.0vmt)
FILTER (!isLiteral(?x) OR lang(?x) = '' OR langMatches(lang(?x), 'en'))
ns:m.0vmt ns:government.governmental_jurisdiction.governing_officials ?y .
?y ns:government.government_position_held.office_holder ?x .
?y ns:government.government_position_held.basic_title ns:m.0fkvn .
FILTER(NOT EXISTS {?y ns:government.government_position_held.from ?sk0} || 
EXISTS {?y ns:government.government_position_held.from ?sk1 . 
FILTER(xsd:datetime(?sk1) <= "2009-12-31"^^xsd:dateTime) })
FILTER(NOT EXISTS {?y ns:government.government_position_held.to ?sk2} || 
EXISTS {?y ns:government.government_position_held.to ?sk3 . 
FILTER(xsd:datetime(?sk3) >= "2009-01-01"^^xsd:dateTime) })
?x ns:government.politician.government_positions_held ?c .
?c ns:government.government_position_held.from ?num .
FILTER (?num < "1998"^^xsd:dateTime) . 
}`, // WebQTest-1686_29e74083744b3631541b29b4094fb273
  "var-var": `#MANUAL SPARQL
PREFIX ns: <http://rdf.freebase.com/ns/>
SELECT DISTINCT ?x
WHERE {
  ns:m.081pw ns:time.event.start_date ?start ;
             ns:time.event.end_date ?end .
  ?x ns:government.politician.government_positions_held  ?y .
  ?y ns:government.government_position_held.office_position_or_title ns:m.060d2 ; # President of the United States
     ns:government.government_position_held.from  ?from ;
     ns:government.government_position_held.to  ?to .
  FILTER (?from < ?end)
  FILTER (?to > ?start)?x ns:government.politician.government_positions_held ?c .
?c ns:government.government_position_held.from ?num .
FILTER (?num > "1933-03-04"^^xsd:dateTime) . 
}`, // WebQTrn-2570_374d1789f1735b6f08e1a829c0d075a2
  "union": `#MANUAL SPARQL
PREFIX ns: <http://rdf.freebase.com/ns/>
SELECT DISTINCT ?x 
WHERE {
	FILTER (?x != ns:m.0d05w3)
	{ 
	  ns:m.0d05w3 ns:location.statistical_region.places_exported_to ?y .
	  ?y ns:location.imports_and_exports.exported_to ?x . 
	}
	UNION
	{
	  ns:m.0d05w3 ns:location.statistical_region.places_imported_from ?y .
	  ?y ns:location.imports_and_exports.imported_from ?x . 
	}?x ns:location.location.time_zones ns:m.03bdv . 
}`, // WebQTrn-2664_471b83eade9707a4dba68e201bf29d73
  "superlative-chain": `PREFIX ns: <http://rdf.freebase.com/ns/>
SELECT DISTINCT ?x
WHERE {
FILTER (?x != ns:m.030bdd)
FILTER (!isLiteral(?x) OR lang(?x) = '' OR langMatches(lang(?x), 'en'))
ns:m.030bdd ns:people.person.education ?y .
?y ns:education.education.institution ?x .
?x ns:common.topic.notable_types ns:m.01y2hnl .
?x ns:education.university.number_of_postgraduates ?c .
?c ns:measurement_unit.dated_integer.number ?num .
}
ORDER BY xsd:integer(?num) LIMIT 1`, // WebQTest-191_1ca9a284fcd2c17f453b0fb590e8223f
};
