#!/usr/bin/env bash
# Cold start of the CLI: a fresh `askgraph ask` process per run (the store snapshot and the entity index
# are built once first), and what `npx` adds. Prints min / median / max of wall time and the median CPU
# time (user + sys, all threads) — on a shared machine the CPU time is the steadier figure.
#
#   bash scripts/bench-cold.sh [runs=10] [question]
set -euo pipefail
cd "$(dirname "$0")/.."
N="${1:-10}"
Q="${2:-who directed Forrest Gump}"
TIME=/usr/bin/time
[ -x "$TIME" ] || { echo "bench-cold: needs GNU time (apt-get install -y time)" >&2; exit 2; }

stats() { # lines "wall cpu" → summary
  local lines wall cpu n
  lines="$(cat)"
  wall=$(cut -d' ' -f1 <<<"$lines" | sort -n)
  cpu=$(cut -d' ' -f2 <<<"$lines" | sort -n)
  n=$(wc -l <<<"$lines")
  printf '%-34s wall min %s s, median %s s, max %s s; CPU median %s s (n=%d)\n' "$1" \
    "$(head -1 <<<"$wall")" "$(sed -n "$(((n + 1) / 2))p" <<<"$wall")" "$(tail -1 <<<"$wall")" "$(sed -n "$(((n + 1) / 2))p" <<<"$cpu")" "$n"
}
run() { # command… → N lines "wall cpu"
  for _ in $(seq "$N"); do
    "$TIME" -f '%e %U %S' "$@" 2>&1 >/dev/null | tail -1 | awk '{ printf "%s %.2f\n", $1, $2 + $3 }'
  done
}

node bin/askgraph.js ask "$Q" >/dev/null # caches
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores"
run node bin/askgraph.js ask "$Q" | stats "node bin/askgraph.js ask"
run node bin/askgraph.js --version | stats "node bin/askgraph.js --version"
run npx --no-install askgraph --version | stats "npx askgraph --version"
