//! `kaiseki deps --format csv` writes each group of units' rows as soon as
//! they are found and frees what the group needed: peak memory follows the
//! input and the groups in flight, not the number of rows printed.
//!
//! The peak resident memory of the process is read from Linux's
//! `/proc/PID/status` (`VmHWM`, the high-water mark) while it runs.

mod common;

use common::{kaiseki_ok, scratch_dir};
use std::process::{Command, Stdio};
use std::time::Duration;

/// Runs `kaiseki args`, its output into `out`; returns its peak resident
/// memory in KB, the highest `VmHWM` read while it ran (read every
/// millisecond: the high-water mark only grows, so at most the last
/// millisecond's growth is missed).
fn peak_kb(args: &[&str], out: &std::path::Path) -> u64 {
    let file = std::fs::File::create(out).expect("output file created");
    let mut child = Command::new(env!("CARGO_BIN_EXE_kaiseki"))
        .args(args)
        .stdout(Stdio::from(file))
        .stderr(Stdio::null())
        .spawn()
        .expect("the kaiseki binary runs");
    let status = format!("/proc/{}/status", child.id());
    let mut peak = 0;
    loop {
        if let Ok(text) = std::fs::read_to_string(&status) {
            let hwm = text
                .lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok());
            peak = peak.max(hwm.unwrap_or(0));
        }
        if let Some(code) = child.try_wait().expect("waited") {
            assert!(code.success(), "kaiseki {args:?} failed");
            return peak;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// Four times the units of the shared-array shape (nests over the same
/// three arrays, 50 per unit) give four times the rows; on one thread the
/// peak memory grows by far less.
#[test]
fn four_times_the_rows_do_not_take_four_times_the_memory() {
    let dir = scratch_dir("deps_streaming");
    let mut measured = Vec::new();
    for nests in ["50", "200"] {
        let source = dir.join(format!("shared{nests}.f"));
        let text = kaiseki_ok(["synth", "nests", "--shared", "--size", nests]);
        std::fs::write(&source, text).expect("program written");
        let out = dir.join(format!("shared{nests}.csv"));
        let path = source.to_str().expect("utf-8 path");
        let peak = peak_kb(&["deps", path, "--format", "csv", "--jobs", "1"], &out);
        let rows = std::fs::read_to_string(&out)
            .expect("output read")
            .lines()
            .count()
            - 1;
        measured.push((rows, peak));
    }
    let [(rows1, peak1), (rows4, peak4)] = measured[..] else {
        unreachable!("two runs")
    };
    eprintln!("rows {rows1} -> {rows4}, peak memory {peak1} KB -> {peak4} KB");
    assert!(rows1 > 20_000, "{rows1} rows: the shape gives many rows");
    assert!(
        rows4 as f64 >= 3.5 * rows1 as f64,
        "{rows1} -> {rows4} rows: about four times"
    );
    assert!(
        (peak4 as f64) < 1.5 * peak1 as f64,
        "peak memory {peak1} KB -> {peak4} KB for {rows1} -> {rows4} rows"
    );
}
