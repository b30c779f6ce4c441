"""What a researcher reads from kaiseki in a notebook: the dependences each
loop carries, by kind, with the loop's parallelization verdict, and the
distances of the carried dependences.

    python3 examples/notebook/loops.py [PROGRAM.f] [OUT.png]

Runs `kaiseki deps --format csv --all` and `kaiseki parallel --format csv`
(the CSV contracts of docs/deps.md and docs/parallel.md) on PROGRAM (default: the TSVC-style loops
of tests/parallel/tsvc.f), loads them with pandas and draws OUT (default:
loops.png) with matplotlib. KAISEKI names the binary (default: the release
build of this repository, else `kaiseki` on the PATH).
"""
import io
import os
import shutil
import subprocess
import sys

import matplotlib

matplotlib.use("Agg")  # no display needed
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def kaiseki_binary():
    if "KAISEKI" in os.environ:
        return os.environ["KAISEKI"]
    built = os.path.join(ROOT, "target", "release", "kaiseki")
    return built if os.path.exists(built) else shutil.which("kaiseki")


def kaiseki_csv(*args):
    out = subprocess.run([kaiseki_binary(), *args], check=True, capture_output=True, text=True)
    return pd.read_csv(io.StringIO(out.stdout), dtype=str, keep_default_na=False)


def main():
    program = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "tests", "parallel", "tsvc.f")
    out = sys.argv[2] if len(sys.argv) > 2 else "loops.png"
    deps = kaiseki_csv("deps", program, "--format", "csv", "--all")
    loops = kaiseki_csv("parallel", program, "--format", "csv")

    # Dependences carried by a loop (carrier = the line of its DO), by kind.
    carried = deps[(deps.carrier != "0") & (deps.minimal == "true")].copy()
    carried["carrier"] = carried.carrier.astype(int)
    per_loop = carried.groupby(["carrier", "kind"]).size().unstack(fill_value=0)
    loops["loop_line"] = loops.loop_line.astype(int)
    verdict = loops.set_index("loop_line").verdict
    per_loop = per_loop.reindex(sorted(set(per_loop.index) | set(verdict.index)), fill_value=0)

    # The distance of each carried dependence at its carrying loop.
    def distance_at_carrier(row):
        lines = row.loops.split(";")
        dist = row.distance.split(";")
        d = dist[lines.index(str(row.carrier))] if str(row.carrier) in lines else "*"
        return None if d == "*" else int(d)

    carried["carried_distance"] = carried.apply(distance_at_carrier, axis=1)

    fig, (left, right) = plt.subplots(1, 2, figsize=(12, 0.28 * len(per_loop) + 2),
                                      gridspec_kw={"width_ratios": [3, 2]})
    per_loop.plot.barh(stacked=True, ax=left, width=0.8,
                       color={"flow": "tab:red", "anti": "tab:blue", "output": "tab:green",
                              "input": "tab:gray"})
    left.set_yticks(range(len(per_loop)))
    left.set_yticklabels([f"DO at line {line}: {verdict.get(line, '?')}" for line in per_loop.index],
                         fontsize=7)
    left.invert_yaxis()
    left.set_xlabel("minimal dependences the loop carries")
    left.set_ylabel("")
    left.set_title("Carried dependences and verdict per loop")
    # Known distances in order, then `*` (not one number: scalars, most often).
    shown = carried.carried_distance.map(lambda d: "*" if pd.isna(d) else str(int(d)))
    counts = shown.value_counts()
    order = sorted((d for d in counts.index if d != "*"), key=int) + (["*"] if "*" in counts else [])
    counts.reindex(order).plot.bar(ax=right, color="tab:purple", rot=0)
    right.set_xlabel("distance in iterations (* = not one number)")
    right.set_ylabel("carried dependences")
    right.set_title("Distances of the carried dependences")
    fig.suptitle(f"kaiseki on {os.path.basename(program)}")
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    print(f"{out}: {len(per_loop)} loops, {len(carried)} carried dependences")


main()
