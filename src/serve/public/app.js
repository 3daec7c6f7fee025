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

  // ---------- pictures: a small graph of triples (the query's patterns, the fallback's evidence) ----------
  const SVG_NS = 'http://www.w3.org/2000/svg';
  function svgEl(tag, attrs, ...children) {
    const e = document.createElementNS(SVG_NS, tag);
    for (const [k, v] of Object.entries(attrs || {})) if (v !== undefined && v !== null) e.setAttribute(k, String(v));
    for (const c of children) if (c !== undefined && c !== null) e.appendChild(typeof c === 'string' ? document.createTextNode(c) : c);
    return e;
  }
  let measureCtx = null;
  function textWidth(text, font) {
    measureCtx = measureCtx || document.createElement('canvas').getContext('2d');
    if (!measureCtx) return text.length * 7;
    measureCtx.font = font;
    return measureCtx.measureText(text).width;
  }
  const shorten = (t, n) => (t.length > n ? t.slice(0, n - 1) + '…' : t);
  /**
   * Draws triples {s, p, o} (each {kind: var|uri|literal|bnode, key, label, title}) as a layered graph, top
   * down: subjects above their objects, one edge per triple labelled with its predicate. Rows wider than
   * maxWidth wrap. Returns an <svg class="graph …">.
   */
  function drawGraph(triples, cls, maxWidth) {
    const nodes = new Map();
    const node = (t) => {
      if (!nodes.has(t.key)) nodes.set(t.key, { t, label: shorten(t.label, 34), layer: 0 });
      return nodes.get(t.key);
    };
    const edges = [];
    const seen = new Set();
    for (const tr of triples) {
      const k = tr.s.key + ' ' + tr.p.key + ' ' + tr.o.key;
      if (seen.has(k)) continue;
      seen.add(k);
      edges.push({ from: node(tr.s), to: node(tr.o), label: shorten(tr.p.label, 28), title: tr.p.title });
    }
    // layers: longest path from a node without incoming edges (cycles stop at the node count)
    const n = nodes.size;
    for (let i = 0; i < n; i++) {
      let changed = false;
      for (const e of edges) {
        if (e.from !== e.to && e.to.layer < e.from.layer + 1 && e.from.layer + 1 < n) {
          e.to.layer = e.from.layer + 1;
          changed = true;
        }
      }
      if (!changed) break;
    }
    const FONT = '12px system-ui, sans-serif';
    const EDGE_FONT = '11px ui-monospace, SFMono-Regular, Menlo, Consolas, monospace';
    const H = 24;
    const GAP = 14;
    const ROW = 66;
    // an edge's label sits next to the node it alone touches: above its target (the target's one incoming
    // edge), else below its source (the source's one outgoing edge), else at the middle of the line
    const indeg = new Map();
    const outdeg = new Map();
    for (const e of edges) {
      indeg.set(e.to, (indeg.get(e.to) || 0) + 1);
      outdeg.set(e.from, (outdeg.get(e.from) || 0) + 1);
    }
    for (const nd of nodes.values()) {
      nd.w = Math.ceil(textWidth(nd.label, FONT)) + 18;
      nd.slot = nd.w;
    }
    for (const e of edges) {
      e.lw = Math.ceil(textWidth(e.label, EDGE_FONT)) + 12;
      e.at = e.to.layer > e.from.layer ? (indeg.get(e.to) === 1 ? 'to' : outdeg.get(e.from) === 1 ? 'from' : 'mid') : 'mid';
      if (e.at !== 'mid') {
        const nd = e.at === 'to' ? e.to : e.from;
        nd.slot = Math.max(nd.slot, e.lw);
      }
    }
    const byLayer = [];
    for (const nd of nodes.values()) (byLayer[nd.layer] = byLayer[nd.layer] || []).push(nd);
    // rows: each layer, wrapped at maxWidth
    const rows = [];
    for (const layer of byLayer.filter(Boolean)) {
      let row = [];
      let w = 0;
      for (const nd of layer) {
        if (row.length && w + GAP + nd.slot > maxWidth) {
          rows.push(row);
          row = [];
          w = 0;
        }
        w += (row.length ? GAP : 0) + nd.slot;
        row.push(nd);
      }
      rows.push(row);
    }
    const rowWidth = (row) => row.reduce((a, nd) => a + nd.slot, 0) + GAP * (row.length - 1);
    const width = Math.max(120, ...rows.map(rowWidth)) + 8;
    rows.forEach((row, r) => {
      let x = (width - rowWidth(row)) / 2;
      for (const nd of row) {
        nd.x = x + (nd.slot - nd.w) / 2;
        nd.y = 4 + r * ROW;
        x += nd.slot + GAP;
      }
    });
    const height = 8 + (rows.length - 1) * ROW + H;
    const svg = svgEl('svg', { class: 'graph ' + cls, viewBox: '0 0 ' + width + ' ' + height, width, height, role: 'img' });
    const defs = svgEl('defs', {}, svgEl('marker', { id: cls + '-arrow', viewBox: '0 0 10 10', refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: 'auto-start-reverse' }, svgEl('path', { d: 'M0,0 L10,5 L0,10 z', fill: '#8791a5' })));
    svg.appendChild(defs);
    const cx = (nd) => nd.x + nd.w / 2;
    const edgeLayer = svgEl('g', {});
    const labelLayer = svgEl('g', { class: 'edge-labels' }); // over every line, so no line crosses a label
    for (const e of edges) {
      const a = e.from;
      const b = e.to;
      const down = b.y > a.y;
      const same = b.y === a.y;
      const x1 = cx(a);
      const y1 = same ? a.y + H / 2 : down ? a.y + H : a.y;
      const x2 = same ? (b.x > a.x ? b.x : b.x + b.w) : cx(b);
      const y2 = same ? b.y + H / 2 : down ? b.y : b.y + H;
      const xs = same && b.x > a.x ? a.x + a.w : same ? a.x : x1;
      const g = svgEl('g', { class: 'edge' }, svgEl('title', {}, e.title || e.label));
      g.appendChild(svgEl('line', { x1: xs, y1, x2, y2, 'marker-end': 'url(#' + cls + '-arrow)' }));
      edgeLayer.appendChild(g);
      const tx = e.at === 'to' ? x2 : e.at === 'from' ? x1 : (xs + x2) / 2;
      const ty = e.at === 'to' ? y2 - 11 : e.at === 'from' ? y1 + 15 : (y1 + y2) / 2 + 4;
      labelLayer.appendChild(svgEl('rect', { x: tx - (e.lw - 8) / 2, y: ty - 10, width: e.lw - 8, height: 13, rx: 2 }));
      labelLayer.appendChild(svgEl('text', { x: tx, y: ty, 'text-anchor': 'middle' }, e.label));
    }
    svg.appendChild(edgeLayer);
    svg.appendChild(labelLayer);
    for (const nd of nodes.values()) {
      const kind = nd.t.kind;
      svg.appendChild(
        svgEl('g', { class: 'node ' + kind }, svgEl('title', {}, nd.t.title || nd.t.label), svgEl('rect', { x: nd.x, y: nd.y, width: nd.w, height: H, rx: kind === 'var' ? 12 : 4 }), svgEl('text', { x: cx(nd), y: nd.y + 16, 'text-anchor': 'middle' }, nd.label)),
      );
    }
    return svg;
  }
  function graphTerm(t) {
    if (t.type === 'uri') return { kind: 'uri', key: 'u' + t.value, label: labelOf(t.value), title: t.value };
    if (t.type === 'var') return { kind: 'var', key: 'v' + t.value, label: t.value, title: 'variable ' + t.value };
    if (t.type === 'bnode') return { kind: 'var', key: 'b' + t.value, label: t.value, title: 'blank node' };
    if (t.type === 'path') return { kind: 'uri', key: 'p' + t.value, label: t.value.replace(/<([^<>\s]+)>/g, (_m, iri) => labelOf(iri)), title: t.value };
    return { kind: 'literal', key: 'l' + t.value, label: '"' + t.value + '"', title: t.value };
  }
  function graphWidth(box) {
    return Math.max(240, Math.min(1100, (box.clientWidth || 600) - 8));
  }
  /** The query as a graph of its triple patterns (read by the server's SPARQL parser), under the query. */
  async function renderQueryGraph(box, sparql) {
    clear(box);
    try {
      const r = await api('v1/query-graph', { method: 'POST', headers: headers({ 'Content-Type': 'application/json' }), body: JSON.stringify({ sparql }) });
      if (!r.patterns || r.patterns.length === 0) return;
      const iris = [];
      for (const p of r.patterns) for (const t of [p.s, p.p, p.o]) if (t.type === 'uri') iris.push(t.value);
      for (const p of r.patterns) if (p.p.type === 'path') iris.push(...irisIn(p.p.value));
      await fetchLabels(iris);
      const triples = r.patterns.map((p) => ({ s: graphTerm(p.s), p: graphTerm(p.p), o: graphTerm(p.o) }));
      box.appendChild(el('div', { class: 'caption' }, 'the query as a graph: ' + r.patterns.length + ' triple pattern' + (r.patterns.length === 1 ? '' : 's') + (r.truncated ? ' (the first ' + r.patterns.length + ')' : '') + '; dashed = variables'));
      box.appendChild(drawGraph(triples, 'query-graph', graphWidth(box)));
    } catch (e) {
      /* the picture is a nicety: the SPARQL text stays */
    }
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
      state.request = { question, options };
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
  /**
   * A probability as people read it, never rounded to a certainty it is not: 0.995 → "99.5%",
   * 0.0004 → "<0.1%", 0.9996 → ">99.9%"; "100%" and "0%" only for exactly 1 and 0.
   */
  function pct(p) {
    if (typeof p !== 'number' || !isFinite(p)) return '';
    if (p >= 1) return '100%';
    if (p <= 0) return '0%';
    if (p < 0.001) return '<0.1%';
    if (p > 0.999) return '>99.9%';
    return (Math.round(p * 1000) / 10).toFixed(1) + '%';
  }

  const XSD = 'http://www.w3.org/2001/XMLSchema#';
  const NUMERIC = ['integer', 'decimal', 'double', 'float', 'long', 'int', 'short', 'nonNegativeInteger', 'positiveInteger', 'nonPositiveInteger', 'negativeInteger', 'unsignedLong', 'unsignedInt'].map((t) => XSD + t);
  /** 'boolean' | 'number' | 'entities': the answer's answerType, else read from a single literal's datatype. */
  function answerTypeOf(a) {
    if (a.table && Array.isArray(a.table.columns) && Array.isArray(a.table.rows)) return 'table';
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

  /**
   * The trace read per beam form: each form's groundings in order, each with the entry that ran it and what
   * became of it afterwards. Entries the pipeline writes about a grounding without naming its form (a reading
   * set aside, abstained, withheld, or backed by the graph prior) belong to the form that ran that grounding.
   */
  function readTrace(trace) {
    const formOf = new Map(); // grounded form → the beam form that ran it first
    const byForm = new Map(); // beam form → [{grounded, entry, entries, status, why}]
    for (const t of trace) {
      if (t.stage !== 'execute' && t.stage !== 'ground') continue;
      let form = t.beamForm;
      if (form && t.groundedForm && !formOf.has(t.groundedForm)) formOf.set(t.groundedForm, form);
      const followUp = !form && t.groundedForm;
      if (followUp) form = formOf.get(t.groundedForm);
      if (!form) continue;
      if (!byForm.has(form)) byForm.set(form, []);
      const gs = byForm.get(form);
      const key = t.groundedForm || '';
      let g = gs.find((x) => x.grounded === key && key);
      if (!g || !followUp) {
        if (!g) {
          g = { grounded: key, entry: t, entries: [], status: t.outcome, why: t.error ? t.error.code + ': ' + t.error.message : t.note || '' };
          gs.push(g);
        } else {
          g.entry = t;
          g.status = t.outcome;
          g.why = t.error ? t.error.code + ': ' + t.error.message : t.note || '';
        }
      } else if (t.outcome === 'skipped' || t.outcome === 'error') {
        // what became of the grounding: "set aside: …", "abstained: …", "withheld: …"
        const m = /^(set aside|abstained|withheld): (.*)$/.exec(t.note || '');
        g.status = m ? m[1] : t.outcome;
        g.why = m ? m[2] : t.note || '';
      }
      g.entries.push(t);
    }
    return byForm;
  }
  /** The grounding a beam row shows: the answer's own, else one that answered, else the last tried. */
  function shownGrounding(gs, a, form) {
    if (!gs || gs.length === 0) return undefined;
    if (a.form === form && a.groundedForm) {
      const own = gs.find((g) => g.grounded === a.groundedForm);
      if (own) return own;
    }
    return gs.find((g) => g.status === 'answers') || gs[gs.length - 1];
  }
  /** What became of a beam form, in words ("found nothing in the graph", "was set aside (…)"). */
  function fateOf(gs) {
    if (!gs || gs.length === 0) return 'was not tried';
    if (gs.every((g) => g.entry.stage === 'ground' && g.status === 'empty')) return 'named something not found in the graph';
    if (gs.every((g) => g.status === 'empty')) return 'found nothing in the graph';
    const g = gs.find((x) => x.status === 'answers') || gs.find((x) => x.status !== 'empty') || gs[gs.length - 1];
    if (g.status === 'answers') return 'answered too, but a later reading scored higher';
    if (g.status === 'error' || g.status === 'timeout') return (g.status === 'timeout' ? 'timed out' : 'failed') + (g.why ? ' (' + g.why + ')' : '');
    const verb = g.status === 'skipped' ? 'was skipped' : 'was ' + g.status;
    return verb + (g.why ? ' (' + g.why + ')' : '');
  }
  const PHASE = /^(exact|beam|entity|relation) \(beam rank/;

  /** Why an answer may be wrong, from the answer, its beam and its trace (empty: nothing to flag). */
  function doubts(a) {
    const out = [];
    const src = String(a.source || 'none');
    // the pipeline's own caveat (a part of the question the answer leaves out): the same words as the CLI's
    if (a.reason) out.push('Caveat: ' + a.reason + '.');
    if (src.indexOf('fallback:') === 0) {
      out.push('Answered by the fallback reader “' + src.slice(9) + '” from graph evidence, not from a reading of the whole question: check the evidence below.');
      return out;
    }
    if (src !== 'parser') return out;
    const beam = a.beam || [];
    const trace = a.trace || [];
    const rank = beam.findIndex((b) => b.form === a.form);
    const p = rank >= 0 ? Math.exp(beam[rank].logProb) : null;
    if (p !== null && p < 0.5) out.push('The model was unsure of its reading of the question: it gave this form ' + (p < 0.01 ? 'less than 1%' : Math.round(p * 100) + '%') + ' probability.');
    const byForm = readTrace(trace);
    if (rank > 0) {
      const fates = beam.slice(0, rank).map((b) => fateOf(byForm.get(b.form)));
      if (fates.every((f) => f === 'found nothing in the graph')) out.push('This is the model’s reading #' + (rank + 1) + ': ' + (rank === 1 ? 'the first one' : 'the ' + rank + ' before it') + ' found nothing in the graph.');
      else out.push('This is the model’s reading #' + (rank + 1) + ': ' + fates.map((f, i) => '#' + (i + 1) + ' ' + f).join('; ') + '.');
    }
    // the entry that ran the winning grounding (not a later note about it)
    const win = trace.find((t) => t.stage === 'execute' && t.beamForm === a.form && t.groundedForm === a.groundedForm && t.outcome === 'answers');
    const prior = win && /^graph prior: (.*)$/.exec(win.note || '');
    if (prior) out.push('Not one of the model’s readings: the graph prior chose its relation (' + prior[1] + ').');
    const phase = win && PHASE.exec(win.note || '');
    if (phase && phase[1] !== 'exact') out.push('Weak grounding: the names in the form matched the graph only approximately (' + phase[1] + ' retrieval), so the answer may be about something else.');
    if (out.length === 0 && typeof a.confidence === 'number' && a.confidence < CONFIDENT) out.push('Low confidence (' + pct(a.confidence) + ').');
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
    // readings that answered and were then set aside, withheld or abstained from (the trace's later notes)
    const judged = [];
    for (const gs of readTrace(trace).values()) for (const g of gs) if (g.entries.some((t) => t.outcome === 'answers') && /^(set aside|withheld|abstained)$/.test(g.status)) judged.push(g);
    for (const status of ['set aside', 'withheld', 'abstained']) {
      const these = judged.filter((g) => g.status === status);
      if (these.length) out.push(these.length + ' reading' + (these.length === 1 ? '' : 's') + ' found answers but ' + (these.length === 1 ? 'was ' : 'were ') + (status === 'abstained' ? 'not taken' : status) + ': ' + these[0].why + (these.length > 1 ? '; …' : '') + '.');
    }
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

  // ---------- table answers: a sortable table (labels, the IRI as a link or on hover) ----------
  const DATE_TYPES = ['date', 'dateTime', 'gYear', 'gYearMonth'].map((t) => XSD + t);
  const PLAIN_NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
  const ISO_DATE = /^-?\d{4}(-\d{2}(-\d{2}(T[\d:.]+(Z|[+-]\d{2}:\d{2})?)?)?)?$/;
  /** What a person reads in a cell: an entity's label (else its label from the store, else its local name), a literal's value. */
  function cellText(c) {
    if (!c) return '';
    return c.type === 'uri' ? c.label || labelOf(c.value) : String(c.value);
  }
  /**
   * How a column sorts: 'number' when every non-empty cell is a number (a numeric literal, or a label such as
   * "1995" that reads as one), 'date' when every one is a date (xsd:date, dateTime, gYear…, or ISO text), else 'text'.
   */
  function columnKind(rows, i) {
    const cells = rows.map((r) => r[i]).filter(Boolean);
    if (cells.length === 0) return 'text';
    if (cells.every((c) => NUMERIC.includes(c.datatype) || PLAIN_NUMBER.test(cellText(c).trim()))) return 'number';
    if (cells.every((c) => DATE_TYPES.includes(c.datatype) || (ISO_DATE.test(cellText(c).trim()) && !isNaN(Date.parse(cellText(c).trim()))))) return 'date';
    return 'text';
  }
  function sortKey(c, kind) {
    if (!c) return null;
    const t = cellText(c).trim();
    if (kind === 'number') return Number(t);
    if (kind === 'date') return Date.parse(/^-?\d{4}$/.test(t) ? t + '-01-01' : t);
    return t;
  }
  const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });
  /** Row order by column i: numbers numerically, dates by date, text by the reader's collation; empty cells last either way. */
  function sortedRows(rows, i, kind, dir) {
    const keyed = rows.map((r, at) => ({ r, at, k: sortKey(r[i], kind) }));
    keyed.sort((x, y) => {
      const ex = x.k === null || (typeof x.k === 'number' && isNaN(x.k));
      const ey = y.k === null || (typeof y.k === 'number' && isNaN(y.k));
      if (ex || ey) return ex && ey ? x.at - y.at : ex ? 1 : -1;
      const d = kind === 'text' ? collator.compare(x.k, y.k) : x.k - y.k;
      return (dir === 'descending' ? -d : d) || x.at - y.at;
    });
    return keyed.map((x) => x.r);
  }
  /** An IRI people can follow: http(s) only (never javascript: or data:). */
  const LINKABLE = /^https?:\/\//i;
  function tableCell(c, kind) {
    if (!c) return el('td', { class: 'empty', 'aria-label': 'empty' });
    const cls = kind === 'number' ? 'num' : '';
    if (c.type === 'uri') {
      const attrs = { title: c.value, 'data-iri': c.label ? undefined : c.value };
      const inner = LINKABLE.test(c.value) ? el('a', Object.assign({ href: c.value, rel: 'noopener noreferrer nofollow', target: '_blank' }, attrs), cellText(c)) : el('span', Object.assign({ class: 'iri-cell' }, attrs), cellText(c));
      return el('td', { class: cls }, inner);
    }
    return el('td', { class: cls, title: c.datatype ? c.datatype.replace(XSD, 'xsd:') : undefined }, cellText(c));
  }
  const TABLE_ROWS_SHOWN = 500;
  function renderAnswerTable(box, table) {
    const cols = table.columns || [];
    const all = table.rows || [];
    const kinds = cols.map((_c, i) => columnKind(all, i));
    const tbody = el('tbody');
    const fill = (rows) => {
      clear(tbody);
      rows.slice(0, TABLE_ROWS_SHOWN).forEach((r) => tbody.appendChild(el('tr', {}, ...cols.map((_c, i) => tableCell(r[i], kinds[i])))));
    };
    const heads = cols.map((c, i) => {
      const th = el('th', { scope: 'col', 'aria-sort': 'none', class: kinds[i] === 'number' ? 'num' : '', 'data-kind': kinds[i] });
      const btn = el('button', { type: 'button', class: 'sort', title: 'sort by ' + c.label + (kinds[i] === 'text' ? '' : ' (' + kinds[i] + 's)') }, c.label, el('span', { class: 'arrow', 'aria-hidden': 'true' }));
      btn.addEventListener('click', () => {
        const dir = th.getAttribute('aria-sort') === 'ascending' ? 'descending' : 'ascending';
        for (const h of heads) {
          h.setAttribute('aria-sort', 'none');
          h.querySelector('.arrow').textContent = '';
        }
        th.setAttribute('aria-sort', dir);
        btn.querySelector('.arrow').textContent = dir === 'ascending' ? ' ▲' : ' ▼';
        fill(sortedRows(all, i, kinds[i], dir));
      });
      th.appendChild(btn);
      return th;
    });
    fill(all);
    box.appendChild(
      el(
        'div',
        { class: 'table-caption muted' },
        all.length + ' row' + (all.length === 1 ? '' : 's') + ' × ' + cols.length + ' column' + (cols.length === 1 ? '' : 's') + (all.length > TABLE_ROWS_SHOWN ? ' (the first ' + TABLE_ROWS_SHOWN + ' shown; CSV has all)' : '') + ' · click a heading to sort ',
        el('button', { type: 'button', class: 'small secondary', onclick: () => downloadAnswer('csv') }, 'CSV'),
        ' ',
        el('button', { type: 'button', class: 'small secondary', onclick: () => downloadAnswer('tsv') }, 'TSV'),
      ),
    );
    box.appendChild(el('div', { class: 'table-scroll', tabindex: '0', role: 'region', 'aria-label': 'answer table' }, el('table', { id: 'answer-table', class: 'answer-table' }, el('thead', {}, el('tr', {}, ...heads)), tbody)));
  }
  /** The last question as CSV / TSV from the server (the same request, format=csv|tsv: one export for CLI, API and page). */
  async function downloadAnswer(format) {
    const last = state.request;
    if (!last) return;
    try {
      const r = await fetch('v1/ask?format=' + format, { method: 'POST', headers: headers({ 'Content-Type': 'application/json' }), body: JSON.stringify(last) });
      if (!r.ok) throw new Error('HTTP ' + r.status);
      const url = URL.createObjectURL(await r.blob());
      const a = el('a', { href: url, download: 'answer.' + format });
      document.body.appendChild(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10000);
    } catch (e) {
      setStatus($('status'), format.toUpperCase() + ' export failed: ' + e.message, true);
    }
  }

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
    $('confidence').textContent = items.length ? 'confidence ' + pct(a.confidence) : '';
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
    const tableBox = clear($('answer-table-box'));
    tableBox.hidden = !(type === 'table' && items.length > 0);
    if (!tableBox.hidden) renderAnswerTable(tableBox, a.table);
    const list = clear($('answers'));
    list.hidden = !big.hidden || !tableBox.hidden;
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
      const box = el('div', { class: 'graph-box' });
      winner.appendChild(box);
      renderQueryGraph(box, a.sparql);
    }
    renderTimings(a.timings || {});
    renderEvidence(a.evidence || []);
    renderBeam(a);
    renderTrace(a.trace || []);
    $('raw').textContent = JSON.stringify(a, null, 2);
    // labels for the IRIs on the page (answers without labels, grounded forms), then re-render those parts
    const iris = items.filter((i) => i.type === 'uri' && !i.label).map((i) => i.value);
    if (type === 'table') for (const row of a.table.rows) for (const c of row) if (c && c.type === 'uri' && !c.label) iris.push(c.value);
    for (const t of a.trace || []) iris.push(...irisIn(t.groundedForm));
    fetchLabels(iris).then(() => {
      for (const code of document.querySelectorAll('#result code.pretty')) fillPretty(code, code.getAttribute('data-form'));
      for (const span of document.querySelectorAll('#answers .label[data-iri], #answer-table [data-iri]')) span.textContent = labelOf(span.getAttribute('data-iri'));
    });
  }

  /**
   * The four stages, "other" (the time of the total in no stage: checks between the stages, judging the
   * reading, assembling the answer) and the total — rounded to 0.1 ms first, so the rows shown add up.
   */
  function renderTimings(t) {
    const body = clear($('timings').tBodies[0]);
    const r1 = (x) => Math.round((Number(x) || 0) * 10) / 10;
    const stages = ['generate', 'ground', 'execute', 'fallback'].map((s) => [s, r1(t[s])]);
    const inStages = r1(stages.reduce((n, [, ms]) => n + ms, 0));
    const total = Math.max(r1(t.total), inStages);
    const rows = [...stages, ['other', r1(total - inStages)], ['total', total]];
    const titles = {
      other: 'time of the total spent in none of the four stages (checks between them, judging the reading, assembling the answer)',
      total: total > r1(t.total) ? 'the sum of the stages (they overlap the measured total of ' + r1(t.total).toFixed(1) + ' ms)' : 'the whole request in the pipeline',
    };
    for (const [s, ms] of rows) {
      const fill = el('div', { class: 'fill' + (s === 'other' ? ' other' : '') });
      fill.style.width = Math.max(0.2, (100 * ms) / Math.max(total, 0.1)) + '%';
      body.appendChild(el('tr', { class: s === 'total' ? 'total' : '' }, el('td', { title: titles[s] }, s), el('td', { class: 'num' }, ms.toFixed(1) + ' ms'), el('td', { class: 'bar' }, fill)));
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
    // the paths of the first rows as one subgraph (a term met twice is one node)
    const drawn = [];
    let count = 0;
    for (const e of ev) {
      if (count >= EVIDENCE_ROWS) break;
      for (const tr of e.triples || []) {
        if (count++ >= EVIDENCE_ROWS) break;
        drawn.push(tr);
      }
    }
    const evTerm = (t) => (t.type === 'uri' ? { kind: 'uri', key: 'u' + t.value, label: t.label || labelOf(t.value), title: t.value } : graphTerm(t));
    const gbox = el('div', { class: 'graph-box' });
    box.appendChild(gbox);
    gbox.appendChild(el('div', { class: 'caption' }, 'the evidence as a graph' + (drawn.length < triples ? ' (the ' + drawn.length + ' triples of the first rows)' : '')));
    gbox.appendChild(drawGraph(drawn.map((tr) => ({ s: evTerm(tr.s), p: evTerm(tr.p), o: evTerm(tr.o) })), 'evidence-graph', graphWidth(box)));
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

  /** Each cell gets its column's header as data-label (phones show the rows as labelled cards). */
  function labelCells(table) {
    const heads = Array.from((table.tHead && table.tHead.rows[0] && table.tHead.rows[0].cells) || []).map((th) => th.getAttribute('data-label') || th.textContent);
    for (const tr of Array.from(table.tBodies[0].rows)) {
      Array.from(tr.cells).forEach((td, i) => {
        if (td.hasAttribute('colspan') || heads[i] === undefined) return;
        td.setAttribute('data-label', heads[i]);
        // one grid item beside the label, whatever the cell holds
        if (td.childNodes.length > 1 && heads[i]) {
          const wrap = el('div', { class: 'cell' });
          while (td.firstChild) wrap.appendChild(td.firstChild);
          td.appendChild(wrap);
        }
      });
    }
  }

  function probabilityCell(logProb) {
    const p = Math.exp(logProb);
    const fill = el('div', { class: 'fill' });
    fill.style.width = (100 * p).toFixed(2) + '%';
    return el('td', { class: 'num prob', title: 'p = ' + (isFinite(p) ? p.toPrecision(3) : '?') }, pct(p), el('div', { class: 'pbar', 'aria-hidden': 'true' }, fill));
  }

  function beamRow(a, byForm, b, i) {
    const gs = byForm.get(b.form) || [];
    const shown = shownGrounding(gs, a, b.form);
    const withSparql = gs.flatMap((g) => g.entries.filter((t) => t.sparql));
    const status = !shown ? 'not tried' : shown.entry.stage === 'ground' && shown.status === 'empty' ? 'not grounded' : shown.status;
    const outcome = status + (shown && shown.entry.error ? ' (' + shown.entry.error.code + ')' : '') + (gs.filter((g) => g.grounded).length > 1 ? ' · ' + gs.filter((g) => g.grounded).length + ' groundings' : '');
    const isWinner = a.form && b.form === a.form;
    const btn = withSparql.length ? el('button', { type: 'button', class: 'small secondary', 'data-beam': i === null ? undefined : i + 1, onclick: () => toggleSparql(row, withSparql) }, 'SPARQL') : null;
    const diffBtn = i !== null && i > 0 && a.beam[0] ? el('button', { type: 'button', class: 'small secondary', onclick: () => diffInline(row, a.beam[0].form, b.form, i + 1) }, 'diff vs #1') : null;
    const row = el(
      'tr',
      { class: isWinner ? 'winner' : '' },
      el('td', { class: 'num', title: i === null ? 'not in the beam: the graph prior’s reading' : undefined }, i === null ? '+' : String(i + 1)),
      el('td', { class: 'num' }, b.logProb === undefined ? '—' : fmt(b.logProb, 3)),
      b.logProb === undefined ? el('td', { class: 'num' }, '—') : probabilityCell(b.logProb),
      el('td', {}, el('code', {}, b.form)),
      el('td', {}, shown && shown.grounded ? prettyForm(shown.grounded) : el('span', { class: 'muted' }, '—')),
      el('td', { class: 'outcome-' + status.replace(/\s+/g, '-'), title: shown ? shown.why : undefined }, outcome),
      el('td', {}, btn, diffBtn),
    );
    return row;
  }

  function renderBeam(a) {
    const body = clear($('beam').tBodies[0]);
    const beam = a.beam || [];
    $('beam-panel').hidden = beam.length === 0 && !a.form;
    const byForm = readTrace(a.trace || []);
    beam.forEach((b, i) => body.appendChild(beamRow(a, byForm, b, i)));
    // a winner that is none of the beam's forms (the graph prior's reading of the winner's relation): its own row
    if (a.form && !beam.some((b) => b.form === a.form)) body.appendChild(beamRow(a, byForm, { form: a.form }, null));
    labelCells($('beam'));
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
    labelCells($('trace'));
    const more = clear($('trace-more'));
    if (trace.length > TRACE_ROWS) {
      more.appendChild(el('button', { type: 'button', class: 'link small', onclick: () => { trace.slice(TRACE_ROWS).forEach((t) => body.appendChild(traceRow(t))); labelCells($('trace')); clear(more); } }, 'show all ' + trace.length + ' entries'));
    }
  }

  // ---------- SPARQL runner ----------
  /** N-Triples (what /sparql sends for CONSTRUCT / DESCRIBE when asked) → [[s, p, o]] terms; null if not N-Triples. */
  const NT_TERM = /\s*(?:<([^>]*)>|_:([^\s.]+(?:\.[^\s.]+)*)|"((?:[^"\\]|\\.)*)"(?:@([A-Za-z0-9-]+)|\^\^<([^>]*)>)?)/y;
  function ntUnescape(x) {
    return x.replace(/\\(?:u([0-9A-Fa-f]{4})|U([0-9A-Fa-f]{8})|(.))/g, (_m, u, U, c) =>
      u || U ? String.fromCodePoint(parseInt(u || U, 16)) : ({ t: '\t', b: '\b', n: '\n', r: '\r', f: '\f' })[c] || c,
    );
  }
  function parseNTriples(text) {
    const out = [];
    for (const raw of text.split('\n')) {
      const line = raw.trim();
      if (!line || line[0] === '#') continue;
      NT_TERM.lastIndex = 0;
      const terms = [];
      for (let i = 0; i < 3; i++) {
        const m = NT_TERM.exec(line);
        if (!m) return null;
        if (m[1] !== undefined) terms.push({ type: 'uri', value: ntUnescape(m[1]) });
        else if (m[2] !== undefined) terms.push({ type: 'bnode', value: m[2] });
        else terms.push(Object.assign({ type: 'literal', value: ntUnescape(m[3]) }, m[4] ? { 'xml:lang': m[4] } : {}, m[5] ? { datatype: m[5] } : {}));
      }
      out.push(terms);
    }
    return out;
  }
  function termCellOf(t) {
    if (!t) return el('td', {}, '');
    if (t.type === 'uri') return el('td', { class: 'iri-cell', title: t.value }, labelOf(t.value));
    if (t.type === 'bnode') return el('td', { class: 'muted', title: 'blank node' }, '_:' + t.value);
    return el('td', { title: t.datatype || t['xml:lang'] || '' }, t.value);
  }
  /** The query form (SELECT, ASK, CONSTRUCT, DESCRIBE): the first of these keywords after the prologue. */
  function queryForm(q) {
    const m = /\b(SELECT|ASK|CONSTRUCT|DESCRIBE)\b/i.exec(q.replace(/#[^\n]*/g, '').replace(/<[^<>\s]*>/g, '<>'));
    return m ? m[1].toUpperCase() : 'query';
  }
  const SHOWN_ROWS = 200;
  async function runSparql() {
    const q = $('sparql').value;
    if (!q.trim()) return;
    setStatus($('sparql-status'), 'running…');
    const table = $('sparql-results');
    const thead = clear(table.tHead);
    const tbody = clear(table.tBodies[0]);
    const text = clear($('sparql-text'));
    const t0 = performance.now();
    try {
      // results as SPARQL JSON; a CONSTRUCT / DESCRIBE (a graph) as N-Triples, shown as a table of triples
      const r = await fetch('sparql', {
        method: 'POST',
        headers: headers({ 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/sparql-results+json, application/n-triples;q=0.9, text/turtle;q=0.5' }),
        body: new URLSearchParams({ query: q }).toString(),
      });
      const body = await r.text();
      const type = (r.headers.get('Content-Type') || '').split(';')[0].trim();
      if (!r.ok) {
        let err = {};
        try {
          err = JSON.parse(body).error || {};
        } catch (e) {
          /* not JSON */
        }
        throw new Error((err.code ? err.code + ': ' : 'HTTP ' + r.status + ': ') + (err.message || body.slice(0, 300)));
      }
      const ms = Math.round(performance.now() - t0);
      if (/sparql-results\+json/.test(type)) {
        const res = JSON.parse(body);
        if (typeof res.boolean === 'boolean') {
          thead.appendChild(el('tr', {}, el('th', {}, 'boolean')));
          tbody.appendChild(el('tr', {}, el('td', {}, String(res.boolean))));
          labelCells(table);
          setStatus($('sparql-status'), 'ASK → ' + res.boolean + ' · ' + ms + ' ms');
          return;
        }
        const vars = (res.head && res.head.vars) || [];
        thead.appendChild(el('tr', {}, ...vars.map((v) => el('th', {}, '?' + v))));
        const rows = (res.results && res.results.bindings) || [];
        const shown = rows.slice(0, SHOWN_ROWS);
        const iris = [];
        for (const b of shown) for (const v of vars) if (b[v] && b[v].type === 'uri') iris.push(b[v].value);
        await fetchLabels(iris);
        for (const b of shown) tbody.appendChild(el('tr', {}, ...vars.map((v) => termCellOf(b[v]))));
        labelCells(table);
        setStatus($('sparql-status'), rows.length + ' row' + (rows.length === 1 ? '' : 's') + (rows.length > SHOWN_ROWS ? ' (first ' + SHOWN_ROWS + ' shown)' : '') + ' · ' + ms + ' ms · IRIs shown by label (hover for the IRI)');
        return;
      }
      const triples = type === 'application/n-triples' || type === 'text/plain' ? parseNTriples(body) : null;
      const form = queryForm(q);
      if (!triples) {
        // another RDF syntax: the text as it came
        text.textContent = body;
        setStatus($('sparql-status'), form + ' → ' + type + ' · ' + ms + ' ms');
        return;
      }
      thead.appendChild(el('tr', {}, el('th', {}, 'subject'), el('th', {}, 'predicate'), el('th', {}, 'object')));
      const shown = triples.slice(0, SHOWN_ROWS);
      await fetchLabels(shown.flat().filter((t) => t.type === 'uri').map((t) => t.value));
      for (const tr of shown) tbody.appendChild(el('tr', {}, ...tr.map(termCellOf)));
      labelCells(table);
      setStatus($('sparql-status'), form + ' → ' + triples.length + ' triple' + (triples.length === 1 ? '' : 's') + (triples.length > SHOWN_ROWS ? ' (first ' + SHOWN_ROWS + ' shown)' : '') + ' · ' + ms + ' ms · IRIs shown by label (hover for the IRI)');
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
  /** An operator of a diff change in words: "COUNT" → "a count (COUNT)". */
  function opWords(op) {
    const head = String(op || '').split(' ')[0];
    const rest = String(op || '').slice(head.length + 1);
    const what = {
      JOIN: 'a hop through the relation ' + rest,
      COUNT: 'a count',
      ARGMAX: 'a superlative (the most)',
      ARGMIN: 'a superlative (the least)',
      AND: 'an intersection',
      OR: 'a union',
      DIFF: 'an exclusion',
      ASK: 'a yes/no question',
      TC: 'a transitive hop',
    }[head];
    return what ? what + ' (' + op + ')' : 'the operator ' + op;
  }
  /** One change of /v1/diff as a sentence about form B ("B replaces the relation … with …"). */
  function changeWords(c, B) {
    const kind = c.kind === 'subtree' ? 'part' : c.kind;
    if (c.change === 'substituted') return B + ' replaces the ' + kind + ' ' + c.a + ' with ' + c.b + '.';
    if (c.kind === 'operator' && /relation$/.test(c.path || '')) return B + ' turns the relation around: ' + c.a + ' becomes ' + c.b + '.';
    if (c.change === 'added') return B + ' adds ' + (c.kind === 'operator' ? opWords(c.b) : 'the ' + kind + ' ' + c.b) + '.';
    return B + ' drops ' + (c.kind === 'operator' ? opWords(c.a) : 'the ' + kind + ' ' + c.a) + '.';
  }
  /** The verdict of a diff in words. */
  function diffSummary(d) {
    if (d.equal) return 'The two forms are the same.';
    if (d.equalNormalized) return 'The same form up to the order of AND operands.';
    const n = (d.changes || []).length;
    return (d.sameSkeleton ? 'Same structure' : 'Different structure') + ', ' + n + ' change' + (n === 1 ? '' : 's') + ':';
  }
  function postDiff(a, b) {
    return api('v1/diff', { method: 'POST', headers: headers({ 'Content-Type': 'application/json' }), body: JSON.stringify({ a, b }) });
  }
  /** The diff of beam form #n against #1, right under its row (and in the diff view below, for editing). */
  async function diffInline(row, a, b, n) {
    let next = row.nextSibling;
    while (next && next.classList.contains('sparql-row')) next = next.nextSibling;
    if (next && next.classList.contains('diff-row')) {
      next.remove();
      return;
    }
    const box = el('div', { class: 'form-diff', role: 'status' }, 'comparing #' + n + ' with #1…');
    row.parentNode.insertBefore(el('tr', { class: 'diff-row' }, el('td', { colspan: 7 }, box)), next);
    $('diff-a').value = a;
    $('diff-b').value = b;
    try {
      const d = await postDiff(a, b);
      clear(box);
      box.appendChild(el('p', {}, el('strong', {}, '#' + n + ' vs #1: '), diffSummary(d)));
      const list = el('ul', {});
      for (const c of d.changes || []) list.appendChild(el('li', {}, changeWords(c, '#' + n)));
      if (list.childNodes.length) box.appendChild(list);
      box.scrollIntoView({ block: 'nearest' }); // under its row, in view (the row may sit at the screen's bottom edge)
      renderDiffInto(d, $('diff-summary'), clear($('diff-tree')), clear($('diff-changes')), 'B');
    } catch (e) {
      setStatus(box, e.message, true);
    }
  }
  function renderDiffInto(d, summary, tree, changes, B) {
    setStatus(summary, diffSummary(d));
    if (d.tree) renderTree(d.tree, 0, tree);
    else tree.textContent = JSON.stringify(d, null, 2);
    for (const c of d.changes || []) changes.appendChild(el('li', {}, changeWords(c, B)));
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
      renderDiffInto(await postDiff(a, b), $('diff-summary'), tree, changes, 'B');
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
