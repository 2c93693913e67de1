//! Fault points for kill tests: debug builds abort the process at the point named by
//! `MASSGEN_FAULT`, so a test can stop finalisation half-way; release builds ignore them.

/// Aborts the process if this is a debug build and `MASSGEN_FAULT` equals `name`.
pub fn point(name: &str) {
    #[cfg(debug_assertions)]
    if std::env::var_os("MASSGEN_FAULT").is_some_and(|wanted| wanted == name) {
        std::process::abort();
    }
    #[cfg(not(debug_assertions))]
    let _ = name;
}
