//! A recursive-descent parser from tokens to [`Item`]s. A syntax error is
//! reported once and the parser skips to the end of the clause (the next
//! `.` or directive), so later clauses are still checked.

use super::ast::*;
use super::diag::{Diagnostic, Pos};
use super::lexer::{lex, Tok, Token};

struct Parser {
    tokens: Vec<Token>,
    at: usize,
    /// Nesting of expressions and disjunctions, bounded so that a
    /// pathological file is an error rather than a stack overflow.
    depth: usize,
}

const MAX_DEPTH: usize = 256;

type PResult<T> = Result<T, Diagnostic>;

/// The intrinsic functors that Soufflé spells without `@`.
pub const INTRINSICS: &[&str] = &["cat", "to_number", "to_string", "range"];

impl Parser {
    fn tok(&self) -> &Tok {
        &self.tokens[self.at].tok
    }

    fn nth(&self, n: usize) -> &Tok {
        &self.tokens[(self.at + n).min(self.tokens.len() - 1)].tok
    }

    fn pos(&self) -> Pos {
        self.tokens[self.at].pos
    }

    fn advance(&mut self) -> Token {
        let t = self.tokens[self.at].clone();
        if self.at + 1 < self.tokens.len() {
            self.at += 1;
        }
        t
    }

    fn eat(&mut self, tok: &Tok) -> bool {
        if self.tok() == tok {
            self.advance();
            true
        } else {
            false
        }
    }

    fn unexpected<T>(&self, what: &str) -> PResult<T> {
        Err(Diagnostic::new(
            self.pos(),
            format!("expected {what}, found {}", self.tok().describe()),
        ))
    }

    fn expect(&mut self, tok: &Tok, what: &str) -> PResult<Pos> {
        let pos = self.pos();
        if self.eat(tok) {
            Ok(pos)
        } else {
            self.unexpected(what)
        }
    }

    fn ident(&mut self, what: &str) -> PResult<(String, Pos)> {
        match self.tok().clone() {
            Tok::Ident(name) => {
                let pos = self.pos();
                self.advance();
                Ok((name, pos))
            }
            _ => self.unexpected(what),
        }
    }

    /// Skips to just after the end of the current clause.
    fn recover(&mut self) {
        loop {
            match self.tok() {
                Tok::Eof | Tok::Directive(_) => return,
                Tok::Dot => {
                    self.advance();
                    return;
                }
                _ => {
                    self.advance();
                }
            }
        }
    }

    fn item(&mut self) -> PResult<Item> {
        match self.tok().clone() {
            Tok::Directive(d) => {
                let pos = self.pos();
                self.advance();
                match d.as_str() {
                    "decl" => self.decl(),
                    "input" => self.io(false),
                    "output" => self.io(true),
                    "functor" => self.functor(),
                    other => Err(Diagnostic::new(
                        pos,
                        format!("directive `.{other}` is not supported"),
                    )),
                }
            }
            Tok::Ident(_) => self.rule(),
            _ => self.unexpected("a directive, a rule or a fact"),
        }
    }

    fn ty(&mut self) -> PResult<Type> {
        let (name, pos) = self.ident("a type (`number` or `symbol`)")?;
        match name.as_str() {
            "number" => Ok(Type::Number),
            "symbol" => Ok(Type::Symbol),
            other => Err(Diagnostic::new(
                pos,
                format!("unknown type `{other}` (the types are `number` and `symbol`)"),
            )),
        }
    }

    /// `name: type, ...` between parentheses.
    fn typed_list(&mut self) -> PResult<Vec<(String, Type)>> {
        self.expect(&Tok::LParen, "`(`")?;
        let mut cols = Vec::new();
        if !self.eat(&Tok::RParen) {
            loop {
                let (name, _) = self.ident("a column name")?;
                self.expect(&Tok::Colon, "`:`")?;
                cols.push((name, self.ty()?));
                if self.eat(&Tok::RParen) {
                    break;
                }
                self.expect(&Tok::Comma, "`,` or `)`")?;
            }
        }
        Ok(cols)
    }

    fn decl(&mut self) -> PResult<Item> {
        let (name, pos) = self.ident("a relation name")?;
        let columns = self.typed_list()?;
        Ok(Item::Decl(Decl { name, pos, columns }))
    }

    fn functor(&mut self) -> PResult<Item> {
        let (name, pos) = self.ident("a functor name")?;
        let args = self.typed_list()?.into_iter().map(|(_, t)| t).collect();
        self.expect(&Tok::Colon, "`:` and the result type")?;
        let result = self.ty()?;
        Ok(Item::Functor(FunctorDecl {
            name,
            pos,
            args,
            result,
        }))
    }

    /// `.input a, b(IO=file, filename="x")`: options are skipped.
    fn io(&mut self, output: bool) -> PResult<Item> {
        let mut names = vec![self.ident("a relation name")?];
        loop {
            if self.eat(&Tok::LParen) {
                while !matches!(self.tok(), Tok::RParen | Tok::Eof | Tok::Directive(_)) {
                    self.advance();
                }
                self.expect(&Tok::RParen, "`)`")?;
            }
            if !self.eat(&Tok::Comma) {
                break;
            }
            names.push(self.ident("a relation name")?);
        }
        Ok(Item::Io { output, names })
    }

    fn rule(&mut self) -> PResult<Item> {
        let mut heads = vec![self.atom()?];
        while self.eat(&Tok::Comma) {
            heads.push(self.atom()?);
        }
        let body = if self.eat(&Tok::If) {
            self.disjunction()?
        } else {
            vec![Vec::new()]
        };
        self.expect(&Tok::Dot, "`.` at the end of the clause")?;
        Ok(Item::Rule(Rule { heads, body }))
    }

    fn atom(&mut self) -> PResult<Atom> {
        let (name, pos) = self.ident("a relation name")?;
        self.expect(&Tok::LParen, "`(`")?;
        let args = self.args(Tok::RParen)?;
        Ok(Atom { name, pos, args })
    }

    /// Comma-separated expressions up to and including `close`.
    fn args(&mut self, close: Tok) -> PResult<Vec<Expr>> {
        let mut args = Vec::new();
        if self.eat(&close) {
            return Ok(args);
        }
        loop {
            args.push(self.expr()?);
            if self.eat(&close) {
                return Ok(args);
            }
            self.expect(&Tok::Comma, &format!("`,` or {}", close.describe()))?;
        }
    }

    /// Runs `f` one nesting level deeper.
    fn nested<T>(&mut self, f: impl FnOnce(&mut Self) -> PResult<T>) -> PResult<T> {
        if self.depth >= MAX_DEPTH {
            return Err(Diagnostic::new(self.pos(), "nested too deeply"));
        }
        self.depth += 1;
        let result = f(self);
        self.depth -= 1;
        result
    }

    fn disjunction(&mut self) -> PResult<Disjunction> {
        self.nested(Self::disjunction_at_depth)
    }

    fn disjunction_at_depth(&mut self) -> PResult<Disjunction> {
        let mut alts = vec![self.conjunction()?];
        while self.eat(&Tok::Semicolon) {
            alts.push(self.conjunction()?);
        }
        Ok(alts)
    }

    fn conjunction(&mut self) -> PResult<Vec<Literal>> {
        let mut lits = vec![self.literal()?];
        while self.eat(&Tok::Comma) {
            lits.push(self.literal()?);
        }
        Ok(lits)
    }

    fn literal(&mut self) -> PResult<Literal> {
        match self.tok() {
            Tok::Bang => {
                self.advance();
                Ok(Literal::Negated(self.atom()?))
            }
            Tok::Ident(name)
                if self.nth(1) == &Tok::LParen && !INTRINSICS.contains(&name.as_str()) =>
            {
                Ok(Literal::Atom(self.atom()?))
            }
            Tok::LParen => {
                // `(a(X) ; b(X))` or `(X + 1) < Y`: try the comparison first.
                let start = self.at;
                match self.comparison() {
                    Ok(c) => Ok(c),
                    Err(_) => {
                        self.at = start;
                        self.advance();
                        let group = self.disjunction()?;
                        self.expect(&Tok::RParen, "`)`")?;
                        Ok(Literal::Group(group))
                    }
                }
            }
            _ => self.comparison(),
        }
    }

    fn comparison(&mut self) -> PResult<Literal> {
        let lhs = self.expr()?;
        let pos = self.pos();
        let op = match self.tok() {
            Tok::Eq => CmpOp::Eq,
            Tok::Ne => CmpOp::Ne,
            Tok::Lt => CmpOp::Lt,
            Tok::Le => CmpOp::Le,
            Tok::Gt => CmpOp::Gt,
            Tok::Ge => CmpOp::Ge,
            _ => return self.unexpected("a comparison operator"),
        };
        self.advance();
        let rhs = self.expr()?;
        Ok(Literal::Compare { op, lhs, rhs, pos })
    }

    fn expr(&mut self) -> PResult<Expr> {
        self.nested(Self::expr_at_depth)
    }

    fn expr_at_depth(&mut self) -> PResult<Expr> {
        let mut lhs = self.term()?;
        loop {
            let op = match self.tok() {
                Tok::Plus => ArithOp::Add,
                Tok::Minus => ArithOp::Sub,
                _ => return Ok(lhs),
            };
            let pos = self.advance().pos;
            let rhs = self.term()?;
            lhs = Expr::Binary(op, Box::new(lhs), Box::new(rhs), pos);
        }
    }

    fn term(&mut self) -> PResult<Expr> {
        let mut lhs = self.unary()?;
        loop {
            let op = match self.tok() {
                Tok::Star => ArithOp::Mul,
                Tok::Slash => ArithOp::Div,
                Tok::Percent => ArithOp::Rem,
                _ => return Ok(lhs),
            };
            let pos = self.advance().pos;
            let rhs = self.unary()?;
            lhs = Expr::Binary(op, Box::new(lhs), Box::new(rhs), pos);
        }
    }

    fn unary(&mut self) -> PResult<Expr> {
        if self.tok() == &Tok::Minus {
            let pos = self.advance().pos;
            return Ok(match self.nested(Self::unary)? {
                Expr::Number(n, _) => Expr::Number(n.wrapping_neg(), pos),
                e => Expr::Neg(Box::new(e), pos),
            });
        }
        self.primary()
    }

    fn primary(&mut self) -> PResult<Expr> {
        let pos = self.pos();
        match self.tok().clone() {
            Tok::Number(n) => {
                self.advance();
                Ok(Expr::Number(n, pos))
            }
            Tok::Str(s) => {
                self.advance();
                Ok(Expr::Str(s, pos))
            }
            Tok::Wildcard => {
                self.advance();
                Ok(Expr::Wildcard(pos))
            }
            Tok::LParen => {
                self.advance();
                let e = self.expr()?;
                self.expect(&Tok::RParen, "`)`")?;
                Ok(e)
            }
            Tok::At => {
                self.advance();
                let (name, _) = self.ident("a functor name")?;
                self.expect(&Tok::LParen, "`(`")?;
                Ok(Expr::Call(name, self.args(Tok::RParen)?, pos))
            }
            Tok::Ident(name) => {
                self.advance();
                if INTRINSICS.contains(&name.as_str()) && self.tok() == &Tok::LParen {
                    self.advance();
                    return Ok(Expr::Call(name, self.args(Tok::RParen)?, pos));
                }
                let kind = match name.as_str() {
                    "count" if self.tok() == &Tok::Colon => AggKind::Count,
                    "sum" if self.starts_expr() => AggKind::Sum,
                    "min" if self.starts_expr() => AggKind::Min,
                    "max" if self.starts_expr() => AggKind::Max,
                    _ => {
                        if self.tok() == &Tok::LParen {
                            return Err(Diagnostic::new(
                                pos,
                                format!(
                                    "`{name}(...)` cannot stand here: atoms are body literals (write `@{name}(...)` to call a functor)"
                                ),
                            ));
                        }
                        return Ok(Expr::Var(name, pos));
                    }
                };
                self.aggregate(kind, pos)
            }
            _ => self.unexpected("an expression"),
        }
    }

    /// Whether the current token can begin an expression (`sum X : ...` is an
    /// aggregate, `sum` followed by `,` is a variable).
    fn starts_expr(&self) -> bool {
        matches!(
            self.tok(),
            Tok::Ident(_) | Tok::Number(_) | Tok::Str(_) | Tok::LParen | Tok::Minus | Tok::At
        )
    }

    /// After the aggregate's keyword: `[target] : { body }` or `[target] : atom`.
    fn aggregate(&mut self, kind: AggKind, pos: Pos) -> PResult<Expr> {
        let target = if kind == AggKind::Count {
            None
        } else {
            Some(self.expr()?)
        };
        self.expect(&Tok::Colon, "`:` after the aggregate")?;
        let body = if self.eat(&Tok::LBrace) {
            let body = self.disjunction()?;
            self.expect(&Tok::RBrace, "`}`")?;
            body
        } else {
            vec![vec![Literal::Atom(self.atom()?)]]
        };
        Ok(Expr::Aggregate(Box::new(Aggregate {
            kind,
            target,
            body,
            pos,
        })))
    }
}

/// Parses one file; `file` is its index in the program's [`super::diag::Sources`].
pub fn parse_file(file: u32, text: &str) -> (Vec<Item>, Vec<Diagnostic>) {
    let (tokens, mut diags) = lex(file, text);
    let mut p = Parser {
        tokens,
        at: 0,
        depth: 0,
    };
    let mut items = Vec::new();
    while p.tok() != &Tok::Eof {
        match p.item() {
            Ok(item) => items.push(item),
            Err(d) => {
                diags.push(d);
                let before = p.at;
                p.recover();
                if p.at == before {
                    p.advance();
                }
            }
        }
    }
    (items, diags)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_ok(text: &str) -> Vec<Item> {
        let (items, diags) = parse_file(0, text);
        assert!(diags.is_empty(), "{diags:?}");
        items
    }

    fn first_error(text: &str) -> String {
        let (_, diags) = parse_file(0, text);
        let d = &diags[0];
        format!("{}:{}: {}", d.pos.line, d.pos.col, d.message)
    }

    #[test]
    fn declarations_and_io_options() {
        let items = parse_ok(
            ".decl edge(from: number, to: symbol)\n.input edge(IO=file, filename=\"e.facts\")\n.output a, b\n.functor f(x: number): symbol",
        );
        assert_eq!(items.len(), 4);
        let Item::Decl(d) = &items[0] else { panic!() };
        assert_eq!(d.columns[1], ("to".to_string(), Type::Symbol));
        let Item::Io {
            output: true,
            names,
        } = &items[2]
        else {
            panic!()
        };
        assert_eq!(names.len(), 2);
        let Item::Functor(f) = &items[3] else {
            panic!()
        };
        assert_eq!((f.args.len(), f.result), (1, Type::Symbol));
    }

    #[test]
    fn rule_with_every_literal_kind() {
        let items = parse_ok(
            "h(X, Y) :- b(X, Z), !n(Z), X < Y, Y = -X + 1 * 2, Z = @f(X, \"s\"), (a(X) ; c(X)), N = count : { b(X, _) }, M = max V : b(V, _), S = cat(X, Y).",
        );
        let Item::Rule(r) = &items[0] else { panic!() };
        let lits = &r.body[0];
        assert_eq!(lits.len(), 9);
        assert!(matches!(lits[1], Literal::Negated(_)));
        assert!(matches!(lits[2], Literal::Compare { op: CmpOp::Lt, .. }));
        let Literal::Compare { rhs, .. } = &lits[3] else {
            panic!()
        };
        // `-X + (1 * 2)`: multiplication binds tighter.
        let Expr::Binary(ArithOp::Add, l, r, _) = rhs else {
            panic!("{rhs:?}")
        };
        assert!(matches!(**l, Expr::Neg(..)));
        assert!(matches!(**r, Expr::Binary(ArithOp::Mul, ..)));
        assert!(matches!(&lits[5], Literal::Group(g) if g.len() == 2));
        let Literal::Compare { rhs, .. } = &lits[6] else {
            panic!()
        };
        assert!(matches!(rhs, Expr::Aggregate(a) if a.kind == AggKind::Count));
        let Literal::Compare { rhs, .. } = &lits[8] else {
            panic!()
        };
        assert!(matches!(rhs, Expr::Call(n, a, _) if n == "cat" && a.len() == 2));
    }

    #[test]
    fn parenthesized_comparison_and_disjunction() {
        let items = parse_ok("h(X) :- b(X), (X + 1) * 2 > 3 ; c(X).");
        let Item::Rule(r) = &items[0] else { panic!() };
        assert_eq!(r.body.len(), 2);
        assert!(matches!(
            r.body[0][1],
            Literal::Compare { op: CmpOp::Gt, .. }
        ));
    }

    #[test]
    fn facts_multiple_heads_and_negative_numbers() {
        let items = parse_ok("e(1, -2). a(X), b(X) :- c(X).");
        let Item::Rule(f) = &items[0] else { panic!() };
        assert!(f.body[0].is_empty());
        assert!(matches!(f.heads[0].args[1], Expr::Number(-2, _)));
        let Item::Rule(r) = &items[1] else { panic!() };
        assert_eq!(r.heads.len(), 2);
    }

    #[test]
    fn syntax_errors_have_positions_and_recover() {
        assert_eq!(
            first_error("h(X) :- b(X)\nc(1)."),
            "2:1: expected `.` at the end of the clause, found `c`"
        );
        assert_eq!(
            first_error(".decl a(x: float)"),
            "1:12: unknown type `float` (the types are `number` and `symbol`)"
        );
        assert_eq!(
            first_error(".type T = number"),
            "1:1: directive `.type` is not supported"
        );
        let (items, diags) = parse_file(0, "h(X :- b(X).\ng(1).\nh(2) :- .\nk(3).");
        assert_eq!(diags.len(), 2);
        assert_eq!(items.len(), 2);
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_crash() {
        let deep = format!(
            "p(X) :- q(X), X = {}1{}.",
            "(".repeat(100_000),
            ")".repeat(100_000)
        );
        assert!(first_error(&deep).ends_with("nested too deeply"));
        let minus = format!("p({}1).", "-".repeat(100_000));
        assert!(first_error(&minus).ends_with("nested too deeply"));
    }
}
