//! Embeds every scenarios/*.json as a preset of the playground's gallery; links the
//! browser build with its relocations (for the splitter).
use std::{env, fs, path::PathBuf};

fn main() {
    let root = PathBuf::from(env::var("CARGO_MANIFEST_DIR").unwrap());
    let dir = root.join("scenarios");
    println!("cargo:rerun-if-changed=scenarios");
    let mut files: Vec<PathBuf> = fs::read_dir(&dir)
        .map(|rd| {
            rd.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "json"))
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    let mut out = String::from("/// (file stem, scenario JSON) of every preset, sorted by file name.\npub static PRESETS: &[(&str, &str)] = &[\n");
    for f in &files {
        println!("cargo:rerun-if-changed={}", f.display());
        let stem = f.file_stem().unwrap().to_string_lossy();
        out.push_str(&format!(
            "    ({:?}, include_str!({:?})),\n",
            stem,
            f.display().to_string()
        ));
    }
    out.push_str("];\n");
    fs::write(
        PathBuf::from(env::var("OUT_DIR").unwrap()).join("presets.rs"),
        out,
    )
    .unwrap();
    // The browser build is split into a start-up module and chunks loaded when needed
    // (scripts/build-app.sh, wasm_split_cli_support): the splitter reads the linker's
    // relocations to move code and data between modules.
    if env::var("TARGET").is_ok_and(|t| t == "wasm32-unknown-unknown") {
        println!("cargo:rustc-link-arg-bins=--emit-relocs");
    }
}
