//! The intrinsic modules a USE may name without any file defining them.

use super::{Item, Scope};
use crate::ast::TypeSpec;
use crate::fold::Const;

/// The named constants, kinds and library procedures of the intrinsic
/// modules (gfortran's values on x86-64); `None` for other modules.
pub(super) fn intrinsic_module(name: &str) -> Option<Scope> {
    let int = |v: i64| Item::Param {
        ty: TypeSpec::Integer,
        bytes: Some(4),
        value: Const::Int(v),
    };
    let pairs: &[(&str, i64)] = match name {
        "ISO_FORTRAN_ENV" => &[
            ("INT8", 1),
            ("INT16", 2),
            ("INT32", 4),
            ("INT64", 8),
            ("REAL32", 4),
            ("REAL64", 8),
            ("REAL128", 16),
            ("INPUT_UNIT", 5),
            ("OUTPUT_UNIT", 6),
            ("ERROR_UNIT", 0),
            ("IOSTAT_END", -1),
            ("IOSTAT_EOR", -2),
            ("CHARACTER_STORAGE_SIZE", 8),
            ("NUMERIC_STORAGE_SIZE", 32),
            ("FILE_STORAGE_SIZE", 8),
        ],
        "ISO_C_BINDING" => &[
            ("C_INT", 4),
            ("C_SHORT", 2),
            ("C_LONG", 8),
            ("C_LONG_LONG", 8),
            ("C_SIGNED_CHAR", 1),
            ("C_SIZE_T", 8),
            ("C_INT8_T", 1),
            ("C_INT16_T", 2),
            ("C_INT32_T", 4),
            ("C_INT64_T", 8),
            ("C_INTPTR_T", 8),
            ("C_FLOAT", 4),
            ("C_DOUBLE", 8),
            ("C_LONG_DOUBLE", 10),
            ("C_FLOAT_COMPLEX", 4),
            ("C_DOUBLE_COMPLEX", 8),
            ("C_BOOL", 1),
            ("C_CHAR", 1),
        ],
        "IEEE_ARITHMETIC" | "IEEE_EXCEPTIONS" | "IEEE_FEATURES" | "OMP_LIB" | "OMP_LIB_KINDS"
        | "MPI" | "MPI_F08" => &[],
        _ => return None,
    };
    let mut scope: Scope = pairs
        .iter()
        .map(|&(n, v)| (n.to_string(), int(v)))
        .collect();
    if name.starts_with("OMP_LIB") {
        for (n, v) in [("OMP_LOCK_KIND", 8), ("OMP_NEST_LOCK_KIND", 8)] {
            scope.insert(n.into(), int(v));
        }
    }
    Some(scope)
}
