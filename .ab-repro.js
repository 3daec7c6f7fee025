// A/B reproducer of the CONSTRUCT crash: fresh store processes, each: one SELECT, then 3 CONSTRUCTs of 10,001 triples
const variant = process.argv[2];
const { openExecutor } = require(`./${variant}/src/execute`);
(async () => {
  let crashes = 0, runs = 0;
  for (let i = 0; i < Number(process.argv[3] || 15); i++) {
    const ex = await openExecutor();
    await ex.runChecked({ form: 'SELECT', run: 'SELECT ?d WHERE { ?s ?p ?d } LIMIT 5', capped: true, service: false, patterns: 1 }, { timeoutMs: 30000 });
    for (let k = 0; k < 3; k++) {
      runs++;
      try { await ex.runChecked({ form: 'CONSTRUCT', run: 'CONSTRUCT { ?s ?p ?o } WHERE { ?s ?p ?o }\nLIMIT 10001', capped: true, service: false, patterns: 1 }, { timeoutMs: 30000 }); }
      catch (e) { crashes++; await ex.whenReady().catch(() => {}); }
    }
    await ex.close();
  }
  console.log(`${variant}: ${crashes} store crashes in ${runs} CONSTRUCTs`);
})();
