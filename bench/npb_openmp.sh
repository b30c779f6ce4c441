#!/bin/bash
# kaiseki's OpenMP programs of the NAS Parallel Benchmarks (Fortran, NPB 3.4's
# OpenMP version with its `!$` lines removed: the serial program its authors
# parallelized), built and run against the serial build.
#
#   bench/npb_openmp.sh NPB_DIR [CLASS] [BENCHMARK...]
#
# NPB_DIR is an NPB3.4-OMP tree (unmodified); CLASS defaults to S, the
# benchmarks to "bt sp lu mg cg ft ep". For each benchmark: the serial
# program (gfortran -O2) and kaiseki's (`kaiseki openmp` on the benchmark's
# files in build order, gfortran -O2 -fopenmp) are built in a copy of the
# tree under $WORK (default /tmp/npb_openmp); each is run (serial; OpenMP
# on $THREADS, default "1 2 4") and the script prints one line per run: the
# benchmark, the build, the threads, the time the benchmark reports and its
# verification. $KAISEKI is the binary (default target/release/kaiseki).
# Binaries are left in $WORK/bin (serial: NAME.CLASS.serial, OpenMP:
# NAME.CLASS.kaiseki) for a machine with more cores.
set -euo pipefail
npb=$(cd "$1" && pwd)
class=${2:-S}
shift $(($# < 2 ? $# : 2))
benchmarks=${*:-bt sp lu mg cg ft ep}
kaiseki=$(realpath "${KAISEKI:-target/release/kaiseki}")
work=${WORK:-/tmp/npb_openmp}
threads=${THREADS:-1 2 4}

. "$(dirname "$0")/npb_files.sh"

rm -rf "$work" && mkdir -p "$work/bin"
cp -r "$npb" "$work/tree"
cd "$work/tree"
# The serial program: every `!$` line (directives, conditional statements) removed.
find . -name '*.f90' -exec sed -i '/^[[:space:]]*!\$/d' {} +
sed -i 's/^FFLAGS\t= .*/FFLAGS\t= -O2/; s/^CFLAGS\t= .*/CFLAGS\t= -O2/' config/make.def
mkdir -p bin

build() { # benchmark, fflags, suffix
    local b=$1 up
    up=$(echo "$1" | tr a-z A-Z)
    sed -i "s/^FFLAGS\t= .*/FFLAGS\t= $2/" config/make.def
    rm -f "$up"/*.o "$up"/*.mod common/*.o
    make -s "$b" CLASS="$class" > "$work/$b.$3.build.log" 2>&1 ||
        { echo "$b $3: build failed (see $work/$b.$3.build.log)"; return 1; }
    mv "bin/$b.$class.x" "$work/bin/$b.$class.$3"
}

run() { # benchmark, suffix, threads
    local out
    out=$(OMP_NUM_THREADS=$3 "$work/bin/$1.$class.$2" 2>&1 || true)
    printf '%s %s %s threads: %s s, %s\n' "$1" "$2" "$3" \
        "$(echo "$out" | grep -i 'time in seconds' | awk '{print $NF}')" \
        "$(echo "$out" | grep -i -o -E 'verification +(= +)?(successful|unsuccessful|failed)' | head -1 | tr -s ' ')"
}

for b in $benchmarks; do
    up=$(echo "$b" | tr a-z A-Z)
    build "$b" -O2 serial || continue
    paths=()
    for f in $(npb_files "$b"); do paths+=("$up/$f.f90"); done
    for f in $(npb_common_files "$b"); do paths+=("common/$f.f90"); done
    mkdir -p "$work/omp_$b"
    "$kaiseki" openmp "${paths[@]}" -o "$work/omp_$b" > "$work/$b.kaiseki.log" 2>&1 ||
        { echo "$b: kaiseki openmp failed (see $work/$b.kaiseki.log)"; continue; }
    for p in "${paths[@]}"; do cp "$work/omp_$b/$(basename "$p")" "$p"; done
    echo "$b: $(grep -c '^!\$OMP PARALLEL DO' "$work"/omp_"$b"/*.f90 | awk -F: '{s+=$2} END {print s}') directives"
    build "$b" "-O2 -fopenmp" kaiseki || continue
    run "$b" serial 1
    for t in $threads; do run "$b" kaiseki "$t"; done
done
