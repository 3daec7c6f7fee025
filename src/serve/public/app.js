// askgraph web inspector: plain DOM, no framework. Every piece of data is rendered with
// textContent / createTextNode (never as HTML), so labels and forms cannot inject markup.
'use strict';
(function () {
  const $ = (id) => document.getElementById(id);

  /** el('td', {class: 'num', title: 'x'}, child, 'text', …) — strings become text nodes. */
  function el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === undefined || v === null || v === false) continue;
      if (k === 'class') e.className = v;
      else if (k === 'onclick') e.addEventListener('click', v);
      else e.setAttribute(k, String(v));
    }
    for (const c of children) {
      if (c === undefined || c === null || c === false) continue;
      e.appendChild(typeof c === 'string' || typeof c === 'number' ? document.createTextNode(String(c)) : c);
    }
    return e;
  }
  function clear(node) {
    while (node.firstChild) node.removeChild(node.firstChild);
    return node;
  }
  function setStatus(node, text, isError) {
    node.textContent = text;
    node.classList.toggle('error', !!isError);
  }

  function headers(extra) {
    const h = Object.assign({ Accept: 'application/json' }, extra || {});
    const key = $('opt-key').value.trim();
    if (key) h['X-API-Key'] = key;
    return h;
  }
  async function api(path, init) {
    const r = await fetch(path, init);
    const text = await r.text();
    let body;
    try {
      body = JSON.parse(text);
    } catch (e) {
      body = { error: { code: 'HTTP_' + r.status, message: text.slice(0, 300) } };
    }
    if (!r.ok) {
      const err = new Error((body.error && body.error.code ? body.error.code + ': ' : '') + ((body.error && body.error.message) || r.statusText));
      err.body = body;
      throw err;
    }
    return body;
  }

  // ---------- labels (IRIs are shown by label; the IRI is on hover) ----------
  const labelCache = new Map();
  const SAFE_IRI = /^[^\s<>"{}|^`\\]+$/;
  function localName(iri) {
    const m = /[^/#]+$/.exec(iri);
    try {
      return m ? decodeURIComponent(m[0]) : iri;
    } catch (e) {
      return m ? m[0] : iri;
    }
  }
  /** Fetches labels for IRIs not seen yet (at most 500 at a time); unknown ones fall back to their local name. */
  async function fetchLabels(iris) {
    const missing = [...new Set(iris)].filter((i) => SAFE_IRI.test(i) && !labelCache.has(i)).slice(0, 500);
    if (missing.length === 0) return;
    try {
      const r = await api('v1/labels', { method: 'POST', headers: headers({ 'Content-Type': 'application/json' }), body: JSON.stringify({ iris: missing }) });
      for (const i of missing) labelCache.set(i, (r.labels && r.labels[i]) || null);
    } catch (e) {
      /* labels are a nicety: keep local names */
    }
  }
  function labelOf(iri) {
    return labelCache.get(iri) || localName(iri);
  }
  const IRI_IN_FORM = /<([^<>\s]+)>/g;
  /** A grounded form for people: each <IRI> shows its label (or local name), the IRI on hover. */
  function prettyForm(text) {
    const code = el('code', { class: 'pretty', 'data-form': text });
    fillPretty(code, String(text));
    return code;
  }
  function fillPretty(code, text) {
    clear(code);
    let last = 0;
    text.replace(IRI_IN_FORM, (m, iri, at) => {
      if (at > last) code.appendChild(document.createTextNode(text.slice(last, at)));
      code.appendChild(el('span', { class: 'term', title: iri }, labelOf(iri)));
      last = at + m.length;
      return m;
    });
    if (last < text.length) code.appendChild(document.createTextNode(text.slice(last)));
  }
  function irisIn(text) {
    const out = [];
    String(text || '').replace(IRI_IN_FORM, (_m, iri) => (out.push(iri), ''));
    return out;
  }

  // ---------- overview: the graph, the model, example questions ----------
  const nf = new Intl.NumberFormat('en');
  function renderOverview(o) {
    document.title = 'askgraph · ' + o.pack.title;
    $('graph-title').textContent = o.pack.title;
    const m = o.model;
    let model = 'no parser model';
    if (m && m.kind === 'seq2seq') {
      model = 'model ' + m.name + (m.parameters ? ' (' + (m.parameters / 1e6).toFixed(1) + 'M parameters)' : '');
      if (m.trainedOn) model += ', trained on ' + nf.format(m.trainedOn.questions) + ' questions of ' + m.trainedOn.data + (m.trainMinutes ? ' in ' + m.trainMinutes + ' min' : '');
    } else if (m) model = 'forms by ' + m.name + (m.endpoint ? ' at ' + m.endpoint : '');
    const health = $('health');
    health.textContent = model;
    health.title = 'store ' + o.store.id + (m ? ' · model id ' + m.id : '');
    $('overview-desc').textContent = o.pack.description || '';
    const facts = [];
    if (typeof o.store.triples === 'number') facts.push(nf.format(o.store.triples) + ' triples');
    if (typeof o.store.entities === 'number') facts.push(nf.format(o.store.entities) + ' labelled entities');
    facts.push(o.store.relations.length + ' relations');
    if (o.store.classes.length) facts.push(o.store.classes.length + ' classes');
    $('overview-facts').textContent = facts.join(' · ');
    const rels = clear($('overview-relations'));
    for (const r of o.store.relations) rels.appendChild(el('li', { title: r.iri }, el('span', {}, r.name), typeof r.count === 'number' ? el('span', { class: 'count' }, nf.format(r.count)) : null));
    const cls = clear($('overview-classes'));
    $('overview-classes-row').hidden = o.store.classes.length === 0;
    for (const c of o.store.classes) cls.appendChild(el('li', { title: c.iri }, el('span', {}, c.name), el('span', { class: 'count' }, nf.format(c.count))));
    const ex = clear($('examples'));
    $('examples-row').hidden = o.examples.length === 0;
    for (const q of o.examples) ex.appendChild(el('li', {}, el('button', { type: 'button', class: 'example', onclick: () => askExample(q) }, q)));
    $('overview').hidden = false;
  }
  function askExample(q) {
    $('question').value = q;
    $('ask-form').requestSubmit();
  }
  function loadOverview() {
    api('v1/overview', { headers: headers() })
      .then((o) => {
        setStatus($('health'), '');
        renderOverview(o);
      })
      .catch((e) => setStatus($('health'), 'overview: ' + e.message + (/UNAUTHORIZED/.test(e.message) ? ' (enter the API key under options)' : ''), true));
  }

  // ---------- ask ----------
  const state = { answer: null };
  try {
    $('opt-key').value = localStorage.getItem('askgraph.apiKey') || '';
  } catch (e) {
    /* storage disabled */
  }
  $('opt-key').addEventListener('change', () => {
    try {
      localStorage.setItem('askgraph.apiKey', $('opt-key').value);
    } catch (e) {
      /* storage disabled */
    }
    loadOverview();
  });
  loadOverview();

  $('ask-form').addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const question = $('question').value.trim();
    if (!question) return;
    const options = {};
    const beam = parseInt($('opt-beam').value, 10);
    if (beam > 0) options.beam = beam;
    if ($('opt-fullbeam').checked) options.adaptiveBeam = false;
    if ($('opt-nofallback').checked) options.fallback = 'off';
    if ($('opt-noparser').checked) options.noParser = true;
    setStatus($('status'), 'asking…');
    $('ask-button').disabled = true;
    const t0 = performance.now();
    try {
      const answer = await api('v1/ask', {
        method: 'POST',
        headers: headers({ 'Content-Type': 'application/json' }),
        body: JSON.stringify({ question, options }),
      });
      state.answer = answer;
      render(answer);
      setStatus($('status'), 'answered in ' + Math.round(performance.now() - t0) + ' ms (round trip)');
    } catch (e) {
      setStatus($('status'), e.message, true);
    } finally {
      $('ask-button').disabled = false;
    }
  });

  function fmt(n, digits) {
    return typeof n === 'number' && isFinite(n) ? n.toFixed(digits) : '';
  }

  const XSD = 'http://www.w3.org/2001/XMLSchema#';
  const NUMERIC = ['integer', 'decimal', 'double', 'float', 'long', 'int', 'short', 'nonNegativeInteger', 'positiveInteger', 'nonPositiveInteger', 'negativeInteger', 'unsignedLong', 'unsignedInt'].map((t) => XSD + t);
  /** 'boolean' | 'number' | 'entities': the answer's answerType, else read from a single literal's datatype. */
  function answerTypeOf(a) {
    if (a.answerType === 'boolean' || a.answerType === 'number' || a.answerType === 'entities') return a.answerType;
    const items = a.answers || [];
    if (items.length === 1 && items[0].type === 'literal') {
      if (items[0].datatype === XSD + 'boolean') return 'boolean';
      if (NUMERIC.includes(items[0].datatype)) return 'number';
    }
    return 'entities';
  }
  function formatNumber(v) {
    const n = Number(v);
    if (!isFinite(n)) return String(v);
    return Number.isInteger(n) ? nf.format(n) : nf.format(Math.round(n * 1000) / 1000);
  }

  /** Below this confidence a parser answer is shown as doubtful (parser answers live on [0.6, 1], fallback ≤ 0.6). */
  const CONFIDENT = 0.8;

  /** Why an answer may be wrong, from the answer, its beam and its trace (empty: nothing to flag). */
  function doubts(a) {
    const out = [];
    const src = String(a.source || 'none');
    if (src.indexOf('fallback:') === 0) {
      out.push('Answered by the fallback reader “' + src.slice(9) + '” from graph evidence, not from a reading of the whole question: check the evidence below.');
      return out;
    }
    if (src !== 'parser') return out;
    const beam = a.beam || [];
    const rank = beam.findIndex((b) => b.form === a.form);
    const p = rank >= 0 ? Math.exp(beam[rank].logProb) : null;
    if (p !== null && p < 0.5) out.push('The model was unsure of its reading of the question: it gave this form ' + (p < 0.01 ? 'less than 1%' : Math.round(p * 100) + '%') + ' probability.');
    if (rank > 0) out.push('This is the model’s reading #' + (rank + 1) + ': ' + (rank === 1 ? 'the first one' : 'the ' + rank + ' before it') + ' found nothing in the graph.');
    const win = (a.trace || []).find((t) => t.stage === 'execute' && t.outcome === 'answers' && t.groundedForm === a.groundedForm);
    const phase = win && win.note ? String(win.note).split(' ')[0] : 'exact';
    if (phase !== 'exact') out.push('Weak grounding: the names in the form matched the graph only approximately (' + phase + ' retrieval), so the answer may be about something else.');
    if (out.length === 0 && typeof a.confidence === 'number' && a.confidence < CONFIDENT) out.push('Low confidence (' + fmt(a.confidence, 2) + ').');
    return out;
  }

  /** Why there is no answer, in words, from the trace. */
  function whyNone(a) {
    const trace = a.trace || [];
    const out = [];
    if (a.reason) out.push('askgraph abstained: ' + a.reason + '.');
    const gen = trace.filter((t) => t.stage === 'generate');
    const genErr = gen.find((t) => t.outcome === 'error');
    const skipped = gen.find((t) => t.outcome === 'skipped');
    if (skipped) out.push('The parser was not used (' + (skipped.note === 'noParser' ? 'option “no parser”' : skipped.note || 'no model') + ').');
    else if (genErr) out.push('The parser failed: ' + genErr.error.code + ': ' + genErr.error.message);
    const forms = (a.beam || []).length;
    const ungrounded = trace.filter((t) => t.stage === 'ground' && t.outcome === 'empty');
    const ran = trace.filter((t) => t.stage === 'execute' && t.outcome !== 'skipped');
    const empty = ran.filter((t) => t.outcome === 'empty');
    const failed = ran.filter((t) => t.outcome === 'error' || t.outcome === 'timeout');
    const dropped = gen.filter((t) => /^dropped: /.test(t.note || ''));
    if (dropped.length) out.push(dropped.length + ' generated form(s) were dropped: ' + dropped[0].note.slice(9) + (dropped.length > 1 ? ', …' : '') + '.');
    if (forms && ungrounded.length) {
      const names = new Set();
      for (const t of ungrounded) String(t.beamForm || '').replace(/\[ ([^\]]+) \]/g, (_m, n) => (names.add(n), ''));
      out.push(ungrounded.length + ' of the model’s ' + forms + ' readings name something not found in the graph' + (names.size ? ' (' + [...names].slice(0, 3).map((n) => '“' + n + '”').join(', ') + ')' : '') + '.');
    }
    if (empty.length) out.push(empty.length + ' quer' + (empty.length === 1 ? 'y' : 'ies') + ' ran and matched nothing in the graph.');
    if (failed.length) out.push(failed.length + ' quer' + (failed.length === 1 ? 'y' : 'ies') + ' failed or timed out (' + [...new Set(failed.map((t) => (t.error && t.error.code) || t.outcome))].join(', ') + ').');
    const readers = trace.filter((t) => t.stage === 'fallback');
    if (readers.length === 0) out.push('No fallback reader ran' + ($('opt-nofallback').checked ? ' (option “no fallback”).' : '.'));
    else {
      const notes = [...new Set(readers.map((t) => t.note || t.outcome))];
      out.push('The fallback readers (' + readers.map((t) => t.reader).join(', ') + ') found no evidence: ' + notes.slice(0, 2).join('; ') + '.');
    }
    return out;
  }

  function answerItem(item) {
    if (item.type === 'literal') return el('li', {}, el('span', { class: 'label', title: item.datatype || '' }, item.value));
    return el('li', {}, el('span', { class: 'label', title: item.value, 'data-iri': item.label ? undefined : item.value }, item.label || labelOf(item.value)));
  }
  const ANSWERS_SHOWN = 12;

  function render(a) {
    $('result').hidden = false;
    $('overview').open = false;
    const src = String(a.source || 'none');
    const items = a.answers || [];
    const type = answerTypeOf(a);
    const why = items.length ? doubts(a) : [];
    const state = items.length === 0 ? 'none' : why.length ? 'doubtful' : 'confident';
    const panel = $('answers-panel');
    panel.className = 'panel verdict ' + state;
    const badge = $('source');
    badge.textContent = src;
    badge.className = 'badge' + (src === 'none' ? ' none' : src.indexOf('fallback') === 0 ? ' fallback' : '');
    $('verdict').textContent = state === 'none' ? 'No answer' : state === 'doubtful' ? 'Doubtful answer' : 'Answer';
    $('confidence').textContent = items.length ? 'confidence ' + fmt(a.confidence, 2) : '';
    const meter = $('confidence-meter');
    meter.hidden = items.length === 0;
    meter.value = Math.max(0, Math.min(1, Number(a.confidence) || 0));
    const big = clear($('big-answer'));
    big.hidden = !(items.length === 1 && (type === 'boolean' || type === 'number'));
    if (!big.hidden) {
      const v = items[0].value;
      if (type === 'boolean') {
        const yes = v === 'true' || v === '1';
        big.appendChild(el('span', { class: 'big ' + (yes ? 'yes' : 'no'), title: v + ' (xsd:boolean)' }, yes ? 'Yes' : 'No'));
      } else big.appendChild(el('span', { class: 'big number', title: v + (items[0].datatype ? ' (' + items[0].datatype.replace(XSD, 'xsd:') + ')' : '') }, formatNumber(v)));
    }
    const list = clear($('answers'));
    list.hidden = !big.hidden;
    items.slice(0, ANSWERS_SHOWN).forEach((item) => list.appendChild(answerItem(item)));
    const more = clear($('answers-more'));
    if (items.length > ANSWERS_SHOWN && list.hidden === false) {
      more.appendChild(
        el('button', { type: 'button', class: 'link', onclick: () => { items.slice(ANSWERS_SHOWN).forEach((item) => list.appendChild(answerItem(item))); clear(more); } }, 'show all ' + items.length + ' answers'),
      );
    }
    const reasons = clear($('reasons'));
    for (const r of items.length ? why : whyNone(a)) reasons.appendChild(el('li', {}, r));
    reasons.hidden = reasons.childNodes.length === 0;
    const winner = clear($('winner'));
    if (a.form) winner.appendChild(el('div', {}, el('span', { class: 'muted' }, 'form '), el('code', {}, a.form)));
    if (a.groundedForm) winner.appendChild(el('div', {}, el('span', { class: 'muted' }, 'grounded '), prettyForm(a.groundedForm)));
    if (a.sparql) {
      winner.appendChild(el('pre', { class: 'winner-sparql' }, a.sparql));
      winner.appendChild(sparqlButtons(a.sparql));
    }
    renderTimings(a.timings || {});
    renderEvidence(a.evidence || []);
    renderBeam(a);
    renderTrace(a.trace || []);
    $('raw').textContent = JSON.stringify(a, null, 2);
    // labels for the IRIs on the page (answers without labels, grounded forms), then re-render those parts
    const iris = items.filter((i) => i.type === 'uri' && !i.label).map((i) => i.value);
    for (const t of a.trace || []) iris.push(...irisIn(t.groundedForm));
    fetchLabels(iris).then(() => {
      for (const code of document.querySelectorAll('#result code.pretty')) fillPretty(code, code.getAttribute('data-form'));
      for (const span of document.querySelectorAll('#answers .label[data-iri]')) span.textContent = labelOf(span.getAttribute('data-iri'));
    });
  }

  function renderTimings(t) {
    const body = clear($('timings').tBodies[0]);
    const stages = ['generate', 'ground', 'execute', 'fallback', 'total'];
    const max = Math.max(1, ...stages.map((s) => Number(t[s]) || 0));
    for (const s of stages) {
      const ms = Number(t[s]) || 0;
      const fill = el('div', { class: 'fill' });
      fill.style.width = Math.max(0.2, (100 * ms) / max) + '%';
      body.appendChild(el('tr', {}, el('td', {}, s), el('td', { class: 'num' }, ms.toFixed(1) + ' ms'), el('td', { class: 'bar' }, fill)));
    }
  }

  function termText(t) {
    if (!t) return '';
    return t.label || t.value || '';
  }
  const EVIDENCE_ROWS = 8;
  function termCell(t) {
    return el('td', { title: (t && t.value) || '' }, termText(t));
  }
  /**
   * Evidence, compact and consistent: one table (path, subject, relation, object), the best paths first,
   * at most EVIDENCE_ROWS triples until "show all"; the path's score and the reader's note on hover.
   */
  function renderEvidence(ev) {
    $('evidence-panel').hidden = ev.length === 0;
    const triples = ev.reduce((n, e) => n + (e.triples || []).length, 0);
    $('evidence-count').textContent = ev.length ? '(' + ev.length + ' path' + (ev.length === 1 ? '' : 's') + ', ' + triples + ' triple' + (triples === 1 ? '' : 's') + ')' : '';
    const box = clear($('evidence'));
    if (ev.length === 0) return;
    const rows = [];
    ev.forEach((e, i) => {
      (e.triples || []).forEach((tr, j) => {
        const head = j === 0 ? el('td', { class: 'num path', title: (typeof e.score === 'number' ? 'score ' + fmt(e.score, 3) : '') + (e.note ? ' · ' + e.note : '') }, String(i + 1)) : el('td', { class: 'path' }, '');
        rows.push(el('tr', { class: j === 0 ? 'path-start' : '' }, head, termCell(tr.s), termCell(tr.p), termCell(tr.o)));
      });
    });
    const tb = el('tbody');
    rows.slice(0, EVIDENCE_ROWS).forEach((r) => tb.appendChild(r));
    box.appendChild(
      el('table', { class: 'compact evidence' }, el('thead', {}, el('tr', {}, el('th', { class: 'num' }, 'path'), el('th', {}, 'subject'), el('th', {}, 'relation'), el('th', {}, 'object'))), tb),
    );
    if (rows.length > EVIDENCE_ROWS) {
      const btn = el('button', { type: 'button', class: 'link small more-evidence', onclick: () => { rows.slice(EVIDENCE_ROWS).forEach((r) => tb.appendChild(r)); btn.remove(); } }, 'show all ' + ev.length + ' paths (' + (rows.length - EVIDENCE_ROWS) + ' more triples)');
      box.appendChild(btn);
    }
  }

  /** The trace entries that belong to a beam form (grounding and execution attempts). */
  function attemptsFor(trace, form) {
    return trace.filter((t) => t.beamForm === form);
  }

  function renderBeam(a) {
    const body = clear($('beam').tBodies[0]);
    $('beam-panel').hidden = (a.beam || []).length === 0;
    const trace = a.trace || [];
    (a.beam || []).forEach((b, i) => {
      const attempts = attemptsFor(trace, b.form);
      const withSparql = attempts.filter((t) => t.sparql);
      const last = withSparql[withSparql.length - 1] || attempts[attempts.length - 1];
      const grounded = last && last.groundedForm;
      const outcome = last ? last.outcome : 'not tried';
      const isWinner = a.form && b.form === a.form;
      const btn = withSparql.length ? el('button', { type: 'button', class: 'small secondary', 'data-beam': i + 1, onclick: () => toggleSparql(row, withSparql) }, 'SPARQL') : null;
      const diffBtn = i > 0 && a.beam[0] ? el('button', { type: 'button', class: 'small secondary', onclick: () => diffPrefill(a.beam[0].form, b.form) }, 'diff vs #1') : null;
      const row = el(
        'tr',
        { class: isWinner ? 'winner' : '' },
        el('td', { class: 'num' }, String(i + 1)),
        el('td', { class: 'num' }, fmt(b.logProb, 3)),
        el('td', { class: 'num' }, fmt(100 * Math.exp(b.logProb), 1) + '%'),
        el('td', {}, el('code', {}, b.form)),
        el('td', {}, grounded ? prettyForm(grounded) : el('span', { class: 'muted' }, '—')),
        el('td', { class: 'outcome-' + outcome }, outcome + (last && last.error ? ' (' + last.error.code + ')' : '')),
        el('td', {}, btn, diffBtn),
      );
      body.appendChild(row);
    });
  }

  function toggleSparql(row, attempts) {
    const next = row.nextSibling;
    if (next && next.classList && next.classList.contains('sparql-row')) {
      next.remove();
      return;
    }
    const cell = el('td', { colspan: 7 });
    for (const t of attempts) {
      if (t.groundedForm) cell.appendChild(el('div', {}, el('span', { class: 'muted' }, 'grounded '), prettyForm(t.groundedForm), typeof t.score === 'number' ? el('span', { class: 'muted' }, ' · score ' + fmt(t.score, 3)) : null));
      cell.appendChild(el('pre', {}, t.sparql));
      cell.appendChild(sparqlButtons(t.sparql));
    }
    row.parentNode.insertBefore(el('tr', { class: 'sparql-row' }, cell), row.nextSibling);
  }

  function sparqlButtons(sparql) {
    return el(
      'div',
      { class: 'row' },
      el('button', { type: 'button', class: 'small secondary copy-btn', onclick: () => copy(sparql) }, 'copy'),
      el('button', { type: 'button', class: 'small run-btn', onclick: () => { $('sparql').value = sparql; runSparql(); } }, 'run'),
    );
  }

  async function copy(text) {
    try {
      await navigator.clipboard.writeText(text);
      setStatus($('status'), 'copied to the clipboard');
    } catch (e) {
      // clipboard API unavailable (http, permissions): put it in the editor, selected
      $('sparql').value = text;
      $('sparql').select();
      setStatus($('status'), 'clipboard unavailable: the query is selected in the SPARQL editor (Ctrl+C)');
    }
  }

  const TRACE_ROWS = 12;
  function traceRow(t) {
    const why = t.error ? t.error.code + ': ' + t.error.message : t.note || '';
    const what = t.reader ? el('code', {}, 'reader ' + t.reader) : t.groundedForm ? prettyForm(t.groundedForm) : el('code', {}, t.beamForm || '');
    if (t.sparql) what.setAttribute('title', t.sparql);
    return el(
      'tr',
      {},
      el('td', {}, t.stage),
      el('td', {}, what),
      el('td', { class: 'outcome-' + t.outcome }, t.outcome),
      el('td', { class: 'num' }, t.answerCount === undefined ? '' : String(t.answerCount)),
      el('td', { class: 'note', title: why }, why),
      el('td', { class: 'num' }, fmt(t.timeMs, 1)),
    );
  }
  function renderTrace(trace) {
    const body = clear($('trace').tBodies[0]);
    trace.slice(0, TRACE_ROWS).forEach((t) => body.appendChild(traceRow(t)));
    const more = clear($('trace-more'));
    if (trace.length > TRACE_ROWS) {
      more.appendChild(el('button', { type: 'button', class: 'link small', onclick: () => { trace.slice(TRACE_ROWS).forEach((t) => body.appendChild(traceRow(t))); clear(more); } }, 'show all ' + trace.length + ' entries'));
    }
  }

  // ---------- SPARQL runner ----------
  async function runSparql() {
    const q = $('sparql').value;
    if (!q.trim()) return;
    setStatus($('sparql-status'), 'running…');
    const thead = clear($('sparql-results').tHead);
    const tbody = clear($('sparql-results').tBodies[0]);
    const t0 = performance.now();
    try {
      const r = await api('sparql', {
        method: 'POST',
        headers: headers({ 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/sparql-results+json' }),
        body: new URLSearchParams({ query: q }).toString(),
      });
      const ms = Math.round(performance.now() - t0);
      if (typeof r.boolean === 'boolean') {
        thead.appendChild(el('tr', {}, el('th', {}, 'boolean')));
        tbody.appendChild(el('tr', {}, el('td', {}, String(r.boolean))));
        setStatus($('sparql-status'), 'ASK → ' + r.boolean + ' · ' + ms + ' ms');
        return;
      }
      const vars = (r.head && r.head.vars) || [];
      thead.appendChild(el('tr', {}, ...vars.map((v) => el('th', {}, '?' + v))));
      const rows = (r.results && r.results.bindings) || [];
      const shown = rows.slice(0, 200);
      const iris = [];
      for (const b of shown) for (const v of vars) if (b[v] && b[v].type === 'uri') iris.push(b[v].value);
      await fetchLabels(iris);
      for (const b of shown) {
        tbody.appendChild(
          el('tr', {}, ...vars.map((v) => {
            const t = b[v];
            if (!t) return el('td', {}, '');
            if (t.type === 'uri') return el('td', { class: 'iri-cell', title: t.value }, labelOf(t.value));
            return el('td', { title: t.datatype || t['xml:lang'] || '' }, t.value);
          })),
        );
      }
      setStatus($('sparql-status'), rows.length + ' row' + (rows.length === 1 ? '' : 's') + (rows.length > 200 ? ' (first 200 shown)' : '') + ' · ' + ms + ' ms · IRIs shown by label (hover for the IRI)');
    } catch (e) {
      setStatus($('sparql-status'), e.message, true);
    }
  }
  $('run-sparql').addEventListener('click', runSparql);
  $('copy-sparql').addEventListener('click', () => copy($('sparql').value));
  $('sparql').addEventListener('keydown', (ev) => {
    if (ev.key === 'Enter' && (ev.ctrlKey || ev.metaKey)) {
      ev.preventDefault();
      runSparql();
    }
  });

  // ---------- diff ----------
  function diffPrefill(a, b) {
    $('diff-a').value = a;
    $('diff-b').value = b;
    runDiff();
    $('diff-panel').scrollIntoView({ block: 'nearest' });
  }
  const MARK = { same: '  ', added: '+ ', removed: '- ', changed: '~ ' };
  function renderTree(node, depth, out) {
    const status = node.status || 'same';
    let text = node.op ? '(' + node.text : node.text;
    if (status === 'changed' && node.textB !== undefined) text += '  →  ' + node.textB;
    out.appendChild(el('span', { class: status }, MARK[status] + '  '.repeat(depth) + text + '\n'));
    for (const c of node.children || []) renderTree(c, depth + 1, out);
  }
  async function runDiff() {
    const a = $('diff-a').value.trim();
    const b = $('diff-b').value.trim();
    const tree = clear($('diff-tree'));
    const changes = clear($('diff-changes'));
    if (!a || !b) {
      setStatus($('diff-summary'), 'enter two forms');
      return;
    }
    try {
      const d = await api('v1/diff', { method: 'POST', headers: headers({ 'Content-Type': 'application/json' }), body: JSON.stringify({ a, b }) });
      const flags = ['equal', 'equalNormalized', 'sameSkeleton'].filter((k) => k in d).map((k) => k + ': ' + (d[k] ? 'yes' : 'no'));
      setStatus($('diff-summary'), flags.join(' · ') || 'diff');
      if (d.tree) renderTree(d.tree, 0, tree);
      else tree.textContent = JSON.stringify(d, null, 2);
      for (const c of d.changes || []) {
        const detail = c.change === 'substituted' ? (c.a || '') + ' → ' + (c.b || '') : c.change === 'added' ? c.b || '' : c.a || '';
        changes.appendChild(el('li', {}, el('strong', {}, c.change + ' ' + c.kind), ' at ', el('code', {}, c.path || '/'), ': ', el('code', {}, detail)));
      }
    } catch (e) {
      setStatus($('diff-summary'), e.message, true);
    }
  }
  $('run-diff').addEventListener('click', runDiff);
  for (const id of ['diff-a', 'diff-b']) {
    $(id).addEventListener('keydown', (ev) => {
      if (ev.key === 'Enter') {
        ev.preventDefault();
        runDiff();
      }
    });
  }

  // ---------- keyboard ----------
  const help = $('help');
  function toggleHelp(show) {
    help.hidden = show === undefined ? !help.hidden : !show;
    $('help-toggle').setAttribute('aria-expanded', String(!help.hidden));
  }
  $('help-toggle').addEventListener('click', () => toggleHelp());
  document.addEventListener('keydown', (ev) => {
    const tag = (ev.target && ev.target.tagName) || '';
    const typing = tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT';
    if (ev.key === 'Escape') {
      if (!help.hidden) toggleHelp(false);
      if (typing) ev.target.blur();
      return;
    }
    if (typing || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    if (ev.key === '/') {
      ev.preventDefault();
      $('question').focus();
      $('question').select();
    } else if (ev.key === 's') {
      ev.preventDefault();
      $('sparql').focus();
    } else if (ev.key === 'd') {
      ev.preventDefault();
      $('diff-a').focus();
    } else if (ev.key === '?') {
      toggleHelp();
    } else if (/^[1-9]$/.test(ev.key)) {
      const b = document.querySelector('#beam button[data-beam="' + ev.key + '"]');
      if (b) b.click();
    }
  });

  // ?q=… in the page URL asks right away (shareable links)
  const q = new URLSearchParams(location.search).get('q');
  if (q) {
    $('question').value = q;
    $('ask-form').requestSubmit();
  }
})();
