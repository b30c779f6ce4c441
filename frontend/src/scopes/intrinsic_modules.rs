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

/// A name an intrinsic module's library brings besides its constants: a
/// function of that library (by its prefix) with its result type, or one
/// of its named constants whose value is not modelled (unknown storage that
/// no unit writes); `None` when the name is not the library's.
pub(super) fn library_item(module: &str, name: &str) -> Option<Item> {
    let prefix = match module {
        "IEEE_ARITHMETIC" | "IEEE_EXCEPTIONS" | "IEEE_FEATURES" => "IEEE_",
        "OMP_LIB" | "OMP_LIB_KINDS" => "OMP_",
        "MPI" | "MPI_F08" => "MPI_",
        "ISO_C_BINDING" => "C_",
        "ISO_FORTRAN_ENV" => "COMPILER_",
        _ => return None,
    };
    if !name.starts_with(prefix) {
        return None;
    }
    let ty = match name {
        "OMP_GET_WTIME" | "OMP_GET_WTICK" | "MPI_WTIME" | "MPI_WTICK" => TypeSpec::Double,
        "OMP_IN_PARALLEL" | "OMP_GET_DYNAMIC" | "OMP_GET_NESTED" | "OMP_TEST_LOCK"
        | "C_ASSOCIATED" => TypeSpec::Logical,
        "COMPILER_VERSION" | "COMPILER_OPTIONS" => TypeSpec::Character,
        _ if name.starts_with("IEEE_IS_") || name.starts_with("IEEE_SUPPORT_") => TypeSpec::Logical,
        _ if name.starts_with("IEEE_") => TypeSpec::Real,
        _ if name.starts_with("OMP_") => TypeSpec::Integer,
        _ => return Some(Item::Unknown(module.to_string())),
    };
    Some(Item::Function(ty))
}
