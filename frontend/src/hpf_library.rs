//! The functions of the HPF_LIBRARY module (HPF 1.1, section 7): in a unit
//! that USEs it they are intrinsics, which read their arguments and write
//! nothing. Elsewhere the same names are ordinary external functions. (The
//! library's inquiry subroutines need nothing: a CALL is a call.)

use crate::ast::Name;

const FUNCTIONS: &[&str] = &[
    "ALL_PREFIX",
    "ALL_SCATTER",
    "ALL_SUFFIX",
    "ANY_PREFIX",
    "ANY_SCATTER",
    "ANY_SUFFIX",
    "COPY_PREFIX",
    "COPY_SCATTER",
    "COPY_SUFFIX",
    "COUNT_PREFIX",
    "COUNT_SCATTER",
    "COUNT_SUFFIX",
    "GRADE_DOWN",
    "GRADE_UP",
    "IALL",
    "IALL_PREFIX",
    "IALL_SCATTER",
    "IALL_SUFFIX",
    "IANY",
    "IANY_PREFIX",
    "IANY_SCATTER",
    "IANY_SUFFIX",
    "ILEN",
    "IPARITY",
    "IPARITY_PREFIX",
    "IPARITY_SCATTER",
    "IPARITY_SUFFIX",
    "LEADZ",
    "MAXVAL_PREFIX",
    "MAXVAL_SCATTER",
    "MAXVAL_SUFFIX",
    "MINVAL_PREFIX",
    "MINVAL_SCATTER",
    "MINVAL_SUFFIX",
    "PARITY",
    "PARITY_PREFIX",
    "PARITY_SCATTER",
    "PARITY_SUFFIX",
    "POPCNT",
    "POPPAR",
    "PRODUCT_PREFIX",
    "PRODUCT_SCATTER",
    "PRODUCT_SUFFIX",
    "SORT_DOWN",
    "SORT_UP",
    "SUM_PREFIX",
    "SUM_SCATTER",
    "SUM_SUFFIX",
];

fn is_function(name: &str) -> bool {
    FUNCTIONS.contains(&name)
}

/// The library functions one `USE HPF_LIBRARY` statement makes visible.
pub struct LibraryUse<'a> {
    /// `ONLY:` was given: just `names` are visible.
    pub only: bool,
    /// (local name, library name): the ONLY list, or renames.
    pub names: &'a [(Name, String)],
}

impl LibraryUse<'_> {
    /// Whether `local` names a library function in the unit. A renamed
    /// function is visible only by its new name.
    pub fn sees(&self, local: &str) -> bool {
        let listed = self
            .names
            .iter()
            .any(|(l, lib)| l.text == local && is_function(lib));
        listed
            || !self.only && is_function(local) && !self.names.iter().any(|(_, lib)| lib == local)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn name(s: &str) -> Name {
        Name {
            text: s.into(),
            pos: Default::default(),
        }
    }

    #[test]
    fn only_lists_and_renames() {
        let all = LibraryUse {
            only: false,
            names: &[],
        };
        assert!(all.sees("SUM_SCATTER") && !all.sees("FOO"));
        let renamed = [(name("SS"), "SUM_SCATTER".to_string())];
        let r = LibraryUse {
            only: false,
            names: &renamed,
        };
        assert!(r.sees("SS") && !r.sees("SUM_SCATTER") && r.sees("GRADE_UP"));
        let listed = [(name("ILEN"), "ILEN".to_string())];
        let o = LibraryUse {
            only: true,
            names: &listed,
        };
        assert!(o.sees("ILEN") && !o.sees("GRADE_UP"));
    }
}
