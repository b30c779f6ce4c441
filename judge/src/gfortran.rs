//! gfortran as the reference the interpreter is validated against: compile
//! a source, run it on an input, and compare printed numbers.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The compiler to use: `$GFORTRAN`, else `gfortran` on the PATH; an error
/// saying how to install it when there is none (tests must fail, not skip).
pub fn compiler() -> Result<String, String> {
    let name = std::env::var("GFORTRAN").unwrap_or_else(|_| "gfortran".into());
    match Command::new(&name).arg("--version").output() {
        Ok(o) if o.status.success() => Ok(name),
        _ => Err(format!(
            "gfortran not found (tried {name:?}): install it (apt-get install gfortran) or set GFORTRAN"
        )),
    }
}

/// Compiles `source` (form chosen by the extension of `file_name`) in `dir`
/// with run-time bounds checking; returns the executable.
pub fn compile(dir: &Path, file_name: &str, source: &str) -> Result<PathBuf, String> {
    compile_with(dir, file_name, source, &[])
}

/// [`compile`] with more options (`-fopenmp`).
pub fn compile_with(
    dir: &Path,
    file_name: &str,
    source: &str,
    options: &[&str],
) -> Result<PathBuf, String> {
    let gfortran = compiler()?;
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let src = dir.join(file_name);
    std::fs::write(&src, source).map_err(|e| format!("{}: {e}", src.display()))?;
    let exe = dir.join(format!("{file_name}.exe"));
    let out = Command::new(gfortran)
        .arg("-fcheck=bounds")
        .args(options)
        .arg("-o")
        .arg(&exe)
        .arg(&src)
        .output()
        .map_err(|e| format!("gfortran: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "gfortran failed on {}:\n{}",
            src.display(),
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    Ok(exe)
}

/// Runs gfortran with `args` in `dir`, as a program of several files is
/// built (each compiled, then linked: `-c driver.f`, `-o prog a.o b.o`);
/// its messages are the error when it fails.
pub fn run_in<I, S>(dir: &Path, args: I) -> Result<(), String>
where
    I: IntoIterator<Item = S>,
    S: AsRef<std::ffi::OsStr>,
{
    let args: Vec<S> = args.into_iter().collect();
    let out = Command::new(compiler()?)
        .current_dir(dir)
        .args(&args)
        .output()
        .map_err(|e| format!("gfortran: {e}"))?;
    if out.status.success() {
        return Ok(());
    }
    let shown: Vec<String> = args
        .iter()
        .map(|a| a.as_ref().to_string_lossy().into_owned())
        .collect();
    Err(format!(
        "gfortran {} in {} failed:\n{}",
        shown.join(" "),
        dir.display(),
        String::from_utf8_lossy(&out.stderr)
    ))
}

/// Runs an executable with the values on standard input, one per line.
pub fn run(exe: &Path, input: &[String]) -> Result<String, String> {
    let mut child = Command::new(exe)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("{}: {e}", exe.display()))?;
    if let Some(mut stdin) = child.stdin.take() {
        let mut text = input.join("\n");
        text.push('\n');
        // A program that reads nothing may exit before taking its input.
        if let Err(e) = stdin.write_all(text.as_bytes()) {
            if e.kind() != std::io::ErrorKind::BrokenPipe {
                return Err(format!("stdin: {e}"));
            }
        }
    }
    let out = child
        .wait_with_output()
        .map_err(|e| format!("{}: {e}", exe.display()))?;
    if !out.status.success() {
        return Err(format!(
            "{} failed: {}",
            exe.display(),
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// Compares two printed outputs token by token: numbers within a relative
/// tolerance (absolute 1e-6 near zero), anything else exactly.
pub fn compare_outputs(expected: &str, got: &str, rel_tol: f64) -> Result<(), String> {
    let (e, g): (Vec<&str>, Vec<&str>) = (
        expected.split_whitespace().collect(),
        got.split_whitespace().collect(),
    );
    if e.len() != g.len() {
        return Err(format!(
            "{} tokens expected, {} printed\nexpected: {expected}\ngot:      {got}",
            e.len(),
            g.len()
        ));
    }
    for (k, (a, b)) in e.iter().zip(&g).enumerate() {
        let same = match (a.parse::<f64>(), b.parse::<f64>()) {
            (Ok(x), Ok(y)) => (x - y).abs() <= (rel_tol * x.abs().max(y.abs())).max(1e-6),
            _ => a == b,
        };
        if !same {
            return Err(format!(
                "token {k}: expected {a}, got {b}\nexpected: {expected}\ngot:      {got}"
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::compare_outputs;

    #[test]
    fn outputs_compare_as_numbers_with_tolerance() {
        assert!(compare_outputs(" 1.00000000  2", "1.0 2", 1e-4).is_ok());
        assert!(compare_outputs("100.0001", "100.0", 1e-4).is_ok());
        assert!(compare_outputs("100.1", "100.0", 1e-4).is_err());
        assert!(compare_outputs("1 2", "1", 1e-4).is_err());
        assert!(compare_outputs("T", "F", 1e-4).is_err());
        assert!(compare_outputs("-1.00000000E+30", "-1.00000000E30", 1e-4).is_ok());
    }
}
