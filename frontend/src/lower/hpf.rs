//! HPF mapping directives (`hpf_processors`, `hpf_template`, `hpf_align`,
//! `hpf_distribute`); INDEPENDENT is lowered with its loop.
//!
//! ALIGN gives one row per aligned array and template dimension: a target
//! subscript `a*I+b` in one align dummy `I` (the array's dimension of `I`)
//! is an `axis` alignment; a constant target subscript is `constant`
//! (array_dim 0, offset = value); `*` in the target is `replicated`
//! (array_dim 0); `*` in the source, or a dummy that no target subscript
//! uses, is `collapsed` (template_dim 0). `:` aligns the k-th `:` of the
//! source with the k-th `:` of the target, lower bound to lower bound.
//! Extents and bounds must fold to integers; what cannot be modelled is
//! skipped with a warning.

use kaiseki_facts::{HpfAlign, HpfDistribute, HpfProcessors, HpfTemplate};

use super::affine::linear;
use super::UnitLowerer;
use crate::ast::{AlignSource, AlignTarget, DistFormat, Expr, ExprKind, HpfDirective, Name, Pos};
use crate::fold;

/// One row of `hpf_align` for every aligned array: (array_dim, template_dim, kind, coeff, offset).
type AlignRow = (i64, i64, &'static str, i64, i64);

impl UnitLowerer<'_, '_, '_> {
    pub(super) fn hpf(&mut self, pos: Pos, h: &HpfDirective) {
        let syms = self.syms;
        let unit = self.name.clone();
        match h {
            HpfDirective::Processors { name, shape } => {
                for (d, e) in shape.iter().enumerate() {
                    match fold::fold_int(e, syms) {
                        Some(extent) => self.g.facts.hpf_processors.push(HpfProcessors {
                            unit: unit.clone(),
                            name: name.text.clone(),
                            dim: d as i64 + 1,
                            extent,
                        }),
                        None => self.not_constant(e.pos, "processor extent"),
                    }
                }
            }
            HpfDirective::Template { name, dims } => {
                let mut bounds = Vec::new();
                for (d, spec) in dims.iter().enumerate() {
                    let lower = spec
                        .lower
                        .as_ref()
                        .map_or(Some(1), |e| fold::fold_int(e, syms));
                    let upper = spec.upper.as_ref().and_then(|e| fold::fold_int(e, syms));
                    match (lower, upper) {
                        (Some(lower), Some(upper)) => {
                            bounds.push((lower, upper));
                            self.g.facts.hpf_template.push(HpfTemplate {
                                unit: unit.clone(),
                                name: name.text.clone(),
                                dim: d as i64 + 1,
                                lower,
                                upper,
                            });
                        }
                        _ => self.not_constant(pos, "template bound"),
                    }
                }
                self.templates.insert(name.text.clone(), bounds);
            }
            HpfDirective::Align {
                arrays,
                source,
                template,
                target,
            } => {
                for a in arrays {
                    match self.align_rows(a, source, template, target) {
                        Ok(rows) => {
                            for (array_dim, template_dim, kind, coeff, offset) in rows {
                                self.g.facts.hpf_align.push(HpfAlign {
                                    unit: unit.clone(),
                                    array: a.text.clone(),
                                    array_dim,
                                    template: template.text.clone(),
                                    template_dim,
                                    kind: kind.to_string(),
                                    coeff,
                                    offset,
                                });
                            }
                        }
                        Err((at, why)) => self
                            .warning(at, format!("ALIGN of `{}` is not modelled: {why}", a.text)),
                    }
                }
            }
            HpfDirective::Distribute {
                templates,
                formats,
                onto,
            } => {
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
                            self.not_constant(pos, "distribution block size");
                            return;
                        }
                    }
                }
                let onto = onto.as_ref().map_or_else(String::new, |n| n.text.clone());
                for t in templates {
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
        }
    }

    fn not_constant(&mut self, pos: Pos, what: &str) {
        self.warning(
            pos,
            format!("HPF {what} is not a constant; the directive is not modelled"),
        );
    }

    /// The alignment rows of one array, or why it cannot be modelled.
    fn align_rows(
        &self,
        array: &Name,
        source: &[AlignSource],
        template: &Name,
        target: &[AlignTarget],
    ) -> Result<Vec<AlignRow>, (Pos, String)> {
        let syms = self.syms;
        let dummy_dim = |n: &str| {
            source
                .iter()
                .position(|s| matches!(s, AlignSource::Dummy(d) if d.text == n))
                .map(|i| i as i64 + 1)
        };
        let colons: Vec<i64> = (0..source.len())
            .filter(|&i| matches!(source[i], AlignSource::Colon))
            .map(|i| i as i64 + 1)
            .collect();
        let mut colon_targets = 0;
        let mut used = vec![false; source.len()];
        let mut rows = Vec::new();
        for (t, tgt) in target.iter().enumerate() {
            let tdim = t as i64 + 1;
            let e = match tgt {
                AlignTarget::Star => {
                    rows.push((0, tdim, "replicated", 0, 0));
                    continue;
                }
                AlignTarget::Expr(e) => e,
            };
            if is_bare_colon(e) {
                let adim = *colons.get(colon_targets).ok_or((
                    e.pos,
                    "more `:` in the target than in the source".to_string(),
                ))?;
                colon_targets += 1;
                used[adim as usize - 1] = true;
                let alb = match syms.dims(&array.text).get(adim as usize - 1) {
                    Some(d) => d
                        .lower
                        .as_ref()
                        .map_or(Some(1), |l| fold::fold_int(l, syms)),
                    None => None,
                };
                let tlb = self
                    .templates
                    .get(&template.text)
                    .and_then(|b| b.get(t))
                    .map(|b| b.0);
                match (alb, tlb) {
                    (Some(a), Some(l)) => rows.push((adim, tdim, "axis", 1, l - a)),
                    _ => {
                        return Err((
                            e.pos,
                            "the bounds of a `:` alignment are unknown".to_string(),
                        ))
                    }
                }
                continue;
            }
            let form = linear(e, syms, &|n: &str| dummy_dim(n)).ok_or((
                e.pos,
                "the target subscript is not affine in the align dummies".to_string(),
            ))?;
            match form.terms.len() {
                0 => rows.push((0, tdim, "constant", 0, form.constant)),
                1 => {
                    let (&adim, &coeff) = form.terms.iter().next().ok_or((e.pos, String::new()))?;
                    used[adim as usize - 1] = true;
                    rows.push((adim, tdim, "axis", coeff, form.constant));
                }
                _ => {
                    return Err((
                        e.pos,
                        "a target subscript uses several align dummies".to_string(),
                    ))
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

fn is_bare_colon(e: &Expr) -> bool {
    matches!(
        &e.kind,
        ExprKind::Range {
            lower: None,
            upper: None,
            stride: None
        }
    )
}
