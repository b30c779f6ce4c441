//! Structuring: the flat list of parsed statements of one file -> program
//! units whose DO loops and IF blocks own their bodies.
//!
//! Labelled DO loops end at the statement carrying their label; several
//! loops may share it (`DO 20 I` / `DO 20 J` / `20 C(J) = ...`): the
//! terminal statement is the last statement of the innermost loop, and each
//! outer loop ends with the inner loop. Mismatched structure is reported and
//! repaired (blocks are closed where the error is found), never fatal.

use crate::ast::{
    CaseArm, Decl, DeclKind, ElsePart, Expr, ForallIndex, IfArm, Independent, LoopEnd, Name, Pos,
    Signature, Stmt, StmtKind, Unit, UnitKind,
};
use crate::masked::{forall_construct, where_construct, Masked, WhereArm};
use crate::source::Reporter;
use crate::statement::{ConstructRole, Parsed, Statement};

/// Deeper nesting is refused (the rest of the unit is skipped), so that
/// recursive walks over the tree stay shallow.
pub const MAX_NESTING: usize = 250;

/// An open block: its opening statement and the body gathered so far.
enum Block {
    Loop {
        label: Option<u32>,
        pos: Pos,
        head: Box<LoopHead>,
        /// The terminal label of a labelled DO.
        target: Option<u32>,
        body: Vec<Stmt>,
        /// The construct name (`OUTER: DO ...`).
        construct: Option<String>,
    },
    If {
        label: Option<u32>,
        pos: Pos,
        arms: Vec<IfArm>,
        else_part: Option<ElsePart>,
    },
    /// An INTERFACE block: its generic name and the procedures it names;
    /// `depth` counts the interface body being read (1 between bodies).
    Interface {
        pos: Pos,
        generic: Option<Name>,
        procedures: Vec<Name>,
        depth: usize,
        bodies: Vec<Signature>,
    },
    /// SELECT CASE and the CASE blocks read so far.
    Select {
        label: Option<u32>,
        pos: Pos,
        selector: Expr,
        arms: Vec<CaseArm>,
        construct: Option<String>,
    },
    /// A WHERE construct and the blocks read so far (see [`crate::masked`]).
    Where {
        label: Option<u32>,
        pos: Pos,
        arms: Vec<WhereArm>,
    },
    /// A FORALL construct: its header and the body read so far.
    Forall {
        label: Option<u32>,
        pos: Pos,
        indices: Vec<ForallIndex>,
        mask: Expr,
        body: Vec<Stmt>,
    },
    /// An unmodelled construct (SELECT TYPE, ASSOCIATE, ...) being skipped.
    Construct {
        label: Option<u32>,
        pos: Pos,
        what: String,
        kind: &'static str,
        depth: usize,
    },
}

enum LoopHead {
    Do {
        var: Name,
        lower: Expr,
        upper: Expr,
        step: Option<Expr>,
        independent: Option<Independent>,
    },
    While(Expr),
}

impl Block {
    fn describe(&self) -> String {
        match self {
            Block::Loop {
                pos,
                target: Some(t),
                ..
            } => format!("the DO loop at line {} (ending at label {t})", pos.line),
            Block::Loop { pos, .. } => format!("the DO loop at line {}", pos.line),
            Block::If { pos, .. } => format!("the IF block at line {}", pos.line),
            Block::Interface { .. } => "the INTERFACE block".into(),
            Block::Select { pos, .. } => format!("the SELECT CASE at line {}", pos.line),
            Block::Where { pos, .. } => format!("the WHERE construct at line {}", pos.line),
            Block::Forall { pos, .. } => format!("the FORALL construct at line {}", pos.line),
            Block::Construct { pos, what, .. } => format!("the {what} at line {}", pos.line),
        }
    }

    /// The statement this block becomes, closed at `end`.
    fn close(self, end: Pos, end_label: Option<u32>, loop_end: LoopEnd) -> Stmt {
        match self {
            Block::Loop {
                label,
                pos,
                head,
                body,
                construct,
                ..
            } => {
                let kind = match *head {
                    LoopHead::Do {
                        var,
                        lower,
                        upper,
                        step,
                        independent,
                    } => StmtKind::Do {
                        var,
                        lower,
                        upper,
                        step,
                        body,
                        end: loop_end,
                        independent,
                        construct,
                    },
                    LoopHead::While(cond) => StmtKind::DoWhile {
                        cond,
                        body,
                        end: loop_end,
                        construct,
                    },
                };
                Stmt { label, pos, kind }
            }
            Block::If {
                label,
                pos,
                arms,
                else_part,
            } => Stmt {
                label,
                pos,
                kind: StmtKind::If {
                    arms,
                    else_part,
                    end,
                    end_label,
                },
            },
            Block::Select {
                label,
                pos,
                selector,
                arms,
                construct,
            } => Stmt {
                label,
                pos,
                kind: StmtKind::Select {
                    selector,
                    cases: arms,
                    end,
                    end_label,
                    construct,
                },
            },
            Block::Construct {
                label, pos, what, ..
            } => Stmt {
                label,
                pos,
                kind: StmtKind::Opaque { reason: what },
            },
            // Only a WHERE or FORALL construct left open by an error: a
            // proper one becomes its masked assignments (`Builder::end_block`).
            Block::Where { label, pos, .. } | Block::Forall { label, pos, .. } => Stmt {
                label,
                pos,
                kind: StmtKind::Opaque {
                    reason: "a WHERE or FORALL construct not closed".into(),
                },
            },
            // Interface blocks are declarations: `end_interface` takes them.
            Block::Interface { .. } => Stmt {
                label: end_label,
                pos: end,
                kind: StmtKind::Continue,
            },
        }
    }
}

/// An `!HPF$ INDEPENDENT` waiting for its DO.
struct PendingIndependent {
    pos: Pos,
    /// The DO variables still to mark, each DO nested directly in the one
    /// before; empty: the next DO, whatever its variable.
    indices: Vec<Name>,
    new: Vec<Name>,
}

impl PendingIndependent {
    /// Why the directive (or what is left of it) is ignored.
    fn unused(&self) -> String {
        if self.indices.is_empty() {
            return "INDEPENDENT is not followed by a DO loop; ignored".into();
        }
        let names: Vec<&str> = self.indices.iter().map(|n| n.text.as_str()).collect();
        format!(
            "INDEPENDENT names {0}, but no DO loop of {0} follows directly; ignored for {0}",
            names.join(", ")
        )
    }
}

/// A derived-type definition being read: `TYPE name` up to `END TYPE`.
struct TypeDefBuilder {
    pos: Pos,
    name: Name,
    components: Vec<DeclKind>,
    unsupported: Option<String>,
    /// After the type's CONTAINS: its type-bound procedures, skipped.
    contains: bool,
}

/// One unit being built.
struct Open {
    /// Inside a derived-type definition.
    typedef: Option<TypeDefBuilder>,
    unit: Unit,
    blocks: Vec<Block>,
    independent: Option<PendingIndependent>,
    /// After CONTAINS: the next SUBROUTINE/FUNCTION is nested, not a
    /// missing END.
    contains: bool,
    /// Nesting went too deep; statements are ignored up to END.
    skipping: bool,
    /// Where this unit goes in the output (hosts before their contents).
    slot: usize,
}

struct Builder<'r> {
    rep: &'r mut Reporter,
    out: Vec<Option<Unit>>,
    /// Open units: a host with CONTAINS below the procedure it contains.
    open: Vec<Open>,
}

/// Builds the program units of one file from its statements. `eof` is
/// where a missing END is reported.
pub fn build_units(stmts: Vec<Statement>, eof: Pos, rep: &mut Reporter) -> Vec<Unit> {
    let mut b = Builder {
        rep,
        out: Vec::new(),
        open: Vec::new(),
    };
    for s in stmts {
        b.statement(s);
    }
    while let Some(o) = b.open.last() {
        let what = unit_words(&o.unit);
        b.close_unit(eof, None);
        b.rep.error(eof, format!("{what} has no END statement"));
    }
    b.out.into_iter().flatten().collect()
}

fn unit_words(u: &Unit) -> String {
    let kind = match u.kind {
        UnitKind::Program => "PROGRAM",
        UnitKind::Subroutine => "SUBROUTINE",
        UnitKind::Function => "FUNCTION",
        UnitKind::BlockData => "BLOCK DATA",
        UnitKind::Module => "MODULE",
    };
    format!("{kind} {}", u.name.text)
}

fn new_unit(
    kind: UnitKind,
    name: Name,
    args: Vec<Name>,
    result_type: Option<crate::ast::TypeSpec>,
) -> Unit {
    Unit {
        kind,
        end: name.pos,
        name,
        args,
        result_type,
        result: None,
        decls: Vec::new(),
        body: Vec::new(),
        end_label: None,
        contains: false,
        host: None,
        keywords: Default::default(),
        extrinsic_local: None,
        allocated: Default::default(),
    }
}

impl Builder<'_> {
    fn statement(&mut self, mut s: Statement) {
        if let Some(o) = self.open.last_mut() {
            o.unit.keywords.extend(std::mem::take(&mut s.keywords));
            if o.skipping {
                if matches!(*s.kind, Parsed::EndUnit) {
                    self.close_unit(s.pos, s.label);
                }
                return;
            }
            if matches!(o.blocks.last(), Some(Block::Construct { .. })) {
                self.in_construct(s);
                return;
            }
            if matches!(o.blocks.last(), Some(Block::Interface { .. })) {
                self.in_interface(s);
                return;
            }
            if o.typedef.is_some() && self.in_typedef(&s) {
                return;
            }
        }
        let Statement {
            label,
            pos,
            kind,
            construct,
            ..
        } = s;
        let header = match *kind {
            Parsed::Program(name) => Some(new_unit(UnitKind::Program, name, vec![], None)),
            Parsed::Subroutine {
                name,
                args,
                extrinsic_local,
            } => Some(Unit {
                extrinsic_local,
                ..new_unit(UnitKind::Subroutine, name, args, None)
            }),
            Parsed::Function {
                name,
                args,
                result,
                result_type,
                extrinsic_local,
            } => Some(Unit {
                extrinsic_local,
                result,
                ..new_unit(UnitKind::Function, name, args, result_type)
            }),
            Parsed::BlockData(name) => {
                let name = name.unwrap_or(Name {
                    text: "BLOCKDATA".into(),
                    pos,
                });
                Some(new_unit(UnitKind::BlockData, name, vec![], None))
            }
            Parsed::Module(name) => Some(new_unit(UnitKind::Module, name, vec![], None)),
            // END MODULE closes the module (and a procedure left open in it).
            Parsed::Construct {
                role: ConstructRole::Close("MODULE"),
                ..
            } if self.open.iter().any(|o| o.unit.kind == UnitKind::Module) => {
                while let Some(o) = self.open.last() {
                    let module = o.unit.kind == UnitKind::Module;
                    if !module {
                        let what = unit_words(&o.unit);
                        self.rep.error(
                            pos,
                            format!("{what} has no END statement before END MODULE"),
                        );
                    }
                    self.close_unit(pos, label);
                    if module {
                        break;
                    }
                }
                return;
            }
            other => {
                self.body_statement(label, pos, other, construct);
                return;
            }
        };
        if let Some(unit) = header {
            self.start_unit(unit, pos);
        }
    }

    fn start_unit(&mut self, mut unit: Unit, pos: Pos) {
        let nested = self.open.last().is_some_and(|o| o.contains) && unit.kind != UnitKind::Module;
        if !nested {
            if let Some(o) = self.open.last() {
                let what = unit_words(&o.unit);
                self.rep.error(
                    pos,
                    format!("{what} has no END statement before this one starts"),
                );
                self.close_unit(pos, None);
            }
        }
        if nested {
            unit.host = self.open.last().map(|o| o.unit.name.text.clone());
        }
        self.out.push(None);
        self.open.push(Open {
            typedef: None,
            unit,
            blocks: Vec::new(),
            independent: None,
            contains: false,
            skipping: false,
            slot: self.out.len() - 1,
        });
    }

    /// The unit statements go to, opening the unnamed main program if none
    /// is open.
    fn current(&mut self, pos: Pos) -> &mut Open {
        if self.open.is_empty() {
            let name = Name {
                text: "MAIN".into(),
                pos,
            };
            self.start_unit(new_unit(UnitKind::Program, name, vec![], None), pos);
        }
        let last = self.open.len() - 1;
        &mut self.open[last]
    }

    fn body_statement(
        &mut self,
        label: Option<u32>,
        pos: Pos,
        kind: Parsed,
        construct: Option<String>,
    ) {
        if let Parsed::EndUnit = kind {
            // A lone END is a whole (empty) main program.
            self.current(pos);
            self.close_unit(pos, label);
            return;
        }
        let o = self.current(pos);
        if !matches!(kind, Parsed::Do { .. }) {
            if let Some(p) = o.independent.take() {
                self.rep.warning(p.pos, p.unused());
            }
        }
        match kind {
            Parsed::Exec(k) => {
                let k = self.loop_jump(pos, k);
                self.push(
                    Stmt {
                        label,
                        pos,
                        kind: k,
                    },
                    label,
                )
            }
            Parsed::Unreadable { executable } => {
                // Inside executable code (or plainly executable itself) the
                // statement stays, opaque: the loops around it are not
                // judged as if it were not there.
                let started = self
                    .open
                    .last()
                    .is_some_and(|o| !o.unit.body.is_empty() || !o.blocks.is_empty());
                if executable || started {
                    let kind = StmtKind::Opaque {
                        reason: UNREADABLE.into(),
                    };
                    self.push(Stmt { label, pos, kind }, label);
                }
            }
            Parsed::Decls(ds) => {
                let o = self.current(pos);
                o.unit
                    .decls
                    .extend(ds.into_iter().map(|kind| crate::ast::Decl { pos, kind }));
                if let Some(l) = label {
                    self.rep
                        .warning(pos, format!("label {l} on a declaration is ignored"));
                }
            }
            Parsed::Do {
                target,
                var,
                lower,
                upper,
                step,
            } => {
                let independent = self.take_independent(pos, &var);
                let head = LoopHead::Do {
                    var,
                    lower,
                    upper,
                    step,
                    independent,
                };
                self.open_block(Block::Loop {
                    label,
                    pos,
                    head: Box::new(head),
                    target,
                    body: Vec::new(),
                    construct,
                });
            }
            Parsed::DoWhile { target, cond } => self.open_block(Block::Loop {
                label,
                pos,
                head: Box::new(LoopHead::While(cond)),
                target,
                body: Vec::new(),
                construct,
            }),
            Parsed::SelectCase(selector) => self.open_block(Block::Select {
                label,
                pos,
                selector,
                arms: Vec::new(),
                construct,
            }),
            Parsed::Case(values) => self.else_arm(pos, "CASE", |block| match block {
                Block::Select { arms, .. } => {
                    arms.push(CaseArm {
                        values,
                        pos,
                        label,
                        body: Vec::new(),
                    });
                    true
                }
                _ => false,
            }),
            Parsed::EndSelect => self.end_block(label, pos, "END SELECT"),
            Parsed::WhereOpen(mask) => self.open_block(Block::Where {
                label,
                pos,
                arms: vec![WhereArm {
                    mask: Some(mask),
                    body: Vec::new(),
                }],
            }),
            Parsed::ElseWhere(mask) => self.else_arm(pos, "ELSEWHERE", |block| match block {
                Block::Where { arms, .. } if arms.last().is_some_and(|a| a.mask.is_some()) => {
                    arms.push(WhereArm {
                        mask,
                        body: Vec::new(),
                    });
                    true
                }
                _ => false,
            }),
            Parsed::EndWhere => self.end_block(label, pos, "END WHERE"),
            Parsed::ForallOpen((indices, mask)) => self.open_block(Block::Forall {
                label,
                pos,
                indices,
                mask,
                body: Vec::new(),
            }),
            Parsed::EndForall => self.end_block(label, pos, "END FORALL"),
            Parsed::IfThen(cond) => self.open_block(Block::If {
                label,
                pos,
                arms: vec![IfArm {
                    cond,
                    pos,
                    label: None,
                    body: Vec::new(),
                }],
                else_part: None,
            }),
            Parsed::ElseIf(cond) => self.else_arm(pos, "ELSE IF", |block| match block {
                Block::If {
                    arms,
                    else_part: None,
                    ..
                } => {
                    arms.push(IfArm {
                        cond,
                        pos,
                        label,
                        body: Vec::new(),
                    });
                    true
                }
                _ => false,
            }),
            Parsed::Else => self.else_arm(pos, "ELSE", |block| match block {
                Block::If { else_part, .. } if else_part.is_none() => {
                    *else_part = Some(ElsePart {
                        pos,
                        label,
                        body: Vec::new(),
                    });
                    true
                }
                _ => false,
            }),
            Parsed::EndIf => self.end_block(label, pos, "END IF"),
            Parsed::EndDo(name) => {
                self.check_end_do_name(pos, name);
                self.end_block(label, pos, "END DO")
            }
            Parsed::Independent { indices, new } => {
                self.current(pos).independent = Some(PendingIndependent { pos, indices, new })
            }
            Parsed::TypeDef { name, unsupported } => {
                self.current(pos).typedef = Some(TypeDefBuilder {
                    pos,
                    name,
                    components: Vec::new(),
                    unsupported,
                    contains: false,
                });
            }
            Parsed::EndTypeDef => self.rep.error(pos, "END TYPE without a TYPE statement"),
            Parsed::Contains => {
                let o = self.current(pos);
                o.contains = true;
                if !o.blocks.is_empty() {
                    self.rep.error(pos, "CONTAINS inside an unclosed block");
                }
            }
            Parsed::Interface(generic) => self.open_block(Block::Interface {
                pos,
                generic,
                procedures: Vec::new(),
                depth: 1,
                bodies: Vec::new(),
            }),
            Parsed::Construct {
                role: ConstructRole::Open("INTERFACE"),
                ..
            } => self.open_block(Block::Interface {
                pos,
                generic: None,
                procedures: Vec::new(),
                depth: 1,
                bodies: Vec::new(),
            }),
            Parsed::ModuleProcedure(_) => self
                .rep
                .error(pos, "MODULE PROCEDURE outside an INTERFACE block"),
            Parsed::Construct {
                what,
                role: ConstructRole::Open(kind),
            } => self.open_block(Block::Construct {
                label,
                pos,
                what,
                kind,
                depth: 1,
            }),
            Parsed::Construct { what, .. } => {
                self.rep
                    .error(pos, format!("{what} outside the construct it belongs to"));
            }
            // Unit headers and ENDs were taken by `statement`.
            Parsed::Ignored
            | Parsed::Program(_)
            | Parsed::Subroutine { .. }
            | Parsed::Function { .. }
            | Parsed::BlockData(_)
            | Parsed::Module(_)
            | Parsed::EndUnit => {}
        }
    }

    /// What the pending INDEPENDENT says of the DO loop of `var` starting
    /// at `pos`; with an index list it waits for the next DO while some of
    /// its variables are left.
    fn take_independent(&mut self, pos: Pos, var: &Name) -> Option<Independent> {
        let o = self.current(pos);
        let mut p = o.independent.take()?;
        if p.indices.is_empty() {
            return Some(Independent { new: p.new });
        }
        let Some(i) = p.indices.iter().position(|n| n.text == var.text) else {
            self.rep.warning(p.pos, p.unused());
            return None;
        };
        p.indices.remove(i);
        let independent = Independent { new: p.new.clone() };
        if !p.indices.is_empty() {
            o.independent = Some(p);
        }
        Some(independent)
    }

    fn open_block(&mut self, b: Block) {
        let pos = match &b {
            Block::Loop { pos, .. }
            | Block::If { pos, .. }
            | Block::Select { pos, .. }
            | Block::Where { pos, .. }
            | Block::Forall { pos, .. }
            | Block::Construct { pos, .. }
            | Block::Interface { pos, .. } => *pos,
        };
        let o = self.current(pos);
        if o.blocks.len() >= MAX_NESTING {
            o.skipping = true;
            self.rep.error(
                pos,
                format!(
                    "blocks nested more than {MAX_NESTING} deep; the rest of this unit is skipped"
                ),
            );
            return;
        }
        o.blocks.push(b);
    }

    /// Appends a statement to the innermost open body, then closes the DO
    /// loops that `terminal` (the label of the statement that ended there)
    /// ends.
    fn push(&mut self, stmt: Stmt, terminal: Option<u32>) {
        let pos = stmt.pos;
        let o = self.current(pos);
        if let Some(Block::Select { arms, .. }) = o.blocks.last() {
            if arms.is_empty() {
                self.rep.error(
                    pos,
                    "statement before the first CASE of a SELECT CASE; ignored",
                );
                return;
            }
        }
        let o = self.current(pos);
        body_of(o).push(stmt);
        if let Some(l) = terminal {
            self.end_loops_at(l, pos);
        }
    }

    /// Closes every open labelled DO whose terminal label is `l`, innermost
    /// first (they share the terminal statement).
    fn end_loops_at(&mut self, l: u32, pos: Pos) {
        loop {
            let o = self.current(pos);
            let Some(i) = o
                .blocks
                .iter()
                .rposition(|b| matches!(b, Block::Loop { target: Some(t), .. } if *t == l))
            else {
                return;
            };
            // The terminal statement was pushed into the innermost block; it
            // stays there, and the loop now ends with that block.
            self.close_inner(pos, i, |inner| {
                format!("label {l} ends a DO loop while {inner} is still open; it is closed here")
            });
            let o = self.current(pos);
            let lp = o.blocks.pop().expect("index i exists");
            let stmt = lp.close(pos, None, LoopEnd::Label(l));
            body_of(o).push(stmt);
        }
    }

    /// Closes the blocks still open inside block `i`, each with an error
    /// saying why (`message` gets the block's description).
    fn close_inner(&mut self, pos: Pos, i: usize, message: impl Fn(&str) -> String) {
        let o = self.current(pos);
        let mut msgs = Vec::new();
        while o.blocks.len() > i + 1 {
            let inner = o.blocks.pop().expect("len > i + 1");
            msgs.push(message(&inner.describe()));
            let stmt = inner.close(pos, None, LoopEnd::EndDo { pos, label: None });
            body_of(o).push(stmt);
        }
        for m in msgs {
            self.rep.error(pos, m);
        }
    }

    fn else_arm(&mut self, pos: Pos, what: &str, add: impl FnOnce(&mut Block) -> bool) {
        let o = self.current(pos);
        let ok = o.blocks.last_mut().is_some_and(add);
        if !ok {
            let opener = match what {
                "CASE" => "SELECT CASE",
                "ELSEWHERE" => "WHERE (with a mask on each ELSEWHERE but the last)",
                _ => "IF ... THEN",
            };
            self.rep
                .error(pos, format!("{what} without a matching {opener}; ignored"));
        }
    }

    /// The name on END DO must be the innermost open loop's construct name
    /// (and a named loop's END DO must give it).
    fn check_end_do_name(&mut self, pos: Pos, name: Option<Name>) {
        let o = self.current(pos);
        let Some(Block::Loop { construct, .. }) = o.blocks.last() else {
            return;
        };
        let message = match (construct, &name) {
            (Some(c), Some(n)) if *c == n.text => return,
            (None, None) => return,
            (Some(c), None) => format!("END DO of the DO loop named {c} must name it"),
            (Some(c), Some(n)) => format!("END DO {}: the DO loop it ends is named {c}", n.text),
            (None, Some(n)) => format!("END DO {}: the DO loop it ends has no name", n.text),
        };
        self.rep.error(name.map_or(pos, |n| n.pos), message);
    }

    /// An EXIT or CYCLE (also as a logical IF's statement) must stand in
    /// the DO loop it names, or in some DO loop when it names none; one
    /// that does not is reported and becomes opaque.
    fn loop_jump(&mut self, pos: Pos, kind: StmtKind) -> StmtKind {
        let (what, construct) = match &kind {
            StmtKind::Exit { construct } => ("EXIT", construct),
            StmtKind::Cycle { construct } => ("CYCLE", construct),
            StmtKind::LogicalIf { cond, stmt } => {
                let Stmt {
                    label,
                    pos: inner_pos,
                    kind: inner,
                } = (**stmt).clone();
                let inner = self.loop_jump(inner_pos, inner);
                return StmtKind::LogicalIf {
                    cond: cond.clone(),
                    stmt: Box::new(Stmt {
                        label,
                        pos: inner_pos,
                        kind: inner,
                    }),
                };
            }
            _ => return kind,
        };
        let o = self.current(pos);
        let found = o.blocks.iter().any(|b| match b {
            Block::Loop { construct: c, .. } => construct.is_none() || c == construct,
            _ => false,
        });
        if found {
            return kind;
        }
        let message = match construct {
            Some(n) => format!("{what} {n}: no DO loop named {n} is open around it"),
            None => format!("{what} outside a DO loop"),
        };
        self.rep.error(pos, message);
        StmtKind::Opaque {
            reason: format!("{what} statement without its loop"),
        }
    }

    /// END IF / END DO: closes the innermost block of that kind; blocks
    /// still open inside it are reported and closed too.
    /// The statements of a closed WHERE or FORALL construct (`label`: of
    /// its last line, at `pos`).
    fn push_masked(&mut self, (stmts, refused): Masked, label: Option<u32>, pos: Pos) {
        for p in refused {
            self.rep.error(
                p,
                "a WHERE or FORALL construct holds only assignments, WHERE and FORALL; \
                 the statement is opaque",
            );
        }
        body_of(self.current(pos)).extend(stmts);
        if let Some(l) = label {
            self.end_loops_at(l, pos);
        }
    }

    fn end_block(&mut self, label: Option<u32>, pos: Pos, what: &str) {
        let o = self.current(pos);
        let found = o.blocks.iter().rposition(|b| match b {
            Block::Loop { .. } => what == "END DO",
            Block::If { .. } => what == "END IF",
            Block::Select { .. } => what == "END SELECT",
            Block::Where { .. } => what == "END WHERE",
            Block::Forall { .. } => what == "END FORALL",
            Block::Construct { .. } | Block::Interface { .. } => false,
        });
        let Some(i) = found else {
            let opener = match what {
                "END DO" => "DO",
                "END IF" => "IF ... THEN",
                "END WHERE" => "WHERE",
                "END FORALL" => "FORALL",
                _ => "SELECT CASE",
            };
            self.rep
                .error(pos, format!("{what} without a matching {opener}"));
            return;
        };
        self.close_inner(pos, i, |inner| {
            format!("{what} closes {inner} too; its end is missing")
        });
        let o = self.current(pos);
        let block = o.blocks.pop().expect("index i exists");
        let masked = match block {
            Block::Where {
                label: start,
                pos: at,
                arms,
            } => where_construct((start, at), arms, (label, pos)),
            Block::Forall {
                label: start,
                pos: at,
                indices,
                mask,
                body,
            } => forall_construct((start, at), &indices, &mask, body, (label, pos)),
            block => {
                self.close_block(block, label, pos);
                return;
            }
        };
        self.push_masked(masked, label, pos);
    }

    /// Pushes the statement a DO, IF or SELECT CASE block becomes.
    fn close_block(&mut self, block: Block, label: Option<u32>, pos: Pos) {
        if let Block::Loop {
            target: Some(t), ..
        } = &block
        {
            if label != Some(*t) {
                let msg = format!("END DO closes a DO loop that should end at label {t}");
                self.rep.error(pos, msg);
            }
        }
        let stmt = block.close(pos, label, LoopEnd::EndDo { pos, label });
        self.push(stmt, label);
    }

    /// Inside an unmodelled construct: count nested ones of the same kind
    /// until its END.
    fn in_construct(&mut self, s: Statement) {
        let o = self.current(s.pos);
        let Some(Block::Construct { kind, depth, .. }) = o.blocks.last_mut() else {
            return;
        };
        match *s.kind {
            Parsed::Construct {
                role: ConstructRole::Open(k),
                ..
            } if k == *kind => *depth += 1,
            // SELECT TYPE nests with SELECT CASE; END SELECT closes either.
            Parsed::SelectCase(_) if *kind == "SELECT" => *depth += 1,
            Parsed::EndSelect if *kind == "SELECT" => {
                *depth -= 1;
                if *depth == 0 {
                    let block = o.blocks.pop().expect("a construct is open");
                    let stmt = block.close(
                        s.pos,
                        None,
                        LoopEnd::EndDo {
                            pos: s.pos,
                            label: None,
                        },
                    );
                    self.push(stmt, s.label);
                }
            }
            Parsed::Construct {
                role: ConstructRole::Close(k),
                ..
            } if k == *kind => {
                *depth -= 1;
                if *depth == 0 {
                    let block = o.blocks.pop().expect("a construct is open");
                    let stmt = block.close(
                        s.pos,
                        None,
                        LoopEnd::EndDo {
                            pos: s.pos,
                            label: None,
                        },
                    );
                    self.push(stmt, s.label);
                }
            }
            Parsed::EndUnit => {
                let what = match o.blocks.last() {
                    Some(Block::Construct { what, .. }) => what.clone(),
                    _ => String::new(),
                };
                self.rep
                    .error(s.pos, format!("the {what} is not closed before END"));
                self.close_unit(s.pos, s.label);
            }
            _ => {}
        }
    }

    /// Inside a derived-type definition: its component declarations up to
    /// END TYPE, which adds the definition to the unit's declarations.
    /// SEQUENCE, PRIVATE, PUBLIC and the type-bound procedures after the
    /// type's CONTAINS are skipped. Returns false for a statement that
    /// ends the unit (the definition is closed first, with an error).
    fn in_typedef(&mut self, s: &Statement) -> bool {
        let mut misplaced = false;
        let o = self.current(s.pos);
        let Some(t) = o.typedef.as_mut() else {
            return false;
        };
        match &*s.kind {
            Parsed::Decls(ds) if !t.contains => {
                for d in ds {
                    match d {
                        // The POINTER attribute of a component too: an
                        // object of the type is then taken as a POINTER.
                        DeclKind::Type { .. } | DeclKind::Derived { .. } | DeclKind::Pointer(_) => {
                            t.components.push(d.clone())
                        }
                        // What other component attributes would add, access
                        // statements (PRIVATE, PUBLIC) if they become
                        // declarations: nothing to a component.
                        _ => {}
                    }
                }
            }
            Parsed::Contains => t.contains = true,
            // SEQUENCE.
            Parsed::Ignored => {}
            Parsed::EndTypeDef => {
                let t = o.typedef.take().expect("checked above");
                o.unit.decls.push(Decl {
                    pos: t.pos,
                    kind: DeclKind::TypeDef {
                        name: t.name,
                        components: t.components,
                        unsupported: t.unsupported,
                    },
                });
            }
            Parsed::EndUnit => {
                let t = o.typedef.take().expect("checked above");
                let msg = format!("TYPE {} has no END TYPE before END", t.name.text);
                self.rep.error(s.pos, msg);
                return false;
            }
            _ if t.contains => {}
            Parsed::Exec(StmtKind::Opaque { reason })
                if matches!(reason.as_str(), "PRIVATE statement" | "PUBLIC statement") => {}
            _ => misplaced = true,
        }
        if misplaced {
            let msg = "only component declarations may stand in a derived-type definition; ignored";
            self.rep.error(s.pos, msg);
        }
        true
    }

    /// Inside an INTERFACE block: the names of its bodies (whose
    /// statements are skipped: their END does not end the unit) and of its
    /// MODULE PROCEDURE lists, up to END INTERFACE, which makes the block a
    /// declaration of the unit.
    fn in_interface(&mut self, s: Statement) {
        let o = self.current(s.pos);
        let Some(Block::Interface {
            procedures,
            depth,
            bodies,
            ..
        }) = o.blocks.last_mut()
        else {
            return;
        };
        match *s.kind {
            Parsed::Subroutine { name, args, .. } | Parsed::Function { name, args, .. } => {
                if *depth == 1 {
                    bodies.push(Signature {
                        name: name.text.clone(),
                        dummies: args.into_iter().map(|a| (a.text, None)).collect(),
                    });
                    procedures.push(name);
                }
                *depth += 1;
            }
            // The INTENT of a dummy of the body being read (not of a
            // dummy procedure's interface inside it).
            Parsed::Decls(decls) if *depth == 2 => {
                let Some(body) = bodies.last_mut() else {
                    return;
                };
                for d in decls {
                    let (intent, names) = match d {
                        DeclKind::Intent { intent, names } => (intent, names),
                        // A call passes an object of derived type as its
                        // components (see `crate::derived`), so the places
                        // of the list no longer match: the body says nothing.
                        DeclKind::Derived { .. } => {
                            body.dummies.clear();
                            return;
                        }
                        _ => continue,
                    };
                    for n in names {
                        if let Some(dummy) = body.dummies.iter_mut().find(|d| d.0 == n.text) {
                            dummy.1 = Some(intent);
                        }
                    }
                }
            }
            Parsed::EndUnit if *depth > 1 => *depth -= 1,
            Parsed::ModuleProcedure(names) if *depth == 1 => procedures.extend(names),
            Parsed::Construct {
                role: ConstructRole::Close("INTERFACE"),
                ..
            } if *depth == 1 => {
                let Some(Block::Interface {
                    generic,
                    procedures,
                    bodies,
                    ..
                }) = o.blocks.pop()
                else {
                    return;
                };
                o.unit.decls.push(crate::ast::Decl {
                    pos: s.pos,
                    kind: DeclKind::Interface {
                        generic,
                        procedures,
                        bodies,
                    },
                });
            }
            Parsed::EndUnit => {
                self.rep
                    .error(s.pos, "the INTERFACE block is not closed before END");
                self.close_unit(s.pos, s.label);
            }
            _ => {}
        }
    }

    /// Closes the innermost open unit, reporting blocks left open.
    fn close_unit(&mut self, end: Pos, end_label: Option<u32>) {
        let Some(mut o) = self.open.pop() else {
            return;
        };
        while let Some(b) = o.blocks.pop() {
            let msg = match &b {
                Block::Loop {
                    target: Some(t), ..
                } => format!("{} never reaches its terminal label {t}", b.describe()),
                Block::Loop { .. } => format!("{} has no END DO", b.describe()),
                Block::If { .. } => format!("{} has no END IF", b.describe()),
                Block::Select { .. } => format!("{} has no END SELECT", b.describe()),
                Block::Where { .. } => format!("{} has no END WHERE", b.describe()),
                Block::Forall { .. } => format!("{} has no END FORALL", b.describe()),
                Block::Construct { what, .. } => format!("the {what} is not closed before END"),
                Block::Interface { .. } => "the INTERFACE block is not closed before END".into(),
            };
            if !o.skipping {
                self.rep.error(end, msg);
            }
            let stmt = b.close(
                end,
                None,
                LoopEnd::EndDo {
                    pos: end,
                    label: None,
                },
            );
            body_of(&mut o).push(stmt);
        }
        if let Some(p) = &o.independent {
            self.rep.warning(p.pos, p.unused());
        }
        o.unit.end = end;
        o.unit.end_label = end_label;
        o.unit.contains = o.contains;
        self.out[o.slot] = Some(o.unit);
    }
}

/// The body statements currently go to.
fn body_of(o: &mut Open) -> &mut Vec<Stmt> {
    match o.blocks.last_mut() {
        Some(Block::Loop { body, .. }) => body,
        Some(Block::If {
            else_part: Some(e), ..
        }) => &mut e.body,
        Some(Block::If { arms, .. }) => match arms.last_mut() {
            Some(a) => &mut a.body,
            None => &mut o.unit.body,
        },
        Some(Block::Select { arms, .. }) => match arms.last_mut() {
            Some(a) => &mut a.body,
            None => &mut o.unit.body,
        },
        Some(Block::Where { arms, .. }) => match arms.last_mut() {
            Some(a) => &mut a.body,
            None => &mut o.unit.body,
        },
        Some(Block::Forall { body, .. }) => body,
        Some(Block::Construct { .. } | Block::Interface { .. }) | None => &mut o.unit.body,
    }
}

/// The reason of the opaque statement an unreadable one becomes.
pub const UNREADABLE: &str = "statement kaiseki could not read";
