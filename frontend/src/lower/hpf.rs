//! HPF mapping directives (`hpf_processors`, `hpf_template`, `hpf_align`,
//! `hpf_distribute`); INDEPENDENT is lowered with its loop.
//!
//! ALIGN gives one row per aligned array and target dimension: a target
//! subscript `a*I+b` in one align dummy `I` (the array's dimension of `I`)
//! is an `axis` alignment; a constant target subscript is `constant`
//! (array_dim 0, offset = value); `*` in the target is `replicated`
//! (array_dim 0); `*` in the source, or a dummy that no target subscript
//! uses, is `collapsed` (template_dim 0). The k-th `:` of the source goes
//! with the k-th triplet `L:U:S` of the target, lower bound to `L` (the
//! target's lower bound when `L` is absent) with stride `S`; an array or
//! a target without subscripts has `:` in every dimension. The target may
//! be a template or an array (which is itself aligned or distributed).
//! Template bounds, alignment bounds and block sizes must fold to integers;
//! what cannot be modelled is skipped with a warning. A processor extent
//! that does not fold (`NUMBER_OF_PROCESSORS()`) is lowered as 0: unknown. An array or template whose mapping may change
//! in the unit (DYNAMIC, REALIGN, REDISTRIBUTE) gets no align or
//! distribute rows: no single mapping holds for the whole unit.

use rustc_hash::{FxHashMap, FxHashSet};

use kaiseki_facts::{HpfAlign, HpfDistribute, HpfProcessors, HpfTemplate};

use super::affine::linear;
use super::UnitLowerer;
use crate::ast::{
    AlignSource, AlignTarget, AlignWith, Alignee, DeclKind, DimSpec, DistFormat, Expr, ExprKind,
    HpfDirective, Name, Pos, Unit,
};
use crate::fold;
use crate::symbols::Symbols;

/// One row of `hpf_align` for every aligned array: (array_dim, template_dim, kind, coeff, offset).
type AlignRow = (i64, i64, &'static str, i64, i64);

/// What the unit's HPF declarations say before any of them is lowered
/// (a directive may name a template declared after it, and REALIGN comes
/// after the ALIGN it changes).
#[derive(Default)]
pub(super) struct Mappings {
    /// Template -> the lower bound of each dimension (`None`: not a constant).
    templates: FxHashMap<String, Vec<Option<i64>>>,
    /// Arrays and templates named by DYNAMIC, REALIGN or REDISTRIBUTE.
    remapped: FxHashSet<String>,
}

impl Mappings {
    pub(super) fn of(unit: &Unit, syms: &Symbols) -> Mappings {
        let mut m = Mappings::default();
        for d in &unit.decls {
            match &d.kind {
                DeclKind::Hpf(HpfDirective::Template { name, dims }) => {
                    let lowers = dims.iter().map(|d| lower_bound(d, syms)).collect();
                    m.templates.insert(name.text.clone(), lowers);
                }
                DeclKind::Hpf(HpfDirective::Remapped { names, .. }) => {
                    m.remapped.extend(names.iter().map(|n| n.text.clone()))
                }
                _ => {}
            }
        }
        m
    }
}

/// The lower bound of a dimension (1 when not written), if a constant.
fn lower_bound(d: &DimSpec, syms: &Symbols) -> Option<i64> {
    d.lower
        .as_ref()
        .map_or(Some(1), |e| fold::fold_int(e, syms))
}

/// A target subscript: a triplet (`L:U:S`; `:` has neither `L` nor `S`),
/// an expression in the align dummies, or `*`.
enum Target<'e> {
    Triplet {
        lower: Option<&'e Expr>,
        stride: Option<&'e Expr>,
        at: Pos,
    },
    Expr(&'e Expr),
    Star,
}

impl UnitLowerer<'_, '_, '_> {
    pub(super) fn hpf(&mut self, pos: Pos, h: &HpfDirective) {
        let syms = self.syms;
        let unit = self.name.clone();
        match h {
            HpfDirective::Processors { name, dims } => {
                for (d, spec) in dims.iter().enumerate() {
                    let lower = lower_bound(spec, syms);
                    let upper = spec.upper.as_ref().and_then(|e| fold::fold_int(e, syms));
                    let extent = match (lower, upper) {
                        (Some(l), Some(u)) if u < l => {
                            self.error(
                                pos,
                                format!(
                                    "dimension {} of processor arrangement `{}` has no processors",
                                    d + 1,
                                    name.text
                                ),
                            );
                            continue;
                        }
                        (Some(l), Some(u)) => u - l + 1,
                        _ => 0,
                    };
                    self.g.facts.hpf_processors.push(HpfProcessors {
                        unit: unit.clone(),
                        name: name.text.clone(),
                        dim: d as i64 + 1,
                        extent,
                    });
                }
            }
            HpfDirective::Template { name, dims } => {
                for (d, spec) in dims.iter().enumerate() {
                    let lower = lower_bound(spec, syms);
                    let upper = spec.upper.as_ref().and_then(|e| fold::fold_int(e, syms));
                    match (lower, upper) {
                        (Some(lower), Some(upper)) => {
                            self.g.facts.hpf_template.push(HpfTemplate {
                                unit: unit.clone(),
                                name: name.text.clone(),
                                dim: d as i64 + 1,
                                lower,
                                upper,
                            })
                        }
                        _ => self.warning(
                            pos,
                            format!(
                                "the bounds of dimension {} of template `{}` are not constants; it has no hpf_template row",
                                d + 1,
                                name.text
                            ),
                        ),
                    }
                }
            }
            HpfDirective::Align { alignees, target } => {
                for a in alignees {
                    if self.hpf_maps.remapped.contains(&a.name.text) {
                        continue;
                    }
                    match self.align_rows(a, target) {
                        Ok(rows) => {
                            for (array_dim, template_dim, kind, coeff, offset) in rows {
                                self.g.facts.hpf_align.push(HpfAlign {
                                    unit: unit.clone(),
                                    array: a.name.text.clone(),
                                    array_dim,
                                    template: target.target.text.clone(),
                                    template_dim,
                                    kind: kind.to_string(),
                                    coeff,
                                    offset,
                                });
                            }
                        }
                        Err((at, why)) => self.warning(
                            at,
                            format!("ALIGN of `{}` is not modelled: {why}", a.name.text),
                        ),
                    }
                }
            }
            HpfDirective::Distribute {
                distributees,
                formats,
                onto,
            } => {
                let Some(formats) = formats else {
                    self.warning(
                        pos,
                        "DISTRIBUTE without a format (the compiler's choice, or `*`: the actual argument's) is not modelled; ignored".into(),
                    );
                    return;
                };
                let mut dims = Vec::new();
                for f in formats {
                    let (format, k) = match f {
                        DistFormat::Block(None) => ("block", Some(0)),
                        DistFormat::Block(Some(e)) => ("block", fold::fold_int(e, syms)),
                        DistFormat::Cyclic(None) => ("cyclic", Some(1)),
                        DistFormat::Cyclic(Some(e)) => ("cyclic", fold::fold_int(e, syms)),
                        DistFormat::Star => ("*", Some(0)),
                    };
                    match k {
                        Some(k) => dims.push((format, k)),
                        None => {
                            self.warning(
                                pos,
                                "the block size of DISTRIBUTE is not a constant; the directive is not modelled".into(),
                            );
                            return;
                        }
                    }
                }
                let onto = onto.as_ref().map_or_else(String::new, |n| n.text.clone());
                for t in distributees {
                    if self.hpf_maps.remapped.contains(&t.text) {
                        continue;
                    }
                    for (d, &(format, k)) in dims.iter().enumerate() {
                        self.g.facts.hpf_distribute.push(HpfDistribute {
                            unit: unit.clone(),
                            template: t.text.clone(),
                            dim: d as i64 + 1,
                            format: format.to_string(),
                            k,
                            onto: onto.clone(),
                        });
                    }
                }
            }
            HpfDirective::Remapped { directive, names } => {
                let list: Vec<String> = names.iter().map(|n| format!("`{}`", n.text)).collect();
                self.warning(
                    pos,
                    format!(
                        "{directive} is not modelled: the mapping of {} may change while the unit runs, so none is lowered",
                        list.join(", ")
                    ),
                );
            }
        }
    }

    /// The lower bounds of the dimensions of an align target (a template,
    /// or an array), or `None` when it is neither.
    fn target_lower_bounds(&self, target: &str) -> Option<Vec<Option<i64>>> {
        if let Some(t) = self.hpf_maps.templates.get(target) {
            return Some(t.clone());
        }
        let dims = self.syms.dims(target);
        (!dims.is_empty()).then(|| dims.iter().map(|d| lower_bound(d, self.syms)).collect())
    }

    /// The alignment rows of one array, or why it cannot be modelled.
    fn align_rows(&self, a: &Alignee, with: &AlignWith) -> Result<Vec<AlignRow>, (Pos, String)> {
        let syms = self.syms;
        let array = &a.name.text;
        let whole = vec![AlignSource::Colon; syms.rank(array)];
        let source = a.source.as_ref().unwrap_or(&whole);
        let target_lowers = self.target_lower_bounds(&with.target.text);
        let target: Vec<Target> = match &with.subscripts {
            Some(subs) => subs.iter().map(target_of).collect(),
            None => {
                let rank = target_lowers
                    .as_ref()
                    .map(Vec::len)
                    .ok_or_else(|| unknown_rank(&with.target))?;
                (0..rank)
                    .map(|_| Target::Triplet {
                        lower: None,
                        stride: None,
                        at: with.target.pos,
                    })
                    .collect()
            }
        };
        let dummy_dim = |n: &str| {
            source
                .iter()
                .position(|s| matches!(s, AlignSource::Dummy(d) if d.text == n))
                .map(|i| i as i64 + 1)
        };
        let mut colons = (0..source.len())
            .filter(|&i| matches!(source[i], AlignSource::Colon))
            .map(|i| i as i64 + 1);
        let mut used = vec![false; source.len()];
        let mut rows = Vec::new();
        for (t, tgt) in target.iter().enumerate() {
            let tdim = t as i64 + 1;
            match *tgt {
                Target::Star => rows.push((0, tdim, "replicated", 0, 0)),
                Target::Triplet { lower, stride, at } => {
                    let adim = colons
                        .next()
                        .ok_or((at, "more `:` in the target than in the source".to_string()))?;
                    used[adim as usize - 1] = true;
                    let not_constant = || {
                        (
                            at,
                            "the bounds of a `:` alignment are not constants".to_string(),
                        )
                    };
                    let alb = syms
                        .dims(array)
                        .get(adim as usize - 1)
                        .and_then(|d| lower_bound(d, syms))
                        .ok_or_else(not_constant)?;
                    let tlb = match lower {
                        Some(e) => fold::fold_int(e, syms),
                        None => target_lowers
                            .as_ref()
                            .and_then(|l| l.get(t).copied().flatten()),
                    }
                    .ok_or_else(not_constant)?;
                    let step = match stride {
                        Some(e) => fold::fold_int(e, syms).ok_or_else(not_constant)?,
                        None => 1,
                    };
                    if step == 0 {
                        return Err((at, "the stride of a `:` alignment is zero".into()));
                    }
                    rows.push((adim, tdim, "axis", step, tlb - step * alb));
                }
                Target::Expr(e) => {
                    let form = linear(e, syms, &|n: &str| dummy_dim(n)).ok_or((
                        e.pos,
                        "the target subscript is not affine in the align dummies".to_string(),
                    ))?;
                    let mut terms = form.terms.iter();
                    match (terms.next(), terms.next()) {
                        (None, _) => rows.push((0, tdim, "constant", 0, form.constant)),
                        (Some((&adim, &coeff)), None) => {
                            used[adim as usize - 1] = true;
                            rows.push((adim, tdim, "axis", coeff, form.constant));
                        }
                        (Some(_), Some(_)) => {
                            return Err((
                                e.pos,
                                "a target subscript uses several align dummies".to_string(),
                            ))
                        }
                    }
                }
            }
        }
        for (i, s) in source.iter().enumerate() {
            let collapsed = match s {
                AlignSource::Star => true,
                AlignSource::Dummy(_) | AlignSource::Colon => !used[i],
            };
            if collapsed {
                rows.push((i as i64 + 1, 0, "collapsed", 0, 0));
            }
        }
        Ok(rows)
    }
}

fn unknown_rank(target: &Name) -> (Pos, String) {
    (
        target.pos,
        format!(
            "`{}` is neither a template nor an array of this unit, so its rank is unknown",
            target.text
        ),
    )
}

fn target_of(t: &AlignTarget) -> Target<'_> {
    match t {
        AlignTarget::Star => Target::Star,
        AlignTarget::Expr(e) => match &e.kind {
            ExprKind::Range { lower, stride, .. } => Target::Triplet {
                lower: lower.as_deref(),
                stride: stride.as_deref(),
                at: e.pos,
            },
            _ => Target::Expr(e),
        },
    }
}
