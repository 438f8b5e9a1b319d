//! Embeds the JavaScript package (`../js/src/*.js`) in `slidedb`, for the
//! static site `slidedb page` writes: generates `package.rs` in OUT_DIR, a
//! list of (file name, contents) read with `include_str!`, so that a file
//! added to the package ships without a change here.

use std::env;
use std::fs;
use std::path::PathBuf;

fn main() {
    let dir =
        PathBuf::from(env::var("CARGO_MANIFEST_DIR").expect("cargo sets it")).join("../js/src");
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut files: Vec<PathBuf> = fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("the JavaScript package, {}: {e}", dir.display()))
        .map(|entry| entry.expect("a folder entry").path())
        .filter(|path| path.extension().is_some_and(|e| e == "js"))
        .collect();
    files.sort();
    let mut out = String::from(
        "/// The package's modules: (file name, source).\npub const PACKAGE: &[(&str, &str)] = &[\n",
    );
    for path in &files {
        println!("cargo:rerun-if-changed={}", path.display());
        let name = path.file_name().expect("a file").to_string_lossy();
        let full = fs::canonicalize(path).expect("the file exists");
        out.push_str(&format!(
            "    ({name:?}, include_str!({:?})),\n",
            full.display().to_string()
        ));
    }
    out.push_str("];\n");
    let target = PathBuf::from(env::var("OUT_DIR").expect("cargo sets it")).join("package.rs");
    fs::write(target, out).expect("OUT_DIR is writable");
}
