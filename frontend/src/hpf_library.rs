//! The functions of the HPF_LIBRARY module (HPF 1.1, section 7): in a unit
//! that USEs it they are intrinsics (rows of [`crate::intrinsics`]), which
//! read their arguments and write nothing. Elsewhere the same names are
//! ordinary external functions. (The library's inquiry subroutines need
//! nothing: a CALL is a call.)

use crate::ast::Name;
use crate::intrinsics::{self, Intrinsic};

/// The library functions one `USE HPF_LIBRARY` statement makes visible.
pub struct LibraryUse<'a> {
    /// `ONLY:` was given: just `names` are visible.
    pub only: bool,
    /// (local name, library name): the ONLY list, or renames.
    pub names: &'a [(Name, String)],
}

impl LibraryUse<'_> {
    /// The library function `local` names in the unit, if any. A renamed
    /// function is visible only by its new name.
    pub fn function(&self, local: &str) -> Option<&'static Intrinsic> {
        let listed = self
            .names
            .iter()
            .find_map(|(l, lib)| (l.text == local).then(|| intrinsics::hpf_library(lib))?);
        let renamed_away = self.names.iter().any(|(_, lib)| lib == local);
        listed.or_else(|| (!self.only && !renamed_away).then(|| intrinsics::hpf_library(local))?)
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

    fn seen(u: &LibraryUse, local: &str) -> Option<&'static str> {
        u.function(local).map(|r| r.name)
    }

    #[test]
    fn only_lists_and_renames() {
        let all = LibraryUse {
            only: false,
            names: &[],
        };
        assert_eq!(seen(&all, "SUM_SCATTER"), Some("SUM_SCATTER"));
        assert_eq!(seen(&all, "FOO"), None);
        let renamed = [(name("SS"), "SUM_SCATTER".to_string())];
        let r = LibraryUse {
            only: false,
            names: &renamed,
        };
        assert_eq!(seen(&r, "SS"), Some("SUM_SCATTER"));
        assert_eq!(seen(&r, "SUM_SCATTER"), None);
        assert_eq!(seen(&r, "GRADE_UP"), Some("GRADE_UP"));
        let listed = [(name("ILEN"), "ILEN".to_string())];
        let o = LibraryUse {
            only: true,
            names: &listed,
        };
        assert_eq!(seen(&o, "ILEN"), Some("ILEN"));
        assert_eq!(seen(&o, "GRADE_UP"), None);
    }
}
