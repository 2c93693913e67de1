//! Embeds every file under `configs/` into the binary, so `--config @examples/NAME` works
//! from an installed binary with no source tree around it; writes the code highlighter's
//! tables (`build/highlight.rs`): a subset of syntect's syntaxes and one theme; and packs
//! the text assets the binary embeds with zlib.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::{env, fs};

#[path = "build/highlight.rs"]
mod highlight;

/// Text assets embedded zlib-compressed (issue 17's footprint), each written to OUT_DIR as
/// `<file name>.zlib` and inflated where it is used: the price table (96 KB of JSON, 8 KB
/// packed) and the custom tools' Python worker (34 KB, 10 KB packed).
const PACKED_ASSETS: [&str; 4] = [
    "assets/pricing.json",
    "assets/python/massgen_tool_worker.py",
    "assets/python/massgen_tool_inspect.py",
    "assets/python/massgen_tool_schema.py",
];

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let out_dir = PathBuf::from(env::var("OUT_DIR")?);
    let manifest_dir = PathBuf::from(env::var("CARGO_MANIFEST_DIR")?);
    highlight::write_tables(&out_dir)?;
    for asset in PACKED_ASSETS {
        println!("cargo:rerun-if-changed={asset}");
        let text = fs::read(manifest_dir.join(asset))?;
        let packed = miniz_oxide::deflate::compress_to_vec_zlib(&text, 10);
        let name = Path::new(asset).file_name().ok_or(asset)?.to_string_lossy();
        fs::write(out_dir.join(format!("{name}.zlib")), packed)?;
    }
    // Release binaries link position-dependent (issue 17's footprint): no dynamic
    // relocations to store (0.5 MB) or apply at every start. Debug and test builds link as
    // before.
    if env::var("PROFILE").as_deref() == Ok("release")
        && env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("linux")
    {
        println!("cargo:rustc-link-arg-bins=-no-pie");
    }
    let root = manifest_dir.join("configs");
    println!("cargo:rerun-if-changed={}", root.display());
    let mut files = Vec::new();
    collect(&root, &mut files);
    files.sort();
    let mut out = String::from("/// `(path under configs/, contents)` of every shipped config.\n");
    out.push_str("pub static EMBEDDED_CONFIGS: &[(&str, &str)] = &[\n");
    for file in &files {
        println!("cargo:rerun-if-changed={}", file.display());
        let relative = file
            .strip_prefix(&root)
            .unwrap_or(file)
            .to_string_lossy()
            .replace('\\', "/");
        let _ = writeln!(
            out,
            "    ({relative:?}, include_str!({:?})),",
            file.display().to_string()
        );
    }
    out.push_str("];\n");
    let target = PathBuf::from(env::var("OUT_DIR").unwrap_or_default()).join("embedded_configs.rs");
    if let Err(error) = fs::write(&target, out) {
        println!(
            "cargo:warning=could not write {}: {error}",
            target.display()
        );
    }
    Ok(())
}

fn collect(dir: &Path, files: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            println!("cargo:rerun-if-changed={}", path.display());
            collect(&path, files);
        } else if matches!(
            path.extension().and_then(|ext| ext.to_str()),
            Some("yaml" | "yml" | "json")
        ) {
            files.push(path);
        }
    }
}
