//! Writing statements as fixed-form or free-form source lines: labels,
//! indentation, DO loops closed by END DO or by a labelled CONTINUE, and
//! fixed-form continuation lines past column 72.

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    Fixed,
    Free,
}

impl Form {
    /// Fixed or free form, one chance in two: every generator writes both.
    pub fn either(rng: &mut super::Rng) -> Form {
        if rng.chance(50) {
            Form::Fixed
        } else {
            Form::Free
        }
    }
}

pub struct Emitter {
    pub form: Form,
    lines: Vec<String>,
    depth: usize,
    next_label: u32,
    /// The label that closes each open DO (None: closed by END DO).
    open_loops: Vec<Option<u32>>,
    /// The construct name of each open DO, if it has one.
    open_names: Vec<Option<String>>,
}

impl Emitter {
    pub fn new(form: Form) -> Emitter {
        Emitter {
            form,
            lines: Vec::new(),
            depth: 0,
            next_label: 100,
            open_loops: Vec::new(),
            open_names: Vec::new(),
        }
    }

    /// A fresh statement label (multiples of 10, in increasing order).
    pub fn label(&mut self) -> u32 {
        self.next_label += 10;
        self.next_label
    }

    pub fn comment(&mut self, text: &str) {
        let mark = if self.form == Form::Fixed { "C" } else { "!" };
        self.lines.push(format!("{mark} {text}"));
    }

    pub fn stmt(&mut self, text: &str) {
        self.labelled(None, text);
    }

    pub fn labelled(&mut self, label: Option<u32>, text: &str) {
        let indent = "  ".repeat(self.depth);
        match self.form {
            Form::Free => {
                let label = label.map_or(String::new(), |l| format!("{l} "));
                self.lines.push(format!("{label}{indent}{text}"));
            }
            Form::Fixed => {
                let label = label.map_or(String::new(), |l| l.to_string());
                let mut line = format!("{label:<5} {indent}{text}");
                // Columns 73+ are ignored in fixed form: continue on new lines,
                // breaking at a blank so that no token is split.
                while line.len() > 72 {
                    let cut = line[..72].rfind(' ').filter(|c| *c > 6).unwrap_or(72);
                    let rest = line[cut..].trim_start().to_string();
                    line.truncate(cut);
                    self.lines.push(line);
                    line = format!("     & {rest}");
                }
                self.lines.push(line);
            }
        }
    }

    /// Opens `DO var = bounds`; in fixed form, `labelled` asks for the
    /// F77 shape `DO 110 I = ...` closed by `110 CONTINUE`.
    pub fn open_do(&mut self, header: &str, labelled: bool) {
        let label = (labelled && self.form == Form::Fixed).then(|| self.label());
        match label {
            Some(l) => self.stmt(&format!("DO {l} {header}")),
            None => self.stmt(&format!("DO {header}")),
        }
        self.open_loops.push(label);
        self.open_names.push(None);
        self.depth += 1;
    }

    /// Opens `name: DO var = bounds`, closed by `END DO name`.
    pub fn open_named_do(&mut self, name: &str, header: &str) {
        self.stmt(&format!("{name}: DO {header}"));
        self.open_loops.push(None);
        self.open_names.push(Some(name.to_string()));
        self.depth += 1;
    }

    pub fn close_do(&mut self) {
        self.depth = self.depth.saturating_sub(1);
        let name = self.open_names.pop().flatten();
        match (self.open_loops.pop().flatten(), name) {
            (Some(l), _) => self.labelled(Some(l), "CONTINUE"),
            (None, Some(n)) => self.stmt(&format!("END DO {n}")),
            (None, None) => self.stmt("END DO"),
        }
    }

    pub fn indent(&mut self) {
        self.depth += 1;
    }

    pub fn dedent(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }

    pub fn finish(self) -> String {
        let mut text = self.lines.join("\n");
        text.push('\n');
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixed_form_puts_labels_in_columns_1_to_5_and_continues_long_lines() {
        let mut e = Emitter::new(Form::Fixed);
        e.open_do("I = 1, 3", true);
        e.stmt(&format!("X = {}", vec!["A(I)"; 20].join(" + ")));
        e.close_do();
        let text = e.finish();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "      DO 110 I = 1, 3");
        assert!(lines.iter().all(|l| l.len() <= 72), "{text}");
        assert!(lines[2].starts_with("     & "), "{text}");
        assert_eq!(*lines.last().unwrap(), "110   CONTINUE");
    }

    #[test]
    fn free_form_closes_loops_with_end_do() {
        let mut e = Emitter::new(Form::Free);
        e.open_do("I = 1, 3", true);
        e.stmt("X = 1");
        e.close_do();
        assert_eq!(e.finish(), "DO I = 1, 3\n  X = 1\nEND DO\n");
    }
}
