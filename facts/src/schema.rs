//! The input relations that lowering produces: the vocabulary every rule
//! file is written in. Each type's doc comment is its one definition, in
//! Datalog form first, then what it means.
//!
//! Conventions:
//! - ids (`stmt`, `ref`, `loop`, `block`, `form`) are numbers, stable for the
//!   same input: statements are numbered in source order across all files
//!   (files in command-line order), references in evaluation order inside a
//!   statement (uses before the definition), so that inside a basic block
//!   the order of ids is execution order;
//! - a `loop` is the id of its DO statement, a `block` the id of its first
//!   statement;
//! - names (units, variables, arrays, templates) are upper case;
//! - `line` and `col` are 1-based positions in the file of the unit;
//! - an id column says what it numbers by its field type (`RefId`,
//!   `StmtId`, `LoopId`, `BlockId`, `FormId`): the one place `kaiseki query`
//!   and `kaiseki explain` learn how to show it, and from which the kinds
//!   of the derived relations' columns follow (`kaiseki_rules::kinds`).

use crate::relation::{relations, BlockId, FormId, LoopId, RefId, StmtId};

relations! {
    /// `unit(unit, kind, file, line)`: a program unit; `kind` is `program`, `subroutine`, `function` or `block_data`.
    Unit unit { unit: String, kind: String, file: String, line: i64 }

    /// `dummy_arg(unit, pos, var)`: the `pos`-th (1-based) dummy argument of a subroutine or function.
    DummyArg dummy_arg { unit: String, pos: i64, var: String }

    /// `stmt(stmt, unit, line, col, kind)`: a statement; `kind` names it (`assign`, `do`, `enddo`, `if`, `elseif`, `else`, `endif`, `logical_if`, `goto`, `computed_goto`, `arith_if`, `continue`, `call`, `return`, `stop`, `read`, `write`, `print`, `open`, `close`, `inquire`, `rewind`, `backspace`, `endfile`, `end`, `opaque`, `decl`, `format`, ...); `enddo` statements that the source does not spell (the end of a labelled DO) are placed on the line of the terminal statement with `col` 0.
    Stmt stmt { stmt: StmtId, unit: String, line: i64, col: i64, kind: String }

    /// `stmt_file(stmt, file)`: statement `stmt` was read from `file` (an INCLUDEd file, or a header `#include`d by the preprocessor), not from its unit's file (`unit`'s `file`), which holds every statement without a row here; its `line` and `col`, and those of its references, are in `file`.
    StmtFile stmt_file { stmt: StmtId, file: String }

    /// `stmt_label(stmt, label)`: the statement carries this label.
    StmtLabel stmt_label { stmt: StmtId, label: i64 }

    /// `cfg_edge(from, to)`: control can pass from statement `from` directly to statement `to` (executable statements only).
    CfgEdge cfg_edge { from: StmtId, to: StmtId }

    /// `cfg_entry(unit, stmt)`: the first executable statement of the unit.
    CfgEntry cfg_entry { unit: String, stmt: StmtId }

    /// `cfg_exit(unit, stmt)`: a statement after which control leaves the unit (END, RETURN, STOP).
    CfgExit cfg_exit { unit: String, stmt: StmtId }

    /// `block_stmt(block, stmt, index)`: statement `stmt` is the `index`-th (0-based) of basic block `block`.
    BlockStmt block_stmt { block: BlockId, stmt: StmtId, index: i64 }

    /// `block_edge(from, to)`: control can pass from the last statement of block `from` to the first of block `to`.
    BlockEdge block_edge { from: BlockId, to: BlockId }

    /// `loop(loop, unit, kind, var, line, depth)`: a loop headed by DO statement `loop`; `kind` is `do` or `do_while` (whose `var` is empty); `depth` is 1 for an outermost loop.
    Loop r#loop { r#loop: LoopId, unit: String, kind: String, var: String, line: i64, depth: i64 }

    /// `loop_parent(loop, parent)`: `parent` is the innermost loop that encloses `loop`.
    LoopParent loop_parent { r#loop: LoopId, parent: LoopId }

    /// `loop_stmt(loop, stmt)`: statement `stmt` is inside the body of `loop` (at any depth; the loop's own `enddo` included, its DO statement not).
    LoopStmt loop_stmt { r#loop: LoopId, stmt: StmtId }

    /// `loop_end(loop, stmt)`: the `enddo` statement of `loop`, where the DO variable is incremented and the back edge leaves.
    LoopEnd loop_end { r#loop: LoopId, stmt: StmtId }

    /// `loop_bounds(loop, lower, upper, step)`: the bound expressions of a DO loop as source text, with named constants folded (PARAMETERs and variables that keep their DATA or initial value) (`step` is `1` when omitted).
    LoopBounds loop_bounds { r#loop: LoopId, lower: String, upper: String, step: String }

    /// `loop_bound(loop, which, form)`: bound `which` (`lower`, `upper`, `step`) of a DO loop is the affine form `form`.
    LoopBound loop_bound { r#loop: LoopId, which: String, form: FormId }

    /// `loop_trip(loop, trip)`: the DO loop runs exactly `trip` iterations (its step is a constant, and its bounds are constants or a constant apart, as in `DO J = I, I + 1`); also when its bounds, affine in the DO variables of constant-bounded loops around it, give the same count for every value those take (`DO J = 1, I + 1, -1` inside `DO I = 1, 5`: 0; `DO J = 3, I, -1` inside `DO I = 3, 4, 2`: 1), or 0 where only one end of the DO variables' ranges is known and already gives no iteration (`DO J = 0, I, -1` inside `DO I = 1, N`: I >= 1).
    LoopTrip loop_trip { r#loop: LoopId, trip: i64 }

    /// `loop_runs(loop)`: the DO loop runs its body at least once whenever control reaches it: its trip count is a constant of 1 or more, or its bounds give an iteration for every value the DO variables of the loops around it take (`DO J = 9, I + 1, -1` inside `DO I = 2, 5`).
    LoopRuns loop_runs { r#loop: LoopId }

    /// `never_edge(from, to)`: no run takes the control edge from statement `from` to statement `to` (a `cfg_edge`): the branch of a block IF or ELSE IF test, or of a logical IF, whose condition is affine in the DO variables of constant-bounded loops around it and constants (comparisons, `.AND.`, `.OR.`, `.NOT.`, `MOD`, `MODULO`) and has one value for every value those variables take where the IF is reached (the loops' values, the step's included, where the conditions of the IFs around it, and the earlier arms' negated, hold): the THEN edge of a condition never true, the edge past the arm of one always true.
    NeverEdge never_edge { from: StmtId, to: StmtId }


    /// `guard_form(stmt, test, form, relation)`: statement `stmt` runs only when the affine form `form`, over the DO variables of the loops around the IF test `test` (block IF, ELSE IF, logical IF) and constants, is `>= 0` (`relation` `ge`) or `= 0` (`eq`): a comparison of the arm's condition (`.LT.`, `.LE.`, `.GT.`, `.GE.`, `.EQ.`; the operands of `.AND.`, `.NOT.` of them, `.NOT.` of an `.OR.`), or of an earlier arm's condition negated for ELSE IF and ELSE arms. A disjunction (`.OR.`, `.NE.`), MOD and anything else give no such row; but any condition on those variables that folds (MOD, `.OR.`, `.NE.` included), with the conditions of the IFs around it, gives the least and greatest value each DO variable it names takes where they hold (`I - min >= 0`, `max - I >= 0`), where tighter than the loop's range.
    GuardForm guard_form { stmt: StmtId, test: StmtId, form: FormId, relation: String }

    /// `iteration_first(stmt, loop, iteration)`: statement `stmt` runs in no iteration of the DO loop `loop` around it before the one numbered `iteration` (0 is the first), whatever the loops around `loop` take: the IF conditions around it, on the DO variables of the loops around (evaluated at every point of their iteration domain, as for `never_edge`), rule the earlier ones out (`IF (I .GT. 1)` in `DO I = 1, 5`: 1); for an ELSE IF test, the conditions of the arms before it, negated. Only for `iteration` 1 or more.
    IterationFirst iteration_first { stmt: StmtId, r#loop: LoopId, iteration: i64 }

    /// `iteration_last(stmt, loop, iteration)`: statement `stmt` runs in no iteration of the DO loop `loop` around it after the one numbered `iteration` (0 is the first), as `iteration_first` decides (`IF (I .EQ. 1)` in `DO I = 1, N`: 0); also 0 for every statement of a loop whose bounds give at most one iteration wherever it is reached (`DO J = 3, I + 1, -1` inside `DO I = 2, 5`), the `enddo` included.
    IterationLast iteration_last { stmt: StmtId, r#loop: LoopId, iteration: i64 }

    /// `runs_during(stmt, loop)`: statement `stmt` (an assignment to a scalar or a whole array, `T = ...` or `A = ...`, or a DO statement; no row for an element's assignment) runs in at least one iteration of every run of the DO loop `loop` around it that reaches the loop's end (a row only where an inner loop or an IF inside `loop` stands around it): the inner loops around it and the IF conditions around it inside `loop` (affine in the DO variables of `loop` and the loops inside it, MOD and MODULO too) are evaluated at the points of the iteration domain, and one point runs it (`DO I = 3, 7, 2` / `DO J = 4, I + 1, -1` runs J only for I = 3); a loop with a jump, SELECT CASE or an opaque statement in its body has no row.
    RunsDuring runs_during { stmt: StmtId, r#loop: LoopId }

    /// `runs_last(stmt, loop)`: statement `stmt` (an assignment to a scalar or a whole array, or a DO statement, as for `runs_during`) runs in the last iteration of every run of the DO loop `loop` around it (a row only where an inner loop or an IF inside `loop` stands around it), decided as for `runs_during` at the loop's last value (its upper bound for a step of 1 or -1, else from constant bounds): `IF (I .GT. 3) T = 0` in `DO I = 1, 6`.
    RunsLast runs_last { stmt: StmtId, r#loop: LoopId }

    /// `def(ref, stmt, var)`: reference `ref` in statement `stmt` may write variable `var` (scalar, array element or whole array).
    Def def { r#ref: RefId, stmt: StmtId, var: String }

    /// `use(ref, stmt, var)`: reference `ref` in statement `stmt` reads variable `var` (scalar, array element or whole array).
    Use r#use { r#ref: RefId, stmt: StmtId, var: String }

    /// `must_def(ref)`: definition `ref` certainly overwrites the whole variable (a scalar assignment, a DO variable, a READ item, an IOSTAT= variable, a CHARACTER scalar a WRITE writes into), so it kills earlier definitions; array elements, CALL arguments, EQUIVALENCEd names and what an I/O statement that may stop early (END=, ERR=, IOSTAT=) or an implied-DO list defines are only may-definitions.
    MustDef must_def { r#ref: RefId }

    /// `must_use(ref)`: the use `ref` is a scalar variable passed as an actual argument to a procedure of the program that reads the dummy on every run and never writes it (its procedure summary, built bottom-up over the calls: a read every run makes before any statement that may jump, or a call every run makes that surely reads it in turn; `frontend/src/lower/effects.rs`), so the call certainly reads the variable, as a statement that calls nothing reads what it names.
    MustUse must_use { r#ref: RefId }

    /// `element_ref(ref, element, class)`: reference `ref` touches one element of an array that shares storage with no other name, in a statement that calls no procedure, each subscript a constant (after folding named constants) or an affine form of INTEGER scalars the unit never defines; `element` names it by its subscripts' forms, `A(5)`, `B(K+1,2)`. Two elements of one `class` (the subscripts' terms without constants, `K;;` for `B(K+1,2)`) never meet; two of different classes may. Dataflow facts of such a reference belong to its element, so that a certain access to the element stops them (a minimal dependence links an element's accesses one to the next).
    ElementRef element_ref { r#ref: RefId, element: String, class: String }

    /// `fixed_element(ref, element)`: reference `ref` reads an element, at constant subscripts, of a COMMON or module INTEGER array that nothing a call of the unit runs may change (its statements, what it passes, what the procedures it calls write); `element` (`GRID_POINTS$1` for `GRID_POINTS(1)`, `A$1$2` for `A(1,2)`) is the element's term in affine forms (`affine_var`), one value all through the unit.
    FixedElement fixed_element { r#ref: RefId, element: String }

    /// `element_must_def(ref)`: the `element_ref` `ref` is a definition that certainly overwrites its element (an assignment, a READ item that `must_def` would count for a scalar).
    ElementMustDef element_must_def { r#ref: RefId }

    /// `ref_next(ref, next)`: `next` is the next reference (definition or use) to the same variable after `ref` in the same run of statements without branches, in execution order (one basic block, but a statement that names an `element_ref`, a block of its own, ends the runs of its array's references only); the program-order fact that lets rules refine block-level dataflow to the points inside a block.
    RefNext ref_next { r#ref: RefId, next: RefId }

    /// `seg_edge(var, from, via, to, guard)`: the sparse evaluation graph of variable (storage object) `var`: the blocks where its dataflow facts can change (those that reference it, those control enters from a loop that references it, and where such facts merge) and, for each block edge `via -> to` into one of them, the one `from` whose facts reach `via` unchanged (the nearest of them that dominates `via`, maybe `via` itself). Dataflow goes from node to node over these rows, not block by block. `guard` is the last arm of an invariant test (see `class_test`) that every path from `from` over `via -> to` enters: `+C` the THEN arm (the true branch) of a test of class `C`, `-C` its false branch, 0 none.
    SegEdge seg_edge { var: String, from: BlockId, via: BlockId, to: BlockId, guard: i64 }

    /// `class_test(stmt, class, then)`: the IF, ELSE IF or logical IF `stmt` tests a condition whose value cannot change once the unit's first test of it has run (the same text over scalars and constants, no function call or array element, its variables defined only before that first test and outside the loops around the tests, in a unit without backward jumps other than DO loops); `class` is the id of that first test, `then` the first statement of the true branch. All the tests of a class take the same branch in one execution of the unit, so a path through the true branch of one and the false branch of another never happens.
    ClassTest class_test { stmt: StmtId, class: i64, then: StmtId }

    /// `block_guard(block, guard)`: the innermost arm of an invariant test (`+C`, `-C` as in `seg_edge`, 0 none) that control must have entered to reach `block`; a reference in the block executes only in runs that took that branch.
    BlockGuard block_guard { block: BlockId, guard: i64 }

    /// `ref_pos(ref, line, col)`: where the variable's name of reference `ref` stands in the source.
    RefPos ref_pos { r#ref: RefId, line: i64, col: i64 }

    /// `array_ref(ref, array, rank)`: reference `ref` is to one element of `array`, with `rank` subscripts.
    ArrayRef array_ref { r#ref: RefId, array: String, rank: i64 }

    /// `whole_array_ref(ref, array)`: reference `ref` names the whole `array` (an actual argument, an I/O item, an intrinsic's argument, a section, an element of an implied-DO list whose subscripts use its variables).
    WholeArrayRef whole_array_ref { r#ref: RefId, array: String }

    /// `section_dim(ref, dim, lower, upper, step)`: the `whole_array_ref` `ref` is written as a section (`A(2:N-1, J)`, `A(:, 1:N:2)`) or as the bare name of an array (`A`, every dimension whole); per dimension (1-based) the triplet `lower:upper:step` as folded source text, an omitted bound the declared one and an omitted step `1`; a dimension subscripted by one value has it as `lower` and `upper` and an empty `step`. No rows when a bound needed is not declared (assumed size, assumed or deferred shape).
    SectionDim section_dim { r#ref: RefId, dim: i64, lower: String, upper: String, step: String }

    /// `array_assign(stmt, reduce, integer)`: assignment `stmt` in array syntax can be computed element by element: with `reduce` empty, an array (a section or the whole array) is assigned an elemental expression: arrays, sections of the same number of section dimensions, array elements, scalars, numeric literals, `+ - * / **` and the elemental numeric intrinsics (ABS, MOD, SQRT, DBLE, ...), every subscript and bound an INTEGER expression of scalars; with `reduce` `MAXVAL`, `MINVAL` or `SUM`, a numeric scalar is assigned that reduction of one such expression (no DIM or MASK). `integer` is 1 when every name and literal of the expression is INTEGER. Every array the expression or the left side names has its bounds declared (`section_dim`).
    ArrayAssign array_assign { stmt: StmtId, reduce: String, integer: i64 }

    /// `section_form(ref, dim, lower, upper, step)`: dimension `dim` (1-based) of the `whole_array_ref` `ref` (a section, the bare name of an array, or the part of an array an actual argument lets a procedure touch) runs from affine form `lower` to affine form `upper` by the constant `step`; a dimension subscripted by one value has that form as `lower` and `upper` and `step` 0. Rows for every dimension or for none (a bound or subscript that is not affine, a step that is not a constant, a bound not declared as a constant where the section omits it). The dependence tests treat such a reference as touching every element of the section (`rules/dl/subscripts.dl`).
    SectionForm section_form { r#ref: RefId, dim: i64, lower: FormId, upper: FormId, step: i64 }

    /// `section_must_def(ref)`: the call whose actual argument is the definition `ref` surely writes every element of `ref`'s `section_form`: the procedure's assignments (or its own calls) that every run of it makes write them all (no jump in it, no IF around them, loops of constant bounds; `frontend/src/lower/effects.rs`). Region analysis counts them as surely defined (DDEF).
    SectionMustDef section_must_def { r#ref: RefId }

    /// `subscript(ref, dim, form)`: subscript `dim` (1-based) of array reference `ref` is the affine form `form`.
    Subscript subscript { r#ref: RefId, dim: i64, form: FormId }

    /// `subscript_value(ref, dim, form)`: subscript `dim` of array reference `ref` is also the affine form `form` once the values integer scalars hold there are put in: values an earlier assignment of the same straight run of statements gave them (`I1 = 2*J1 - D1` before `X1(I1-1)`: `2*J1 - D1 - 1`; a run ends at a label, a call, and any statement but an assignment, CONTINUE or FORMAT). Rows only where it differs from the `subscript` form. The regions read it; the dependence tests find such values through the dataflow.
    SubscriptValue subscript_value { r#ref: RefId, dim: i64, form: FormId }

    /// `subscript_nonaffine(ref, dim, text)`: subscript `dim` of array reference `ref` is not affine (e.g. `A(IDX(I))`, `A(I*J)`); `text` is its source.
    SubscriptNonaffine subscript_nonaffine { r#ref: RefId, dim: i64, text: String }

    /// `subscript_use(ref)`: use `ref` is read to compute a subscript of an array element or a bound of an array section (`I` in `A(I+1)`, `J` in `A(B(J))`), not a value of the statement.
    SubscriptUse subscript_use { r#ref: RefId }

    /// `affine(form, constant)`: affine form `form` is `constant` plus the terms of `affine_loop` and `affine_var`.
    Affine affine { form: FormId, constant: i64 }

    /// `affine_loop(form, loop, coeff)`: affine form `form` has the term `coeff` x (DO variable of the enclosing loop `loop`).
    AffineLoop affine_loop { form: FormId, r#loop: LoopId, coeff: i64 }

    /// `affine_var(form, var, coeff)`: affine form `form` has the term `coeff` x `var`, an integer scalar that is not the DO variable of an enclosing loop, or a fixed element (`fixed_element`, `GRID_POINTS$1`).
    AffineVar affine_var { form: FormId, var: String, coeff: i64 }

    /// `assign_affine(stmt, form)`: the right-hand side of the scalar assignment `stmt` is the affine form `form`.
    AssignAffine assign_affine { stmt: StmtId, form: FormId }

    /// `reduction_update(stmt, var, op)`: assignment `stmt` updates `var` (a scalar, or an element of array `var` with the same subscripts on both sides) as a reduction does: `var = var + e` or `- e` (op `+`), `var = var * e` (`*`), `var = MAX(var, e)` (`max`), `var = MIN(var, e)` (`min`), where `e` does not mention `var`; `var = MOD(var + e, m)` (`mod`) as `mod_update` says.
    ReductionUpdate reduction_update { stmt: StmtId, var: String, op: String }

    /// `mod_update(stmt, var, modulus)`: assignment `stmt` is `var = MOD(var + e1 + ... + ek, modulus)` (a `reduction_update` of op `mod`): `var` an INTEGER scalar, `modulus` a constant greater than 0, and every `ei` an INTEGER expression not mentioning `var` that is never negative (a constant >= 0, a DO variable of a loop around whose values start at 0 or more, `MODULO(x, c)` with c > 0, `MOD(x, c)` of such an x with c > 0, sums and products of these).
    ModUpdate mod_update { stmt: StmtId, var: String, modulus: i64 }

    /// `minmax_test(stmt, var, op, value)`: statement `stmt` is an IF with one part (a logical IF, or a block IF without ELSE IF and ELSE) whose condition compares scalar `var` with `value` (folded source text not mentioning `var`): `value .GT. var` or `var .LT. value` (also GE, LE) is op `max`, the reverse `min`.
    MinmaxTest minmax_test { stmt: StmtId, var: String, op: String, value: String }

    /// `strict_test(stmt)`: the condition of the `minmax_test` `stmt` is a strict comparison (`.GT.`, `.LT.`): of equal values, the first one found is kept (with `.GE.`, `.LE.` the last one).
    StrictTest strict_test { stmt: StmtId }

    /// `guarded(stmt, test)`: statement `stmt` is in the part of the IF `test` (a `minmax_test`) that runs when its condition holds, directly (a statement nested in another construct there is guarded by that construct's statement only).
    Guarded guarded { stmt: StmtId, test: StmtId }

    /// `copy_assign(stmt, var, value)`: the guarded assignment `stmt` gives scalar `var` the value of the expression `value` (folded source text).
    CopyAssign copy_assign { stmt: StmtId, var: String, value: String }

    /// `cond(stmt, text)`: statement `stmt` branches on the condition `text` (block and logical IF, ELSE IF, DO WHILE, arithmetic IF).
    Cond cond { stmt: StmtId, text: String }

    /// `call(stmt, callee)`: statement `stmt` calls subroutine or function `callee` (a CALL, or a reference to a non-intrinsic function; a CALL of an intrinsic subroutine but MVBITS too, whose effects beyond its arguments, a random sequence, the clock, ending the run, no loop may reorder); an actual argument that is a variable, an element or a substring is a `use` reference of the statement where the callee may read its dummy and a `def` where it may write it (from the callee's body, or the INTENT of its interface body; both when unknown).
    Call call { stmt: StmtId, callee: String }

    /// `contained_call(stmt, callee)`: the call of `callee` at statement `stmt` does nothing the statement's references do not show: every procedure it may run is a unit of the given files whose effects are known, with no I/O, STOP (an error report aside: WRITE or PRINT in an IF arm that ends in STOP, where the run ends), call of an intrinsic subroutine or runtime routine, and no variable that keeps its value between calls (SAVE, DATA, an initializer), and every COMMON or module variable they may write is one the calling unit declares (so that the call's `hidden_ref`s stand for it; one they only read, only other calls could write, and their writes are declared). A loop whose calls are all such is judged by its references like any other.
    ContainedCall contained_call { stmt: StmtId, callee: String }

    /// `element_actual(ref)`: element reference `ref` is an actual argument whose dummy may be an array: the procedure may reach the elements from it on (sequence association), not that element only. An element passed to a scalar dummy has no row: it is that element.
    ElementActual element_actual { r#ref: RefId }

    /// `hidden_ref(ref)`: reference `ref` is one its statement makes without naming the variable: a COMMON or module variable a called procedure may read or write, or a variable an opaque statement may touch. Such a variable cannot be made private to a loop's iterations: the procedure sees the shared one.
    HiddenRef hidden_ref { r#ref: RefId }

    /// `io(stmt, kind)`: statement `stmt` does I/O (`read`, `write`, `print`, `open`, `close`, `inquire`, `rewind`, `backspace`, `endfile`); READ items are `def`s, output items `use`s; a CHARACTER unit (an internal file) is a `use` of READ and a `def` of WRITE, other units and specifiers are `use`s, IOSTAT= a `def`, the variables INQUIRE sets (and IOMSG=, NEWUNIT=) possible `def`s, END=/ERR=/EOR= `cfg_edge`s.
    Io io { stmt: StmtId, kind: String }

    /// `opaque(stmt, reason)`: statement `stmt` is valid Fortran outside what the analyses model; rules must assume it reads and writes every variable it might.
    Opaque opaque { stmt: StmtId, reason: String }

    /// `var(unit, var, type, rank)`: a variable of the unit, declared or implicitly typed (`integer`, `real`, `double`, `complex`, `logical`, `character`); `rank` is 0 for scalars.
    Var var { unit: String, var: String, r#type: String, rank: i64 }

    /// `array_dim(unit, array, dim, lower, upper)`: declared bounds of dimension `dim` as folded source text (`*` for assumed size).
    ArrayDim array_dim { unit: String, array: String, dim: i64, lower: String, upper: String }

    /// `param(unit, name, value)`: a PARAMETER constant and its folded value as text.
    Param param { unit: String, name: String, value: String }

    /// `common(unit, block, var, pos)`: `var` is the `pos`-th (1-based) member of COMMON block `block` (blank common is `//`).
    Common common { unit: String, block: String, var: String, pos: i64 }

    /// `equivalence(unit, group, var)`: `var` is in EQUIVALENCE group `group` (numbered from 1 per unit); members may alias.
    Equivalence equivalence { unit: String, group: i64, var: String }

    /// `storage(unit, var, object, offset)`: `var` shares storage with other names of the unit (EQUIVALENCE, and the COMMON members an EQUIVALENCE overlaps): it starts `offset` bytes into storage object `object` (its names joined by `=`, in order of offset), -1 when its place cannot be told. Names with no row share storage with no other name of the unit.
    Storage storage { unit: String, var: String, object: String, offset: i64 }

    /// `storage_ref(ref, object)`: reference `ref` is to a name that shares storage object `object`: dataflow and dependences compare it with every reference to the object, as one variable.
    StorageRef storage_ref { r#ref: RefId, object: String }

    /// `storage_address(ref, form)`: reference `ref` to a name sharing storage touches element number `form` (an affine form) of its storage object, counted in the elements of the object (whose names all have elements of one size); no row when that cannot be told (a whole array, a subscript that is not affine, names of different element sizes).
    StorageAddress storage_address { r#ref: RefId, form: FormId }

    /// `saved(unit, var)`: `var` keeps its value between calls (SAVE or DATA).
    Saved saved { unit: String, var: String }

    /// `data_init(unit, var)`: `var` (or some of its elements) is initialized by a DATA statement.
    DataInit data_init { unit: String, var: String }

    /// `external(unit, name, kind)`: `name` is declared `external` or `intrinsic`.
    External external { unit: String, name: String, kind: String }

    /// `hpf_processors(unit, name, dim, extent)`: dimension `dim` of processor arrangement `name` has `extent` processors; `extent` is 0 when it is not a constant (`NUMBER_OF_PROCESSORS()`, a dummy argument): known only when the program runs, so no rule may assume a number. A scalar arrangement has no rows.
    HpfProcessors hpf_processors { unit: String, name: String, dim: i64, extent: i64 }

    /// `hpf_template(unit, name, dim, lower, upper)`: dimension `dim` of template `name` has index range `lower:upper`; a dimension whose bounds are not constants has no row.
    HpfTemplate hpf_template { unit: String, name: String, dim: i64, lower: i64, upper: i64 }

    /// `hpf_align(unit, array, array_dim, template, template_dim, kind, coeff, offset)`: for `kind` `axis`, index i of `array_dim` is aligned with `coeff`*i+`offset` of `template_dim`; `constant` aligns the template dim with `offset` (array_dim 0); `replicated` spreads the array over `template_dim` (array_dim 0); `collapsed` keeps `array_dim` on one processor (template_dim 0). The `template` may be an array, itself aligned or distributed. An array whose mapping may change in the unit (DYNAMIC, REALIGN, REDISTRIBUTE) has no rows.
    HpfAlign hpf_align { unit: String, array: String, array_dim: i64, template: String, template_dim: i64, kind: String, coeff: i64, offset: i64 }

    /// `hpf_distribute(unit, template, dim, format, k, onto)`: dimension `dim` of `template` (a template or an array) is distributed `block`, `cyclic` (with block size `k`, 1 for plain CYCLIC) or `*` (not distributed, k 0), onto processors `onto` (empty when not given). A DISTRIBUTE without a format (the compiler chooses) or with a transcriptive `*` (the actual argument's) gives no rows, nor does a template or array whose mapping may change in the unit (DYNAMIC, REALIGN, REDISTRIBUTE).
    HpfDistribute hpf_distribute { unit: String, template: String, dim: i64, format: String, k: i64, onto: String }

    /// `hpf_independent(loop)`: the DO loop `loop` is asserted INDEPENDENT by the user (`!HPF$ INDEPENDENT` before it, or `!HPF$ INDEPENDENT (I, J)` before the directly nested DO loops of I and J).
    HpfIndependent hpf_independent { r#loop: LoopId }

    /// `hpf_new(loop, var)`: the INDEPENDENT loop `loop` has `var` in its NEW clause: each iteration has its own `var`, so the assertion says nothing of dependences through it.
    HpfNew hpf_new { r#loop: LoopId, var: String }

    /// `assign_tree(stmt, target, tree)`: the assignment `stmt` defines reference `target` with the value of `tree`, its right-hand side as operations in prefix form: `(op.class operand ...)`, where `op` is `add`, `sub`, `mul`, `div`, `pow`, `neg`, `cvt` (a type conversion) or an intrinsic's name, `class` is `f` (floating point, complex) or `i` (integer, logical), and an operand is an operation, `r12` (use reference 12: a scalar or an array element), `k` (a constant) or `?` (what the model does not know: a function call, a character or relational operation); an integer operand of a floating-point operation is converted first (`(cvt.f r3)`). The instruction-level view of a loop body that unrolling estimates read (`rules/dl/unroll.dl`).
    AssignTree assign_tree { stmt: i64, target: i64, tree: String }

    /// `machine(param, value)`: a parameter of the target machine that `kaiseki unroll` estimates for (`issue`: operations issued a cycle; `latency_fp`, `latency_load`, `latency_store`, `latency_int`: cycles until a result of that class can be used; `issue_cycles`: cycles an operation holds its slot; `instruction_bits`; `icache_bytes`; `vector_width`: lanes of the vector unit, 1 on the paper's machine).
    Machine machine { param: String, value: i64 }

    /// `request(what)`: the user asked for an analysis that is not run by default (`general`: the general (Kuck) output, anti and input dependences of `kaiseki deps --all`; `coincidence`: Ishida & Kanada's loop dependence information, which `kaiseki analyze` asks for; `unroll`: the unroll factors of `kaiseki unroll`; `parallel`, `comm`: loop parallelization and HPF communication; `regions`: every region set (MOD, USE, DDEF, EUSE, LIVE), which `kaiseki analyze` asks for).
    Request request { what: String }
}
