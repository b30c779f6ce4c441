#!/bin/bash
# kaiseki on TSVC (Callahan, Dongarra, Levine; the Fortran suite as PIPS
# validates it): how many loop subroutines get a parallel loop, without
# and with `--transform`, against PIPS's validation output, and whether
# the transformed program, linked with the unmodified driver, prints the
# serial build's checksums on 1 and 4 threads.
#
#   bench/tsvc.sh TSVC_DIR
#
# TSVC_DIR holds loops.f, mains.f, a `second.f` (the timer the suite leaves
# to its user) and PIPS's tsvc.result/test. Counting: a subroutine of
# loops.f whose name starts with S counts when kaiseki's output has at
# least one `!$OMP PARALLEL DO` in it; a row of tsvc.result/test (one per
# S* module PIPS analyzed) counts when its column 2 (DOALL loops after
# plain parallelization) or column 4 (after coarse-grain parallelization)
# is not 0. Both count parallel loops, not profitable ones: kaiseki
# writes a directive on every outermost parallel loop (`--every-loop`),
# also on those inside the timing loops whose work would not pay for a
# region. The checksum comparison leaves out the Seconds column. Work
# files go to $WORK (default /tmp/tsvc_kaiseki); $KAISEKI is the binary.
#
# With WITH_DRIVER=1, kaiseki reads mains.f with loops.f, as PIPS's
# validation run does (`create tsvc mains.f loops.f`): the driver's
# `dummy`, called in every timing loop, is then known to do nothing, and
# the timing loops themselves may be parallel (each repetition computes
# the same values). The suite's rules forbid that analysis of the driver;
# only loops.f is written back and linked with the driver as it is.
set -euo pipefail
tsvc=$(cd "$1" && pwd)
kaiseki=$(realpath "${KAISEKI:-target/release/kaiseki}")
work=${WORK:-/tmp/tsvc_kaiseki}
mkdir -p "$work"
cd "$work"
cp "$tsvc/loops.f" loops.f

if [ "${WITH_DRIVER:-0}" = 1 ]; then
    cp "$tsvc/mains.f" mains.f
    rm -rf plain.d transformed.d
    "$kaiseki" openmp --every-loop mains.f loops.f -o plain.d 2>plain.log || true
    "$kaiseki" openmp --every-loop mains.f loops.f --transform -o transformed.d 2>transformed.log || true
    cp plain.d/loops.f plain.f
    cp transformed.d/loops.f transformed.f
else
    "$kaiseki" openmp --every-loop loops.f -o plain.f 2>plain.log || true
    "$kaiseki" openmp --every-loop loops.f --transform -o transformed.f 2>transformed.log || true
fi

# The S* subroutines with a directive, one per line.
with_directive() {
    awk 'toupper($1) == "SUBROUTINE" { split($2, n, "("); unit = tolower(n[1]) }
         /^!\$OMP PARALLEL DO/ && unit ~ /^s/ { print unit }' "$1" | sort -u
}
with_directive plain.f >plain.units
with_directive transformed.f >transformed.units
total=$(awk 'toupper($1) == "SUBROUTINE" { split($2, n, "("); if (tolower(n[1]) ~ /^s/) c++ } END { print c }' loops.f)
echo "kaiseki: $(wc -l <plain.units) of $total S subroutines with a parallel loop, $(wc -l <transformed.units) with --transform"
awk '/^S/ { n++; if ($2 > 0) a++; if ($4 > 0) c++ }
     END { print "PIPS:    " a " of " n " modules with a DOALL loop, " c " after coarse-grain parallelization" }' \
    "$tsvc/tsvc.result/test"
awk '/^S/ && $2 > 0 { print tolower($1) }' "$tsvc/tsvc.result/test" | sort >pips.units
echo "PIPS only: $(comm -23 pips.units transformed.units | tr '\n' ' ')"
echo "kaiseki only: $(comm -13 pips.units transformed.units | tr '\n' ' ')"

# The driver as the suite demands: 64-bit reals, no optimization.
flags="-fdefault-real-8 -fdefault-double-8 -std=legacy"
gfortran $flags -O0 -c "$tsvc/mains.f" -o mains.o
gfortran $flags -O0 -c "$tsvc/second.f" -o second.o
gfortran $flags -O2 -c loops.f -o serial_loops.o
gfortran $flags -O2 -fopenmp -c transformed.f -o omp_loops.o
gfortran -o serial mains.o serial_loops.o second.o
gfortran -fopenmp -o omp mains.o omp_loops.o second.o
checksums() { awk '/^ [a-z0-9]+ +[0-9]+ +-?[0-9.]+ / { $3 = ""; print }' "$1"; }
./serial >serial.out
checksums serial.out >serial.sums
status=0
# Passive waiting: on a machine with fewer cores than threads, spinning
# threads make the 100,000 short regions of a timing loop crawl.
for t in 1 4; do
    OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-passive} OMP_NUM_THREADS=$t ./omp >omp$t.out
    checksums omp$t.out >omp$t.sums
    if diff serial.sums omp$t.sums >diff$t.txt; then
        echo "$t threads: $(wc -l <omp$t.sums) rows, the serial checksums"
    else
        echo "$t threads: checksums differ ($work/diff$t.txt)"
        status=1
    fi
done
exit $status
