//! Reading a ruleset from disk and compiling it: the folder loader that serves its
//! imports (never reading outside the ruleset's folder) and the shared compile step.

use std::path::{Path, PathBuf};

use fuda_core::loader::Loader;
use fuda_core::{Compiled, Failed, Program};
use miette::miette;

use crate::render::{self, Stream};

/// Serves `import`/`extends` paths from below one folder.
pub struct FolderLoader {
    /// The canonical folder; everything read must resolve inside it.
    root: PathBuf,
}

impl FolderLoader {
    /// A loader rooted at `folder` (which must exist).
    pub fn new(folder: &Path) -> std::io::Result<FolderLoader> {
        Ok(FolderLoader {
            root: folder.canonicalize()?,
        })
    }
}

impl Loader for FolderLoader {
    fn load(&self, path: &str) -> Result<String, String> {
        // The core has already refused absolute paths and `..`; this check is about
        // symbolic links, which could still point anywhere.
        let candidate = self.root.join(path);
        let real = candidate.canonicalize().map_err(|e| io_reason(&e))?;
        if !real.starts_with(&self.root) {
            return Err(format!(
                "it resolves to {}, outside the ruleset's folder {}",
                real.display(),
                self.root.display()
            ));
        }
        if !real.is_file() {
            return Err("it is not a file".into());
        }
        std::fs::read_to_string(&real).map_err(|e| io_reason(&e))
    }
}

/// An I/O error as a short lower-case reason, without the OS error number.
pub fn io_reason(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "no such file".into(),
        std::io::ErrorKind::PermissionDenied => "permission denied".into(),
        std::io::ErrorKind::InvalidData => "it is not UTF-8 text".into(),
        _ => {
            let s = e.to_string();
            s.split(" (os error").next().unwrap_or(&s).to_string()
        }
    }
}

/// Reads and compiles a ruleset file. `Err` is a user error (unreadable file);
/// `Ok(Err(_))` is a ruleset with problems, for the caller to render.
pub fn compile_file(path: &Path) -> miette::Result<Result<Compiled, Failed>> {
    let text = std::fs::read_to_string(path).map_err(|e| {
        miette!(
            code = "fuda::cli::read",
            help = "give the path of a .fuda file",
            "cannot read `{}`: {}",
            path.display(),
            io_reason(&e)
        )
    })?;
    let folder = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let loader = FolderLoader::new(&folder).map_err(|e| {
        miette!(
            "cannot open the folder `{}`: {}",
            folder.display(),
            io_reason(&e)
        )
    })?;
    Ok(fuda_core::compile(
        &path.display().to_string(),
        &text,
        &loader,
    ))
}

/// Renders every diagnostic of a failed compile to stderr and returns the counts
/// (errors, warnings).
pub fn report_failure(failed: &Failed) -> (usize, usize) {
    let mut errors = 0;
    let mut warnings = 0;
    for d in &failed.diagnostics {
        match d.severity {
            fuda_core::diagnostic::Severity::Error => errors += 1,
            fuda_core::diagnostic::Severity::Warning => warnings += 1,
        }
        render::err(&render::program_diagnostic(d, &failed.sources, Stream::Err));
    }
    (errors, warnings)
}

/// Compiles a file for the commands that need a program (score, simulate, play):
/// warnings are shown, and a ruleset with errors is reported and refused.
pub fn program(path: &Path) -> miette::Result<Program> {
    match compile_file(path)? {
        Ok(c) => {
            for w in &c.warnings {
                render::err(&render::program_diagnostic(
                    w,
                    &c.program.sources,
                    Stream::Err,
                ));
            }
            Ok(c.program)
        }
        Err(failed) => {
            let (errors, _) = report_failure(&failed);
            Err(miette!(
                code = "fuda::cli::does-not-compile",
                help = format!(
                    "run `fuda check {}` and fix what it reports",
                    path.display()
                ),
                "`{}` does not compile ({})",
                path.display(),
                plural(errors, "error")
            ))
        }
    }
}

/// "1 error", "3 errors".
pub fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("{n} {word}")
    } else {
        format!("{n} {word}s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_symlinks_out_of_the_folder() {
        let outside = tempfile::tempdir().expect("temp dir");
        let secret = outside.path().join("secret.fuda");
        std::fs::write(&secret, "ruleset \"x\"").expect("write");
        let root = tempfile::tempdir().expect("temp dir");
        std::fs::write(root.path().join("ok.fuda"), "ruleset \"ok\"").expect("write");
        #[cfg(unix)]
        std::os::unix::fs::symlink(&secret, root.path().join("link.fuda")).expect("symlink");
        let l = FolderLoader::new(root.path()).expect("loader");
        assert_eq!(l.load("ok.fuda").as_deref(), Ok("ruleset \"ok\""));
        #[cfg(unix)]
        assert!(l.load("link.fuda").unwrap_err().contains("outside"));
        assert!(l.load("missing.fuda").unwrap_err().contains("no such file"));
    }
}
