//! `delaylab export code --lang java|spring|python|node|go|rust SCENARIO --out DIR
//! [--comments en|zh]`: the scenario as a runnable program (crates/export) written to
//! DIR, with `DIR/run.sh AMQP_URL [TIME_SCALE]`. What the program leaves out is listed
//! on standard error (and in the program's header).

use std::path::Path;
use std::process::ExitCode;

use delaylab_export::{export, CommentLang, Language, Options, LANGUAGES};

pub fn main(path: &str, lang: &str, out: &str, comments: &str) -> ExitCode {
    let Some(language) = Language::parse(lang) else {
        let names: Vec<&str> = LANGUAGES.iter().map(|(n, _)| *n).collect();
        eprintln!(
            "--lang {lang}: unknown language (one of {})",
            names.join(", ")
        );
        return ExitCode::from(2);
    };
    let comments = match comments {
        "en" => CommentLang::En,
        "zh" => CommentLang::Zh,
        other => {
            eprintln!("--comments {other}: unknown (en or zh)");
            return ExitCode::from(2);
        }
    };
    let scenario = match crate::run::load(path) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    let result = export(&scenario, &Options { language, comments });
    for l in &result.left_out {
        eprintln!("left out: {l}");
    }
    let dir = Path::new(out);
    for f in &result.files {
        let p = dir.join(&f.path);
        if let Err(e) = write(&p, &f.contents, f.executable) {
            eprintln!("{}: cannot write: {e}", p.display());
            return ExitCode::from(1);
        }
    }
    if language.is_run_here() {
        eprintln!(
            "wrote {} file(s) to {out}; run: {out}/run.sh AMQP_URL [TIME_SCALE]",
            result.files.len()
        );
    } else {
        eprintln!(
            "wrote {} file(s) to {out}; not run here (checked by golden files): see {out}/README.md",
            result.files.len()
        );
    }
    ExitCode::SUCCESS
}

fn write(p: &Path, text: &str, executable: bool) -> std::io::Result<()> {
    if let Some(parent) = p.parent() {
        std::fs::create_dir_all(parent)?;
    }
    std::fs::write(p, text)?;
    #[cfg(unix)]
    if executable {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(p, std::fs::Permissions::from_mode(0o755))?;
    }
    #[cfg(not(unix))]
    let _ = executable;
    Ok(())
}
