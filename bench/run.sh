#!/usr/bin/env bash
# The benchmarks of docs/benchmarks.md: generate the large programs, then
# time each pipeline with /usr/bin/time: the median wall seconds and peak
# memory of $RUNS runs (default 3), and the ratios that matter (doubling the
# input, against gfortran) as the median of $RUNS paired runs (the machine
# may be shared: quote medians and ratios). Run from anywhere:
#   bench/run.sh            # all
#   bench/run.sh frontend   # one of: frontend dataflow uniform legacy elements query nests shared sweeps driver hpf block spmd
#   RUNS=5 bench/run.sh uniform
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
k="${CARGO_TARGET_DIR:-target}/release/kaiseki"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

runs=${RUNS:-3}
runs_of() { # command... -> one line "wall_seconds peak_KB" per run
  for _ in $(seq "$runs"); do
    /usr/bin/time -f "%e %M" -o "$dir/time" "$@" >/dev/null 2>&1 || true
    tail -n 1 "$dir/time"
  done
}
median() { # column of numbers on stdin -> their median
  sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
measure() { # label, command...
  local label=$1; shift
  runs_of "$@" > "$dir/runs"
  echo "$label: $(cut -d' ' -f1 "$dir/runs" | median) s wall, $(cut -d' ' -f2 "$dir/runs" | median) KB peak (median of $runs)"
}
paired() { # label, command A, command B (each one string, split on blanks)
  # -> the median of the wall-time ratios A/B of $runs runs of A and B in
  # turn: it holds when the speed of a shared machine drifts.
  local label=$1 a=$2 b=$3
  for _ in $(seq "$runs"); do
    /usr/bin/time -f %e -o "$dir/time_a" $a >/dev/null 2>&1 || true
    /usr/bin/time -f %e -o "$dir/time_b" $b >/dev/null 2>&1 || true
    awk -v x="$(tail -n 1 "$dir/time_a")" -v y="$(tail -n 1 "$dir/time_b")" 'BEGIN { printf "%.4f\n", x / y }'
  done | median | awk -v l="$label" -v n="$runs" '{ printf "%s: %.2fx (median of %d pairs)\n", l, $1, n }'
}

what=${1:-all}
if [[ $what == all || $what == frontend ]]; then
  $k synth mixed --size 100000 > "$dir/mixed.f"
  echo "frontend: $(wc -l < "$dir/mixed.f") lines"
  measure "parse + lower (check)" $k check "$dir/mixed.f"
fi
if [[ $what == all || $what == dataflow ]]; then
  $k synth dataflow --size 50000 --vars 5000 > "$dir/flow.f"
  echo "dataflow: one unit, 50,000 statements, 5,000 scalars"
  measure "analyze, compiled rules" $k analyze "$dir/flow.f" -o "$dir/out1"
  measure "analyze, interpreted rules" $k analyze "$dir/flow.f" -o "$dir/out2" --rules rules/dl
  paired "analyze, interpreted / compiled rules" "$k analyze $dir/flow.f -o $dir/out2 --rules rules/dl" "$k analyze $dir/flow.f -o $dir/out1"
fi
if [[ $what == all || $what == uniform ]]; then
  # Every scalar used all over one unit: no variable dies early.
  $k synth dataflow --size 50000 --vars 5000 --spread uniform > "$dir/flat.f"
  $k synth dataflow --size 100000 --vars 10000 --spread uniform > "$dir/flat2.f"
  echo "uniform: one unit, $(wc -l < "$dir/flat.f") lines, 5,000 scalars used anywhere (and twice that: $(wc -l < "$dir/flat2.f") lines, 10,000 scalars)"
  measure "deps --format csv" $k deps "$dir/flat.f" --format csv
  measure "analyze" $k analyze "$dir/flat.f" -o "$dir/out3"
  measure "deps --format csv, twice the unit" $k deps "$dir/flat2.f" --format csv
  measure "analyze, twice the unit" $k analyze "$dir/flat2.f" -o "$dir/out4"
  $k synth dataflow --size 25000 --vars 2500 --spread uniform > "$dir/flat_half.f"
  paired "deps, the unit / half the unit" "$k deps $dir/flat.f --format csv" "$k deps $dir/flat_half.f --format csv"
  paired "deps, twice the unit / the unit" "$k deps $dir/flat2.f --format csv" "$k deps $dir/flat.f --format csv"
  paired "analyze, twice the unit / the unit" "$k analyze $dir/flat2.f -o $dir/out4" "$k analyze $dir/flat.f -o $dir/out3"
  if command -v gfortran >/dev/null; then
    # The same unit through gfortran, for comparison: parsing and checking
    # only, then compiling at -O1 and -O2.
    cp "$dir/flat.f" "$dir/flat_copy.f"
    measure "gfortran -fsyntax-only, for comparison" gfortran -fsyntax-only "$dir/flat_copy.f"
    measure "gfortran -O1 -c" gfortran -O1 -c "$dir/flat_copy.f" -o "$dir/flat.o"
    measure "gfortran -O2 -c" gfortran -O2 -c "$dir/flat_copy.f" -o "$dir/flat.o"
    paired "deps / gfortran -fsyntax-only" "$k deps $dir/flat.f --format csv" "gfortran -fsyntax-only $dir/flat_copy.f"
    for o in 1 2; do
      paired "deps / gfortran -O$o -c" "$k deps $dir/flat.f --format csv" "gfortran -O$o -c $dir/flat_copy.f -o $dir/flat.o"
    done
  fi
fi
if [[ $what == all || $what == legacy ]]; then
  # Scalars used all over one unit with the control flow real code has:
  # block IFs on two scalars and DO loops every few dozen statements (issue
  # 36: under 5 s and 2 GB), against the uniform unit of the same size.
  $k synth legacy --size 55000 --vars 5000 > "$dir/legacy.f"
  $k synth legacy --size 27500 --vars 2500 > "$dir/legacy_half.f"
  $k synth dataflow --size 50000 --vars 5000 --spread uniform > "$dir/flat.f"
  echo "legacy: one unit, $(wc -l < "$dir/legacy.f") lines, 5,000 scalars, block IFs and DO loops"
  measure "deps --format csv" $k deps "$dir/legacy.f" --format csv
  paired "deps, legacy / uniform unit" "$k deps $dir/legacy.f --format csv" "$k deps $dir/flat.f --format csv"
  paired "deps, legacy / half the legacy unit" "$k deps $dir/legacy.f --format csv" "$k deps $dir/legacy_half.f --format csv"
fi
if [[ $what == all || $what == elements ]]; then
  # The uniform unit with constant array elements for its scalars: a table
  # of coefficients read and updated all over a routine.
  $k synth dataflow --size 25000 --vars 2500 --spread elements > "$dir/tab_half.f"
  $k synth dataflow --size 50000 --vars 5000 --spread elements > "$dir/tab.f"
  echo "elements: one unit, $(wc -l < "$dir/tab.f") lines, 5,000 elements of 100 arrays used anywhere"
  measure "deps --format csv" $k deps "$dir/tab.f" --format csv
  measure "deps --format csv, half the unit" $k deps "$dir/tab_half.f" --format csv
  paired "deps, the unit / half the unit" "$k deps $dir/tab.f --format csv" "$k deps $dir/tab_half.f --format csv"
fi
if [[ $what == all || $what == query ]]; then
  # query and explain against analyze on the uniform unit (the issue's
  # goal: under 2x analyze), and a query that needs no rule.
  $k synth dataflow --size 10000 --vars 1000 --spread uniform > "$dir/flat10.f"
  echo "query: one unit, $(wc -l < "$dir/flat10.f") lines, 1,000 scalars used anywhere"
  measure "check (parse + lower)" $k check "$dir/flat10.f"
  measure "analyze" $k analyze "$dir/flat10.f" -o "$dir/out5"
  measure "explain 'flow(D,U,_)'" $k explain "$dir/flat10.f" 'flow(D,U,_)'
  measure "query 'flow(D,U,_), def(D,_,\"V0\")'" $k query "$dir/flat10.f" 'flow(D,U,_), def(D,_,"V0")'
  measure "query 'access(R,S,V)' (derived, no dataflow)" $k query "$dir/flat10.f" 'access(R,S,V)'
  measure "query 'def(D,_,\"V0\")' (no rule runs)" $k query "$dir/flat10.f" 'def(D,_,"V0")'
fi
if [[ $what == all || $what == nests ]]; then
  $k synth nests --size 2000 > "$dir/nests.f"
  echo "subscripts: 2,000 depth-3 loop nests, 10 array references each"
  # Every row of docs/benchmarks.md.
  measure "deps --format csv --loop-vars" $k deps "$dir/nests.f" --format csv --loop-vars
  measure "deps --format csv (default: without the DO loops' own index rows)" $k deps "$dir/nests.f" --format csv
  measure "deps --format csv --loop-vars --jobs 1" $k deps "$dir/nests.f" --format csv --loop-vars --jobs 1
  measure "deps --format csv --loop-vars, interpreted rules" $k deps "$dir/nests.f" --format csv --loop-vars --rules rules/dl
fi
if [[ $what == all || $what == shared ]]; then
  echo "shared arrays: depth-3 nests over the same three 2-D arrays, 50 nests per unit"
  for n in 400 800 2000; do
    $k synth nests --shared --size $n > "$dir/shared$n.f"
    measure "$n nests: deps --format csv --jobs 2" $k deps "$dir/shared$n.f" --format csv --jobs 2
  done
  paired "shared, 800 / 400 nests" "$k deps $dir/shared800.f --format csv --jobs 2" "$k deps $dir/shared400.f --format csv --jobs 2"
fi
if [[ $what == all || $what == sweeps ]]; then
  # One unit of depth-3 nests over three shared arrays, each nest
  # rewriting one of them whole (issue 36: 2,000 nests under 10 s and
  # 2 GB on 2 threads, twice the nests at most 2.5x the time). Without
  # array kills every reference pairs with every later one.
  for n in 1000 2000 4000; do
    $k synth sweeps --size $n > "$dir/sweeps$n.f"
  done
  echo "sweeps: one unit of nests rewriting three shared arrays"
  for n in 1000 2000 4000; do
    measure "$n nests: deps --format csv --jobs 2" $k deps "$dir/sweeps$n.f" --format csv --jobs 2
  done
  paired "sweeps, 2000 / 1000 nests" "$k deps $dir/sweeps2000.f --format csv --jobs 2" "$k deps $dir/sweeps1000.f --format csv --jobs 2"
  paired "sweeps, 4000 / 2000 nests" "$k deps $dir/sweeps4000.f --format csv --jobs 2" "$k deps $dir/sweeps2000.f --format csv --jobs 2"
fi
if [[ $what == all || $what == driver ]]; then
  $k synth driver --size 44 > "$dir/driver.f"
  $k synth driver --size 88 > "$dir/driver2.f"
  echo "driver: a timing harness of 44 units, $(wc -l < "$dir/driver.f") lines (and 88 units, $(wc -l < "$dir/driver2.f") lines)"
  measure "deps --format csv" $k deps "$dir/driver.f" --format csv
  measure "deps --format csv, twice the units" $k deps "$dir/driver2.f" --format csv
  paired "deps, twice the units / the units" "$k deps $dir/driver2.f --format csv" "$k deps $dir/driver.f --format csv"
fi
if [[ $what == all || $what == hpf ]]; then
  # One HPF unit of M blocks over two aligned distributed arrays: a shifted
  # copy, a read of one element, a logical IF, a copy back. The
  # communication analysis's interval fixpoint iterates about four times
  # per statement. The SPMD program it writes prints what the program
  # prints (checked by hand on 1, 2 and 4 ranks for 1,000 blocks).
  hpf() { # blocks
    awk -v m="$1" 'BEGIN {
      print "PROGRAM big\n  INTEGER, PARAMETER :: N = 100\n  REAL A(N), B(N)\n  INTEGER I\n  REAL X"
      print "!HPF$ DISTRIBUTE A(BLOCK)\n!HPF$ ALIGN B(I) WITH A(I)\n  X = 0\n  DO I = 1, N\n    A(I) = I\n    B(I) = 0.0\n  END DO"
      for (j = 0; j < m; j++) {
        k = j % 100 + 1
        print "  DO I = 2, N\n    B(I) = A(I-1) + " j "\n  END DO\n  X = X + B(" k ")"
        print "  IF (A(" k ") > 50.0) X = X - 1.0\n  DO I = 1, N\n    A(I) = B(I) * 0.5\n  END DO"
      }
      print "  PRINT *, X\nEND PROGRAM big"
    }'
  }
  hpf 1000 > "$dir/hpf1000.f90"
  hpf 2000 > "$dir/hpf2000.f90"
  echo "hpf: one unit, $(wc -l < "$dir/hpf1000.f90") lines (and $(wc -l < "$dir/hpf2000.f90"))"
  measure "comm" $k comm "$dir/hpf1000.f90"
  measure "comm, twice the unit" $k comm "$dir/hpf2000.f90"
  measure "spmd, twice the unit" $k spmd "$dir/hpf2000.f90" -o "$dir/hpf2000_mpi.f90"
  paired "comm, twice the unit / the unit" "$k comm $dir/hpf2000.f90" "$k comm $dir/hpf1000.f90"
  # The dependence graph of the same shape: every reference to A or B
  # pairs with every later one (the square of the blocks); covering
  # writes kill the pairs (rules/dl/subscripts.dl).
  hpf 200 > "$dir/hpf200.f90"
  hpf 400 > "$dir/hpf400.f90"
  measure "deps --format csv, 200 blocks" $k deps "$dir/hpf200.f90" --format csv
  measure "deps --format csv, 400 blocks" $k deps "$dir/hpf400.f90" --format csv
  paired "deps, 400 / 200 blocks" "$k deps $dir/hpf400.f90 --format csv" "$k deps $dir/hpf200.f90 --format csv"
fi
if [[ $what == all || $what == spmd ]] && command -v mpif90 >/dev/null; then
  # The textbook HPF program (Jacobi on a 256 x 256 (BLOCK, BLOCK) grid,
  # 100 steps) as SPMD Fortran + MPI on 1 and 4 ranks, against the
  # sequential program; each prints what the sequential one prints.
  src=frontend/tests/corpus/hpf_textbook.f90
  $k spmd "$src" -o "$dir/textbook_mpi.f90" >/dev/null 2>&1
  mpif90 -O2 -w "$dir/textbook_mpi.f90" -o "$dir/textbook_mpi"
  gfortran -O2 -w "$src" -o "$dir/textbook"
  echo "spmd: $src"
  measure "sequential (gfortran -O2)" "$dir/textbook"
  measure "SPMD, 1 rank" mpirun -n 1 "$dir/textbook_mpi"
  measure "SPMD, 4 ranks" mpirun -n 4 "$dir/textbook_mpi"
  mpirun -n 4 "$dir/textbook_mpi" 2>&1 >/dev/null | grep kaiseki-spmd || true
fi
if [[ $what == all || $what == block ]]; then
  # One straight-line block of N statements over one scalar: the chains
  # inside a block (rules/dl/access.dl) are N references long.
  block() { # statements
    awk -v n="$1" 'BEGIN {
      print "      SUBROUTINE S(X, Y)\n      REAL X, Y"
      for (i = 0; i < n; i++) print "      X = X + Y * " i % 7 ".0"
      print "      END"
    }'
  }
  block 10000 > "$dir/block1.f"
  block 20000 > "$dir/block2.f"
  echo "block: one basic block of 10,000 statements over one scalar (and 20,000)"
  measure "deps --format csv" $k deps "$dir/block1.f" --format csv
  measure "deps --format csv, twice the block" $k deps "$dir/block2.f" --format csv
  paired "deps, twice the block / the block" "$k deps $dir/block2.f --format csv" "$k deps $dir/block1.f --format csv"
fi
