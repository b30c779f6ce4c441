//! The report as one self-contained HTML page (its CSS and JavaScript
//! inline, nothing fetched: it opens from a file in any browser, offline):
//! an index of units and loops with their verdict counts, every source
//! file with each loop marked by its verdict, and per loop a panel of its
//! clauses, blockers, carried dependences, proofs, unroll decision and
//! transfers, opened by a click on the loop (`#loop-UNIT-LINE`). Long
//! lists are cut at [`SHOWN`] rows with a count of the rest, so that a
//! routine with thousands of blockers still reads.

use super::{Carried, Findings, LoopReport, Unroll};
use crate::comm::CommRow;
use kaiseki_frontend::ast::SourceFile;
use std::collections::{BTreeMap, HashMap};
use std::fmt::Write;

/// Rows a list of the panel shows; the rest are counted.
pub const SHOWN: usize = 12;

/// Blockers the header names, those that stop the most loops.
const STOPS: usize = 5;

/// The verdicts in the order the report counts them, with their labels.
const VERDICTS: [(&str, &str); 5] = [
    ("parallel", "parallel"),
    ("parallel-with-transforms", "with transforms"),
    ("sequential", "sequential"),
    ("excluded", "excluded"),
    ("unknown", "unknown"),
];

const STYLE: &str = include_str!("page.css");
const SCRIPT: &str = include_str!("page.js");

/// The page of `findings` over `files` (the files read, INCLUDEd ones
/// among them); `title` heads it.
pub fn page(title: &str, files: &[SourceFile], findings: &Findings) -> String {
    let file_ix: HashMap<&str, usize> = files
        .iter()
        .enumerate()
        .map(|(i, f)| (f.path.as_str(), i))
        .collect();
    let mut out = String::new();
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <title>{}</title><style>{STYLE}</style></head><body>\n",
        esc(title)
    );
    header(&mut out, title, findings);
    index(&mut out, findings, &file_ix);
    sources(&mut out, files, findings, &file_ix);
    panels(&mut out, findings, &file_ix);
    let _ = write!(out, "<script>{SCRIPT}</script>\n</body></html>\n");
    out
}

/// `&`, `<`, `>` and `"` as entities.
fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            c => out.push(c),
        }
    }
    out
}

fn label(verdict: &str) -> &str {
    VERDICTS
        .iter()
        .find(|(v, _)| *v == verdict)
        .map_or(verdict, |(_, l)| l)
}

/// The anchor of a source line: `L<file>-<line>`.
fn line_anchor(file: usize, line: i64) -> String {
    format!("L{file}-{line}")
}

/// How many loops have each verdict, as badges.
fn counts<'a>(loops: impl Iterator<Item = &'a LoopReport>) -> String {
    let mut n: HashMap<&str, usize> = HashMap::new();
    for l in loops {
        *n.entry(l.decision.verdict.as_str()).or_default() += 1;
    }
    let mut out = String::new();
    for (v, l) in VERDICTS {
        if let Some(k) = n.get(v) {
            let _ = write!(out, "<span class=\"badge v-{v}\">{k} {l}</span> ");
        }
    }
    out
}

/// `1 loop`, `2 loops`.
fn count(n: usize, what: &str) -> String {
    format!("{n} {what}{}", if n == 1 { "" } else { "s" })
}

/// The title, the loops by verdict and, in an HPF program, the transfers
/// by verdict.
fn header(out: &mut String, title: &str, f: &Findings) {
    let units: std::collections::BTreeSet<&str> =
        f.loops.iter().map(|l| l.decision.unit.as_str()).collect();
    let _ = write!(
        out,
        "<header><h1>{}</h1><p>{} in {}: {}",
        esc(title),
        count(f.loops.len(), "loop"),
        count(units.len(), "unit"),
        counts(f.loops.iter())
    );
    if !f.transfers.is_empty() {
        let mut by_verdict: BTreeMap<&str, usize> = BTreeMap::new();
        for (_, r) in &f.transfers {
            *by_verdict.entry(&r.verdict).or_default() += 1;
        }
        let _ = write!(out, " · {}:", count(f.transfers.len(), "remote read"));
        for (v, n) in by_verdict {
            let _ = write!(out, " <span class=\"xfer c-{0}\">{n} {0}</span>", esc(v));
        }
    }
    out.push_str("</p>");
    stops(out, f);
    out.push_str("</header>\n");
}

/// How many loops each blocker stops first (the one their DO lines
/// name), most first: TSVC's 139 excluded loops are its timing loops,
/// all stopped by the call of the driver's DUMMY, which a reader should
/// not have to click through them to learn.
fn stops(out: &mut String, f: &Findings) {
    let mut n: HashMap<String, usize> = HashMap::new();
    for l in &f.loops {
        if let Some(b) = l.blockers.first() {
            *n.entry(b.what()).or_default() += 1;
        }
    }
    if n.is_empty() {
        return;
    }
    let mut most: Vec<(String, usize)> = n.into_iter().collect();
    most.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    let shown: Vec<String> = most
        .iter()
        .take(STOPS)
        .map(|(what, k)| {
            format!(
                "<span class=\"why\">{}</span> {}",
                esc(what),
                count(*k, "loop")
            )
        })
        .collect();
    let rest = most.len().saturating_sub(STOPS);
    let _ = write!(
        out,
        "<p class=\"stops\">Stopped first by: {}{}</p>",
        shown.join(" · "),
        if rest > 0 {
            format!(" · {rest} other blockers")
        } else {
            String::new()
        }
    );
}

/// The units in file order, each with its counts and its loops.
fn index(out: &mut String, f: &Findings, file_ix: &HashMap<&str, usize>) {
    out.push_str("<nav id=\"index\"><h2>Units and loops</h2>\n");
    let mut units: Vec<(&str, Vec<&LoopReport>)> = Vec::new();
    for l in &f.loops {
        match units.iter_mut().find(|(u, _)| *u == l.decision.unit) {
            Some((_, ls)) => ls.push(l),
            None => units.push((l.decision.unit.as_str(), vec![l])),
        }
    }
    for (unit, loops) in units {
        let first = loops[0];
        let file = file_ix.get(first.file.as_str()).copied().unwrap_or(0);
        let _ = write!(
            out,
            "<div class=\"unit\"><h3><a href=\"#{}\">{}</a></h3><div class=\"counts\">{}</div><ul>",
            line_anchor(file, first.decision.loop_line),
            esc(unit),
            counts(loops.iter().copied())
        );
        for l in loops {
            let d = &l.decision;
            let _ = write!(
                out,
                "<li style=\"margin-left:{}em\"><a class=\"chip v-{}\" href=\"#{}\">DO {} · {}</a> {}</li>",
                d.depth - 1,
                d.verdict,
                l.anchor(),
                esc(&d.var),
                d.loop_line,
                label(&d.verdict)
            );
        }
        out.push_str("</ul></div>\n");
    }
    out.push_str("</nav>\n");
}

/// The clauses of a loop in OpenMP's words: `private(T) reduction(+:S)`.
fn clauses(l: &LoopReport) -> String {
    let d = &l.decision;
    let mut parts = Vec::new();
    let mut add = |name: &str, items: &[String]| {
        if !items.is_empty() {
            parts.push(format!("{name}({})", items.join(", ")));
        }
    };
    add("private", &d.private);
    add("lastprivate", &d.lastprivate);
    add("reduction", &d.reductions);
    add("induction", &d.inductions);
    esc(&parts.join(" "))
}

/// What follows a loop's verdict on its DO line: the clauses of a loop
/// that runs in parallel; the first reason of one that does not (what
/// excludes it, else its first flow dependence: [`super::Blocker::rank`])
/// and how many more there are, so that a reader sees why without
/// opening the panel, as a compiler's remark says it.
fn remark(l: &LoopReport) -> String {
    if matches!(
        l.decision.verdict.as_str(),
        "parallel" | "parallel-with-transforms"
    ) {
        return format!("<span class=\"clauses\">{}</span>", clauses(l));
    }
    let Some(first) = l.blockers.first() else {
        return String::new();
    };
    let rest = match l.blockers.len() - 1 {
        0 => String::new(),
        n => format!(" · {n} more"),
    };
    format!("<span class=\"why\">{}{rest}</span>", esc(&first.text))
}

/// The remote reads of one line, one mark per array and verdict (a
/// stencil reads TC four times on a line: one `⇄ TC needed ×4`, not four
/// marks running off the pane); the sections and owners on hover.
fn transfer_marks(rows: &[&CommRow]) -> String {
    let mut groups: Vec<(&str, &str, Vec<&CommRow>)> = Vec::new();
    for &r in rows {
        match groups
            .iter_mut()
            .find(|(a, v, _)| *a == r.array && *v == r.verdict)
        {
            Some((_, _, g)) => g.push(r),
            None => groups.push((r.array.as_str(), r.verdict.as_str(), vec![r])),
        }
    }
    let mut out = String::new();
    for (array, verdict, g) in groups {
        let title: Vec<String> = g
            .iter()
            .map(|r| format!("{} owned by {}, read by {}", r.section, r.owner, r.reader))
            .collect();
        let times = if g.len() > 1 {
            format!(" ×{}", g.len())
        } else {
            String::new()
        };
        let _ = write!(
            out,
            "<span class=\"xfer c-{0}\" title=\"{1}\">⇄ {2} {0}{times}</span> ",
            esc(verdict),
            esc(&title.join("\n")),
            esc(array)
        );
    }
    out
}

/// Every file, line by line: each DO line with its loop's verdict and
/// clauses, each line in a loop with the innermost loop's colour, each
/// remote read with its transfer's verdict.
fn sources(out: &mut String, files: &[SourceFile], f: &Findings, file_ix: &HashMap<&str, usize>) {
    out.push_str("<main id=\"source\">\n");
    let mut by_file: BTreeMap<usize, Vec<&LoopReport>> = BTreeMap::new();
    for l in &f.loops {
        if let Some(&k) = file_ix.get(l.file.as_str()) {
            by_file.entry(k).or_default().push(l);
        }
    }
    let mut transfers: HashMap<(&str, i64), Vec<&CommRow>> = HashMap::new();
    for (file, r) in &f.transfers {
        transfers
            .entry((file.as_str(), r.line))
            .or_default()
            .push(r);
    }
    for (k, file) in files.iter().enumerate() {
        let loops = by_file.remove(&k).unwrap_or_default();
        let _ = write!(
            out,
            "<h2 id=\"file-{k}\">{}</h2>\n<table class=\"src\">\n",
            esc(&file.path)
        );
        for (i, text) in file.lines.iter().enumerate() {
            let n = i as i64 + 1;
            // Loops are in line order: the last one around the line is the innermost.
            let inner = loops
                .iter()
                .rfind(|l| l.decision.loop_line <= n && n <= l.end_line);
            let class = inner.map_or(String::new(), |l| {
                format!(" class=\"in v-{}\"", l.decision.verdict)
            });
            let mut marks = String::new();
            for l in loops.iter().filter(|l| l.decision.loop_line == n) {
                let _ = write!(
                    marks,
                    "<a class=\"badge v-{}\" href=\"#{}\">{}</a> {}",
                    l.decision.verdict,
                    l.anchor(),
                    label(&l.decision.verdict),
                    remark(l)
                );
            }
            marks.push_str(&transfer_marks(
                transfers
                    .get(&(file.path.as_str(), n))
                    .map_or(&[][..], |v| &v[..]),
            ));
            // The marks follow the code on its line, as a compiler's remarks.
            if !marks.is_empty() {
                marks = format!("<span class=\"mk\">{marks}</span>");
            }
            let _ = writeln!(
                out,
                "<tr id=\"{}\"{class}><td class=\"ln\"><a href=\"#{0}\">{n}</a></td><td class=\"code\">{}{marks}</td></tr>",
                line_anchor(k, n),
                esc(text)
            );
        }
        out.push_str("</table>\n");
    }
    out.push_str("</main>\n");
}

/// The panel of every loop, hidden until its loop is clicked.
fn panels(out: &mut String, f: &Findings, file_ix: &HashMap<&str, usize>) {
    out.push_str(
        "<aside id=\"panel\"><div id=\"hint\"><h2>Click a loop</h2><p>A loop's verdict, \
         its clauses, what blocks it (each dependence linked to its lines) and the proof of a \
         blocker, its unroll decision and, in HPF programs, its transfers.</p></div>\n",
    );
    for l in &f.loops {
        let file = file_ix.get(l.file.as_str()).copied().unwrap_or(0);
        panel(out, l, file, &f.transfers);
    }
    out.push_str("</aside>\n");
}

/// `<a href="#L0-7">7</a>`, or `7:3` with a column.
fn line_link(file: usize, line: i64, col: i64) -> String {
    let text = if col > 0 {
        format!("{line}:{col}")
    } else {
        line.to_string()
    };
    format!("<a href=\"#{}\">{text}</a>", line_anchor(file, line))
}

/// `... and N more (what)`, when `total` passes [`SHOWN`].
fn more(out: &mut String, total: usize, what: &str) {
    if total > SHOWN {
        let _ = write!(
            out,
            "<p class=\"more\">… and {} more ({what})</p>",
            total - SHOWN
        );
    }
}

fn panel(out: &mut String, l: &LoopReport, file: usize, transfers: &[(String, CommRow)]) {
    let d = &l.decision;
    let _ = write!(
        out,
        "<section class=\"loop-panel\" id=\"{}\" data-file=\"{file}\" data-first=\"{}\" data-last=\"{}\">\
         <h2>DO {} · {} <span class=\"badge v-{}\">{}</span></h2>\
         <p class=\"where\">{} · {} lines {}–{} · depth {}</p>",
        l.anchor(),
        d.loop_line,
        l.end_line,
        esc(&d.var),
        d.loop_line,
        d.verdict,
        label(&d.verdict),
        esc(&d.unit),
        esc(&l.file),
        line_link(file, d.loop_line, 0),
        line_link(file, l.end_line, 0),
        d.depth
    );
    let clauses = clauses(l);
    if !clauses.is_empty() {
        // A loop that does not run in parallel gets no directive: its
        // clauses are what it would need once nothing blocks it.
        let what = match d.verdict.as_str() {
            "parallel" | "parallel-with-transforms" => "OpenMP:",
            _ => "Once unblocked it would need:",
        };
        let _ = write!(
            out,
            "<p>{what} <span class=\"clauses\">{clauses}</span></p>"
        );
    }
    blockers(out, l, file);
    carried(out, l);
    proofs(out, l);
    if let Some(u) = &l.unroll {
        unroll(out, u, file);
    }
    let mine: Vec<&CommRow> = transfers
        .iter()
        .filter(|(f, r)| {
            *f == l.file && r.unit == d.unit && d.loop_line <= r.line && r.line <= l.end_line
        })
        .map(|(_, r)| r)
        .collect();
    comm(out, &mine, file);
    out.push_str("</section>\n");
}

fn blockers(out: &mut String, l: &LoopReport, file: usize) {
    if l.blockers.is_empty() {
        return;
    }
    let _ = write!(
        out,
        "<h3>What blocks it ({})</h3><table class=\"blockers\"><tr><th>kind</th><th>variable</th>\
         <th>source</th><th>sink</th><th>direction</th><th>distance</th><th>rows</th></tr>",
        l.blockers.len()
    );
    for b in l.blockers.iter().take(SHOWN) {
        match &b.dependence {
            Some(dep) => {
                let _ = write!(
                    out,
                    "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                    esc(&dep.kind),
                    esc(&dep.var),
                    line_link(file, dep.src.0, dep.src.1),
                    line_link(file, dep.dst.0, dep.dst.1),
                    esc(&dep.direction),
                    esc(&dep.distance),
                    dep.rows
                );
            }
            None => {
                let at = b.line.map_or(String::new(), |n| line_link(file, n, 0));
                let _ = write!(
                    out,
                    "<tr><td colspan=\"2\">{}</td><td>{at}</td><td colspan=\"4\"></td></tr>",
                    esc(&b.text)
                );
            }
        }
    }
    out.push_str("</table>");
    more(
        out,
        l.blockers.len(),
        "kaiseki parallel --format csv lists all",
    );
}

/// The carried dependences but input ones: two reads block nothing, and
/// listed first (they are the most numerous) they hid the flow
/// dependence that blocks a loop; their rows are counted below.
fn carried(out: &mut String, l: &LoopReport) {
    let (input, shown): (Vec<&Carried>, Vec<&Carried>) =
        l.carried.iter().partition(|c| c.kind == "input");
    let inputs: usize = input.iter().map(|c| c.rows).sum();
    if shown.is_empty() {
        if inputs > 0 {
            let _ = write!(
                out,
                "<h3>Carried dependences</h3><p class=\"more\">{} (reads of the \
                 same element: they block nothing)</p>",
                count(inputs, "input dependence")
            );
        }
        return;
    }
    out.push_str(
        "<h3>Carried dependences</h3><table class=\"carried\"><tr><th>variable</th>\
         <th>kind</th><th>rows</th><th>distances</th></tr>",
    );
    for c in shown.iter().take(SHOWN) {
        let _ = write!(
            out,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            esc(&c.var),
            esc(&c.kind),
            c.rows,
            esc(&c.distances)
        );
    }
    out.push_str("</table>");
    more(out, shown.len(), "kaiseki deps --by-loop lists all");
    if inputs > 0 {
        let _ = write!(
            out,
            "<p class=\"more\">and {} (reads of the same element: they block nothing)</p>",
            count(inputs, "input dependence")
        );
    }
}

fn proofs(out: &mut String, l: &LoopReport) {
    if l.proofs.is_empty() {
        return;
    }
    out.push_str("<h3>Why: the proof of a blocker</h3>");
    for (i, (text, tree)) in l.proofs.iter().enumerate() {
        let _ = write!(
            out,
            "<details{}><summary>{}</summary><pre class=\"proof\">{}</pre></details>",
            if i == 0 { " open" } else { "" },
            esc(text),
            esc(tree)
        );
    }
    let d = &l.decision;
    let _ = write!(
        out,
        "<p class=\"more\">Any blocker: <code>kaiseki explain {} 'blocker(DO {}@{}, \"…\")'</code></p>",
        esc(&l.file),
        esc(&d.var),
        d.loop_line
    );
}

fn unroll(out: &mut String, unroll: &Unroll, file: usize) {
    let u = &unroll.row;
    let loops: Vec<String> = u.loops.iter().map(|&n| line_link(file, n, 0)).collect();
    let _ = write!(
        out,
        "<h3>Unroll</h3><table class=\"unroll\"><tr><th>nest</th><td>{} (loops {})</td></tr>\
         <tr><th>factors</th><td>{}</td></tr><tr><th>body ops</th><td>{}</td></tr>\
         <tr><th>cycles</th><td>{}</td></tr><tr><th>perf</th><td>{}</td></tr>\
         <tr><th>stop</th><td>{}</td></tr>",
        line_link(file, u.nest_line, 0),
        loops.join(", "),
        esc(&u.factors),
        esc(&u.body_ops),
        esc(&u.cycles),
        esc(&u.perf),
        esc(&u.stop)
    );
    if !unroll.why.is_empty() {
        out.push_str("<tr><th>why</th><td><ul class=\"why\">");
        for (reason, n) in unroll.why.iter().take(SHOWN) {
            let vectors = if *n > 1 {
                format!(" ({n} direction vectors)")
            } else {
                String::new()
            };
            let _ = write!(out, "<li>{}{vectors}</li>", esc(reason));
        }
        out.push_str("</ul>");
        more(out, unroll.why.len(), "kaiseki unroll lists all");
        out.push_str("</td></tr>");
    }
    out.push_str("</table>");
}

fn comm(out: &mut String, rows: &[&CommRow], file: usize) {
    if rows.is_empty() {
        return;
    }
    let _ = write!(
        out,
        "<h3>Transfers ({})</h3><table class=\"comm\"><tr><th>read</th><th>array</th>\
         <th>section</th><th>owner</th><th>verdict</th><th>send</th></tr>",
        rows.len()
    );
    for r in rows.iter().take(SHOWN) {
        let send = match (&r.condition[..], &r.send_section[..], r.send_at_line) {
            ("", "", _) => String::new(),
            (c, "", _) => format!("when {}", esc(c)),
            (_, s, Some(at)) => format!("{} after {}", esc(s), line_link(file, at, 0)),
            (_, s, None) => esc(s),
        };
        let _ = write!(
            out,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td class=\"c-{}\">{}</td><td>{send}</td></tr>",
            line_link(file, r.line, r.col),
            esc(&r.array),
            esc(&r.section),
            esc(&r.owner),
            esc(&r.verdict),
            esc(&r.verdict)
        );
    }
    out.push_str("</table>");
    more(out, rows.len(), "kaiseki comm lists all");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_lists_are_cut_with_a_count_of_the_rest() {
        let texts: Vec<String> = (1..=30).map(|i| format!("flow A{i} {i}->{i}")).collect();
        let mut l = LoopReport {
            file: "p.f".into(),
            blockers: texts
                .iter()
                .map(|t| {
                    super::super::Blocker::read(t, "P", 5, &super::super::CarriedRows::new(&[]))
                })
                .collect(),
            ..LoopReport::default()
        };
        l.decision.unit = "P".into();
        l.decision.loop_line = 5;
        l.decision.verdict = "sequential".into();
        l.decision.blockers = texts;
        let mut out = String::new();
        panel(&mut out, &l, 0, &[]);
        assert!(out.contains("What blocks it (30)"), "{out}");
        assert!(
            out.contains("<td>A12</td>") && !out.contains("<td>A13</td>"),
            "{out}"
        );
        assert!(
            out.contains("… and 18 more (kaiseki parallel --format csv lists all)"),
            "{out}"
        );
    }

    #[test]
    fn unroll_reasons_are_listed_once_each_and_cut() {
        let mut row = crate::unroll::UnrollRow {
            nest_line: 5,
            loops: vec![5, 6],
            ..Default::default()
        };
        row.blockers = (1..=30)
            .flat_map(|i| {
                ["<;>", "<;*", "=;>"]
                    .map(|d| format!("anti dependence on A{i} from line 7 to line 7 direction {d}"))
            })
            .collect();
        let mut out = String::new();
        unroll(&mut out, &Unroll::new(row), 0);
        assert_eq!(out.matches("<li>").count(), SHOWN, "{out}");
        assert!(
            out.contains(
                "<li>anti dependence on A1 from line 7 to line 7 (3 direction vectors)</li>"
            ),
            "{out}"
        );
        assert!(
            out.contains("… and 18 more (kaiseki unroll lists all)"),
            "{out}"
        );
    }

    #[test]
    fn text_is_escaped() {
        assert_eq!(
            esc("A(I) .LT. B & \"C\""),
            "A(I) .LT. B &amp; &quot;C&quot;"
        );
        assert_eq!(esc("<x>"), "&lt;x&gt;");
    }
}
