//! The documentation that is generated stays in sync with the code.

use std::process::Command;

/// `docs/relations.md` is the output of `kaiseki facts --list`
/// (regenerate: `cargo run -- facts --list > docs/relations.md`).
#[test]
fn relation_docs_are_current() {
    let out = Command::new(env!("CARGO_BIN_EXE_kaiseki"))
        .args(["facts", "--list"])
        .output()
        .expect("run kaiseki");
    assert!(out.status.success());
    let listed = String::from_utf8(out.stdout).expect("utf-8");
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/relations.md");
    let doc = std::fs::read_to_string(path).expect("docs/relations.md");
    assert!(
        doc == listed,
        "docs/relations.md is stale: run `cargo run -- facts --list > docs/relations.md`"
    );
    for schema in kaiseki_facts::FactBase::SCHEMAS {
        assert!(listed.contains(&format!("## {}\n", schema.name)));
    }
}

/// Every relative link of README.md and docs/*.md resolves: the file (or
/// folder) it names exists, and an `#anchor` names a heading of the target
/// page under GitHub's slugs. Links inside code (fenced blocks, `spans`)
/// are not links; `http:`, `https:` and `mailto:` ones are not checked.
#[test]
fn relative_links_resolve() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut pages = vec![root.join("README.md")];
    let mut docs: Vec<_> = std::fs::read_dir(root.join("docs"))
        .expect("docs/")
        .map(|e| e.expect("docs/ entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    pages.extend(docs);
    let mut broken = Vec::new();
    for page in &pages {
        let text = std::fs::read_to_string(page).expect("read page");
        let shown = page.strip_prefix(root).unwrap_or(page).display();
        for (line, target) in links(&text) {
            if ["http:", "https:", "mailto:"]
                .iter()
                .any(|s| target.starts_with(s))
            {
                continue;
            }
            let (path, anchor) = match target.split_once('#') {
                Some((p, a)) => (p, Some(a)),
                None => (target.as_str(), None),
            };
            let file = if path.is_empty() {
                page.clone()
            } else {
                page.parent().expect("page folder").join(path)
            };
            if !file.exists() {
                broken.push(format!("{shown}:{line}: `{target}`: no such file"));
                continue;
            }
            if let Some(anchor) = anchor {
                let is_md = file.extension().is_some_and(|e| e == "md");
                let target_text = std::fs::read_to_string(&file).unwrap_or_default();
                if !is_md || !anchors(&target_text).iter().any(|a| a == anchor) {
                    broken.push(format!("{shown}:{line}: `{target}`: no such heading"));
                }
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

/// The lines that are not inside fenced code blocks, numbered from 1.
fn prose_lines(text: &str) -> Vec<(usize, &str)> {
    let mut fenced = false;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if !fenced {
            out.push((i + 1, line));
        }
    }
    out
}

/// The targets of the inline links and images `[text](target)` of a page,
/// with their line numbers; code spans are skipped.
fn links(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (number, line) in prose_lines(text) {
        let mut in_code = false;
        let chars: Vec<char> = line.chars().collect();
        let mut i = 0;
        while i < chars.len() {
            match chars[i] {
                '`' => in_code = !in_code,
                ']' if !in_code && chars.get(i + 1) == Some(&'(') => {
                    let rest: String = chars[i + 2..].iter().collect();
                    if let Some(end) = rest.find(')') {
                        let target = rest[..end].split_whitespace().next().unwrap_or("");
                        out.push((number, target.to_string()));
                        i += end + 2;
                    }
                }
                _ => {}
            }
            i += 1;
        }
    }
    out
}

/// The anchors GitHub gives the headings of a page: the heading's text in
/// lower case, without punctuation but `-` and `_`, spaces as `-`; the
/// second heading of one slug gets `-1`, the third `-2`, and so on.
fn anchors(text: &str) -> Vec<String> {
    let mut seen: std::collections::HashMap<String, usize> = Default::default();
    let mut out = Vec::new();
    for (_, line) in prose_lines(text) {
        let Some(heading) = line.strip_prefix('#') else {
            continue;
        };
        let heading = heading.trim_start_matches('#');
        if !heading.starts_with(' ') {
            continue;
        }
        let slug: String = heading
            .trim()
            .to_lowercase()
            .chars()
            .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
            .map(|c| if c == ' ' { '-' } else { c })
            .collect();
        let n = seen.entry(slug.clone()).or_insert(0);
        out.push(if *n == 0 {
            slug.clone()
        } else {
            format!("{slug}-{n}")
        });
        *n += 1;
    }
    out
}

#[test]
fn anchors_follow_github() {
    let page =
        "# Title\n## The unrolled program (`--emit`)\n```\n# not a heading\n```\n## Title\n#not\n";
    assert_eq!(
        anchors(page),
        ["title", "the-unrolled-program---emit", "title-1"]
    );
    let links = links("see [a](b.md#c) and `[x](y)`\n```\n[z](w)\n```\n![p](q.png)\n");
    assert_eq!(links, [(1, "b.md#c".to_string()), (5, "q.png".to_string())]);
}
