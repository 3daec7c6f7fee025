#!/usr/bin/env bash
# A private Virtuoso (Debian package virtuoso-opensource) on loopback, for integration tests and CI.
#
#   scripts/virtuoso.sh start            # create/start the database, wait until /sparql answers
#   scripts/virtuoso.sh load FILE GRAPH  # replace named graph GRAPH with the N-Triples/Turtle FILE
#   scripts/virtuoso.sh status           # exit 0 and print the endpoint URL if it answers
#   scripts/virtuoso.sh stop             # shut the server down (database dir kept)
#   scripts/virtuoso.sh bulkload DIR GRAPH [--fulltext]
#                                        # bulk loader (ld_dir + rdf_loader_run, VIRTUOSO_LOADERS in parallel)
#                                        # of DIR/*.nt(.gz) into GRAPH, for large graphs; --fulltext first adds a
#                                        # free-text rule on rdfs:label / skos:altLabel (bif:contains) and
#                                        # builds that index after the load
#   scripts/virtuoso.sh fulltext         # the same free-text rule and index, on what is loaded now
#
# Environment: VIRTUOSO_DIR (database dir, default /tmp/askgraph-virtuoso), VIRTUOSO_PORT (ISQL, 1111),
# VIRTUOSO_HTTP_PORT (8890), VIRTUOSO_BIN (virtuoso-t), VIRTUOSO_ISQL (isql-vt), VIRTUOSO_BUFFERS and
# VIRTUOSO_DIRTY_BUFFERS (8 KiB pages of the buffer pool, default 170000 / 130000 ≈ 1.3 GiB; for a graph of
# ~25M triples 510000 / 375000 ≈ 4 GiB of pool, ~6 GiB RSS — Virtuoso's guide: 85k buffers per GiB given to
# it), VIRTUOSO_LOADERS (parallel rdf_loader_run of bulkload, default 2), VIRTUOSO_MAX_QUERY_SECONDS (the
# server's own query time limit, default 120; past it Virtuoso answers with the rows found so far, which askgraph
# reads as QUERY_TIMEOUT — a deep OFFSET page of a large graph's labels took 14 s under load).
#
# Default graph: Virtuoso's /sparql answers queries without FROM over the union of all graphs. Each
# `load` puts the data in its own named graph and CLEARs that graph first, so a query of our
# namespace sees exactly the loaded data (Virtuoso's own system graphs use other IRIs).
set -euo pipefail

DIR="${VIRTUOSO_DIR:-/tmp/askgraph-virtuoso}"
PORT="${VIRTUOSO_PORT:-1111}"
HTTP_PORT="${VIRTUOSO_HTTP_PORT:-8890}"
BIN="${VIRTUOSO_BIN:-virtuoso-t}"
ISQL="${VIRTUOSO_ISQL:-isql-vt}"
ENDPOINT="http://127.0.0.1:${HTTP_PORT}/sparql"
VAD_DIR=/usr/share/virtuoso-opensource-7/vad

die() { echo "virtuoso.sh: $*" >&2; exit 1; }

answers() {
  curl -fsS -m 5 -H 'Accept: application/sparql-results+json' \
    --data-urlencode 'query=ASK { }' "$ENDPOINT" >/dev/null 2>&1
}

isql() { "$ISQL" "$PORT" dba dba "$@"; }

# Is the server answering on our ports the one of our database dir? (A Debian system service on the
# default ports would otherwise be used, or shut down, by mistake.)
ours() {
  local pid
  pid=$(sed -n 's/^VIRT_PID=//p' "$DIR/virtuoso.lck" 2>/dev/null || true)
  [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null
}

write_ini() {
  cat >"$DIR/virtuoso.ini" <<EOF
[Database]
DatabaseFile       = $DIR/virtuoso.db
ErrorLogFile       = $DIR/virtuoso.log
LockFile           = $DIR/virtuoso.lck
TransactionFile    = $DIR/virtuoso.trx
xa_persistent_file = $DIR/virtuoso.pxa
ErrorLogLevel      = 7
FileExtend         = 200
MaxCheckpointRemap = 2000
Striping           = 0
TempStorage        = TempDatabase

[TempDatabase]
DatabaseFile       = $DIR/virtuoso-temp.db
TransactionFile    = $DIR/virtuoso-temp.trx
MaxCheckpointRemap = 2000
Striping           = 0

[Parameters]
ServerPort               = 127.0.0.1:$PORT
LiteMode                 = 0
DisableUnixSocket        = 1
DisableTcpSocket         = 0
MaxClientConnections     = 10
CheckpointInterval       = 60
O_DIRECT                 = 0
CaseMode                 = 2
MaxStaticCursorRows      = 5000
CheckpointAuditTrail     = 0
AllowOSCalls             = 0
SchedulerInterval        = 10
; the loader reads data files from anywhere (a private test database on loopback)
DirsAllowed              = /, ., $VAD_DIR
ThreadCleanupInterval    = 0
ThreadThreshold          = 10
ResourcesCleanupInterval = 0
FreeTextBatchSize        = 100000
SingleCPU                = 0
VADInstallDir            = $VAD_DIR/
PrefixResultNames        = 0
RdfFreeTextRulesSize     = 100
IndexTreeMaps            = 64
MaxQueryMem              = 1G
VectorSize               = 1000
MaxVectorSize            = 1000000
AdjustVectorSize         = 0
ThreadsPerQuery          = 2
AsyncQueueMaxThreads     = 10
NumberOfBuffers          = ${VIRTUOSO_BUFFERS:-170000}
MaxDirtyBuffers          = ${VIRTUOSO_DIRTY_BUFFERS:-130000}

[HTTPServer]
ServerPort                  = 127.0.0.1:$HTTP_PORT
ServerRoot                  = /var/lib/virtuoso-opensource-7/vsp
MaxClientConnections        = 10
DavRoot                     = DAV
EnabledDavVSP               = 0
HTTPProxyEnabled            = 0
TempASPXDir                 = 0
ServerThreads               = 10
MaxKeepAlives               = 10
KeepAliveTimeout            = 10
MaxCachedProxyConnections   = 10
ProxyConnectionCacheTimeout = 15
HTTPThreadSize              = 280000
HttpPrintWarningsInOutput   = 0
Charset                     = UTF-8
MaintenancePage             = atomic.html
EnabledGzipContent          = 1

[Client]
SQL_PREFETCH_ROWS  = 100
SQL_PREFETCH_BYTES = 16000
SQL_QUERY_TIMEOUT  = 0
SQL_TXN_TIMEOUT    = 0

[SPARQL]
; large enough that answer sets are never truncated in the differential test
ResultSetMaxRows           = 1000000
; no refusal by Virtuoso's own cost estimate: it guessed 404 s for a paged label scan of a 234-triple test graph
; ("estimated execution time exceeds the limit") depending on what other tests had loaded; real time is
; bounded by MaxQueryExecutionTime and by askgraph's own query timeouts
MaxQueryCostEstimationTime = 0
MaxQueryExecutionTime      = ${VIRTUOSO_MAX_QUERY_SECONDS:-120}
DefaultQuery               = select distinct ?Concept where {[] a ?Concept} LIMIT 100
DeferInferenceRulesInit    = 0
EOF
}

cmd_start() {
  command -v "$BIN" >/dev/null || die "$BIN not found (apt-get install -y virtuoso-opensource)"
  command -v "$ISQL" >/dev/null || die "$ISQL not found (apt-get install -y virtuoso-opensource)"
  if answers; then
    ours || die "$ENDPOINT is answered by another server (not $DIR); stop it or set VIRTUOSO_PORT / VIRTUOSO_HTTP_PORT"
    echo "$ENDPOINT"; return 0
  fi
  mkdir -p "$DIR"
  write_ini
  rm -f "$DIR/virtuoso.lck"
  # +wait: returns once the server has finished its background initialisation (or failed)
  (cd "$DIR" && "$BIN" +configfile "$DIR/virtuoso.ini" +wait) >"$DIR/start.log" 2>&1 \
    || { cat "$DIR/start.log" >&2; tail -20 "$DIR/virtuoso.log" >&2 || true; die "server did not start"; }
  for _ in $(seq 1 120); do
    if answers; then echo "$ENDPOINT"; return 0; fi
    sleep 0.5
  done
  tail -20 "$DIR/virtuoso.log" >&2 || true
  die "SPARQL endpoint $ENDPOINT does not answer after 60 s"
}

cmd_load() {
  local file="${1:-}" graph="${2:-}"
  [ -n "$file" ] && [ -n "$graph" ] || die "usage: virtuoso.sh load FILE GRAPH"
  [ -f "$file" ] || die "no such file: $file"
  answers || die "not running (scripts/virtuoso.sh start)"
  ours || die "$ENDPOINT is not the server of $DIR"
  local abs
  abs="$(cd "$(dirname "$file")" && pwd)/$(basename "$file")"
  # TTLP_MT parses Turtle (N-Triples is a subset); flag 0 = strict; then checkpoint so the data is durable.
  isql exec="SPARQL CLEAR GRAPH <$graph>; DB.DBA.TTLP_MT(file_to_string_output('$abs'), '', '$graph', 0); checkpoint;" >"$DIR/load.log" 2>&1 \
    || { cat "$DIR/load.log" >&2; die "load of $file failed"; }
  if grep -q '\*\*\* Error' "$DIR/load.log"; then cat "$DIR/load.log" >&2; die "load of $file failed"; fi
  local n
  n=$(curl -fsS -m 30 -H 'Accept: text/csv' \
    --data-urlencode "query=SELECT (COUNT(*) AS ?n) WHERE { GRAPH <$graph> { ?s ?p ?o } }" "$ENDPOINT" | tail -1)
  echo "loaded $n triples into <$graph>"
}

LABEL_PREDS=(http://www.w3.org/2000/01/rdf-schema#label http://www.w3.org/2004/02/skos/core#altLabel)

# A free-text rule per label predicate (objects of these predicates go into the text index that
# bif:contains searches), then the incremental index built over what is loaded.
fulltext_rules() {
  local sql="" p
  for p in "${LABEL_PREDS[@]}"; do sql+="DB.DBA.RDF_OBJ_FT_RULE_ADD(null, '$p', 'askgraph_labels');"; done
  isql exec="$sql" >"$DIR/fulltext.log" 2>&1 || { cat "$DIR/fulltext.log" >&2; die "free-text rule failed"; }
}
fulltext_index() {
  isql exec="DB.DBA.VT_INC_INDEX_DB_DBA_RDF_OBJ(); checkpoint;" >>"$DIR/fulltext.log" 2>&1 \
    || { cat "$DIR/fulltext.log" >&2; die "free-text index failed"; }
}

cmd_fulltext() {
  answers || die "not running (scripts/virtuoso.sh start)"
  ours || die "$ENDPOINT is not the server of $DIR"
  fulltext_rules
  fulltext_index
  echo "free-text index on ${LABEL_PREDS[*]}"
}

cmd_bulkload() {
  local dir="${1:-}" graph="${2:-}" ft="${3:-}"
  [ -n "$dir" ] && [ -n "$graph" ] || die "usage: virtuoso.sh bulkload DIR GRAPH [--fulltext]"
  [ -d "$dir" ] || die "no such directory: $dir"
  answers || die "not running (scripts/virtuoso.sh start)"
  ours || die "$ENDPOINT is not the server of $DIR"
  local abs loaders t0 n
  abs="$(cd "$dir" && pwd)"
  loaders="${VIRTUOSO_LOADERS:-2}"
  t0=$(date +%s)
  [ "$ft" = "--fulltext" ] && fulltext_rules
  # a graph loaded before is replaced: its quads go, and the loader's record of these files
  isql exec="log_enable(3,1); DELETE FROM DB.DBA.RDF_QUAD WHERE G = iri_to_id('$graph'); DELETE FROM DB.DBA.load_list WHERE ll_file LIKE '$abs/%'; ld_dir('$abs', '*.nt', '$graph'); ld_dir('$abs', '*.nt.gz', '$graph');" >"$DIR/bulkload.log" 2>&1 \
    || { cat "$DIR/bulkload.log" >&2; die "bulkload of $dir failed"; }
  local pids=() i
  for i in $(seq 1 "$loaders"); do
    isql exec="rdf_loader_run();" >>"$DIR/bulkload.log" 2>&1 &
    pids+=($!)
  done
  for i in "${pids[@]}"; do wait "$i" || die "a loader failed (see $DIR/bulkload.log)"; done
  isql exec="checkpoint;" >>"$DIR/bulkload.log" 2>&1 || die "checkpoint failed"
  local errors
  errors=$(isql exec="SELECT ll_file, ll_error FROM DB.DBA.load_list WHERE ll_file LIKE '$abs/%' AND ll_error IS NOT NULL;" 2>&1 | grep -c "$abs/" || true)
  [ "$errors" = "0" ] || { isql exec="SELECT ll_file, ll_error FROM DB.DBA.load_list WHERE ll_error IS NOT NULL;" >&2; die "$errors files failed to load"; }
  echo "loaded in $(( $(date +%s) - t0 )) s"
  if [ "$ft" = "--fulltext" ]; then
    local t1; t1=$(date +%s)
    fulltext_index
    echo "free-text index in $(( $(date +%s) - t1 )) s"
  fi
  n=$(curl -fsS -m 600 -H 'Accept: text/csv' \
    --data-urlencode "query=SELECT (COUNT(*) AS ?n) WHERE { GRAPH <$graph> { ?s ?p ?o } }" "$ENDPOINT" | tail -1)
  echo "loaded $n triples into <$graph> in $(( $(date +%s) - t0 )) s"
}

cmd_status() {
  if answers && ours; then echo "$ENDPOINT"
  elif answers; then echo "$ENDPOINT answers but is not the server of $DIR" >&2; return 2
  else echo "not running" >&2; return 1; fi
}

cmd_stop() {
  if ! answers; then echo "not running"; return 0; fi
  ours || die "$ENDPOINT is not the server of $DIR; not stopping it"
  isql exec="shutdown;" >/dev/null 2>&1 || true
  for _ in $(seq 1 60); do
    answers || { echo "stopped"; return 0; }
    sleep 0.5
  done
  die "server did not stop"
}

case "${1:-}" in
  start) cmd_start ;;
  load) shift; cmd_load "$@" ;;
  status) cmd_status ;;
  stop) cmd_stop ;;
  bulkload) shift; cmd_bulkload "$@" ;;
  fulltext) cmd_fulltext ;;
  *) die "usage: virtuoso.sh start|stop|status|load FILE GRAPH|bulkload DIR GRAPH [--fulltext]|fulltext" ;;
esac
