//! The intrinsic procedures, in one table: Fortran 77, Fortran 90/95, the
//! common Fortran 2003/2008 additions, the HPF inquiries, the GNU
//! extensions that old benchmarks call (IARGC, GETARG, ETIME, SECOND,
//! DCMPLX, RAND, LOC, ...), and the functions of the HPF_LIBRARY module,
//! which are intrinsics only where a unit USEs it ([`crate::hpf_library`]).
//!
//! Each row is one form of a name: a function (`X = DBLE(I)`) or a
//! subroutine (`CALL GETARG(1, S)`); a few GNU names (ETIME, SECOND,
//! SYSTEM, ...) have both, with different arguments. A row gives the
//! number of arguments, the result type of a function, and what the
//! procedure does to each argument: most only read theirs, a subroutine
//! such as CPU_TIME writes its.

use crate::ast::{TypeSpec, ARRAY_CONSTRUCTOR, IMPLIED_DO};

/// Whether a row is the function or the subroutine form of its name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    Function,
    Subroutine,
}

/// The type of a function's result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ResultType {
    Of(Ty),
    /// The type of the argument at this 0-based position (generic
    /// functions: `ABS`, `MAX`, `MOD`; `TRANSFER` takes its second's).
    Argument(usize),
    /// A subroutine has none.
    None,
}

/// [`TypeSpec`] as a constant (DOUBLE COMPLEX is COMPLEX, as in the tree).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ty {
    Integer,
    Real,
    Double,
    Complex,
    Logical,
    Character,
}

impl Ty {
    pub fn spec(self) -> TypeSpec {
        match self {
            Ty::Integer => TypeSpec::Integer,
            Ty::Real => TypeSpec::Real,
            Ty::Double => TypeSpec::Double,
            Ty::Complex => TypeSpec::Complex,
            Ty::Logical => TypeSpec::Logical,
            Ty::Character => TypeSpec::Character,
        }
    }
}

/// Where a row's name is an intrinsic.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    Everywhere,
    /// Where the unit USEs HPF_LIBRARY (which also exports LEADZ, POPCNT
    /// and POPPAR, intrinsics only since Fortran 2008).
    HpfLibrary,
}

/// What a procedure does to one of its arguments.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    Read,
    /// Overwritten entirely (`CPU_TIME(T)`): a definition that kills.
    Write,
    /// Written, perhaps only in part (`ETIME(TARRAY)` sets two elements).
    MayWrite,
    /// Read and written (`MVBITS`' TO).
    Update,
}

/// One form of one intrinsic.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Intrinsic {
    pub name: &'static str,
    pub form: Form,
    pub min_args: usize,
    /// `None`: any number (MAX, MIN).
    pub max_args: Option<usize>,
    pub result: ResultType,
    pub scope: Scope,
    /// One letter per argument position: `r` read, `w` written, `m` maybe
    /// written, `u` read and written; positions past the end are read.
    effects: &'static str,
}

impl Intrinsic {
    /// What the procedure does to its argument at 0-based position `i`.
    pub fn effect(&self, i: usize) -> Effect {
        match self.effects.as_bytes().get(i) {
            Some(b'w') => Effect::Write,
            Some(b'm') => Effect::MayWrite,
            Some(b'u') => Effect::Update,
            _ => Effect::Read,
        }
    }

    /// Whether `n` arguments are allowed.
    pub fn takes(&self, n: usize) -> bool {
        n >= self.min_args && self.max_args.is_none_or(|m| n <= m)
    }

    /// "2 arguments", "1 to 3 arguments", "at least 2 arguments", "no arguments".
    pub fn arity_text(&self) -> String {
        let plural = |n: usize| if n == 1 { "argument" } else { "arguments" };
        match self.max_args {
            None => format!("at least {} {}", self.min_args, plural(self.min_args)),
            Some(0) => "no arguments".to_string(),
            Some(m) if m == self.min_args => format!("{m} {}", plural(m)),
            Some(m) => format!("{} to {m} {}", self.min_args, plural(m)),
        }
    }
}

const ANY: Option<usize> = None;

/// A function of `min..=max` arguments (`ANY`: no upper bound) that reads them.
const fn f(name: &'static str, min: usize, max: Option<usize>, result: ResultType) -> Intrinsic {
    Intrinsic {
        name,
        form: Form::Function,
        min_args: min,
        max_args: max,
        result,
        scope: Scope::Everywhere,
        effects: "",
    }
}

/// A function of the HPF_LIBRARY module.
const fn hpf(name: &'static str, min: usize, max: Option<usize>, result: ResultType) -> Intrinsic {
    Intrinsic {
        scope: Scope::HpfLibrary,
        ..f(name, min, max, result)
    }
}

/// A function that also writes some of its arguments (GNU ETIME, GETCWD).
const fn fw(
    name: &'static str,
    min: usize,
    max: usize,
    result: ResultType,
    effects: &'static str,
) -> Intrinsic {
    Intrinsic {
        effects,
        ..f(name, min, Some(max), result)
    }
}

/// A subroutine of `min..=max` arguments with their effects.
const fn s(name: &'static str, min: usize, max: usize, effects: &'static str) -> Intrinsic {
    Intrinsic {
        name,
        form: Form::Subroutine,
        min_args: min,
        max_args: Some(max),
        result: ResultType::None,
        scope: Scope::Everywhere,
        effects,
    }
}

const fn one(n: usize) -> Option<usize> {
    Some(n)
}

const I: ResultType = ResultType::Of(Ty::Integer);
const R: ResultType = ResultType::Of(Ty::Real);
const D: ResultType = ResultType::Of(Ty::Double);
const C: ResultType = ResultType::Of(Ty::Complex);
const L: ResultType = ResultType::Of(Ty::Logical);
const S: ResultType = ResultType::Of(Ty::Character);
/// The type of the first argument.
const A: ResultType = ResultType::Argument(0);
/// The type of the second argument (the BASE of HPF's `_SCATTER` functions).
const B: ResultType = ResultType::Argument(1);

/// Every intrinsic, sorted by name, then function before subroutine
/// (a test checks it: lookups are binary searches).
static TABLE: &[Intrinsic] = &[
    // The implied DO of an array constructor and the constructor (their
    // names in `crate::ast`): functions reading their arguments, of the
    // type of their first item.
    f(IMPLIED_DO, 5, ANY, ResultType::Argument(4)),
    f(ARRAY_CONSTRUCTOR, 1, ANY, A),
    s("ABORT", 0, 0, ""),
    f("ABS", 1, one(1), A),
    f("ACHAR", 1, one(2), S),
    f("ACOS", 1, one(1), A),
    f("ACOSH", 1, one(1), A),
    f("ADJUSTL", 1, one(1), S),
    f("ADJUSTR", 1, one(1), S),
    f("AIMAG", 1, one(1), R),
    f("AINT", 1, one(2), A),
    f("ALL", 1, one(2), L),
    f("ALLOCATED", 1, one(1), L),
    hpf("ALL_PREFIX", 1, one(4), L),
    hpf("ALL_SCATTER", 3, ANY, B),
    hpf("ALL_SUFFIX", 1, one(4), L),
    f("ALOG", 1, one(1), R),
    f("ALOG10", 1, one(1), R),
    f("AMAX0", 2, ANY, R),
    f("AMAX1", 2, ANY, R),
    f("AMIN0", 2, ANY, R),
    f("AMIN1", 2, ANY, R),
    f("AMOD", 2, one(2), R),
    f("AND", 2, one(2), A),
    f("ANINT", 1, one(2), A),
    f("ANY", 1, one(2), L),
    hpf("ANY_PREFIX", 1, one(4), L),
    hpf("ANY_SCATTER", 3, ANY, B),
    hpf("ANY_SUFFIX", 1, one(4), L),
    f("ASIN", 1, one(1), A),
    f("ASINH", 1, one(1), A),
    f("ASSOCIATED", 1, one(2), L),
    f("ATAN", 1, one(2), A),
    f("ATAN2", 2, one(2), A),
    f("ATANH", 1, one(1), A),
    f("BESSEL_J0", 1, one(1), A),
    f("BESSEL_J1", 1, one(1), A),
    f("BESSEL_JN", 2, one(3), ResultType::Argument(1)),
    f("BESSEL_Y0", 1, one(1), A),
    f("BESSEL_Y1", 1, one(1), A),
    f("BESSEL_YN", 2, one(3), ResultType::Argument(1)),
    f("BIT_SIZE", 1, one(1), I),
    f("BTEST", 2, one(2), L),
    f("CABS", 1, one(1), R),
    f("CCOS", 1, one(1), C),
    f("CDABS", 1, one(1), D),
    f("CDCOS", 1, one(1), C),
    f("CDEXP", 1, one(1), C),
    f("CDLOG", 1, one(1), C),
    f("CDSIN", 1, one(1), C),
    f("CDSQRT", 1, one(1), C),
    f("CEILING", 1, one(2), I),
    f("CEXP", 1, one(1), C),
    f("CHAR", 1, one(2), S),
    f("CLOG", 1, one(1), C),
    f("CMPLX", 1, one(3), C),
    f("COMMAND_ARGUMENT_COUNT", 0, one(0), I),
    f("CONJG", 1, one(1), C),
    hpf("COPY_PREFIX", 1, one(3), A),
    hpf("COPY_SCATTER", 3, ANY, B),
    hpf("COPY_SUFFIX", 1, one(3), A),
    f("COS", 1, one(1), A),
    f("COSH", 1, one(1), A),
    f("COTAN", 1, one(1), A),
    f("COUNT", 1, one(3), I),
    hpf("COUNT_PREFIX", 1, one(4), I),
    hpf("COUNT_SCATTER", 3, ANY, B),
    hpf("COUNT_SUFFIX", 1, one(4), I),
    s("CPU_TIME", 1, 1, "w"),
    f("CSHIFT", 2, one(3), A),
    f("CSIN", 1, one(1), C),
    f("CSQRT", 1, one(1), C),
    f("CTIME", 1, one(1), S),
    s("CTIME", 2, 2, "rw"),
    f("DABS", 1, one(1), D),
    f("DACOS", 1, one(1), D),
    f("DASIN", 1, one(1), D),
    f("DATAN", 1, one(1), D),
    f("DATAN2", 2, one(2), D),
    s("DATE_AND_TIME", 0, 4, "wwww"),
    f("DBLE", 1, one(1), D),
    f("DCMPLX", 1, one(2), C),
    f("DCONJG", 1, one(1), C),
    f("DCOS", 1, one(1), D),
    f("DCOSH", 1, one(1), D),
    f("DCOTAN", 1, one(1), D),
    f("DDIM", 2, one(2), D),
    f("DEXP", 1, one(1), D),
    f("DFLOAT", 1, one(1), D),
    f("DIGITS", 1, one(1), I),
    f("DIM", 2, one(2), A),
    f("DIMAG", 1, one(1), D),
    f("DINT", 1, one(1), D),
    f("DLOG", 1, one(1), D),
    f("DLOG10", 1, one(1), D),
    f("DMAX1", 2, ANY, D),
    f("DMIN1", 2, ANY, D),
    f("DMOD", 2, one(2), D),
    f("DNINT", 1, one(1), D),
    f("DOT_PRODUCT", 2, one(2), A),
    f("DPROD", 2, one(2), D),
    f("DREAL", 1, one(1), D),
    f("DSIGN", 2, one(2), D),
    f("DSIN", 1, one(1), D),
    f("DSINH", 1, one(1), D),
    f("DSQRT", 1, one(1), D),
    f("DTAN", 1, one(1), D),
    f("DTANH", 1, one(1), D),
    fw("DTIME", 1, 1, R, "m"),
    s("DTIME", 2, 2, "mw"),
    f("EOSHIFT", 2, one(4), A),
    f("EPSILON", 1, one(1), A),
    f("ERF", 1, one(1), A),
    f("ERFC", 1, one(1), A),
    fw("ETIME", 1, 1, R, "m"),
    s("ETIME", 2, 2, "mw"),
    s("EXECUTE_COMMAND_LINE", 1, 5, "rruwu"),
    s("EXIT", 0, 1, ""),
    f("EXP", 1, one(1), A),
    f("EXPONENT", 1, one(1), I),
    f("FDATE", 0, one(0), S),
    s("FDATE", 1, 1, "w"),
    f("FLOAT", 1, one(1), R),
    f("FLOOR", 1, one(2), I),
    s("FLUSH", 0, 1, ""),
    f("FRACTION", 1, one(1), A),
    s("FREE", 1, 1, ""),
    f("GAMMA", 1, one(1), A),
    s("GERROR", 1, 1, "w"),
    s("GETARG", 2, 2, "rw"),
    fw("GETCWD", 1, 1, I, "w"),
    s("GETCWD", 1, 2, "ww"),
    s("GETENV", 2, 2, "rw"),
    f("GETGID", 0, one(0), I),
    s("GETLOG", 1, 1, "w"),
    f("GETPID", 0, one(0), I),
    f("GETUID", 0, one(0), I),
    s("GET_COMMAND", 0, 3, "www"),
    s("GET_COMMAND_ARGUMENT", 1, 4, "rwww"),
    s("GET_ENVIRONMENT_VARIABLE", 1, 5, "rwwwr"),
    s("GMTIME", 2, 2, "rw"),
    hpf("GRADE_DOWN", 1, one(2), I),
    hpf("GRADE_UP", 1, one(2), I),
    fw("HOSTNM", 1, 1, I, "w"),
    s("HOSTNM", 1, 2, "ww"),
    f("HUGE", 1, one(1), A),
    f("HYPOT", 2, one(2), A),
    f("IABS", 1, one(1), I),
    f("IACHAR", 1, one(2), I),
    hpf("IALL", 1, one(3), A),
    hpf("IALL_PREFIX", 1, one(5), A),
    hpf("IALL_SCATTER", 3, ANY, B),
    hpf("IALL_SUFFIX", 1, one(5), A),
    f("IAND", 2, one(2), A),
    hpf("IANY", 1, one(3), A),
    hpf("IANY_PREFIX", 1, one(5), A),
    hpf("IANY_SCATTER", 3, ANY, B),
    hpf("IANY_SUFFIX", 1, one(5), A),
    f("IARGC", 0, one(0), I),
    f("IBCLR", 2, one(2), A),
    f("IBITS", 3, one(3), A),
    f("IBSET", 2, one(2), A),
    f("ICHAR", 1, one(2), I),
    s("IDATE", 1, 1, "w"),
    f("IDIM", 2, one(2), I),
    f("IDINT", 1, one(1), I),
    f("IDNINT", 1, one(1), I),
    f("IEOR", 2, one(2), A),
    f("IERRNO", 0, one(0), I),
    f("IFIX", 1, one(1), I),
    hpf("ILEN", 1, one(1), A),
    f("IMAG", 1, one(1), R),
    f("IMAGPART", 1, one(1), R),
    f("INDEX", 2, one(4), I),
    f("INT", 1, one(2), I),
    f("INT2", 1, one(1), I),
    f("INT8", 1, one(1), I),
    f("IOR", 2, one(2), A),
    hpf("IPARITY", 1, one(3), A),
    hpf("IPARITY_PREFIX", 1, one(5), A),
    hpf("IPARITY_SCATTER", 3, ANY, B),
    hpf("IPARITY_SUFFIX", 1, one(5), A),
    f("IRAND", 0, one(1), I),
    f("ISHFT", 2, one(2), A),
    f("ISHFTC", 2, one(3), A),
    f("ISIGN", 2, one(2), I),
    f("ISNAN", 1, one(1), L),
    f("IS_IOSTAT_END", 1, one(1), L),
    f("IS_IOSTAT_EOR", 1, one(1), L),
    s("ITIME", 1, 1, "w"),
    f("KIND", 1, one(1), I),
    f("LBOUND", 1, one(3), I),
    hpf("LEADZ", 1, one(1), I),
    f("LEN", 1, one(2), I),
    f("LEN_TRIM", 1, one(2), I),
    f("LGE", 2, one(2), L),
    f("LGT", 2, one(2), L),
    f("LLE", 2, one(2), L),
    f("LLT", 2, one(2), L),
    f("LNBLNK", 1, one(1), I),
    f("LOC", 1, one(1), I),
    f("LOG", 1, one(1), A),
    f("LOG10", 1, one(1), A),
    f("LOGICAL", 1, one(2), L),
    f("LOG_GAMMA", 1, one(1), A),
    f("LONG", 1, one(1), I),
    f("LSHIFT", 2, one(2), A),
    s("LTIME", 2, 2, "rw"),
    f("MALLOC", 1, one(1), I),
    f("MATMUL", 2, one(2), A),
    f("MAX", 2, ANY, A),
    f("MAX0", 2, ANY, I),
    f("MAX1", 2, ANY, I),
    f("MAXEXPONENT", 1, one(1), I),
    f("MAXLOC", 1, one(4), I),
    f("MAXVAL", 1, one(3), A),
    hpf("MAXVAL_PREFIX", 1, one(5), A),
    hpf("MAXVAL_SCATTER", 3, ANY, B),
    hpf("MAXVAL_SUFFIX", 1, one(5), A),
    f("MCLOCK", 0, one(0), I),
    f("MCLOCK8", 0, one(0), I),
    f("MERGE", 3, one(3), A),
    f("MIN", 2, ANY, A),
    f("MIN0", 2, ANY, I),
    f("MIN1", 2, ANY, I),
    f("MINEXPONENT", 1, one(1), I),
    f("MINLOC", 1, one(4), I),
    f("MINVAL", 1, one(3), A),
    hpf("MINVAL_PREFIX", 1, one(5), A),
    hpf("MINVAL_SCATTER", 3, ANY, B),
    hpf("MINVAL_SUFFIX", 1, one(5), A),
    f("MOD", 2, one(2), A),
    f("MODULO", 2, one(2), A),
    s("MOVE_ALLOC", 2, 2, "uu"),
    s("MVBITS", 5, 5, "rrrur"),
    f("NEAREST", 2, one(2), A),
    f("NEW_LINE", 1, one(1), S),
    f("NINT", 1, one(2), I),
    f("NORM2", 1, one(2), A),
    f("NOT", 1, one(1), A),
    f("NUMBER_OF_PROCESSORS", 0, one(1), I),
    f("OR", 2, one(2), A),
    f("PACK", 2, one(3), A),
    hpf("PARITY", 1, one(2), L),
    hpf("PARITY_PREFIX", 1, one(4), L),
    hpf("PARITY_SCATTER", 3, ANY, B),
    hpf("PARITY_SUFFIX", 1, one(4), L),
    s("PERROR", 1, 1, ""),
    hpf("POPCNT", 1, one(1), I),
    hpf("POPPAR", 1, one(1), I),
    f("PRECISION", 1, one(1), I),
    f("PRESENT", 1, one(1), L),
    f("PROCESSORS_SHAPE", 0, one(0), I),
    f("PRODUCT", 1, one(3), A),
    hpf("PRODUCT_PREFIX", 1, one(5), A),
    hpf("PRODUCT_SCATTER", 3, ANY, B),
    hpf("PRODUCT_SUFFIX", 1, one(5), A),
    f("RADIX", 1, one(1), I),
    f("RAN", 0, one(1), R),
    f("RAND", 0, one(1), R),
    s("RANDOM_NUMBER", 1, 1, "w"),
    s("RANDOM_SEED", 0, 3, "wrw"),
    f("RANGE", 1, one(1), I),
    f("REAL", 1, one(2), R),
    f("REALPART", 1, one(1), R),
    f("REPEAT", 2, one(2), S),
    f("RESHAPE", 2, one(4), A),
    f("RRSPACING", 1, one(1), A),
    f("RSHIFT", 2, one(2), A),
    f("SCALE", 2, one(2), A),
    f("SCAN", 2, one(4), I),
    f("SECOND", 0, one(0), R),
    s("SECOND", 1, 1, "w"),
    f("SELECTED_INT_KIND", 1, one(1), I),
    f("SELECTED_REAL_KIND", 0, one(3), I),
    f("SET_EXPONENT", 2, one(2), A),
    f("SHAPE", 1, one(2), I),
    f("SHORT", 1, one(1), I),
    f("SIGN", 2, one(2), A),
    f("SIN", 1, one(1), A),
    f("SINH", 1, one(1), A),
    f("SIZE", 1, one(3), I),
    f("SIZEOF", 1, one(1), I),
    s("SLEEP", 1, 1, ""),
    f("SNGL", 1, one(1), R),
    hpf("SORT_DOWN", 1, one(2), A),
    hpf("SORT_UP", 1, one(2), A),
    f("SPACING", 1, one(1), A),
    f("SPREAD", 3, one(3), A),
    f("SQRT", 1, one(1), A),
    s("SRAND", 1, 1, ""),
    f("SUM", 1, one(3), A),
    hpf("SUM_PREFIX", 1, one(5), A),
    hpf("SUM_SCATTER", 3, ANY, B),
    hpf("SUM_SUFFIX", 1, one(5), A),
    f("SYSTEM", 1, one(1), I),
    s("SYSTEM", 1, 2, "rw"),
    s("SYSTEM_CLOCK", 0, 3, "www"),
    f("TAN", 1, one(1), A),
    f("TANH", 1, one(1), A),
    f("TIME", 0, one(0), I),
    f("TIME8", 0, one(0), I),
    f("TINY", 1, one(1), A),
    f("TRAILZ", 1, one(1), I),
    f("TRANSFER", 2, one(3), ResultType::Argument(1)),
    f("TRANSPOSE", 1, one(1), A),
    f("TRIM", 1, one(1), S),
    f("UBOUND", 1, one(3), I),
    f("UNPACK", 3, one(3), A),
    f("VERIFY", 2, one(4), I),
    f("XOR", 2, one(2), A),
    f("ZABS", 1, one(1), D),
    f("ZCOS", 1, one(1), C),
    f("ZEXP", 1, one(1), C),
    f("ZLOG", 1, one(1), C),
    f("ZSIN", 1, one(1), C),
    f("ZSQRT", 1, one(1), C),
];

/// The `form` row of `name` (upper case), if `name` is an intrinsic of
/// that form everywhere.
pub fn lookup(name: &str, form: Form) -> Option<&'static Intrinsic> {
    rows(name).find(|r| r.form == form && r.scope != Scope::HpfLibrary)
}

/// The row of `name` if it is a function of the HPF_LIBRARY module.
pub fn hpf_library(name: &str) -> Option<&'static Intrinsic> {
    rows(name).find(|r| r.form == Form::Function && r.scope == Scope::HpfLibrary)
}

/// The GNU runtime routines, heirs of Unix f77's libU77, that old programs
/// declare EXTERNAL to link the library's routine rather than an intrinsic
/// (`EXTERNAL DTIME` in a timer). Sorted (a test checks it).
static RUNTIME_ROUTINES: &[&str] = &[
    "ABORT", "CTIME", "DTIME", "ETIME", "FDATE", "FLUSH", "GERROR", "GETARG", "GETCWD", "GETENV",
    "GETGID", "GETLOG", "GETPID", "GETUID", "GMTIME", "HOSTNM", "IARGC", "IDATE", "IERRNO",
    "IRAND", "ITIME", "LNBLNK", "LTIME", "MCLOCK", "PERROR", "RAND", "SECOND", "SLEEP", "SRAND",
    "SYSTEM", "TIME", "TIME8",
];

/// Whether `name` (upper case) is a GNU runtime routine: called as an
/// external that no unit of the program defines, it is taken to be the
/// library's routine, which touches its arguments and no COMMON block.
pub fn runtime_routine(name: &str) -> bool {
    RUNTIME_ROUTINES.binary_search(&name).is_ok()
}

fn rows(name: &str) -> impl Iterator<Item = &'static Intrinsic> + '_ {
    let start = TABLE.partition_point(|r| r.name < name);
    TABLE[start..].iter().take_while(move |r| r.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runtime_routines_are_sorted_and_in_the_table() {
        assert!(RUNTIME_ROUTINES.windows(2).all(|w| w[0] < w[1]));
        for name in RUNTIME_ROUTINES {
            assert!(rows(name).next().is_some(), "{name} is no intrinsic");
        }
    }

    #[test]
    fn table_is_sorted_with_one_row_per_form() {
        for w in TABLE.windows(2) {
            let key = |r: &Intrinsic| (r.name, r.form == Form::Subroutine);
            assert!(key(&w[0]) < key(&w[1]), "{} / {}", w[0].name, w[1].name);
        }
    }

    #[test]
    fn rows_are_consistent() {
        for r in TABLE {
            assert!(r.max_args.is_none_or(|m| m >= r.min_args), "{}", r.name);
            assert!(
                r.max_args.is_none_or(|m| r.effects.len() <= m),
                "{}: more effects than arguments",
                r.name
            );
            assert_eq!(
                r.form == Form::Subroutine,
                r.result == ResultType::None,
                "{}",
                r.name
            );
            if let ResultType::Argument(i) = r.result {
                assert!(i < r.min_args, "{}: result of a missing argument", r.name);
            }
        }
    }

    #[test]
    fn lookups_by_form() {
        assert_eq!(lookup("DBLE", Form::Function).unwrap().result, D);
        assert!(lookup("DBLE", Form::Subroutine).is_none());
        assert!(lookup("GETARG", Form::Function).is_none());
        let getarg = lookup("GETARG", Form::Subroutine).unwrap();
        assert_eq!(
            (getarg.effect(0), getarg.effect(1)),
            (Effect::Read, Effect::Write)
        );
        let second = lookup("SECOND", Form::Function).unwrap();
        assert!(second.takes(0) && !second.takes(1));
        assert!(lookup("SECOND", Form::Subroutine).unwrap().takes(1));
        let max = lookup("MAX", Form::Function).unwrap();
        assert!(!max.takes(1) && max.takes(2) && max.takes(40));
        assert_eq!(max.arity_text(), "at least 2 arguments");
        assert_eq!(
            lookup("INDEX", Form::Function).unwrap().arity_text(),
            "2 to 4 arguments"
        );
        assert!(lookup("NOSUCH", Form::Function).is_none());
    }

    #[test]
    fn hpf_library_functions_only_where_used() {
        assert!(lookup("SUM_SCATTER", Form::Function).is_none());
        let scatter = hpf_library("SUM_SCATTER").unwrap();
        assert_eq!(scatter.result, ResultType::Argument(1));
        assert!(!scatter.takes(2) && scatter.takes(5));
        assert!(lookup("POPCNT", Form::Function).is_none());
        assert!(hpf_library("POPCNT").is_some());
        assert!(hpf_library("SUM").is_none());
    }
}
