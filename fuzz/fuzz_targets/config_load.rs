//! Fuzzes the config loader (YAML, `${VAR}` expansion, schema): any text loads or fails
//! with an error located inside it.

#![no_main]

#[path = "../../tests/properties/checks.rs"]
#[allow(dead_code)]
mod checks;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        checks::check_config(text);
    }
});
