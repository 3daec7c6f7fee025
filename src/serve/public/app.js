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

  // ---------- health ----------
  api('healthz', { headers: headers() })
    .then((h) => setStatus($('health'), 'store ' + h.store + ' · model ' + (h.model || 'none')))
    .catch((e) => setStatus($('health'), 'health: ' + e.message, true));

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
  });

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

  function render(a) {
    $('result').hidden = false;
    // answers
    const src = String(a.source || 'none');
    const badge = $('source');
    badge.textContent = src;
    badge.className = 'badge' + (src === 'none' ? ' none' : src.indexOf('fallback') === 0 ? ' fallback' : '');
    $('confidence').textContent = 'confidence ' + fmt(a.confidence, 2);
    const list = clear($('answers'));
    for (const item of a.answers || []) {
      list.appendChild(el('li', {}, el('span', { class: 'label' }, item.label || item.value), item.label ? el('span', { class: 'iri', title: item.value }, item.value) : null));
    }
    $('no-answer').hidden = (a.answers || []).length > 0;
    const winner = clear($('winner'));
    if (a.form) winner.appendChild(el('div', {}, el('span', { class: 'muted' }, 'form '), el('code', {}, a.form)));
    if (a.groundedForm) winner.appendChild(el('div', {}, el('span', { class: 'muted' }, 'grounded '), el('code', {}, a.groundedForm)));
    if (a.sparql) {
      winner.appendChild(el('pre', { class: 'winner-sparql' }, a.sparql));
      winner.appendChild(sparqlButtons(a.sparql));
    }
    renderTimings(a.timings || {});
    renderEvidence(a.evidence || []);
    renderBeam(a);
    renderTrace(a.trace || []);
    $('raw').textContent = JSON.stringify(a, null, 2);
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
  function renderEvidence(ev) {
    $('evidence-panel').hidden = ev.length === 0;
    const box = clear($('evidence'));
    ev.forEach((e, i) => {
      const head = 'evidence ' + (i + 1) + (typeof e.score === 'number' ? ' · score ' + fmt(e.score, 3) : '') + (e.note ? ' · ' + e.note : '');
      const tbl = el('table', {}, el('thead', {}, el('tr', {}, el('th', {}, 'subject'), el('th', {}, 'predicate'), el('th', {}, 'object'))));
      const tb = el('tbody');
      for (const tr of e.triples || []) {
        tb.appendChild(el('tr', {}, el('td', { title: tr.s && tr.s.value }, termText(tr.s)), el('td', { title: tr.p && tr.p.value }, termText(tr.p)), el('td', { title: tr.o && tr.o.value }, termText(tr.o))));
      }
      tbl.appendChild(tb);
      box.appendChild(el('div', { class: 'evidence' }, el('div', { class: 'muted' }, head), tbl));
    });
  }

  /** The trace entries that belong to a beam form (grounding and execution attempts). */
  function attemptsFor(trace, form) {
    return trace.filter((t) => t.beamForm === form);
  }

  function renderBeam(a) {
    const body = clear($('beam').tBodies[0]);
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
        el('td', {}, grounded ? el('code', {}, grounded) : el('span', { class: 'muted' }, '—')),
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
      if (t.groundedForm) cell.appendChild(el('div', {}, el('span', { class: 'muted' }, 'grounded '), el('code', {}, t.groundedForm), typeof t.score === 'number' ? el('span', { class: 'muted' }, ' · score ' + fmt(t.score, 3)) : null));
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

  function renderTrace(trace) {
    const body = clear($('trace').tBodies[0]);
    for (const t of trace) {
      const what = t.reader ? 'reader ' + t.reader : t.groundedForm || t.beamForm || '';
      const why = t.error ? t.error.code + ': ' + t.error.message : t.note || '';
      body.appendChild(
        el(
          'tr',
          {},
          el('td', {}, t.stage),
          el('td', {}, el('code', { title: t.sparql || '' }, what)),
          el('td', { class: 'outcome-' + t.outcome }, t.outcome),
          el('td', { class: 'num' }, t.answerCount === undefined ? '' : String(t.answerCount)),
          el('td', {}, why),
          el('td', { class: 'num' }, fmt(t.timeMs, 1)),
        ),
      );
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
      for (const b of rows.slice(0, 500)) {
        tbody.appendChild(el('tr', {}, ...vars.map((v) => el('td', { class: b[v] && b[v].type === 'uri' ? 'mono' : '' }, b[v] ? b[v].value : ''))));
      }
      setStatus($('sparql-status'), rows.length + ' row' + (rows.length === 1 ? '' : 's') + (rows.length > 500 ? ' (first 500 shown)' : '') + ' · ' + ms + ' ms');
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
