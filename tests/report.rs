//! `kaiseki report`: the HTML page marks every loop with its verdict and
//! clauses, a loop's panel lists what blocks it with the lines and the
//! proof behind it, HPF transfers show; and in a real browser (headless
//! Chromium) following a loop's link opens its panel on the blocker. The
//! screenshots stay under target/tmp/report_browser_out/ for people to
//! look at.

mod common;

use common::{example, kaiseki, kaiseki_ok, scratch_dir, source_file};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Loop 5 carries a flow dependence on A; loop 8 is parallel; loop 11 a
/// sum reduction.
const PROGRAM: &str = "      PROGRAM P
      REAL A(100), B(100), S
      INTEGER I
      S = 0.0
      DO 10 I = 2, 100
        A(I) = A(I-1) + B(I)
   10 CONTINUE
      DO 20 I = 1, 100
        B(I) = A(I) * 2.0
   20 CONTINUE
      DO 30 I = 1, 100
        S = S + B(I)
   30 CONTINUE
      PRINT *, S
      END
";

/// The report of `files` written into the scratch directory `dir`: its page.
fn report(dir: &str, files: &[&Path]) -> (PathBuf, String) {
    let out = scratch_dir(dir);
    let mut args = vec!["report".as_ref(), "-o".as_ref(), out.as_os_str()];
    args.extend(files.iter().map(|f| f.as_os_str()));
    kaiseki_ok(args);
    let index = out.join("index.html");
    let html = std::fs::read_to_string(&index).expect("index.html written");
    (index, html)
}

/// The element of `html` with id `id`, up to the end of its section.
fn section<'h>(html: &'h str, id: &str) -> &'h str {
    let at = html
        .find(&format!("id=\"{id}\""))
        .unwrap_or_else(|| panic!("no element {id}"));
    let start = html[..at].rfind('<').expect("its tag");
    let end = html[at..].find("</section>").map_or(html.len(), |e| at + e);
    &html[start..end]
}

#[test]
fn every_loop_is_marked_and_its_panel_lists_its_blockers() {
    let file = source_file("report_page", "p.f", PROGRAM);
    let (_, html) = report("report_page_out", &[&file]);
    // Offline: nothing is fetched.
    for external in ["http://", "https://", "<link", " src="] {
        assert!(!html.contains(external), "{external} in the page");
    }
    assert!(html.contains("3 loops in 1 unit: "), "the header counts");
    // Each DO line is marked by its verdict, with its clauses.
    assert!(html.contains("<a class=\"badge v-sequential\" href=\"#loop-P-5\">"));
    assert!(html.contains("<a class=\"badge v-parallel\" href=\"#loop-P-8\">"));
    assert!(html.contains(
        "<a class=\"badge v-parallel-with-transforms\" href=\"#loop-P-11\">with transforms</a> \
         <span class=\"clauses\">reduction(+:S)</span>"
    ));
    // The sequential loop's panel: its blocker with the linked lines, the
    // carried dependences and the proof of the blocker.
    let panel = section(&html, "loop-P-5");
    assert!(
        panel.contains(
            "<tr><td>flow</td><td>A</td><td><a href=\"#L0-6\">6:9</a></td>\
             <td><a href=\"#L0-6\">6:16</a></td><td>(&lt;)</td><td>(1)</td>"
        ),
        "{panel}"
    );
    assert!(panel.contains("<h3>Carried dependences</h3>"), "{panel}");
    assert!(
        panel.contains("blocker(DO I@5, &quot;flow A 6-&gt;6&quot;)  by parallel.dl:"),
        "{panel}"
    );
    assert!(panel.contains("<h3>Unroll</h3>"), "{panel}");
    // A parallel loop has nothing blocking it.
    assert!(!section(&html, "loop-P-8").contains("What blocks it"));
}

/// A timing loop as TSVC's: the call of a routine not among the files
/// excludes it, and carries dependences on what it is given. Loop 8 reads
/// X(1) in every iteration: input dependences only.
const TIMED: &str = "      SUBROUTINE S(N, A, B, X, Y)
      INTEGER N, I, NL
      REAL A(N), B(N), X(N), Y(N)
      DO 1 NL = 1, 10
        DO 10 I = 2, N
          A(I) = A(I-1) + B(I)
   10   CONTINUE
        CALL DUMMY(A, B)
    1 CONTINUE
      DO 20 I = 1, N
        Y(I) = X(1) + X(I)
   20 CONTINUE
      END
";

#[test]
fn what_excludes_a_loop_leads_its_panel_and_its_do_line() {
    let file = source_file("report_timed", "t.f", TIMED);
    let (_, html) = report("report_timed_out", &[&file]);
    let panel = section(&html, "loop-S-4");
    // The call is the first blocker listed and the first proved, before
    // the dependences it carries through A and B.
    let first_row = panel
        .split("<tr>")
        .nth(2)
        .expect("a blocker row after the header");
    assert!(
        first_row
            .starts_with("<td colspan=\"2\">call DUMMY 8</td><td><a href=\"#L0-8\">8</a></td>"),
        "{panel}"
    );
    let proof = panel.find("<summary>").expect("a proof");
    assert!(
        panel[proof..].starts_with("<summary>call DUMMY 8</summary>"),
        "{panel}"
    );
    // The DO line says why, with how many more blockers there are.
    let blockers = panel.matches("<tr><td").count();
    assert!(blockers > 1, "{panel}");
    assert!(
        html.contains(&format!(
            "href=\"#loop-S-4\">excluded</a> <span class=\"why\">call DUMMY 8 · {} more</span>",
            blockers - 1
        )),
        "{html}"
    );
    // The sequential inner loop's DO line names its flow dependence.
    assert!(html.contains("<span class=\"why\">flow A 6-&gt;6</span>"));
    // The header says what stops loops first, most loops first.
    assert!(
        html.contains(
            "<p class=\"stops\">Stopped first by: <span class=\"why\">call DUMMY</span> 1 loop · \
             <span class=\"why\">flow A</span> 1 loop</p>"
        ),
        "{html}"
    );
    // Input dependences block nothing: counted, not listed.
    let reads = section(&html, "loop-S-10");
    assert!(!reads.contains("<td>input</td>"), "{reads}");
    assert!(reads.contains("input dependence"), "{reads}");
}

/// A stencil reads U twice on one line from other processors.
const STENCIL: &str = "      PROGRAM H
      REAL U(100), V(100)
!HPF$ DISTRIBUTE U(BLOCK)
!HPF$ ALIGN V(I) WITH U(I)
      DO 10 I = 1, 100
        U(I) = I
   10 CONTINUE
      DO 20 I = 2, 99
        V(I) = U(I-1) + U(I+1)
   20 CONTINUE
      PRINT *, V(50)
      END
";

#[test]
fn remote_reads_of_one_array_on_a_line_are_one_mark() {
    let file = source_file("report_stencil", "h.f", STENCIL);
    let (_, html) = report("report_stencil_out", &[&file]);
    let at = html.find("<tr id=\"L0-9\"").expect("line 9");
    let line = &html[at..at + html[at..].find("</tr>").expect("its end")];
    assert_eq!(line.matches("class=\"xfer").count(), 1, "{line}");
    assert!(line.contains("⇄ U needed ×2</span>"), "{line}");
    // The panel still lists both reads.
    assert!(
        section(&html, "loop-H-8").contains("<h3>Transfers (2)</h3>"),
        "{html}"
    );
}

#[test]
fn an_hpf_program_shows_its_transfers() {
    let (_, html) = report("report_hpf", &[&example("li_harada_fig1.f90")]);
    assert!(html.contains("class=\"xfer c-"), "no transfer marked");
    assert!(
        html.contains("<h3>Transfers ("),
        "no loop lists its transfers"
    );
}

#[test]
fn bad_input_is_located_and_the_report_still_written() {
    let bad = source_file(
        "report_bad",
        "bad.f",
        "      PROGRAM P\n      REAL A(10)\n      DO 10 I = 1, 10\n        A(I) = = 1.0\n   10 CONTINUE\n      END\n",
    );
    let out = scratch_dir("report_bad_out");
    let run = kaiseki([
        "report".as_ref(),
        bad.as_os_str(),
        "-o".as_ref(),
        out.as_os_str(),
    ]);
    assert_eq!(run.code, Some(1), "{run:?}");
    assert!(run.stderr.contains("bad.f:4:"), "{}", run.stderr);
    let html = std::fs::read_to_string(out.join("index.html")).expect("written");
    assert!(html.contains("v-unknown"), "the loop around it is unknown");
}

/// Headless Chromium: CI installs it (.ci/run); a machine without it fails
/// here rather than skip the only test of what a reader sees.
fn chromium() -> &'static str {
    let found = Command::new("chromium").arg("--version").output();
    assert!(
        found.is_ok_and(|o| o.status.success()),
        "chromium is not installed: `apt-get install chromium` (.ci/run installs it)"
    );
    "chromium"
}

/// Chromium's headless run of `url` with `args`: its standard output.
fn headless(url: &str, args: &[&str]) -> String {
    let out = Command::new(chromium())
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--hide-scrollbars",
        ])
        .args(args)
        .arg(url)
        .output()
        .expect("chromium runs");
    assert!(out.status.success(), "chromium {args:?} {url}: {out:?}");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn in_a_browser_a_click_on_a_loop_opens_the_panel_on_its_blocker() {
    let file = source_file("report_browser", "p.f", PROGRAM);
    let (index, html) = report("report_browser_out", &[&file]);
    let page = format!("file://{}", index.display());
    // The link a reader clicks on the DO line of the sequential loop.
    let mark = "<a class=\"badge v-sequential\" href=\"";
    let at = html.find(mark).expect("a sequential loop") + mark.len();
    let href = &html[at..at + html[at..].find('"').expect("the link's end")];
    assert_eq!(href, "#loop-P-5");
    // Before the click no panel is open; after it, the loop's panel is,
    // on its blocker, and the loop's lines are highlighted.
    let before = headless(&page, &["--dump-dom"]);
    assert!(
        !before.contains("loop-panel open"),
        "a panel open before any click"
    );
    let after = headless(&format!("{page}{href}"), &["--dump-dom"]);
    let open = section(&after, "loop-P-5");
    assert!(open.contains("class=\"loop-panel open\""), "{open}");
    assert!(
        open.contains("<td>flow</td><td>A</td>"),
        "the panel does not show the blocker: {open}"
    );
    assert!(after.contains("<tr id=\"L0-6\" class=\"in v-sequential hl\">"));
    // Screenshots for people: the page, and the page on the loop.
    let shots = index.parent().expect("the report's directory");
    for (name, url) in [
        ("page.png", page.clone()),
        ("loop.png", format!("{page}{href}")),
    ] {
        let png = shots.join(name);
        let arg = format!("--screenshot={}", png.display());
        headless(&url, &[&arg, "--window-size=1400,900"]);
        let bytes = std::fs::read(&png).expect("screenshot written");
        assert!(bytes.starts_with(b"\x89PNG"), "{name} is no PNG");
    }
}
