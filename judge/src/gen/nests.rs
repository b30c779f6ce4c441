//! Several loop nests over shared arrays, with the straight-line code
//! between them: most dependences of a real program join references in
//! different nests. 2-3 nests of depth 1-3 (triangular bounds, steps 1, 2
//! and -1, an upper bound N read at run time (down to a few values at
//! which loops up to N do not run) or set), IF blocks on an
//! input P and logical IFs on DO variables (the runs take every N the
//! arrays are declared for, each with P = 1 and P = 0), accumulations
//! into the scalars S and T, subscripts offset by a scalar L of known value
//! and by an induction variable M (`M = M + c` first in a loop's body, M
//! set just before the loop). The arrays are declared with the bounds
//! their subscripts reach, so no access is ever out of bounds.
//!
//! [`control_nests`] adds control flow to the loop bodies: EXIT and CYCLE
//! under logical IFs on DO variables or P (in free form also of an outer
//! loop, by construct name), and SELECT CASE on a DO variable or its MOD
//! with ranges (`CASE (:2)`, `CASE (3, 5)`, `CASE (6:)`) and CASE DEFAULT.
//!
//! [`exact_nests`] widens the shapes to those an exact analysis of affine
//! code decides (issue 35): loops that run zero times or once (`DO J = 4,
//! 3`, `DO J = I, I`), negative-step triangular loops empty in most outer
//! iterations (`DO J = 5, I + 1, -1`), IF, ELSE IF and ELSE blocks and
//! logical IFs on affine conditions of the DO variables and L
//! (comparisons, `.AND.`, `.OR.`, `.NOT.`, `MOD` and `MODULO` by a
//! constant of an expression that may be negative, some always or never
//! true), and the induction scalar M set once before a nest and stepped
//! in an inner loop (once per iteration of the nest), also under such an IF.

use super::affine::{offset_text, AffineGen, Range, IV, LOOP_VARS, OFFSET};
use super::emit::{Emitter, Form};
use super::{Generated, Rng};

/// A statement, plain or under an IF.
enum Stmt {
    Plain(String),
    /// `IF (cond) THEN; then; ELSE; other; END IF`.
    IfElse {
        cond: String,
        then: String,
        other: String,
    },
    /// `IF (c1) THEN; s1; ELSE IF (c2) THEN; s2; ...; ELSE; other; END IF`.
    Chain {
        arms: Vec<(String, String)>,
        other: Option<String>,
    },
    /// `IF (cond) then`.
    LogicalIf {
        cond: String,
        then: String,
    },
    /// `SELECT CASE (selector)` and its arms: `(values)` or `DEFAULT`,
    /// with their statements.
    Select {
        selector: String,
        arms: Vec<(String, Vec<String>)>,
    },
}

/// A statement of a nest in the body of loop `level` (1-based), before or
/// after the inner loop.
struct Placed {
    level: usize,
    after: bool,
    stmt: Stmt,
}

/// `M = start` just before the DO of loop `level`, `M = M + step` first in
/// its body: an induction variable of that loop. With `outer`, `M = start`
/// stands before the nest's outermost loop instead (M then counts the
/// iterations of the loops 1..=level together), and with `guard` the
/// increment is `IF (guard) M = M + step`.
struct Induction {
    level: usize,
    start: i64,
    step: i64,
    outer: bool,
    guard: Option<String>,
}

struct Nest {
    headers: Vec<String>,
    induction: Option<Induction>,
    stmts: Vec<Placed>,
    labelled: bool,
    /// The loops are named `<prefix>L1`, `<prefix>L2`, ... by level
    /// (`N1L1: DO ...`; a name is the unit's only construct of that name).
    named: Option<String>,
}

/// Random nests sharing the arrays A and B, straight-line code before,
/// between and after them, and a checksum print.
pub fn shared_nests(seed: u64) -> Generated {
    nests(seed, false, false, false)
}

/// [`shared_nests`] with EXIT, CYCLE and SELECT CASE in the loop bodies
/// (see the module's documentation).
pub fn control_nests(seed: u64) -> Generated {
    nests(seed, true, false, false)
}

/// [`shared_nests`] with the shapes of an exact analysis of affine code:
/// zero- and one-trip loops, negative-step triangular loops, IFs on affine
/// conditions of the DO variables (MOD and MODULO too), induction scalars
/// stepped in nests and under such IFs (see the module's documentation).
pub fn exact_nests(seed: u64) -> Generated {
    nests(seed, false, true, false)
}

/// [`exact_nests`] whose references come back now and then: one element
/// read again and again, in one iteration, in later ones, under IFs and
/// in other nests (the minimal input dependences of reads of one element).
pub fn reread_nests(seed: u64) -> Generated {
    nests(seed, false, true, true)
}

fn nests(seed: u64, control: bool, widened: bool, reread: bool) -> Generated {
    let mut rng = Rng::new(seed);
    let form = Form::either(&mut rng);
    let read_n = rng.chance(60);
    // A read N also takes four values below the range picked: loops up to
    // N then run fewer times or none, and those runs show the dependences
    // over their zero-trip paths (the arrays are declared for all of them).
    let (nmin, nmax) = if read_n {
        let lo = rng.range(0, 3);
        (lo - 4, lo + rng.range(2, 6))
    } else {
        let c = rng.range(3, 8);
        (c, c)
    };
    let offset = rng.range(0, 2);
    let n_nests = rng.range(2, 3);
    let mut g = AffineGen::new(rng);
    g.reread = reread;
    g.vars[OFFSET] = Range::point(offset);
    let n = Range { lo: nmin, hi: nmax };
    let mut parts = Vec::new();
    for k in 0..n_nests {
        let before = straight_line(&mut g, if k == 0 { 0 } else { 1 });
        parts.push((
            before,
            nest(
                &mut g,
                n,
                control.then(|| (form == Form::Free).then(|| format!("N{k}"))),
                widened,
            ),
        ));
    }
    let tail = straight_line(&mut g, 0);

    let mut e = Emitter::new(form);
    let what = match (control, widened, reread) {
        (true, _, _) => "control_nests",
        (false, _, true) => "reread_nests",
        (false, true, false) => "exact_nests",
        (false, false, false) => "shared_nests",
    };
    e.comment(&format!("generated by kaiseki-judge {what}({seed})"));
    e.stmt("PROGRAM SHARED");
    e.stmt("INTEGER N, P, I, J, K, M, L");
    e.stmt(&format!("REAL {}, S, T", g.declarations()));
    if read_n {
        e.stmt("READ (*,*) N, P");
    } else {
        e.stmt("READ (*,*) P");
        e.stmt(&format!("N = {nmin}"));
    }
    for v in ["I", "J", "K", "M"] {
        e.stmt(&format!("{v} = 0"));
    }
    e.stmt(&format!("L = {offset}"));
    e.stmt("S = 0.0");
    e.stmt("T = 1.0");
    g.init_arrays(&mut e);
    for (before, nest) in &parts {
        for s in before {
            emit(&mut e, s);
        }
        emit_level(&mut e, nest, 1);
    }
    for s in &tail {
        emit(&mut e, s);
    }
    e.stmt("PRINT *, SUM(A), SUM(B), S, T, N, I, J, K, M");
    e.stmt("END");

    // Each arm of each IF on P, with every N the arrays are declared for.
    let inputs = (nmin..=nmax)
        .flat_map(|n| {
            [1, 0].map(|p| match read_n {
                true => vec![n.to_string(), p.to_string()],
                false => vec![p.to_string()],
            })
        })
        .collect();
    let ext = if form == Form::Fixed { "f" } else { "f90" };
    Generated {
        file_name: format!("gen_{}_{seed}.{ext}", what.trim_end_matches("_nests")),
        source: e.finish(),
        inputs,
    }
}

/// `min..=3` statements outside loops, some under an IF on P.
fn straight_line(g: &mut AffineGen, min: i64) -> Vec<Stmt> {
    g.depth = 0;
    g.extra = vec![OFFSET];
    let count = g.rng.range(min, 3);
    (0..count).map(|_| statement(g, 0, None, false)).collect()
}

/// A condition on a DO variable of loops `1..=level` (both outcomes occur
/// in a loop spanning its values), or on P.
fn loop_condition(g: &mut AffineGen, level: usize) -> String {
    if g.rng.chance(20) {
        return "P .GT. 0".to_string();
    }
    let k = g.rng.range(0, level as i64 - 1) as usize;
    let mid = (g.vars[k].lo + g.vars[k].hi).div_euclid(2);
    let op = *g.rng.pick(&[".GT.", ".EQ.", ".LT.", ".GE."]);
    format!("{} {op} {}", LOOP_VARS[k], paren(mid))
}

fn paren(c: i64) -> String {
    if c < 0 {
        format!("({c})")
    } else {
        c.to_string()
    }
}

/// `EXIT` or `CYCLE` of the innermost loop, or of loop 1..=level by its
/// name when the loops are named.
fn loop_jump(g: &mut AffineGen, level: usize, named: Option<&str>) -> String {
    let word = if g.rng.chance(50) { "EXIT" } else { "CYCLE" };
    if let Some(prefix) = named.filter(|_| g.rng.chance(60)) {
        let k = g.rng.range(1, level as i64);
        format!("{word} {prefix}L{k}")
    } else {
        word.to_string()
    }
}

/// A SELECT CASE on a DO variable (or its MOD) whose arms assign.
fn select_case(g: &mut AffineGen, level: usize, named: Option<&str>) -> Stmt {
    let k = g.rng.range(0, level as i64 - 1) as usize;
    let v = LOOP_VARS[k];
    let mut arms: Vec<(String, Vec<String>)> = Vec::new();
    let selector = if g.rng.chance(50) {
        for c in 0..3 {
            if g.rng.chance(60) {
                arms.push((format!("({c})"), vec![g.assignment(level)]));
            }
        }
        format!("MOD({v}, 3)")
    } else {
        let mid = (g.vars[k].lo + g.vars[k].hi).div_euclid(2);
        let parts = [
            format!("(:{})", paren(mid - 1)),
            format!("({}, {})", paren(mid), paren(mid + 2)),
            format!("({}:)", paren(mid + 3)),
            format!("({}:{})", paren(mid + 1), paren(mid + 1)),
        ];
        for p in parts {
            if g.rng.chance(55) {
                arms.push((p, vec![g.assignment(level)]));
            }
        }
        v.to_string()
    };
    if arms.is_empty() || g.rng.chance(40) {
        arms.push(("DEFAULT".to_string(), vec![g.assignment(level)]));
    }
    // Now and then an arm leaves the loop or the iteration.
    if g.rng.chance(25) {
        let i = g.rng.range(0, arms.len() as i64 - 1) as usize;
        let jump = loop_jump(g, level, named);
        arms[i].1.push(jump);
    }
    let n = arms.len();
    let i = g.rng.range(0, n as i64 - 1) as usize;
    arms.rotate_left(i);
    Stmt::Select { selector, arms }
}

/// An assignment in the body of loop `level` (0: outside loops), under an
/// IF on P or on a DO variable now and then; with `control` (whether the
/// loops are named) also EXIT, CYCLE or SELECT CASE.
fn statement(
    g: &mut AffineGen,
    level: usize,
    control: Option<Option<&str>>,
    widened: bool,
) -> Stmt {
    if widened && level > 0 && g.rng.chance(45) {
        return guarded(g, level);
    }
    if let Some(named) = control.filter(|_| level > 0) {
        match g.rng.range(0, 9) {
            0..=2 => {
                let cond = loop_condition(g, level);
                let then = loop_jump(g, level, named);
                return Stmt::LogicalIf { cond, then };
            }
            3 | 4 => return select_case(g, level, named),
            _ => {}
        }
    }
    let then = g.assignment(level);
    match g.rng.range(0, 9) {
        0 | 1 => Stmt::IfElse {
            cond: "P .GT. 0".to_string(),
            then,
            other: g.assignment(level),
        },
        2 if level > 0 => {
            // Below and above the middle of the DO variable's values: both
            // arms run in a loop that spans them.
            let k = g.rng.range(0, level as i64 - 1) as usize;
            let mid = (g.vars[k].lo + g.vars[k].hi).div_euclid(2);
            let mid = if mid < 0 {
                format!("({mid})")
            } else {
                mid.to_string()
            };
            Stmt::LogicalIf {
                cond: format!("{} .GT. {mid}", LOOP_VARS[k]),
                then,
            }
        }
        _ => Stmt::Plain(then),
    }
}

/// A nest; `control`: with EXIT, CYCLE and SELECT CASE, and whether its
/// loops may be named (free form).
fn nest(g: &mut AffineGen, n: Range, control: Option<Option<String>>, widened: bool) -> Nest {
    let depth = g.rng.range(1, 3) as usize;
    g.depth = depth;
    let headers: Vec<String> = (0..depth)
        .map(|level| match widened {
            true => widened_header(g, level, n),
            false => g.loop_header(level, n),
        })
        .collect();
    let induction = if widened {
        g.rng.chance(60).then(|| nest_induction(g, depth))
    } else {
        None
    };
    let induction = induction.or_else(|| {
        (!widened && g.rng.chance(50)).then(|| {
            let level = g.rng.range(1, depth as i64) as usize;
            let start = g.rng.range(-2, 2);
            let step = *g.rng.pick(&[1, 1, 2, -1]);
            // After the increment, M is start + step * t for t = 1..=trips,
            // and a loop runs at most once per value of its DO variable.
            let loop_var = g.vars[level - 1];
            let trips = loop_var.hi - loop_var.lo + 1;
            g.vars[IV] = Range::between(start + step, start + step * trips.max(1));
            Induction {
                level,
                start,
                step,
                outer: false,
                guard: None,
            }
        })
    });
    let n_stmts = g.rng.range(1, 4);
    let named = match &control {
        Some(Some(prefix)) if g.rng.chance(60) => Some(prefix.clone()),
        _ => None,
    };
    let control = control.map(|_| named.as_deref());
    let stmts = (0..n_stmts)
        .map(|_| {
            let level = g.rng.range(1, depth as i64) as usize;
            let after = level < depth && g.rng.chance(40);
            g.extra = vec![OFFSET];
            if induction
                .as_ref()
                .is_some_and(|iv| iv.outer || iv.level <= level)
            {
                g.extra.push(IV);
            }
            let stmt = statement(g, level, control, widened);
            Placed { level, after, stmt }
        })
        .collect();
    Nest {
        headers,
        induction,
        stmts,
        labelled: g.rng.chance(50),
        named,
    }
}

fn emit(e: &mut Emitter, s: &Stmt) {
    match s {
        Stmt::Plain(text) => e.stmt(text),
        Stmt::IfElse { cond, then, other } => {
            e.stmt(&format!("IF ({cond}) THEN"));
            e.indent();
            e.stmt(then);
            e.dedent();
            e.stmt("ELSE");
            e.indent();
            e.stmt(other);
            e.dedent();
            e.stmt("END IF");
        }
        Stmt::Chain { arms, other } => {
            for (i, (cond, then)) in arms.iter().enumerate() {
                let word = if i == 0 { "IF" } else { "ELSE IF" };
                e.stmt(&format!("{word} ({cond}) THEN"));
                e.indent();
                e.stmt(then);
                e.dedent();
            }
            if let Some(other) = other {
                e.stmt("ELSE");
                e.indent();
                e.stmt(other);
                e.dedent();
            }
            e.stmt("END IF");
        }
        Stmt::LogicalIf { cond, then } => e.stmt(&format!("IF ({cond}) {then}")),
        Stmt::Select { selector, arms } => {
            e.stmt(&format!("SELECT CASE ({selector})"));
            for (values, body) in arms {
                e.stmt(&format!("CASE {values}"));
                e.indent();
                for s in body {
                    e.stmt(s);
                }
                e.dedent();
            }
            e.stmt("END SELECT");
        }
    }
}

/// Loop `level` of the nest and the loops inside it, with the induction
/// variable's statements where it has them.
fn emit_level(e: &mut Emitter, nest: &Nest, level: usize) {
    let Some(header) = nest.headers.get(level - 1) else {
        return;
    };
    let induction = nest.induction.as_ref().filter(|iv| iv.level == level);
    let start_here = nest.induction.as_ref().filter(|iv| {
        if iv.outer {
            level == 1
        } else {
            iv.level == level
        }
    });
    if let Some(iv) = start_here {
        e.stmt(&format!("M = {}", iv.start));
    }
    if let Some(prefix) = &nest.named {
        e.open_named_do(&format!("{prefix}L{level}"), header);
    } else {
        e.open_do(header, nest.labelled);
    }
    if let Some(iv) = induction {
        let sign = if iv.step < 0 { "-" } else { "+" };
        let step = format!("M = M {sign} {}", iv.step.abs());
        match &iv.guard {
            Some(cond) => e.stmt(&format!("IF ({cond}) {step}")),
            None => e.stmt(&step),
        }
    }
    for s in nest.stmts.iter().filter(|s| s.level == level && !s.after) {
        emit(e, &s.stmt);
    }
    emit_level(e, nest, level + 1);
    for s in nest.stmts.iter().filter(|s| s.level == level && s.after) {
        emit(e, &s.stmt);
    }
    e.close_do();
}

/// The header of loop `level` (0-based) of an [`exact_nests`] nest: now
/// and then one that runs zero times, once, or (inside another loop) a
/// negative-step triangular one empty in most outer iterations; else one
/// of [`AffineGen::loop_header`]'s.
fn widened_header(g: &mut AffineGen, level: usize, n: Range) -> String {
    let var = LOOP_VARS[level];
    let outer = level.checked_sub(1);
    match g.rng.range(0, 9) {
        0 => {
            // Zero trips: the body never runs.
            let c = g.rng.range(1, 4);
            let k = g.rng.range(1, 2);
            g.vars[level] = Range::point(c);
            format!("{var} = {c}, {}", c - k)
        }
        1 => {
            // One trip, by equal bounds or by a step past the upper bound.
            match (outer, g.rng.range(0, 2)) {
                (Some(o), 0) => {
                    g.vars[level] = g.vars[o];
                    format!("{var} = {}, {}", LOOP_VARS[o], LOOP_VARS[o])
                }
                (_, 1) => {
                    let c = g.rng.range(1, 4);
                    g.vars[level] = Range::point(c);
                    format!("{var} = {c}, {}, 2", c + 1)
                }
                _ => {
                    let c = g.rng.range(1, 4);
                    g.vars[level] = Range::point(c);
                    format!("{var} = {c}, {c}")
                }
            }
        }
        2 | 3 if outer.is_some() => {
            // DO J = c, I + k, -1: runs only where I + k <= c, in the
            // first iterations of the outer loop (or in none).
            let o = level - 1;
            let k = g.rng.range(0, 1);
            let lo = g.vars[o].lo + k;
            let c = lo + g.rng.range(-1, 1);
            g.vars[level] = Range {
                lo: lo.min(c),
                hi: c,
            };
            format!("{var} = {c}, {}, -1", offset_text(LOOP_VARS[o], k))
        }
        _ => g.loop_header(level, n),
    }
}

/// `M = start` before the nest, `M = M + step` first in the body of loop
/// `level` (an inner one when the nest has several), under an IF on a DO
/// variable now and then: M takes a new value in every iteration of the
/// loops 1..=level together (when unguarded).
fn nest_induction(g: &mut AffineGen, depth: usize) -> Induction {
    let level = g.rng.range(1.max(depth as i64 - 1), depth as i64) as usize;
    let start = g.rng.range(-2, 2);
    let step = *g.rng.pick(&[1, 2, 3, -1, 3]);
    let guard = (g.rng.chance(40)).then(|| condition(g, level));
    // At most the product of the loops' value counts increments.
    let trips = (0..level)
        .map(|k| g.vars[k].hi - g.vars[k].lo + 1)
        .fold(1i64, |p, t| p * t.max(1));
    g.vars[IV] = Range::between(start, start + step * trips);
    Induction {
        level,
        start,
        step,
        outer: true,
        guard,
    }
}

/// An affine form of the DO variables of loops `1..=level` (and L) as
/// text, with the values it can take.
fn guard_form(g: &mut AffineGen, level: usize) -> (String, Range) {
    let mut text = String::new();
    let mut range = Range::point(0);
    let terms = g.rng.range(1, 2.min(level as i64 + 1));
    let mut used = Vec::new();
    for _ in 0..terms {
        let v = if g.rng.chance(15) {
            OFFSET
        } else {
            g.rng.range(0, level as i64 - 1) as usize
        };
        if used.contains(&v) {
            continue;
        }
        used.push(v);
        let c: i64 = *g.rng.pick(&[1, 1, 1, -1, 2]);
        let name = super::affine::VARS[v];
        let term = if c.abs() == 1 {
            name.to_string()
        } else {
            format!("{}*{name}", c.abs())
        };
        text = match (text.is_empty(), c < 0) {
            (true, true) => format!("-{term}"),
            (true, false) => term,
            (false, true) => format!("{text} - {term}"),
            (false, false) => format!("{text} + {term}"),
        };
        let r = g.vars[v];
        let (a, b) = (r.lo * c, r.hi * c);
        range = Range {
            lo: range.lo + a.min(b),
            hi: range.hi + a.max(b),
        };
    }
    (text, range)
}

/// A comparison of an affine form with a constant near its middle (now and
/// then past its ends: always or never true), or of its MOD or MODULO by 2
/// or 3 with a remainder.
fn comparison(g: &mut AffineGen, level: usize) -> String {
    let (form, range) = guard_form(g, level);
    if g.rng.chance(30) {
        let shift = g.rng.range(-3, 1);
        let m = g.rng.range(2, 3);
        let arg = offset_text(&form, shift);
        let f = if g.rng.chance(50) { "MOD" } else { "MODULO" };
        let r = g.rng.range(-1, m - 1);
        let op = *g.rng.pick(&[".EQ.", ".NE.", ".GT.", ".LT."]);
        return format!("{f}({arg}, {m}) {op} {}", paren(r));
    }
    let mid = (range.lo + range.hi).div_euclid(2);
    let c = match g.rng.range(0, 9) {
        0 => range.lo - 1,
        1 => range.hi + 1,
        _ => mid + g.rng.range(-1, 1),
    };
    let op = *g
        .rng
        .pick(&[".LT.", ".LE.", ".GT.", ".GE.", ".EQ.", ".NE."]);
    format!("{form} {op} {}", paren(c))
}

/// A condition on the DO variables of loops `1..=level`: a comparison, or
/// two joined by `.AND.` or `.OR.`, or one negated.
fn condition(g: &mut AffineGen, level: usize) -> String {
    match g.rng.range(0, 9) {
        0 | 1 => format!(
            "({}) .AND. ({})",
            comparison(g, level),
            comparison(g, level)
        ),
        2 => format!("({}) .OR. ({})", comparison(g, level), comparison(g, level)),
        3 => format!(".NOT. ({})", comparison(g, level)),
        _ => comparison(g, level),
    }
}

/// An assignment under a logical IF, an IF-ELSE or an IF-ELSE IF chain on
/// affine conditions of the DO variables.
fn guarded(g: &mut AffineGen, level: usize) -> Stmt {
    match g.rng.range(0, 2) {
        0 => {
            let cond = condition(g, level);
            let then = g.assignment(level);
            // A long one as an IF block: free-form lines end at column 132.
            if cond.len() + then.len() > 90 {
                Stmt::Chain {
                    arms: vec![(cond, then)],
                    other: None,
                }
            } else {
                Stmt::LogicalIf { cond, then }
            }
        }
        _ => {
            let n_arms = g.rng.range(1, 2);
            let arms = (0..n_arms)
                .map(|_| (condition(g, level), g.assignment(level)))
                .collect();
            let other = g.rng.chance(70).then(|| g.assignment(level));
            Stmt::Chain { arms, other }
        }
    }
}
