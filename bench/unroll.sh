#!/usr/bin/env bash
# The speed of unroll-and-jam (docs/benchmarks.md, docs/unroll.md): each
# shape of bench/unroll/ compiled with gfortran -O2 as written, at the
# factors `kaiseki unroll` chooses, and unrolled along the innermost loop
# only by the same total factor. Prints the median of $RUNS runs (default
# 5) of user CPU seconds (the machine may be shared: wall time would
# measure the neighbours) and the speedups; every variant must print what
# the original prints. The factors are chosen for bench/unroll/x86.toml
# (this machine: a vector unit). Run from anywhere:
#   bench/unroll.sh            # mm k23 stencil jacobi
#   bench/unroll.sh mm         # one shape
# The factors shown are those of KERN's first nest that can be unrolled
# (jacobi: the stencil inside the time loop; its copy-back nest gets its
# own chosen factors, and the innermost-only vector of the stencil).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
k="${CARGO_TARGET_DIR:-target}/release/kaiseki"
machine=bench/unroll/x86.toml
runs=${RUNS:-5}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

median_seconds() { # executable -> median user seconds of $runs runs
  for _ in $(seq "$runs"); do
    /usr/bin/time -f %U -o "$dir/time" "$1" >/dev/null
    cat "$dir/time"
  done | sort -n | awk '{ t[NR] = $1 } END { print t[int((NR + 1) / 2)] }'
}

shapes=${*:-mm k23 stencil jacobi}
printf '%-8s %-8s %-9s %8s %8s %8s %9s %9s\n' shape chosen innermost original chosen innermost speedup inner-only
for shape in $shapes; do
  src=bench/unroll/$shape.f
  # The kernel is the first nest of subroutine KERN that is not blocked.
  chosen=$($k unroll "$src" --machine "$machine" --format csv |
    awk -F, '$1 == "KERN" && $10 != "not-permutable" { print $4; exit }' | tr ';' ',')
  total=$(echo "$chosen" | tr ',' '\n' | awk '{ p *= $1 } BEGIN { p = 1 } END { print p }')
  depth=$(echo "$chosen" | tr ',' '\n' | wc -l)
  inner=$(yes 1 | head -n $((depth - 1)) | tr '\n' ','; echo "$total")
  $k unroll "$src" --machine "$machine" --emit -o "$dir/${shape}_chosen.f" 2>/dev/null
  $k unroll "$src" --emit -o "$dir/${shape}_inner.f" --factors "$inner" 2>/dev/null
  cp "$src" "$dir/${shape}_orig.f"
  for v in orig chosen inner; do
    gfortran -O2 -w "$dir/${shape}_$v.f" -o "$dir/${shape}_$v"
    "$dir/${shape}_$v" > "$dir/${shape}_$v.out"
  done
  for v in chosen inner; do
    cmp -s "$dir/${shape}_orig.out" "$dir/${shape}_$v.out" ||
      { echo "$shape: the $v program prints something else" >&2; exit 1; }
  done
  t0=$(median_seconds "$dir/${shape}_orig")
  t1=$(median_seconds "$dir/${shape}_chosen")
  t2=$(median_seconds "$dir/${shape}_inner")
  printf '%-8s %-8s %-9s %8s %8s %8s %9s %9s\n' "$shape" "($chosen)" "($inner)" "$t0" "$t1" "$t2" \
    "$(awk "BEGIN { printf \"%.2fx\", $t0 / $t1 }")" "$(awk "BEGIN { printf \"%.2fx\", $t0 / $t2 }")"
done
