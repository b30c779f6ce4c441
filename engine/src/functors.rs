//! Functors: Rust functions that rules call as `@name(args)`, declared in
//! the rules with `.functor name(a: number, b: symbol): symbol`.
//!
//! A functor returns zero values (no binding: the rule does not fire),
//! one (the usual case) or several (the rule fires once per value, e.g.
//! one per direction vector). Functors live in a [`FunctorRegistry`],
//! which starts with Soufflé's intrinsics ([`FunctorRegistry::intrinsics`]);
//! a user of the engine registers its own. A functor may read the run's
//! fact base, of type `F`.

use crate::error::EngineError;
use crate::rows::Interner;
use crate::table::{ColType, Value};
use std::any::{Any, TypeId};
use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};
use std::rc::Rc;

pub type Functor<F> = fn(&FunctorContext<F>, &[Value]) -> Vec<Value>;

/// What a functor may read: the input fact base of the run, and a memo to
/// build indexes of it once per run (e.g. affine forms by id).
pub struct FunctorContext<'a, F> {
    facts: &'a F,
    memo: RefCell<HashMap<TypeId, Rc<dyn Any>>>,
}

impl<'a, F> FunctorContext<'a, F> {
    pub fn new(facts: &'a F) -> FunctorContext<'a, F> {
        FunctorContext {
            facts,
            memo: RefCell::new(HashMap::new()),
        }
    }

    pub fn facts(&self) -> &F {
        self.facts
    }

    /// The value of type `T` built from the fact base by `build` on the
    /// first call of the run, shared afterwards (one value per type).
    pub fn memo<T: Any>(&self, build: impl FnOnce(&F) -> T) -> Rc<T> {
        let id = TypeId::of::<T>();
        if let Some(v) = self.memo.borrow().get(&id) {
            if let Ok(v) = v.clone().downcast::<T>() {
                return v;
            }
        }
        let v = Rc::new(build(self.facts));
        self.memo.borrow_mut().insert(id, v.clone());
        v
    }
}

/// A number argument (0 for a symbol).
pub fn number(v: &Value) -> i64 {
    match v {
        Value::Number(n) => *n,
        Value::Symbol(_) => 0,
    }
}

/// A symbol argument (empty for a number).
pub fn text(v: &Value) -> &str {
    match v {
        Value::Symbol(s) => s,
        Value::Number(_) => "",
    }
}

/// A registered functor: its signature, its documentation, its function.
pub struct FunctorSpec<F> {
    pub name: &'static str,
    pub args: &'static [ColType],
    pub result: ColType,
    pub doc: &'static str,
    pub f: Functor<F>,
}

// Not derived: a derive would ask `F: Clone`, and the fact base is never copied.
impl<F> Clone for FunctorSpec<F> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<F> Copy for FunctorSpec<F> {}

impl<F> FunctorSpec<F> {
    /// `name(number, symbol): symbol`
    pub fn signature(&self) -> String {
        signature(self.name, self.args, self.result)
    }
}

fn signature(name: &str, args: &[ColType], result: ColType) -> String {
    let args: Vec<&str> = args.iter().map(|t| t.souffle_name()).collect();
    format!("{name}({}): {}", args.join(", "), result.souffle_name())
}

/// The functors an engine can call, by name.
pub struct FunctorRegistry<F> {
    specs: BTreeMap<&'static str, FunctorSpec<F>>,
}

impl<F> Clone for FunctorRegistry<F> {
    fn clone(&self) -> Self {
        FunctorRegistry {
            specs: self.specs.clone(),
        }
    }
}

impl<F> Default for FunctorRegistry<F> {
    fn default() -> Self {
        FunctorRegistry {
            specs: BTreeMap::new(),
        }
    }
}

impl<F> FunctorRegistry<F> {
    /// No functor at all, not even the intrinsics.
    pub fn new() -> FunctorRegistry<F> {
        FunctorRegistry::default()
    }

    /// Soufflé's intrinsics (`cat`, `to_number`, `to_string`, `range`),
    /// which rules call without declaring them.
    pub fn intrinsics() -> FunctorRegistry<F> {
        let mut r = FunctorRegistry::new();
        for spec in intrinsic_specs() {
            r.specs.insert(spec.name, spec);
        }
        r
    }

    /// Adds a functor; a second functor of the same name is an error.
    pub fn register(&mut self, spec: FunctorSpec<F>) -> Result<(), String> {
        if self.specs.contains_key(spec.name) {
            return Err(format!("functor `{}` is registered twice", spec.name));
        }
        self.specs.insert(spec.name, spec);
        Ok(())
    }

    pub fn get(&self, name: &str) -> Option<&FunctorSpec<F>> {
        self.specs.get(name)
    }

    pub fn iter(&self) -> impl Iterator<Item = &FunctorSpec<F>> {
        self.specs.values()
    }

    /// Why a program's declaration `name(args): result` cannot be served.
    pub fn mismatch(&self, name: &str, args: &[ColType], result: ColType) -> Option<String> {
        match self.get(name) {
            None => Some(format!("no functor `{name}` is registered in the engine")),
            Some(spec) if spec.args != args || spec.result != result => Some(format!(
                "declared as `{}` but the engine's is `{}`",
                signature(name, args, result),
                spec.signature()
            )),
            Some(_) => None,
        }
    }
}

/// The functors of one program, resolved for one run; `call` is what
/// both engines invoke on rows of `i64`. Each functor is bound to the
/// run's [`FunctorContext`] here, so the generated code needs no fact base type.
pub struct Calls<'a> {
    symbols: &'a Interner,
    resolved: Vec<Bound<'a>>,
    error: RefCell<Option<EngineError>>,
}

/// A functor bound to the context of a run.
struct Bound<'a> {
    name: &'static str,
    args: &'static [ColType],
    result: ColType,
    call: WithContext<'a>,
}

/// A functor's function with the run's [`FunctorContext`] as first argument.
type WithContext<'a> = Box<dyn Fn(&[Value]) -> Vec<Value> + 'a>;

impl<'a> Calls<'a> {
    /// Resolves the program's functors (in the order its calls number
    /// them) against `registry`.
    pub(crate) fn new<F>(
        declared: &[(&str, Vec<ColType>, ColType)],
        registry: &FunctorRegistry<F>,
        ctx: &'a FunctorContext<'a, F>,
        symbols: &'a Interner,
    ) -> Result<Calls<'a>, EngineError> {
        let mut resolved = Vec::new();
        for (name, args, result) in declared {
            if let Some(message) = registry.mismatch(name, args, *result) {
                return Err(EngineError::Functor {
                    name: name.to_string(),
                    message,
                });
            }
            resolved.extend(registry.get(name).map(|spec| {
                let f = spec.f;
                Bound {
                    name: spec.name,
                    args: spec.args,
                    result: spec.result,
                    call: Box::new(move |values: &[Value]| f(ctx, values)),
                }
            }));
        }
        Ok(Calls {
            symbols,
            resolved,
            error: RefCell::new(None),
        })
    }

    /// Calls functor number `functor`; a result of the wrong type is
    /// dropped and remembered as the run's error.
    pub fn call(&self, functor: usize, args: &[i64]) -> Vec<i64> {
        let spec = &self.resolved[functor];
        let values: Vec<Value> = args
            .iter()
            .zip(spec.args)
            .map(|(v, ty)| self.symbols.value(*v, *ty))
            .collect();
        let mut out = Vec::new();
        for v in (spec.call)(&values) {
            match self.symbols.field(&v, spec.result) {
                Some(x) => out.push(x),
                None => {
                    self.error.borrow_mut().get_or_insert(EngineError::Functor {
                        name: spec.name.to_string(),
                        message: format!(
                            "returned `{v}`, which is not a {}",
                            spec.result.souffle_name()
                        ),
                    });
                }
            }
        }
        out
    }

    /// The first error of the run's calls, if any.
    pub(crate) fn finish(self) -> Result<(), EngineError> {
        match self.error.into_inner() {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }
}

fn cat<F>(_: &FunctorContext<F>, args: &[Value]) -> Vec<Value> {
    vec![Value::Symbol(format!(
        "{}{}",
        text(&args[0]),
        text(&args[1])
    ))]
}

fn to_number<F>(_: &FunctorContext<F>, args: &[Value]) -> Vec<Value> {
    text(&args[0])
        .trim()
        .parse()
        .map(Value::Number)
        .into_iter()
        .collect()
}

fn to_string<F>(_: &FunctorContext<F>, args: &[Value]) -> Vec<Value> {
    vec![Value::Symbol(number(&args[0]).to_string())]
}

fn range<F>(_: &FunctorContext<F>, args: &[Value]) -> Vec<Value> {
    (number(&args[0])..number(&args[1]))
        .map(Value::Number)
        .collect()
}

use ColType::{Number, Symbol};

/// Soufflé's intrinsics (callable without `@`, no `.functor` needed).
fn intrinsic_specs<F>() -> [FunctorSpec<F>; 4] {
    [
        FunctorSpec {
            name: "cat",
            args: &[Symbol, Symbol],
            result: Symbol,
            doc: "The concatenation of two symbols.",
            f: cat::<F>,
        },
        FunctorSpec {
            name: "to_number",
            args: &[Symbol],
            result: Number,
            doc: "The number a symbol spells; no result when it spells none.",
            f: to_number::<F>,
        },
        FunctorSpec {
            name: "to_string",
            args: &[Number],
            result: Symbol,
            doc: "The decimal spelling of a number.",
            f: to_string::<F>,
        },
        FunctorSpec {
            name: "range",
            args: &[Number, Number],
            result: Number,
            doc: "Each number from the first (included) to the second (excluded).",
            f: range::<F>,
        },
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call(name: &str, args: &[Value]) -> Vec<Value> {
        let f = FunctorRegistry::intrinsics().get(name).unwrap().f;
        f(&FunctorContext::new(&()), args)
    }

    #[test]
    fn intrinsics() {
        let s = |x: &str| Value::Symbol(x.into());
        assert_eq!(call("cat", &[s("a"), s("b")]), vec![s("ab")]);
        assert_eq!(call("to_number", &[s("-12")]), vec![Value::Number(-12)]);
        assert_eq!(call("to_number", &[s("x")]), vec![]);
        assert_eq!(call("to_string", &[Value::Number(7)]), vec![s("7")]);
        assert_eq!(
            call("range", &[Value::Number(1), Value::Number(4)]),
            vec![Value::Number(1), Value::Number(2), Value::Number(3)]
        );
    }

    #[test]
    fn declarations_are_checked_against_the_registry() {
        let r = FunctorRegistry::<()>::intrinsics();
        assert_eq!(r.mismatch("cat", &[Symbol, Symbol], Symbol), None);
        assert_eq!(
            r.mismatch("cat", &[Number], Symbol).unwrap(),
            "declared as `cat(number): symbol` but the engine's is `cat(symbol, symbol): symbol`"
        );
        assert!(r.mismatch("nope", &[], Number).is_some());
        let mut r2 = r.clone();
        assert!(r2.register(*r.get("cat").unwrap()).is_err());
    }

    #[test]
    fn memo_builds_once_per_run() {
        let ctx = FunctorContext::new(&());
        let a = ctx.memo(|_| vec![1]);
        let b = ctx.memo(|_| -> Vec<i32> { unreachable!("built twice") });
        assert!(Rc::ptr_eq(&a, &b));
    }

    #[test]
    fn wrongly_typed_results_become_the_run_error() {
        fn bad(_: &FunctorContext<()>, _: &[Value]) -> Vec<Value> {
            vec![Value::Symbol("x".into()), Value::Number(3)]
        }
        let mut r = FunctorRegistry::new();
        r.register(FunctorSpec {
            name: "bad",
            args: &[],
            result: Number,
            doc: "",
            f: bad,
        })
        .unwrap();
        let ctx = FunctorContext::new(&());
        let symbols = Interner::default();
        let calls = Calls::new(&[("bad", vec![], Number)], &r, &ctx, &symbols).unwrap();
        assert_eq!(calls.call(0, &[]), vec![3]);
        assert!(matches!(calls.finish(), Err(EngineError::Functor { .. })));
    }
}
