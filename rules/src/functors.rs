//! Functors: Rust functions that rules call as `@name(args)`, declared in
//! the rules with `.functor name(a: number, b: symbol): symbol`.
//!
//! A functor returns zero values (no binding: the rule does not fire),
//! one (the usual case) or several (the rule fires once per value, e.g.
//! one per direction vector). Functors live in a [`FunctorRegistry`]; the
//! native helpers register theirs into [`FunctorRegistry::standard`].

use crate::error::EngineError;
use crate::rows::Interner;
use kaiseki_facts::{ColType, FactBase, Value};
use std::any::{Any, TypeId};
use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};
use std::rc::Rc;

pub type Functor = fn(&FunctorContext, &[Value]) -> Vec<Value>;

/// What a functor may read: the input fact base of the run, and a memo to
/// build indexes of it once per run (e.g. affine forms by id).
pub struct FunctorContext<'a> {
    facts: &'a FactBase,
    memo: RefCell<HashMap<TypeId, Rc<dyn Any>>>,
}

impl<'a> FunctorContext<'a> {
    pub fn new(facts: &'a FactBase) -> FunctorContext<'a> {
        FunctorContext {
            facts,
            memo: RefCell::new(HashMap::new()),
        }
    }

    pub fn facts(&self) -> &FactBase {
        self.facts
    }

    /// The value of type `T` built from the fact base by `build` on the
    /// first call of the run, shared afterwards (one value per type).
    pub fn memo<T: Any>(&self, build: impl FnOnce(&FactBase) -> T) -> Rc<T> {
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

/// A registered functor: its signature, its documentation, its function.
#[derive(Clone, Copy)]
pub struct FunctorSpec {
    pub name: &'static str,
    pub args: &'static [ColType],
    pub result: ColType,
    pub doc: &'static str,
    pub f: Functor,
}

impl FunctorSpec {
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
#[derive(Clone, Default)]
pub struct FunctorRegistry {
    specs: BTreeMap<&'static str, FunctorSpec>,
}

impl FunctorRegistry {
    pub fn new() -> FunctorRegistry {
        FunctorRegistry::default()
    }

    /// The intrinsics and the native analysis helpers: what the engines use
    /// unless told otherwise.
    pub fn standard() -> FunctorRegistry {
        let mut r = FunctorRegistry::new();
        for spec in INTRINSICS
            .iter()
            .chain(crate::native::functors::FUNCTORS)
            .chain(crate::native::sad::FUNCTORS)
            .chain(crate::native::regions::FUNCTORS)
        {
            r.specs.insert(spec.name, *spec);
        }
        r
    }

    /// Adds a functor; a second functor of the same name is an error.
    pub fn register(&mut self, spec: FunctorSpec) -> Result<(), String> {
        if self.specs.contains_key(spec.name) {
            return Err(format!("functor `{}` is registered twice", spec.name));
        }
        self.specs.insert(spec.name, spec);
        Ok(())
    }

    pub fn get(&self, name: &str) -> Option<&FunctorSpec> {
        self.specs.get(name)
    }

    pub fn iter(&self) -> impl Iterator<Item = &FunctorSpec> {
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
/// both engines invoke on rows of `i64`.
pub struct Calls<'a> {
    ctx: FunctorContext<'a>,
    symbols: &'a Interner,
    resolved: Vec<FunctorSpec>,
    error: RefCell<Option<EngineError>>,
}

impl<'a> Calls<'a> {
    /// Resolves the program's functors (in the order its calls number
    /// them) against `registry`.
    pub(crate) fn new(
        declared: &[(&str, Vec<ColType>, ColType)],
        registry: &FunctorRegistry,
        facts: &'a FactBase,
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
            resolved.extend(registry.get(name).copied());
        }
        Ok(Calls {
            ctx: FunctorContext::new(facts),
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
        for v in (spec.f)(&self.ctx, &values) {
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

fn symbol(v: &Value) -> &str {
    match v {
        Value::Symbol(s) => s,
        Value::Number(_) => "",
    }
}

fn number(v: &Value) -> i64 {
    match v {
        Value::Number(n) => *n,
        Value::Symbol(_) => 0,
    }
}

fn cat(_: &FunctorContext, args: &[Value]) -> Vec<Value> {
    vec![Value::Symbol(format!(
        "{}{}",
        symbol(&args[0]),
        symbol(&args[1])
    ))]
}

fn to_number(_: &FunctorContext, args: &[Value]) -> Vec<Value> {
    symbol(&args[0])
        .trim()
        .parse()
        .map(Value::Number)
        .into_iter()
        .collect()
}

fn to_string(_: &FunctorContext, args: &[Value]) -> Vec<Value> {
    vec![Value::Symbol(number(&args[0]).to_string())]
}

fn range(_: &FunctorContext, args: &[Value]) -> Vec<Value> {
    (number(&args[0])..number(&args[1]))
        .map(Value::Number)
        .collect()
}

use ColType::{Number, Symbol};

/// Soufflé's intrinsics (callable without `@`, no `.functor` needed).
const INTRINSICS: &[FunctorSpec] = &[
    FunctorSpec {
        name: "cat",
        args: &[Symbol, Symbol],
        result: Symbol,
        doc: "The concatenation of two symbols.",
        f: cat,
    },
    FunctorSpec {
        name: "to_number",
        args: &[Symbol],
        result: Number,
        doc: "The number a symbol spells; no result when it spells none.",
        f: to_number,
    },
    FunctorSpec {
        name: "to_string",
        args: &[Number],
        result: Symbol,
        doc: "The decimal spelling of a number.",
        f: to_string,
    },
    FunctorSpec {
        name: "range",
        args: &[Number, Number],
        result: Number,
        doc: "Each number from the first (included) to the second (excluded).",
        f: range,
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    fn call(name: &str, args: &[Value]) -> Vec<Value> {
        let facts = FactBase::default();
        let f = FunctorRegistry::standard().get(name).unwrap().f;
        f(&FunctorContext::new(&facts), args)
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
        let r = FunctorRegistry::standard();
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
        let facts = FactBase::default();
        let ctx = FunctorContext::new(&facts);
        let a = ctx.memo(|_| vec![1]);
        let b = ctx.memo(|_| -> Vec<i32> { unreachable!("built twice") });
        assert!(Rc::ptr_eq(&a, &b));
    }

    #[test]
    fn wrongly_typed_results_become_the_run_error() {
        fn bad(_: &FunctorContext, _: &[Value]) -> Vec<Value> {
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
        let facts = FactBase::default();
        let symbols = Interner::default();
        let calls = Calls::new(&[("bad", vec![], Number)], &r, &facts, &symbols).unwrap();
        assert_eq!(calls.call(0, &[]), vec![3]);
        assert!(matches!(calls.finish(), Err(EngineError::Functor { .. })));
    }
}
