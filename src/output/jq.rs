//! `--jq FILTER`: the JSON a command prints, filtered in the process as `jq -rc FILTER`
//! filters it, by the jaq crates (jaq-core, jaq-std, jaq-json; `@csv` and `@tsv` from
//! jaq-fmts), so that a pipeline needs no jq program.
//!
//! - The filter is compiled once, before any input is read ([`Jq::compile`]); what does
//!   not compile is an error worded as jq words its own, with where in the filter.
//! - An input is one row (`--format ndjson`, each filtered as it comes), the whole array of
//!   rows (`json`, held until the run ends, as `jq -s` holds them) or the whole log
//!   (`sarif`).
//! - Each output is one line, as `jq -rc` writes it: a string raw, anything else compact
//!   JSON, object keys in their order, numbers as jq prints them ([`write_json`]).
//! - An error on an input is said on stderr (`rollscope: --jq: error (at row N): …`, as
//!   jq's `jq: error (at <stdin>:N): …`), and the next input is filtered: the run ends
//!   with exit 2 ([`super::diag::errored`]). `halt` ends the run as a closed pipe does.
//! - jq's `$ENV` is the environment; `debug` and `stderr` write to stderr as jq does;
//!   `leaf_paths`, `IN` and `INDEX`, which jaq's library lacks, are jq's own definitions.
//!   Where jaq and jq still differ: docs/recipes.md, "`--jq` and jq".

use std::io::{self, Write};
use std::sync::{Arc, Once};

use jaq_core::load::{self, Arena, File, Loader};
use jaq_core::native::{bome, run, v, Fun};
use jaq_core::{data::JustLut, Compiler, Ctx, Cv, Exn, RunPtr, ValXs, Vars};
use jaq_fmts::write::tabular::Row as TableRow;
use jaq_json::{Num, Val};
use serde::Serialize;

use super::diag::Diag;
use super::ColorWhen;

/// What the filter runs on: values, and nothing but the program as global data (no
/// `input`, `inputs`: each input is filtered alone).
type Data = JustLut<Val>;

/// A compiled `--jq` filter; clones share it.
#[derive(Clone)]
pub struct Jq(Arc<Program>);

struct Program {
    filter: jaq_core::Filter<Data>,
    /// `$ENV`: the environment as the filter was compiled.
    env: Val,
}

impl std::fmt::Debug for Jq {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Jq")
    }
}

impl Jq {
    /// Parse and compile `code` with jq's standard library (jaq's). The error reads as
    /// jq's: `error: syntax error, unexpected …, expected … at line 1, column 5`,
    /// `error: foo/0 is not defined at line 1, column 1`.
    pub fn compile(code: &str) -> Result<Jq, String> {
        let arena = Arena::default();
        let defs = jaq_core::defs()
            .chain(jaq_std::defs())
            .chain(jaq_json::defs())
            .chain(load::parse(JQ_DEFS, |p| p.defs()).unwrap_or_default());
        let modules = Loader::new(defs)
            .load(&arena, File { code, path: () })
            .map_err(|errs| load_error(code, errs))?;
        // `import "data" as $x`: no file is read.
        load::import(&modules, |_| Err("files are not read by --jq".into()))
            .map_err(|errs| load_error(code, errs))?;
        let funs = jaq_core::funs()
            .chain(jaq_std::funs())
            .chain(jaq_json::funs())
            .chain(tabular());
        let filter = Compiler::default()
            .with_funs(funs)
            .with_global_vars(["$ENV"])
            .compile(modules)
            .map_err(|errs| compile_error(code, errs))?;
        stderr_log::install();
        Ok(Jq(Arc::new(Program {
            filter,
            env: environment(),
        })))
    }
}

/// Filters of jq's library that jaq's lacks and that recipes reach for, defined as jq
/// defines them (its `builtin.jq`).
const JQ_DEFS: &str = "
def leaf_paths: paths(scalars);
def IN(s): any(s == .; .);
def IN(src; s): any(src == s; .);
def INDEX(stream; idx_expr): reduce stream as $row ({}; .[$row | idx_expr | tostring] |= $row);
def INDEX(idx_expr): INDEX(.[]; idx_expr);
";

/// `@csv` and `@tsv`: an array of scalars as one line of a table, as jaq writes it.
fn tabular() -> impl Iterator<Item = Fun<Data>> {
    type TableWrite = fn(&TableRow, &mut dyn Write) -> io::Result<()>;
    fn row<'a>(cv: Cv<'a, Data>, what: &str, write: TableWrite) -> ValXs<'a, Val> {
        let r = TableRow::try_from(&cv.1)
            .map_err(|e| format!("cannot serialise {} as {what}: {e}", cv.1))
            .and_then(|row| {
                let mut buf = Vec::new();
                write(&row, &mut buf).map_err(|e| e.to_string())?;
                Ok(Val::utf8_str(buf))
            });
        bome(r.map_err(jaq_core::Error::str))
    }
    let funs: Box<[jaq_core::native::Filter<RunPtr<Data>>]> = Box::new([
        ("@csv", v(0), |cv| row(cv, "CSV", TableRow::write_csv)),
        ("@tsv", v(0), |cv| row(cv, "TSV", TableRow::write_tsv)),
    ]);
    funs.into_vec().into_iter().map(run::<Data>)
}

/// `$ENV`: every environment variable (a name or value that is not UTF-8, as lossy text).
fn environment() -> Val {
    let vars = std::env::vars_os().map(|(k, v)| {
        let text = |s: std::ffi::OsString| Val::from(s.to_string_lossy().into_owned());
        (text(k), text(v))
    });
    Val::obj(vars.collect())
}

// ---------------------------------------------------------------------------------------
// Errors of the filter's text

/// Where `part`, a slice of `code`, begins in it: `line L, column C` (1-based, columns in
/// characters); `None` when it is not a slice of `code` (an error about jq's own library).
fn place(code: &str, part: &str) -> Option<String> {
    let start = (part.as_ptr() as usize).checked_sub(code.as_ptr() as usize)?;
    let before = code.get(..start)?;
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().unwrap_or("").chars().count() + 1;
    Some(format!("line {line}, column {column}"))
}

/// ` at line L, column C`, or nothing.
fn at(code: &str, part: &str) -> String {
    place(code, part).map_or_else(String::new, |p| format!(" at {p}"))
}

/// `token `)``, `end of input`: what was found where something else was expected.
fn found(token: &str) -> String {
    match token.chars().next() {
        None => "end of input".into(),
        Some(c) if token.len() == c.len_utf8() => format!("`{c}`"),
        Some(_) => format!("`{token}`"),
    }
}

/// The first error of those jaq found loading the filter (and how many more).
fn load_error(code: &str, errs: load::Errors<&str, ()>) -> String {
    let mut messages = Vec::new();
    for (_, e) in errs {
        match e {
            // Modules and data files: jaq's loader was given no way to read one.
            load::Error::Io(es) => messages.extend(es.into_iter().map(|(path, _)| {
                format!(
                    "error: cannot import \"{path}\"{}: --jq reads no module or data file",
                    at(code, path)
                )
            })),
            load::Error::Lex(es) => messages.extend(es.into_iter().map(|(expect, token)| {
                // jaq names what it expected by the token it found, cut to its first
                // character.
                let first = token.get(..token.chars().next().map_or(0, char::len_utf8));
                let token = first.unwrap_or(token);
                let found = match token {
                    "" => "end of input".to_string(),
                    t => format!("character {}", found(t)),
                };
                let what: String = match expect {
                    load::lex::Expect::Delim(open) => {
                        return format!(
                            "error: syntax error, unclosed `{open}`{} (unexpected {found}{})",
                            at(code, open),
                            at(code, token)
                        );
                    }
                    load::lex::Expect::Digit => "a digit".into(),
                    load::lex::Expect::Ident => "an identifier".into(),
                    load::lex::Expect::Escape => "a string escape (\\n, \\\", \\u…)".into(),
                    load::lex::Expect::Unicode => "4 hexadecimal digits (\\uXXXX)".into(),
                    // A token that begins nothing: what was found says it all.
                    _ => {
                        return format!(
                            "error: syntax error, unexpected {found}{}",
                            at(code, token)
                        )
                    }
                };
                format!(
                    "error: syntax error, unexpected {found}, expected {what}{}",
                    at(code, token)
                )
            })),
            load::Error::Parse(es) => messages.extend(es.into_iter().map(|(expect, token)| {
                let what = match expect {
                    load::parse::Expect::Just(s) => format!("`{s}`"),
                    e => e.as_str().to_string(),
                };
                format!(
                    "error: syntax error, unexpected {}, expected {what}{}",
                    found(token),
                    at(code, token)
                )
            })),
        }
    }
    first_of(messages)
}

/// The first error of those jaq found compiling the filter (and how many more).
fn compile_error(code: &str, errs: jaq_core::compile::Errors<&str, ()>) -> String {
    use jaq_core::compile::Undefined;
    let mut messages = Vec::new();
    for (_, es) in errs {
        for (name, undefined) in es {
            let what = match undefined {
                Undefined::Filter(arity) => match name {
                    "reduce" => format!("reduce takes 2 arguments, not {arity}"),
                    "foreach" => format!("foreach takes 2 or 3 arguments, not {arity}"),
                    _ => format!("{name}/{arity} is not defined"),
                },
                Undefined::Var => format!("{name} is not defined"),
                Undefined::Label => format!("label {name} is not defined"),
                Undefined::Mod => format!("module {name} is not defined"),
                _ => format!("{name} is not defined"),
            };
            // jq reads the inputs after the current one; `--jq` filters each alone.
            let hint = match name {
                "input" | "inputs" => {
                    " (each input is filtered alone: --format json hands the filter every \
                     row as one array)"
                }
                _ => "",
            };
            messages.push(format!("error: {what}{}{hint}", at(code, name)));
        }
    }
    first_of(messages)
}

/// The first message, saying how many more there are (jq: `jq: 2 compile errors`).
fn first_of(messages: Vec<String>) -> String {
    let n = messages.len();
    let mut all = messages.into_iter();
    match (all.next(), n) {
        (None, _) => "error: the filter does not compile".into(),
        (Some(m), 1) => m,
        (Some(m), 2) => format!("{m} (and 1 more error)"),
        (Some(m), n) => format!("{m} (and {} more errors)", n - 1),
    }
}

// ---------------------------------------------------------------------------------------
// Running it

/// Inputs through a filter, each output written to `w` as `jq -rc` writes it.
pub struct Filtered<W: Write> {
    jq: Jq,
    w: W,
    /// Inputs filtered so far: an error names its input by this count.
    inputs: u64,
    /// The inputs are rows (an error says `at row N`), or there is one input.
    rows: bool,
    color: ColorWhen,
    /// One output, written whole or not at all.
    buf: Vec<u8>,
}

impl<W: Write> Filtered<W> {
    /// `rows`: each input is one row of many (errors say which); else the one input.
    pub fn new(jq: Jq, w: W, rows: bool, color: ColorWhen) -> Filtered<W> {
        Filtered {
            jq,
            w,
            inputs: 0,
            rows,
            color,
            buf: Vec::new(),
        }
    }

    /// Filter one input, given as anything serde writes as JSON.
    pub fn input<T: Serialize + ?Sized>(&mut self, obj: &T) -> io::Result<()> {
        let value = to_val(obj)?;
        self.run(value)
    }

    /// Filter one input: every output written, until the filter fails on it (said on
    /// stderr, and the run goes on) or halts (an error that ends the run as a closed pipe
    /// does; exit 2 for a code other than 0).
    pub fn run(&mut self, input: Val) -> io::Result<()> {
        self.inputs += 1;
        let program = Arc::clone(&self.jq.0);
        let ctx = Ctx::<Data>::new(&program.filter.lut, Vars::new([program.env.clone()]));
        for out in program.filter.id.run((ctx, input)) {
            let value = match out {
                Ok(v) => v,
                Err(e) => return self.exception(e),
            };
            self.buf.clear();
            match &value {
                Val::TStr(s) | Val::BStr(s) => self.buf.extend_from_slice(s),
                v => {
                    if let Err(e) = write_json(&mut self.buf, v) {
                        self.error(&e);
                        return Ok(());
                    }
                }
            }
            self.buf.push(b'\n');
            self.w.write_all(&self.buf)?;
        }
        Ok(())
    }

    /// An exception that ends the filter on this input: an error, said; a halt.
    fn exception(&mut self, e: Exn<'_, Val>) -> io::Result<()> {
        let e = match e.get_err() {
            Ok(error) => error,
            Err(e) => {
                let code = e.get_halt().unwrap_or(5);
                if code != 0 {
                    Diag::new(false, self.color)
                        .error("--jq", &format!("the filter halted with exit code {code}"));
                }
                return Err(io::Error::new(io::ErrorKind::BrokenPipe, "--jq: halt"));
            }
        };
        // As jq says it: a string as it is, another value as JSON, said not to be one.
        let message = match e.into_val() {
            Val::TStr(s) => String::from_utf8_lossy(&s).into_owned(),
            v => {
                let mut json = Vec::new();
                match write_json(&mut json, &v) {
                    Ok(()) => format!("(not a string): {}", String::from_utf8_lossy(&json)),
                    Err(_) => format!("(not a string): {v}"),
                }
            }
        };
        self.error(&message);
        Ok(())
    }

    /// Say an error on the current input (`rollscope: --jq: error (at row 3): …`).
    fn error(&self, message: &str) {
        let at = if self.rows {
            format!(" (at row {})", self.inputs)
        } else {
            String::new()
        };
        Diag::new(false, self.color).error("--jq", &format!("error{at}: {message}"));
    }

    /// Flush what is buffered.
    pub fn flush(&mut self) -> io::Result<()> {
        self.w.flush()
    }
}

/// What serde writes for `obj`, as a value for the filter.
pub fn to_val<T: Serialize + ?Sized>(obj: &T) -> io::Result<Val> {
    let bytes = serde_json::to_vec(obj)?;
    jaq_json::read::parse_single(&bytes)
        .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e.to_string()))
}

/// `v` as compact JSON, as `jq -c` writes it: no spaces, keys in their order, strings
/// escaped as jq escapes them (`"`, `\`, the controls and DEL; all else as UTF-8), numbers
/// as [`write_num`]. An error for what JSON cannot hold: an object key that is not a string.
pub fn write_json(w: &mut Vec<u8>, v: &Val) -> Result<(), String> {
    match v {
        Val::Null => w.extend_from_slice(b"null"),
        Val::Bool(true) => w.extend_from_slice(b"true"),
        Val::Bool(false) => w.extend_from_slice(b"false"),
        Val::Num(n) => write_num(w, n),
        Val::TStr(s) | Val::BStr(s) => write_str(w, s),
        Val::Arr(a) => {
            w.push(b'[');
            for (i, x) in a.iter().enumerate() {
                if i > 0 {
                    w.push(b',');
                }
                write_json(w, x)?;
            }
            w.push(b']');
        }
        Val::Obj(o) => {
            w.push(b'{');
            for (i, (k, x)) in o.iter().enumerate() {
                if i > 0 {
                    w.push(b',');
                }
                let (Val::TStr(k) | Val::BStr(k)) = k else {
                    return Err(format!("object keys must be strings, not {k}"));
                };
                write_str(w, k);
                w.push(b':');
                write_json(w, x)?;
            }
            w.push(b'}');
        }
    }
    Ok(())
}

/// A JSON string as jq writes it (bytes that are not UTF-8 as U+FFFD).
fn write_str(w: &mut Vec<u8>, s: &[u8]) {
    w.push(b'"');
    for c in String::from_utf8_lossy(s).chars() {
        match c {
            '"' => w.extend_from_slice(b"\\\""),
            '\\' => w.extend_from_slice(b"\\\\"),
            '\n' => w.extend_from_slice(b"\\n"),
            '\t' => w.extend_from_slice(b"\\t"),
            '\r' => w.extend_from_slice(b"\\r"),
            '\u{8}' => w.extend_from_slice(b"\\b"),
            '\u{c}' => w.extend_from_slice(b"\\f"),
            c if c < ' ' || c == '\u{7f}' => {
                w.extend_from_slice(format!("\\u{:04x}", u32::from(c)).as_bytes());
            }
            c => {
                let mut b = [0; 4];
                w.extend_from_slice(c.encode_utf8(&mut b).as_bytes());
            }
        }
    }
    w.push(b'"');
}

/// A number as jq prints it: an integer whole (as jq 1.7 prints one it read); any other
/// number as jq prints a double ([`write_f64`]).
fn write_num(w: &mut Vec<u8>, n: &Num) {
    match n {
        Num::Int(_) | Num::BigInt(_) => w.extend_from_slice(n.to_string().as_bytes()),
        Num::Float(x) => write_f64(w, *x),
        Num::Dec(s) => write_f64(w, s.parse().unwrap_or(f64::NAN)),
    }
}

/// A double as jq prints it (its `jvp_dtoa_fmt`): the shortest digits that read back to
/// it; in exponent form (`1e-05`, `1.5e+300`) when its decimal point is 4 or more places
/// before them or more than 15 past the last; a whole number without a point; NaN as
/// `null`, and the infinities as the largest finite doubles.
pub fn write_f64(w: &mut Vec<u8>, x: f64) {
    if x.is_nan() {
        w.extend_from_slice(b"null");
        return;
    }
    let x = x.clamp(-f64::MAX, f64::MAX);
    // Rust writes the shortest digits that read back, as dtoa's mode 0: `d.ddde[-]N`.
    let sci = format!("{:e}", x.abs());
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let exp: i64 = exp.parse().unwrap_or(0);
    // Where the decimal point is, counted from the first digit.
    let point = exp + 1;
    let n = digits.len() as i64;
    let mut s = String::with_capacity(digits.len() + 8);
    if x.is_sign_negative() {
        s.push('-');
    }
    if point <= -4 || point > n + 15 {
        let mut chars = digits.chars();
        s.extend(chars.next());
        let rest = chars.as_str();
        if !rest.is_empty() {
            s.push('.');
            s.push_str(rest);
        }
        let e = point - 1;
        s.push_str(&format!("e{}{:02}", if e < 0 { '-' } else { '+' }, e.abs()));
    } else if point <= 0 {
        s.push_str("0.");
        s.extend(std::iter::repeat_n('0', point.unsigned_abs() as usize));
        s.push_str(&digits);
    } else if point >= n {
        s.push_str(&digits);
        s.extend(std::iter::repeat_n('0', (point - n) as usize));
    } else {
        let (whole, fraction) = digits.split_at(point as usize);
        s.push_str(whole);
        s.push('.');
        s.push_str(fraction);
    }
    w.extend_from_slice(s.as_bytes());
}

/// Where `debug`, `stderr` and `halt_error` write: jaq's standard library logs them (its
/// `log` records, and no others: a dependency's own records stay unwritten). `debug` as
/// jq writes it (`["DEBUG:",…]`, a line), `stderr` and `halt_error` their text as it is.
mod stderr_log {
    use std::io::Write;

    struct Log;

    static LOG: Log = Log;

    impl log::Log for Log {
        fn enabled(&self, meta: &log::Metadata<'_>) -> bool {
            meta.target().starts_with("jaq_std")
        }

        fn log(&self, record: &log::Record<'_>) {
            if !self.enabled(record.metadata()) {
                return;
            }
            let text = match record.level() {
                log::Level::Error => record.args().to_string(),
                _ => format!("[\"DEBUG:\",{}]\n", record.args()),
            };
            crate::output::progress::suspend(|| {
                // stderr failing is not worth dying for.
                let _ = std::io::stderr().lock().write_all(text.as_bytes());
            });
        }

        fn flush(&self) {}
    }

    /// Install it, once (no other logger is ever installed).
    pub fn install() {
        static ONCE: super::Once = super::Once::new();
        ONCE.call_once(|| {
            if log::set_logger(&LOG).is_ok() {
                log::set_max_level(log::LevelFilter::Debug);
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What `jq -rc` prints for `filter` on `input`, as `--jq` prints it.
    fn jq(filter: &str, input: &str) -> String {
        let jq = Jq::compile(filter).unwrap();
        let mut f = Filtered::new(jq, Vec::new(), true, ColorWhen::Never);
        let v = jaq_json::read::parse_single(input.as_bytes()).unwrap();
        f.run(v).unwrap();
        String::from_utf8(f.w).unwrap()
    }

    fn double(x: f64) -> String {
        let mut w = Vec::new();
        write_f64(&mut w, x);
        String::from_utf8(w).unwrap()
    }

    #[test]
    fn doubles_print_as_jq_prints_them() {
        // What jq 1.6 (and 1.7, for a computed number) prints.
        for (x, jq) in [
            (0.0, "0"),
            (-0.0, "-0"),
            (3.0, "3"),
            (0.1, "0.1"),
            (1.0 / 3.0, "0.3333333333333333"),
            (0.0001, "0.0001"),
            (0.00001, "1e-05"),
            (1e-7, "1e-07"),
            (1e15, "1000000000000000"),
            (1e16, "1e+16"),
            (1e17, "1e+17"),
            (123456789012345678.0, "123456789012345680"),
            (1.5e300, "1.5e+300"),
            (-2.5, "-2.5"),
            (f64::INFINITY, "1.7976931348623157e+308"),
            (f64::NEG_INFINITY, "-1.7976931348623157e+308"),
            (f64::NAN, "null"),
        ] {
            assert_eq!(double(x), jq, "{x}");
        }
    }

    #[test]
    fn outputs_are_written_as_jq_rc_writes_them() {
        let row = r#"{"b":1,"a":"x\ny","n":null,"f":0.5,"big":12345678901234567890}"#;
        assert_eq!(jq(".", row), format!("{row}\n"));
        assert_eq!(jq(".a", row), "x\ny\n");
        assert_eq!(jq(".b, .n, [.f, 6 / 2]", row), "1\nnull\n[0.5,3]\n");
        assert_eq!(jq(".big", row), "12345678901234567890\n");
        assert_eq!(
            jq("keys_unsorted", row),
            "[\"b\",\"a\",\"n\",\"f\",\"big\"]\n"
        );
        assert_eq!(
            jq("[\"\\u0000\\u007f\\u001fé\"]", "null"),
            "[\"\\u0000\\u007f\\u001fé\"]\n"
        );
        assert_eq!(jq("[1, 2] | @tsv", "null"), "1\t2\n");
        assert_eq!(jq("[\"a,b\", 1] | @csv", "null"), "\"a,b\",1\n");
        assert_eq!(jq("$ENV | type", "null"), "object\n");
        // jq's own definitions, as jq 1.6 prints them.
        let rows = r#"[{"k":"a","v":[1]},{"k":"b","v":null}]"#;
        assert_eq!(
            jq("[leaf_paths]", rows),
            "[[0,\"k\"],[0,\"v\",0],[1,\"k\"]]\n"
        );
        assert_eq!(jq("[.[].k | IN(\"b\", \"c\")]", rows), "[false,true]\n");
        assert_eq!(jq("IN(.[].k; \"a\")", rows), "true\n");
        assert_eq!(
            jq("INDEX(.k) | map_values(.v)", rows),
            "{\"a\":[1],\"b\":null}\n"
        );
        assert_eq!(jq("empty", "null"), "");
    }

    #[test]
    fn a_failing_input_keeps_what_it_wrote_first() {
        assert_eq!(jq("1, error(\"x\"), 2", "null"), "1\n");
        // jq fails there too: `{(1): 2}` is no JSON.
        assert_eq!(jq("{(1): 2}, 3", "null"), "");
    }

    #[test]
    fn compile_errors_read_as_jq_says_them_with_where() {
        let e = |f: &str| Jq::compile(f).unwrap_err();
        assert_eq!(
            e(".a | map("),
            "error: syntax error, unclosed `(` at line 1, column 9 (unexpected end of input at line 1, column 10)"
        );
        assert_eq!(
            e(".a | @"),
            "error: syntax error, unexpected end of input, expected an identifier at line 1, column 7"
        );
        assert_eq!(
            e("\"\\q\""),
            "error: syntax error, unexpected character `q`, expected a string escape (\\n, \\\", \\u…) at line 1, column 3"
        );
        assert_eq!(
            e("reduce .[] as $x (0)"),
            "error: reduce takes 2 arguments, not 1 at line 1, column 1"
        );
        assert_eq!(
            e("if . then 1"),
            "error: syntax error, unexpected end of input, expected else or end at line 1, column 12"
        );
        assert_eq!(
            e(".a )"),
            "error: syntax error, unexpected character `)` at line 1, column 4"
        );
        assert_eq!(
            e(".[1."),
            "error: syntax error, unexpected end of input, expected a digit at line 1, column 5 (and 1 more error)"
        );
        assert_eq!(
            e(".a |"),
            "error: syntax error, unexpected end of input, expected term at line 1, column 5"
        );
        assert_eq!(
            e("foo(1)"),
            "error: foo/1 is not defined at line 1, column 1"
        );
        assert_eq!(e(".\n| $x"), "error: $x is not defined at line 2, column 3");
        assert!(e("inputs").contains("--format json"), "{}", e("inputs"));
        for import in [
            "import \"a\" as $a; .",
            "import \"a\" as a; .",
            "include \"a\"; .",
        ] {
            assert!(
                e(import).starts_with("error: cannot import \"a\" at line 1, column "),
                "{}",
                e(import)
            );
        }
    }
}
