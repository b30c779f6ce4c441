#!/bin/bash
# The loops the NAS Parallel Benchmarks' authors parallelized, against
# kaiseki's verdicts on the serial program.
#
#   bench/npb_loops.sh NPB_DIR [CLASS] [BENCHMARK...]
#
# NPB_DIR is an NPB3.4-OMP tree (unmodified); CLASS defaults to W, the
# benchmarks to "bt sp lu mg cg ft ep". kaiseki reads `!$` lines as
# comments, so the OpenMP sources are the serial program with the same
# line numbers. Each `!$omp parallel do` or `!$omp do` directive names the
# DO loop after it (with COLLAPSE(n), the outermost of the n); the script
# prints, per benchmark, how many of those loops `kaiseki parallel` calls
# parallel (with or without transforms), and with -v each loop kaiseki
# does not call parallel, its verdict and first blockers.
set -euo pipefail
verbose=
if [ "${1:-}" = -v ]; then verbose=-v; shift; fi
npb=$(cd "$1" && pwd)
class=${2:-W}
shift $(($# < 2 ? $# : 2))
benchmarks=${*:-bt sp lu mg cg ft ep}
kaiseki=$(realpath "${KAISEKI:-target/release/kaiseki}")
here=$(cd "$(dirname "$0")" && pwd)
. "$here/npb_files.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r "$npb" "$work/tree"
make -s -C "$work/tree/sys" > /dev/null
for b in $benchmarks; do
    up=$(echo "$b" | tr a-z A-Z)
    (cd "$work/tree/$up" && ../sys/setparams "$b" "$class")
    paths=()
    for f in $(npb_files "$b"); do paths+=("$work/tree/$up/$f.f90"); done
    for f in $(npb_common_files "$b"); do paths+=("$work/tree/common/$f.f90"); done
    "$kaiseki" parallel --format csv "${paths[@]}" 2> /dev/null > "$work/$b.csv" || true
    python3 "$here/npb_loops.py" $verbose "$b" "$work/$b.csv" "${paths[@]}"
done
