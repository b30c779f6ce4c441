//! DATA statements: which value each object of a set gets.
//!
//! The objects of a set take its values in order, `r*c` standing for `r`
//! copies of `c`. A scalar, an array element or a substring takes one
//! value; a whole array or an implied-DO list as many as it has elements,
//! which the tree does not keep, so only sets without them are paired.

use crate::ast::{DataObject, DataSet, Expr, ExprKind};

/// The scalars of `set` with their values, in order. `None` unless every
/// object takes one value (`is_array` says which names are arrays) and the
/// values, repeat counts evaluated by `count`, match the objects one for
/// one. A scalar whose value is not modelled (complex) is left out.
pub fn scalar_values<'a>(
    set: &'a DataSet,
    is_array: &dyn Fn(&str) -> bool,
    count: &dyn Fn(&Expr) -> Option<i64>,
) -> Option<Vec<(&'a str, &'a Expr)>> {
    let objects = set.objects.len();
    let mut values: Vec<Option<&Expr>> = Vec::with_capacity(objects);
    for v in set.values.as_ref()? {
        let n = usize::try_from(v.repeat.as_ref().map_or(Some(1), count)?).ok()?;
        if n > objects - values.len() {
            return None;
        }
        values.extend(std::iter::repeat_n(v.value.as_ref(), n));
    }
    if values.len() != objects {
        return None;
    }
    let mut out = Vec::new();
    for (object, value) in set.objects.iter().zip(values) {
        let DataObject::Item(e) = object else {
            return None;
        };
        match &e.kind {
            ExprKind::Var(name) if is_array(name) => return None,
            ExprKind::Var(name) => out.extend(value.map(|v| (name.as_str(), v))),
            ExprKind::Apply { .. } => {}
            _ => return None,
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ast::DeclKind;
    use crate::fold::Const;
    use rustc_hash::FxHashMap;

    /// The sets of the DATA statement `text` in a main program.
    fn sets(text: &str) -> Vec<DataSet> {
        let source = format!("      PROGRAM P\n      REAL A(3)\n      {text}\n      END\n");
        let (program, diags) = crate::parse_source("p.f", &source);
        assert!(diags.iter().all(|d| !d.is_error()), "{diags:?}");
        program.units[0]
            .decls
            .iter()
            .find_map(|d| match &d.kind {
                DeclKind::Data(sets) => Some(sets.clone()),
                _ => None,
            })
            .expect("a DATA statement")
    }

    /// `name=value` of each paired scalar, `-` for a set not paired.
    fn paired(text: &str) -> Vec<String> {
        let literal = |e: &Expr| match e.kind {
            ExprKind::Int(n) => Some(n),
            _ => None,
        };
        sets(text)
            .iter()
            .map(|s| match scalar_values(s, &|n| n == "A", &literal) {
                Some(v) => v
                    .iter()
                    .map(|(n, e)| {
                        format!(
                            "{n}={}",
                            crate::fold::text(e, &FxHashMap::<String, Const>::default())
                        )
                    })
                    .collect::<Vec<_>>()
                    .join(" "),
                None => "-".into(),
            })
            .collect()
    }

    #[test]
    fn values_pair_with_scalars_in_order_with_repeat_counts() {
        assert_eq!(paired("DATA K, J /5, -6/"), ["K=5 J=-6"]);
        assert_eq!(paired("DATA K, J /2*7/, L /+1/"), ["K=7 J=7", "L=1"]);
        assert_eq!(paired("DATA A(1), K, X /1.0, 3, 2.5/"), ["K=3 X=2.5"]);
        assert_eq!(paired("DATA K, Z /1, (1.0, 2.0)/"), ["K=1"]);
        // A BOZ constant is the integer it spells.
        assert_eq!(paired("DATA K /Z'1F'/"), ["K=31"]);
    }

    #[test]
    fn sets_with_arrays_or_a_wrong_count_are_not_paired() {
        assert_eq!(paired("DATA A, K /3*0.0, 5/"), ["-"]);
        assert_eq!(paired("DATA (A(I), I=1,3), K /3*0.0, 5/"), ["-"]);
        assert_eq!(paired("DATA K, J /5/"), ["-"]);
        assert_eq!(paired("DATA K /5, 6/"), ["-"]);
        assert_eq!(
            paired("DATA K, J /NR*5/"),
            ["-"],
            "a repeat count that does not fold"
        );
        assert_eq!(paired("DATA K /'1F'Y/"), ["-"], "a value list not modelled");
    }
}
