//! Parsing is linear: 100,000 generated lines parse well within the
//! frontend's budget on an idle machine (run with `cargo test --release -- --ignored`).

#[test]
#[ignore = "timing: run in release"]
fn parses_100k_lines_in_well_under_a_second() {
    let src = kaiseki_frontend::synth::synthetic_program(100_000, 7);
    let start = std::time::Instant::now();
    let (prog, diags) = kaiseki_frontend::parse_source("big.f", &src);
    let took = start.elapsed();
    assert!(
        diags.iter().all(|d| !d.is_error()),
        "{:?}",
        &diags[..diags.len().min(3)]
    );
    assert!(!prog.units.is_empty());
    eprintln!("{} lines in {took:?}", src.lines().count());
    // The whole frontend has one second for 100k lines; parsing gets half.
    assert!(took.as_millis() < 500, "{took:?}");
}
