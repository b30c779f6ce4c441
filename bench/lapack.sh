#!/usr/bin/env bash
# LAPACK's dgesvj.f as a user analyzing LAPACK gives it: alone, and with
# the routines it calls (dgsvj0, dgsvj1, dlascl, dlaset, dlassq, dlamch
# and what they need, the BLAS it calls), as in docs/benchmarks.md. Prints,
# for each input, the rows of `kaiseki deps --format csv`, the median wall
# seconds, CPU seconds and peak memory of $RUNS runs (default 3).
#
#   bench/lapack.sh LAPACK_DIR      # a Reference-LAPACK tree (SRC/, BLAS/SRC/, INSTALL/)
set -euo pipefail
lapack=$(cd "$1" && pwd)
cd "$(dirname "$0")/.."
k=$(realpath "${KAISEKI:-${CARGO_TARGET_DIR:-target}/release/kaiseki}")
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
runs=${RUNS:-3}
s=$lapack/SRC
b=$lapack/BLAS/SRC
alone=("$s/dgesvj.f")
called=("$s/la_constants.f90" "$s/la_xisnan.F90" "$s/dgesvj.f" "$s/dgsvj0.f" "$s/dgsvj1.f"
  "$s/dlascl.f" "$s/dlaset.f" "$s/dlassq.f90" "$lapack/INSTALL/dlamch.f" "$s/disnan.f"
  "$s/dlaisnan.f" "$b/daxpy.f" "$b/dcopy.f" "$b/ddot.f" "$b/dnrm2.f90" "$b/drot.f"
  "$b/drotm.f" "$b/dscal.f" "$b/dswap.f" "$b/idamax.f" "$b/lsame.f" "$b/xerbla.f")
median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
measure() { # label, files...
  local label=$1; shift
  for _ in $(seq "$runs"); do
    /usr/bin/time -f "%e %U %S %M" -o "$dir/time" "$k" deps --format csv "$@" > "$dir/rows.csv" 2>/dev/null || true
    tail -n 1 "$dir/time"
  done > "$dir/runs"
  local rows=$(($(wc -l < "$dir/rows.csv") - 1))
  echo "$label: $rows rows, $(cut -d' ' -f1 "$dir/runs" | median) s wall," \
    "$(awk '{ print $2 + $3 }' "$dir/runs" | median) s CPU, $(cut -d' ' -f4 "$dir/runs" | median) KB peak (median of $runs)"
}
measure "dgesvj.f alone" "${alone[@]}"
measure "dgesvj.f with what it calls (${#called[@]} files)" "${called[@]}"
