//! Plain-text tables with aligned columns, for people.

/// Renders `header` and `rows` with each column padded to its widest cell.
pub fn render(header: &[&str], rows: &[Vec<String>]) -> String {
    let mut widths: Vec<usize> = header.iter().map(|h| h.len()).collect();
    for row in rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let line = |cells: &mut dyn Iterator<Item = &str>| -> String {
        let padded: Vec<String> = cells
            .zip(&widths)
            // Padded by hand: a format width above 65,535 panics, and a
            // cell (the blockers of a loop of a real program) can be longer.
            .map(|(c, w)| c.to_string() + &" ".repeat(w.saturating_sub(c.chars().count())))
            .collect();
        padded.join("  ").trim_end().to_string() + "\n"
    };
    let mut out = line(&mut header.iter().copied());
    for row in rows {
        out.push_str(&line(&mut row.iter().map(String::as_str)));
    }
    out
}

/// Items a table cell shows at most; a loop of a real program can have
/// thousands of blockers.
pub const CELL_ITEMS: usize = 8;

/// `items` joined by `sep` for a table cell: at most [`CELL_ITEMS`], then
/// how many more and where to find them all (`rest`).
pub fn capped(items: &[String], sep: &str, rest: &str) -> String {
    if items.len() <= CELL_ITEMS {
        return items.join(sep);
    }
    let more = items.len() - CELL_ITEMS;
    format!(
        "{}{sep}... {more} more ({rest})",
        items[..CELL_ITEMS].join(sep)
    )
}

#[cfg(test)]
mod tests {
    #[test]
    fn columns_are_aligned() {
        let t = super::render(&["a", "bb"], &[vec!["xyz".into(), "1".into()]]);
        assert_eq!(t, "a    bb\nxyz  1\n");
    }

    #[test]
    fn cells_of_any_length_are_padded() {
        let long = "x".repeat(70_000);
        let t = super::render(
            &["a", "b"],
            &[vec![long.clone(), "1".into()], vec!["y".into(), "2".into()]],
        );
        let lines: Vec<&str> = t.lines().collect();
        assert_eq!(lines[1], format!("{long}  1"));
        assert_eq!(lines[2].len(), 70_003);
    }

    #[test]
    fn long_lists_are_capped_with_a_count() {
        let items: Vec<String> = (0..20).map(|i| i.to_string()).collect();
        assert_eq!(
            super::capped(&items, "; ", "see X"),
            "0; 1; 2; 3; 4; 5; 6; 7; ... 12 more (see X)"
        );
        assert_eq!(super::capped(&items[..2], "; ", "see X"), "0; 1");
    }
}
