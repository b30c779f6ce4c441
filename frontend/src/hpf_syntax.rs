//! What the grammar's HPF rules build: mapping directives in statement,
//! attribute and combined form become [`HpfDirective`] declarations;
//! INDEPENDENT clauses, EXTRINSIC prefixes and `USE HPF_LIBRARY` are read
//! here too. Grammar actions call these through [`Ctx`].

use lalrpop_util::ParseError;

use crate::ast::{
    AlignSource, AlignWith, Alignee, DeclKind, DimSpec, DistFormat, Expr, ExprKind, HpfDirective,
    Name,
};
use crate::parser::{Ctx, GrammarError};
use crate::statement::Parsed;

/// One attribute of an HPF directive (`PROCESSORS`, `DIMENSION(4)`,
/// `ALIGN (I) WITH T(I)`, `DISTRIBUTE (BLOCK) ONTO P`, `DYNAMIC`, ...).
pub enum HpfAttr {
    Processors,
    Template,
    Dimension(Vec<HpfSub>),
    Align {
        source: Option<Vec<HpfSub>>,
        with: AlignWith,
    },
    Distribute(Option<Vec<DistFormat>>, Option<Name>),
    /// DYNAMIC, REALIGN, REDISTRIBUTE.
    Remapped(&'static str),
    Inherit,
}

/// A subscript of an HPF entity, with where it starts: a shape (`10`,
/// `0:N-1`) or an align source (`I`, `:`, `*`).
pub enum HpfSub {
    Expr(usize, Expr),
    Range(usize, Option<Expr>, Option<Expr>),
    Star(usize),
}

/// A name an HPF directive declares or maps, with its subscripts.
pub type HpfEntity = (Name, Option<Vec<HpfSub>>);

/// The (local name, library name) pairs of a USE statement.
pub type UseNames = Vec<(Name, String)>;

fn user_error(at: usize, message: impl Into<String>) -> GrammarError {
    ParseError::User {
        error: (at, message.into()),
    }
}

/// `10` is `1:10`, `0:N-1` as written; `*` and open bounds are no shape.
fn shape(subs: &[HpfSub]) -> Result<Vec<DimSpec>, GrammarError> {
    subs.iter()
        .map(|s| match s {
            HpfSub::Expr(_, e) => Ok(DimSpec {
                lower: None,
                upper: Some(e.clone()),
            }),
            HpfSub::Range(_, lower, Some(upper)) => Ok(DimSpec {
                lower: lower.clone(),
                upper: Some(upper.clone()),
            }),
            HpfSub::Range(at, _, None) | HpfSub::Star(at) => Err(user_error(
                *at,
                "the shape of a processor arrangement or template needs its upper bounds",
            )),
        })
        .collect()
}

/// An align source is a dummy name, `:` or `*`.
fn align_source(subs: &[HpfSub]) -> Result<Vec<AlignSource>, GrammarError> {
    subs.iter()
        .map(|s| match s {
            HpfSub::Expr(
                _,
                Expr {
                    pos,
                    kind: ExprKind::Var(n),
                },
            ) => Ok(AlignSource::Dummy(Name {
                text: n.clone(),
                pos: *pos,
            })),
            HpfSub::Range(_, None, None) => Ok(AlignSource::Colon),
            HpfSub::Star(_) => Ok(AlignSource::Star),
            HpfSub::Expr(at, _) | HpfSub::Range(at, ..) => Err(user_error(
                *at,
                "an align source subscript is an align dummy, `:` or `*`",
            )),
        })
        .collect()
}

fn sub_at(s: &HpfSub) -> usize {
    match s {
        HpfSub::Expr(at, _) | HpfSub::Range(at, ..) | HpfSub::Star(at) => *at,
    }
}

/// What follows a distributee: its formats (`None`: none, or `*`) and ONTO.
pub type DistStuff = (Option<Vec<DistFormat>>, Option<Name>);

impl Ctx<'_> {
    /// `DISTRIBUTE A(BLOCK), B(CYCLIC) ONTO P`: each distributee with its
    /// own formats, as in a directive of its own.
    pub fn distribute_each(
        &self,
        at: usize,
        each: Vec<(Name, DistStuff)>,
    ) -> Result<Box<Parsed>, GrammarError> {
        let mut decls = Vec::new();
        for (name, (formats, onto)) in each {
            let attr = HpfAttr::Distribute(formats, onto);
            if let Parsed::Decls(d) = *self.hpf(at, vec![attr], vec![(name, None)])? {
                decls.extend(d);
            }
        }
        Ok(Box::new(Parsed::Decls(decls)))
    }

    /// The declarations of one HPF directive: each attribute applies to
    /// every entity. An entity's subscripts are its shape under PROCESSORS
    /// or TEMPLATE, and its align source under an ALIGN that gives none
    /// (`ALIGN A(I) WITH T(I)`, and the older `ALIGN WITH T(I) :: A(I)`).
    pub fn hpf(
        &self,
        at: usize,
        attrs: Vec<HpfAttr>,
        entities: Vec<HpfEntity>,
    ) -> Result<Box<Parsed>, GrammarError> {
        let dimension = attrs.iter().find_map(|a| match a {
            HpfAttr::Dimension(subs) => Some(subs),
            _ => None,
        });
        let shaped = attrs
            .iter()
            .any(|a| matches!(a, HpfAttr::Processors | HpfAttr::Template));
        if dimension.is_some() && !shaped {
            return Err(user_error(
                at,
                "DIMENSION in an HPF directive needs PROCESSORS or TEMPLATE",
            ));
        }
        let names = || entities.iter().map(|e| e.0.clone()).collect::<Vec<_>>();
        let mut subs_used = shaped;
        let mut out = Vec::new();
        for attr in &attrs {
            match attr {
                HpfAttr::Processors | HpfAttr::Template => {
                    for (name, subs) in &entities {
                        let dims = match subs.as_ref().or(dimension) {
                            Some(s) => shape(s)?,
                            None => Vec::new(),
                        };
                        let name = name.clone();
                        out.push(DeclKind::Hpf(match attr {
                            HpfAttr::Processors => HpfDirective::Processors { name, dims },
                            _ => HpfDirective::Template { name, dims },
                        }));
                    }
                }
                HpfAttr::Align { source, with } => {
                    let attr_source = source.as_deref().map(align_source).transpose()?;
                    subs_used |= attr_source.is_none();
                    let alignees = entities
                        .iter()
                        .map(|(name, subs)| {
                            let source = match (&attr_source, subs) {
                                (Some(s), _) => Some(s.clone()),
                                (None, Some(s)) => Some(align_source(s)?),
                                (None, None) => None,
                            };
                            Ok(Alignee {
                                name: name.clone(),
                                source,
                            })
                        })
                        .collect::<Result<Vec<_>, GrammarError>>()?;
                    out.push(DeclKind::Hpf(HpfDirective::Align {
                        alignees,
                        target: with.clone(),
                    }));
                }
                HpfAttr::Distribute(formats, onto) => {
                    out.push(DeclKind::Hpf(HpfDirective::Distribute {
                        distributees: names(),
                        formats: formats.clone(),
                        onto: onto.clone(),
                    }))
                }
                HpfAttr::Remapped(directive) => {
                    out.push(DeclKind::Hpf(HpfDirective::Remapped {
                        directive,
                        names: names(),
                    }))
                }
                HpfAttr::Inherit => self.warn(
                    at,
                    "INHERIT is not modelled: the dummy's mapping is its actual argument's; ignored",
                ),
                HpfAttr::Dimension(_) => {}
            }
        }
        if !subs_used {
            if let Some(s) = entities.iter().find_map(|e| e.1.as_ref()?.first()) {
                return Err(user_error(
                    sub_at(s),
                    "subscripts here need PROCESSORS, TEMPLATE or an ALIGN without a source list",
                ));
            }
        }
        Ok(Box::new(if out.is_empty() {
            Parsed::Ignored
        } else {
            Parsed::Decls(out)
        }))
    }

    /// `INDEPENDENT [(I, J)] [[,] clause]...`. NEW names private variables;
    /// an ON clause only places the iterations (ignored with a warning);
    /// any other clause (REDUCTION) asserts less than INDEPENDENT, so the
    /// directive is ignored.
    pub fn independent(
        &self,
        at: usize,
        indices: Vec<Name>,
        clauses: Vec<(usize, String, Vec<Expr>)>,
    ) -> Result<Parsed, GrammarError> {
        let mut new = Vec::new();
        for (cat, clause, args) in clauses {
            match clause.as_str() {
                "NEW" => {
                    for a in args {
                        match a.kind {
                            ExprKind::Var(text) => new.push(Name { text, pos: a.pos }),
                            _ => return Err(user_error(cat, "NEW names variables")),
                        }
                    }
                }
                "ON" | "ON HOME" => self.warn(
                    cat,
                    format!("the {clause} clause of INDEPENDENT is not modelled; ignored"),
                ),
                _ => {
                    self.warn(
                        at,
                        format!("INDEPENDENT with a {clause} clause is not modelled; ignored"),
                    );
                    return Ok(Parsed::Ignored);
                }
            }
        }
        Ok(Parsed::Independent { indices, new })
    }

    /// The model of an `EXTRINSIC(...)` prefix when the procedure is local
    /// (`HPF_LOCAL`, `F77_LOCAL`, `MODEL='LOCAL'`, `('HPF', 'LOCAL')`);
    /// `None` for global ones (`HPF`, `HPF_SERIAL`), which are ordinary code.
    pub fn extrinsic_local(&self, items: Vec<(Option<String>, String)>) -> Option<String> {
        let local = items.iter().enumerate().any(|(i, (key, value))| {
            let value = value.to_ascii_uppercase();
            match key.as_deref() {
                Some("MODEL") => value == "LOCAL",
                Some(_) => false,
                None => value.ends_with("_LOCAL") || (i == 1 && value == "LOCAL"),
            }
        });
        local.then(|| {
            items
                .iter()
                .map(|(k, v)| match k {
                    Some(k) => format!("{k}='{v}'"),
                    None => v.clone(),
                })
                .collect::<Vec<_>>()
                .join(", ")
        })
    }
}
