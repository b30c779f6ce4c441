"""Match the DO loops after the OpenMP directives of the given files with
the rows of `kaiseki parallel --format csv` (bench/npb_loops.sh)."""
import csv
import re
import sys

DIRECTIVE = re.compile(r"^\s*!\$omp\s+(parallel\s+do|do)\b", re.I)
CONTINUED = re.compile(r"^\s*!\$omp&", re.I)
DO = re.compile(r"^\s*(\d+\s+)?do\b(?!\s*while)", re.I)
UNIT = re.compile(
    r"^\s*(?:(?:recursive|pure|elemental|integer|real|double\s+precision|logical)\s+)*"
    r"(subroutine|function|program)\s+(\w+)", re.I)


def authors_loops(path):
    """(unit, line) of each DO loop an OpenMP directive parallelizes."""
    loops, unit, pending = [], None, False
    for n, line in enumerate(open(path, errors="replace"), 1):
        m = UNIT.match(line)
        if m:
            unit = m.group(2).upper()
        if DIRECTIVE.match(line):
            pending = True
        elif pending and DO.match(line) and not CONTINUED.match(line):
            loops.append((unit, n))
            pending = False
    return loops


def main():
    csv.field_size_limit(sys.maxsize)
    args = sys.argv[1:]
    verbose = args[0] == "-v"
    if verbose:
        args = args[1:]
    bench, table, files = args[0], args[1], args[2:]
    rows = {(r["unit"], int(r["loop_line"])): r for r in csv.DictReader(open(table))}
    loops = [loop for f in files for loop in authors_loops(f)]
    parallel = 0
    missed = []
    for loop in loops:
        row = rows.get(loop)
        verdict = row["verdict"] if row else "no row"
        if verdict.startswith("parallel"):
            parallel += 1
        else:
            blockers = row["blockers"].split(";")[:3] if row else []
            missed.append((loop, verdict, blockers))
    share = parallel / len(loops) if loops else 0
    print(f"{bench}: {parallel} of {len(loops)} loops the authors parallelized ({share:.0%})")
    if verbose:
        for (unit, line), verdict, blockers in missed:
            print(f"  {unit}:{line} {verdict}: {'; '.join(blockers)}")


main()
